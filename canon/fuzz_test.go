package canon_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/linkrot/relink/canon"
)

// addSeeds gives a fuzz target every input of the table-driven tests.
func addSeeds(f *testing.F) {
	for _, tt := range canonicalizeTests {
		f.Add(tt.in)
	}
	for _, tt := range optionsTests {
		f.Add(tt.in)
	}
	for _, s := range []string{
		"", "a/b", "http://:80/", "http://[::1]:/", "http://x/? ", "http://x/?%%341",
		"http://www.www.example.com./a/..;jsessionid=1/.%2e/?&b&a=%7E&sid=1#f",
		"http://xn--bcher-kva.example/", "http://\u0130.example/", "http://a..b./",
	} {
		f.Add(s)
	}
}

// checkCanonical checks the properties every successful canonicalization
// must have: it re-parses as an absolute URI, canonicalizing it again
// changes nothing (the paper's rules, §3.1, and the options are
// idempotent), and it has no fragment and no trailing slash.
func checkCanonical(t *testing.T, o canon.Options, raw string) {
	got, err := o.Canonicalize(raw)
	if err != nil {
		var e *canon.Error
		if !errors.As(err, &e) || e.URI != raw {
			t.Fatalf("%+v.Canonicalize(%q) error %#v, want *canon.Error for the input", o, raw, err)
		}
		return
	}
	u, err := url.Parse(got)
	if err != nil {
		t.Fatalf("%+v.Canonicalize(%q) = %q, which does not parse: %v", o, raw, got, err)
	}
	if u.Scheme == "" || u.Host == "" {
		t.Fatalf("%+v.Canonicalize(%q) = %q, which is not absolute", o, raw, got)
	}
	if strings.Contains(got, "#") || (u.RawQuery == "" && !u.ForceQuery && strings.HasSuffix(got, "/")) {
		t.Errorf("%+v.Canonicalize(%q) = %q, which has a fragment or ends in a slash", o, raw, got)
	}
	again, err := o.Canonicalize(got)
	if err != nil || again != got {
		t.Fatalf("%+v.Canonicalize(%q) = %q, but %+v.Canonicalize(%q) = %q, %v", o, raw, got, o, got, again, err)
	}
}

func FuzzCanonicalize(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, raw string) {
		checkCanonical(t, canon.Options{}, raw)
		want, wantErr := canon.Options{}.Canonicalize(raw)
		if got, err := canon.Canonicalize(raw); got != want || (err == nil) != (wantErr == nil) {
			t.Errorf("Canonicalize(%q) = %q, %v, want Options{}.Canonicalize's %q, %v", raw, got, err, want, wantErr)
		}
	})
}

func FuzzStrict(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, raw string) {
		checkCanonical(t, canon.Strict(), raw)
		all := canon.Options{PercentEncoding: true, DotSegments: true, IDNA: true, EmptyQuery: true, StripWWW: true, SortQuery: true, SessionIDs: true}
		checkCanonical(t, all, raw)
	})
}

func FuzzSURT(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, raw string) {
		key, err := canon.SURT(raw)
		if err != nil {
			var e *canon.Error
			if !errors.As(err, &e) {
				t.Fatalf("SURT(%q) error %#v, want *canon.Error", raw, err)
			}
			return
		}
		if !strings.Contains(key, ")/") {
			t.Errorf("SURT(%q) = %q, which has no \")/\"", raw, key)
		}
		// The key depends only on the URI's canonical form.
		o := canon.Strict()
		o.SortQuery, o.StripWWW = true, true
		c, err := o.Canonicalize(raw)
		if err != nil {
			t.Fatalf("SURT(%q) = %q, but canonicalizing it failed: %v", raw, key, err)
		}
		if again, err := canon.SURT(c); err != nil || again != key {
			t.Errorf("SURT(%q) = %q, %v, want SURT(%q) = %q", c, again, err, raw, key)
		}
	})
}
