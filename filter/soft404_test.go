package filter

import (
	"errors"
	"strings"
	"testing"
)

// TestProbeURIs checks the two modified URIs of §3.1 "Soft 404s": the random
// string "immediately after the first slash after the domain name" and
// "immediately after the last slash in the path".
func TestProbeURIs(t *testing.T) {
	tests := []struct {
		name, uri, random string
		first, last       string
	}{
		{"paper's example", "http://example.com/path/to/file.html", "XXXX",
			"http://example.com/XXXXpath/to/file.html", "http://example.com/path/to/XXXXfile.html"},
		{"no path", "http://example.com", "XXXX",
			"http://example.com/XXXX", "http://example.com/XXXX"},
		{"root", "http://example.com/", "XXXX",
			"http://example.com/XXXX", "http://example.com/XXXX"},
		{"one segment", "http://example.com/file.html", "XXXX",
			"http://example.com/XXXXfile.html", "http://example.com/XXXXfile.html"},
		{"trailing slash", "http://example.com/path/to/", "XXXX",
			"http://example.com/XXXXpath/to/", "http://example.com/path/to/XXXX"},
		{"query kept", "http://example.com/a/b.php?id=3&x=y", "XXXX",
			"http://example.com/XXXXa/b.php?id=3&x=y", "http://example.com/a/XXXXb.php?id=3&x=y"},
		{"fragment dropped", "http://example.com/a/b.html#sec", "XXXX",
			"http://example.com/XXXXa/b.html", "http://example.com/a/XXXXb.html"},
		{"query without path", "http://example.com?q=1", "XXXX",
			"http://example.com/XXXX?q=1", "http://example.com/XXXX?q=1"},
		{"query and fragment", "http://example.com/a?q=1#f", "XXXX",
			"http://example.com/XXXXa?q=1", "http://example.com/XXXXa?q=1"},
		{"port, user and https kept", "https://u@Example.com:8443/a/b", "XXXX",
			"https://u@Example.com:8443/XXXXa/b", "https://u@Example.com:8443/a/XXXXb"},
		{"escaping kept", "http://example.com/a%2Fb/c%20d", "XXXX",
			"http://example.com/XXXXa%2Fb/c%20d", "http://example.com/a%2Fb/XXXXc%20d"},
		{"random is escaped", "http://example.com/a/b", "x/y?",
			"http://example.com/x%2Fy%3Fa/b", "http://example.com/a/x%2Fy%3Fb"},
		{"double slash", "http://example.com//a//b", "XXXX",
			"http://example.com/XXXX/a//b", "http://example.com//a//XXXXb"},
		{"twenty characters", "http://example.com/path/to/file.html", "abcdefghij0123456789",
			"http://example.com/abcdefghij0123456789path/to/file.html",
			"http://example.com/path/to/abcdefghij0123456789file.html"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first, last, err := ProbeURIs(tt.uri, tt.random)
			if err != nil {
				t.Fatalf("ProbeURIs(%q, %q) error: %v", tt.uri, tt.random, err)
			}
			if first != tt.first || last != tt.last {
				t.Errorf("ProbeURIs(%q, %q) = %q, %q, want %q, %q", tt.uri, tt.random, first, last, tt.first, tt.last)
			}
		})
	}
}

// TestProbeURIsErrors checks that URIs that cannot be probed give errors,
// not probes.
func TestProbeURIsErrors(t *testing.T) {
	tests := []struct {
		name, uri, random string
		want              error // nil: any error
	}{
		{"relative path", "/path/to/file.html", "XXXX", ErrNotAbsolute},
		{"no scheme", "example.com/path", "XXXX", ErrNotAbsolute},
		{"opaque", "mailto:someone@example.com", "XXXX", ErrNotAbsolute},
		{"scheme without host", "http:///path", "XXXX", ErrNotAbsolute},
		{"empty", "", "XXXX", ErrNotAbsolute},
		{"empty random", "http://example.com/a", "", ErrEmptyRandom},
		{"unparsable", "http://exa mple.com/%zz", "XXXX", nil},
		{"control byte", "http://example.com/\x7f", "XXXX", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first, last, err := ProbeURIs(tt.uri, tt.random)
			if err == nil {
				t.Fatalf("ProbeURIs(%q, %q) = %q, %q, want an error", tt.uri, tt.random, first, last)
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("ProbeURIs(%q, %q) error = %v, want %v", tt.uri, tt.random, err, tt.want)
			}
		})
	}
}

// TestRandomString checks the probe strings: the paper's 20 characters,
// lowercase letters and digits, different every time.
func TestRandomString(t *testing.T) {
	for _, n := range []int{-1, 0, 1, 20, 1000} {
		s := RandomString(n)
		if want := max(n, 0); len(s) != want {
			t.Errorf("len(RandomString(%d)) = %d, want %d", n, len(s), want)
		}
		if strings.Trim(s, randomAlphabet) != "" {
			t.Errorf("RandomString(%d) = %q, want only %q", n, s, randomAlphabet)
		}
	}
	seen := map[string]bool{}
	for range 100 {
		s := RandomString(ProbeLength)
		if seen[s] {
			t.Fatalf("RandomString(%d) returned %q twice", ProbeLength, s)
		}
		seen[s] = true
	}
	// Over 36,000 characters every one of the 36 should appear.
	if s := RandomString(36000); strings.Trim(randomAlphabet, s) != "" {
		t.Errorf("RandomString(36000) never uses %q", strings.Trim(randomAlphabet, s))
	}
}

// TestIsSoft404 checks the decision of §3.1 "Soft 404s" on given pages.
func TestIsSoft404(t *testing.T) {
	eng := sample(t, "eng")
	page := func(status int, text string) *Page {
		p := htmlPage("http://site.example/a/b", text)
		p.Status = status
		return p
	}
	// Most of notFoundText with a few words changed: similar, but not
	// identical, as when a soft 404 page repeats the requested address.
	fields := strings.Fields(notFoundText)
	nearly := strings.Join(append(fields[:len(fields)-1:len(fields)-1], "elsewhere"), " ")
	// Half of it: not similar.
	half := strings.Join(fields[:len(fields)/2], " ")
	tests := []struct {
		name                  string
		original, first, last *Page
		want                  bool
	}{
		{"all the same", page(200, notFoundText), page(200, notFoundText), page(200, notFoundText), true},
		{"probes nearly the same", page(200, notFoundText), page(200, nearly), page(200, nearly), true},
		{"other 2xx statuses", page(203, notFoundText), page(206, notFoundText), page(200, notFoundText), true},
		{"original not 2xx", page(404, notFoundText), page(200, notFoundText), page(200, notFoundText), false},
		{"first probe not 2xx", page(200, notFoundText), page(404, notFoundText), page(200, notFoundText), false},
		{"first probe redirect", page(200, notFoundText), page(302, notFoundText), page(200, notFoundText), false},
		{"last probe not 2xx but the same page", page(200, notFoundText), page(200, notFoundText), page(404, notFoundText), true},
		{"last probe missing", page(200, notFoundText), page(200, notFoundText), nil, false},
		{"first probe missing", page(200, notFoundText), nil, page(200, notFoundText), false},
		{"original missing", nil, page(200, notFoundText), page(200, notFoundText), false},
		{"real page", page(200, eng), page(200, notFoundText), page(200, notFoundText), false},
		{"first probe differs", page(200, notFoundText), page(200, half), page(200, notFoundText), false},
		{"last probe differs", page(200, notFoundText), page(200, notFoundText), page(200, half), false},
		{"case ignored", page(200, notFoundText), page(200, strings.ToUpper(notFoundText)), page(200, strings.ToLower(notFoundText)), true},
		{"empty pages are alike", page(200, ""), page(200, ""), page(200, ""), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsSoft404(tt.original, tt.first, tt.last); got != tt.want {
				t.Errorf("IsSoft404(%s) = %v, want %v", tt.name, got, tt.want)
			}
		})
	}
	// The threshold is strict: a Jaccard of exactly 0.9 is not above it.
	if j := Jaccard(strings.Fields("a b c d e f g h i j"), strings.Fields("a b c d e f g h i")); j != Soft404Threshold {
		t.Fatalf("test setup: Jaccard = %v, want %v", j, Soft404Threshold)
	}
	at := page(200, "a b c d e f g h i")
	if IsSoft404(page(200, "a b c d e f g h i j"), at, at) {
		t.Errorf("IsSoft404 with both similarities exactly %v = true, want false", Soft404Threshold)
	}
}
