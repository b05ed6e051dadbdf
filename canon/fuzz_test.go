package canon_test

import (
	"errors"
	"fmt"
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
	for _, tt := range surtTests {
		f.Add(tt.in)
	}
	for _, s := range []string{
		"", "a/b", "http://:80/", "http://[::1]:/", "http://x/? ", "http://x/?%%341",
		"http://www.www.example.com./a/..;jsessionid=1/.%2e/?&b&a=%7E&sid=1#f",
		"http://xn--bcher-kva.example/", "http://\u0130.example/", "http://a..b./",
		"http://[fe80::1%25é]/", "http://[fe80::1%25en0]:0080/", "https://xn--/",
		"http://h:0080/", "http://h:65536/", "http://example.org/a#50%",
		"http://example.com/?x=⚑", "http://ｘｎ--.example/", "http://\u00ad.a/",
		"http://www2.example.com/(S(abcdefghij0123456789klmn))/a.aspx?SID=0123456789abcdef0123456789abcdef&b",
	} {
		f.Add(s)
	}
}

// optionSets are the option sets the fuzz targets check: the paper's rules,
// Strict, every option alone and all of them at once.
var optionSets = []canon.Options{
	{},
	canon.Strict(),
	{PercentEncoding: true},
	{DotSegments: true},
	{TrailingDot: true},
	{IDNA: true},
	{EmptyQuery: true},
	{StripWWW: true},
	{SortQuery: true},
	{SessionIDs: true},
	{PercentEncoding: true, DotSegments: true, TrailingDot: true, EmptyQuery: true, StripWWW: true, SortQuery: true, SessionIDs: true},
}

// checkCanonical checks the properties every result of o.Canonicalize must
// have, or that its error is an *Error naming the input. A result re-parses
// as an absolute URI, canonicalizing it again changes nothing (the paper's
// rules, §3.1, and the options are idempotent), it has no fragment and no
// trailing slash, its host name is ASCII (RFC 5890) and its port a number
// without leading zeros (RFC 3986 §3.2.3) up to 65535, and with
// PercentEncoding it is all ASCII.
func checkCanonical(t *testing.T, o canon.Options, raw string) {
	t.Helper()
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
	if name := u.Hostname(); !strings.HasPrefix(u.Host, "[") && !strings.Contains(name, ":") {
		// Not an IP literal, nor a list of hosts (see Canonicalize).
		if !isASCII(name) {
			t.Errorf("%+v.Canonicalize(%q) = %q, whose host %q is not ASCII", o, raw, got, name)
		}
		if p := u.Port(); p != "" && (p != "0" && strings.HasPrefix(p, "0") || len(p) > 5 || len(p) == 5 && p > "65535") {
			t.Errorf("%+v.Canonicalize(%q) = %q, whose port %q is not canonical", o, raw, got, p)
		}
	}
	if o.PercentEncoding && !isASCII(got) {
		t.Errorf("%+v.Canonicalize(%q) = %q, which is not ASCII", o, raw, got)
	}
	again, err := o.Canonicalize(got)
	if err != nil || again != got {
		t.Fatalf("%+v.Canonicalize(%q) = %q, but %+v.Canonicalize(%q) = %q, %v", o, raw, got, o, got, again, err)
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// FuzzCanonicalize checks that Canonicalize is idempotent and is the zero
// Options' Canonicalize.
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

// FuzzOptions checks that every option set is idempotent.
func FuzzOptions(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, raw string) {
		for _, o := range optionSets {
			checkCanonical(t, o, raw)
		}
	})
}

// surtKeepers are option sets whose results have the key of their input:
// the archives' rules (see SURT) undo or repeat what they change.
var surtKeepers = []canon.Options{
	{},
	{PercentEncoding: true},
	{TrailingDot: true},
	{EmptyQuery: true},
	{PercentEncoding: true, TrailingDot: true, EmptyQuery: true},
}

// FuzzSURT checks that SURT never panics, fails only with an *Error naming
// the input, gives keys of printable ASCII without upper-case letters that
// end the host with ")", and gives a URI's canonical form the URI's key.
func FuzzSURT(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, raw string) {
		key, err := canon.SURT(raw)
		if err != nil {
			var e *canon.Error
			if !errors.As(err, &e) || e.URI != raw {
				t.Fatalf("SURT(%q) error %#v, want *canon.Error for the input", raw, err)
			}
		} else {
			if err := checkKey(key); err != nil {
				t.Errorf("SURT(%q) = %q: %v", raw, key, err)
			}
		}
		for _, o := range surtKeepers {
			c, cerr := o.Canonicalize(raw)
			if cerr != nil {
				continue
			}
			again, aerr := canon.SURT(c)
			if again != key || (aerr == nil) != (err == nil) {
				t.Errorf("SURT(%q) = %q, %v, but SURT of its %+v form %q = %q, %v", raw, key, err, o, c, again, aerr)
			}
		}
	})
}

// checkKey checks the form of a SURT key.
func checkKey(key string) error {
	for i := 0; i < len(key); i++ {
		if c := key[i]; c <= ' ' || c >= 0x7f || 'A' <= c && c <= 'Z' || c == '#' {
			return fmt.Errorf("byte %q at %d", c, i)
		}
	}
	// A host has no "/", and may have ")" ("a(b).example").
	if i := strings.IndexByte(key, '/'); i < 2 || key[i-1] != ')' {
		return errors.New(`no host, ")" and path`)
	}
	return nil
}
