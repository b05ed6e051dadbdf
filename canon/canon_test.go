package canon_test

import (
	"errors"
	"net/url"
	"testing"

	"github.com/linkrot/relink/canon"
)

// canonicalizeTests pin the paper's four rules (§3.1 "URI canonicalization":
// downcase the domain, remove port 80, remove the fragment, remove a last
// slash) and what Canonicalize deliberately leaves alone.
var canonicalizeTests = []struct {
	name string
	in   string
	want string
}{
	// §3.1: "we downcased the domain".
	{"host case", "http://WWW.Example.COM/Path", "http://www.example.com/Path"},
	{"scheme case", "HTTP://example.com/a", "http://example.com/a"},
	{"mixed scheme case", "hTtPs://example.com/a", "https://example.com/a"},
	{"path case kept", "http://example.com/A/B.HTML", "http://example.com/A/B.HTML"},
	{"non-ASCII host lowercased", "http://ÜBER.example/", "http://%C3%BCber.example"},

	// §3.1: "We removed any reference to port 80"; :443 is its https
	// counterpart, and an empty port names the default port too.
	{"port 80 on http", "http://example.com:80/a", "http://example.com/a"},
	{"port 443 on https", "https://example.com:443/a", "https://example.com/a"},
	{"port 80 on https kept", "https://example.com:80/a", "https://example.com:80/a"},
	{"port 443 on http kept", "http://example.com:443/a", "http://example.com:443/a"},
	{"other port kept", "http://example.com:8080/a", "http://example.com:8080/a"},
	{"empty port", "http://example.com:/a", "http://example.com/a"},
	{"port 80 after scheme lowercased", "HTTP://example.com:80/", "http://example.com"},
	{"port on ftp kept", "ftp://example.com:80/a", "ftp://example.com:80/a"},

	// §3.1: "We removed fragment identifiers".
	{"fragment", "http://example.com/a#section-2", "http://example.com/a"},
	{"empty fragment", "http://example.com/a#", "http://example.com/a"},
	{"fragment after query", "http://example.com/a?q=1#top", "http://example.com/a?q=1"},
	{"fragment after slash", "http://example.com/a/#top", "http://example.com/a"},

	// §3.1: "we removed a slash if it was the last character in the URI".
	{"trailing slash", "http://example.com/a/", "http://example.com/a"},
	{"root slash", "http://example.com/", "http://example.com"},
	{"no path", "http://example.com", "http://example.com"},
	{"several trailing slashes", "http://example.com/a///", "http://example.com/a"},
	{"inner double slash kept", "http://example.com//a//b", "http://example.com//a//b"},
	{"query with trailing slash left alone", "http://example.com/a/?q=1", "http://example.com/a/?q=1"},
	{"slash inside query left alone", "http://example.com/a?next=/b/", "http://example.com/a?next=/b/"},
	{"bare query keeps slash", "http://example.com/a/?", "http://example.com/a/?"},
	{"encoded slash is not a slash", "http://example.com/a%2F", "http://example.com/a%2F"},
	{"encoded slash before trailing slash", "http://example.com/a%2F/", "http://example.com/a%2F"},

	// Everything else is kept: the paper names no other rule.
	{"userinfo kept", "http://user:pw@Example.com:80/", "http://user:pw@example.com"},
	{"percent case kept", "http://example.com/%7ea/%2f", "http://example.com/%7ea/%2f"},
	{"dot segments kept", "http://example.com/a/./b/../c", "http://example.com/a/./b/../c"},
	{"query order kept", "http://example.com/?b=2&a=1", "http://example.com/?b=2&a=1"},
	{"www kept", "http://www.example.com/", "http://www.example.com"},
	{"trailing dot kept", "http://example.com./", "http://example.com."},
	{"invalid query escape kept", "http://example.com/?a=%zz", "http://example.com/?a=%zz"},
	{"session id kept", "http://example.com/a;jsessionid=X?sid=1", "http://example.com/a;jsessionid=X?sid=1"},
	{"space in path encoded", "http://example.com/a b", "http://example.com/a%20b"},
	{"space in query encoded", "http://example.com/?q=a b", "http://example.com/?q=a%20b"},
	{"space ending the query", "http://example.com/? #top", "http://example.com/?%20"},
	{"surrounding white space", " \thttp://example.com/a/\n", "http://example.com/a"},

	// IPv6 literals: lowercased, port rules apply after the bracket.
	{"IPv6 host", "http://[2001:DB8::1]/a/", "http://[2001:db8::1]/a"},
	{"IPv6 port 80", "http://[2001:db8::1]:80/", "http://[2001:db8::1]"},
	{"IPv6 other port", "http://[2001:db8::1]:8080/", "http://[2001:db8::1]:8080"},
	{"IPv6 empty port", "http://[::1]:/", "http://[::1]"},
	{"IPv6 zone", "http://[fe80::1%25EN0]/", "http://[fe80::1%25en0]"},
	{"IPv4 host", "http://192.0.2.1:80/x", "http://192.0.2.1/x"},

	// Non-http schemes get the same rules.
	{"ftp", "FTP://Example.com/pub/", "ftp://example.com/pub"},
	{"custom scheme", "x-foo://Host/a#b", "x-foo://host/a"},
	// net/url reads a list of host:port pairs for schemes other than
	// http(s); it is only lowercased, even its empty last port.
	{"host list", "mongodb://A:1,B:2/db", "mongodb://a:1,b:2/db"},
	{"host list empty port kept", "x-db://h1:1,h2:/", "x-db://h1:1,h2:"},
	{"colon host", "x-db://::", "x-db://::"},
}

func TestCanonicalize(t *testing.T) {
	for _, tt := range canonicalizeTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := canon.Canonicalize(tt.in)
			if err != nil {
				t.Fatalf("Canonicalize(%q) error: %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("Canonicalize(%q) = %q, want %q", tt.in, got, tt.want)
			}
			again, err := canon.Canonicalize(got)
			if err != nil || again != got {
				t.Errorf("Canonicalize(%q) = %q, %v, want %q (idempotent)", got, again, err, got)
			}
		})
	}
}

// TestCanonicalizeNotAbsolute: the paper canonicalizes absolute URIs only
// (§3.1); relative and hostless inputs are errors matching ErrNotAbsolute.
func TestCanonicalizeNotAbsolute(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"empty", ""},
		{"white space", "  \n"},
		{"relative path", "a/b.html"},
		{"absolute path", "/a/b.html"},
		{"network-path reference", "//example.com/a"},
		{"query only", "?q=1"},
		{"fragment only", "#top"},
		{"mailto", "mailto:user@example.com"},
		{"urn", "urn:isbn:0451450523"},
		{"opaque http", "http:example.com/a"},
		{"empty host", "http:///a"},
		{"file without host", "file:///etc/hosts"},
		{"port without host", "http://:80/"},
		{"userinfo without host", "http://user@/a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := canon.Canonicalize(tt.in)
			if !errors.Is(err, canon.ErrNotAbsolute) {
				t.Fatalf("Canonicalize(%q) = %q, %v, want error matching ErrNotAbsolute", tt.in, got, err)
			}
			var e *canon.Error
			if !errors.As(err, &e) || e.URI != tt.in {
				t.Errorf("Canonicalize(%q) error %#v, want *canon.Error with URI %q", tt.in, err, tt.in)
			}
		})
	}
}

// TestCanonicalizeUnparsable: a URI net/url rejects is an *Error wrapping
// the *url.Error, never ErrNotAbsolute.
func TestCanonicalizeUnparsable(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"bad path escape", "http://example.com/%zz"},
		{"bad host escape", "http://exa%2mple.com/"},
		{"ASCII escaped in host", "http://ex%41mple.com/"},
		{"space in host", "http://exa mple.com/"},
		{"non-numeric port", "http://example.com:http/"},
		{"two colons in http host", "http://example.com:80:80/"},
		{"unclosed IPv6", "http://[::1/"},
		{"IPv4 in brackets", "http://[192.0.2.1]/"},
		{"control character", "http://example.com/a\x00b"},
		{"bad scheme", "1http://example.com/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := canon.Canonicalize(tt.in)
			var e *canon.Error
			if !errors.As(err, &e) {
				t.Fatalf("Canonicalize(%q) = %q, %v, want *canon.Error", tt.in, got, err)
			}
			if e.URI != tt.in {
				t.Errorf("Canonicalize(%q) error URI = %q, want %q", tt.in, e.URI, tt.in)
			}
			var ue *url.Error
			if !errors.As(err, &ue) {
				t.Errorf("Canonicalize(%q) error %v does not wrap a *url.Error", tt.in, err)
			}
			if errors.Is(err, canon.ErrNotAbsolute) {
				t.Errorf("Canonicalize(%q) error %v matches ErrNotAbsolute, want a parse error", tt.in, err)
			}
		})
	}
}

func TestErrorMessage(t *testing.T) {
	_, err := canon.Canonicalize("a/b")
	const want = `canonicalize "a/b": canon: URI has no scheme or host`
	if err == nil || err.Error() != want {
		t.Errorf("Canonicalize(%q) error = %v, want %q", "a/b", err, want)
	}
}
