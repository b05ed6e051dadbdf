package canon_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/canon"
)

// canonicalizeTests pin the paper's four rules (§3.1 "URI canonicalization":
// downcase the domain, remove port 80, remove the fragment, remove a last
// slash), the two rules that give a host and a port one spelling (Rules 2),
// and what Canonicalize deliberately leaves alone.
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

	// A port is a number (RFC 3986 §3.2.3: "port = *DIGIT"), so leading
	// zeros do not make another port.
	{"port 80 with leading zeros", "http://h:0080/", "http://h"},
	{"port 443 with leading zeros", "https://h:000443/a", "https://h/a"},
	{"other port with leading zero", "http://h:08080/", "http://h:8080"},
	{"port 0", "http://h:0/", "http://h:0"},
	{"port of zeros", "http://h:0000/", "http://h:0"},
	{"highest port", "http://h:65535/", "http://h:65535"},
	{"highest port with leading zeros", "http://h:00065535/", "http://h:65535"},
	{"IPv6 port with leading zeros", "http://[::1]:0080/", "http://[::1]"},
	{"ftp port with leading zeros", "ftp://h:0021/", "ftp://h:21"},

	// §3.1: "We removed fragment identifiers". The fragment is dropped
	// unread, so its escapes do not matter.
	{"fragment", "http://example.com/a#section-2", "http://example.com/a"},
	{"empty fragment", "http://example.com/a#", "http://example.com/a"},
	{"fragment after query", "http://example.com/a?q=1#top", "http://example.com/a?q=1"},
	{"fragment after slash", "http://example.com/a/#top", "http://example.com/a"},
	{"fragment with malformed escape", "http://example.org/a#50%", "http://example.org/a"},
	{"fragment with invalid escape", "http://example.org/a?q#%zz", "http://example.org/a?q"},
	{"fragment with control character", "http://example.org/a#\x01", "http://example.org/a"},
	{"second hash in fragment", "http://example.org/a#b#c", "http://example.org/a"},

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

	// Host names in ASCII (RFC 5890 §2.3.2.1, RFC 5891 §5.5: the A-label
	// is the form for lookup), by UTS #46 as browsers convert them, so that
	// a Unicode host and its punycode are one key.
	{"Unicode host", "http://Bücher.example/", "http://xn--bcher-kva.example"},
	{"Unicode host upper case", "http://ÜBER.example/", "http://xn--ber-goa.example"},
	{"punycode host", "http://xn--bcher-kva.example/", "http://xn--bcher-kva.example"},
	{"punycode upper case", "http://XN--BCHER-KVA.example/", "http://xn--bcher-kva.example"},
	{"escaped Unicode host", "http://B%C3%BCcher.example/", "http://xn--bcher-kva.example"},
	{"fullwidth letters", "http://ｅｘａｍｐｌｅ.com/", "http://example.com"},
	{"ideographic full stop", "http://example。com/", "http://example.com"},
	{"sharp s nontransitional", "http://faß.de/", "http://xn--fa-hia.de"},
	{"emoji host", "http://☃.example/", "http://xn--n3h.example"},
	{"Unicode host with port", "http://bücher.example:8080/a/", "http://xn--bcher-kva.example:8080/a"},
	{"Unicode host port 80", "http://bücher.example:0080/", "http://xn--bcher-kva.example"},
	{"underscore allowed", "http://foo_bar.example/", "http://foo_bar.example"},
	{"double hyphen allowed", "http://r3---sn-abc.example/", "http://r3---sn-abc.example"},
	{"trailing dot kept", "http://example.com./", "http://example.com."},
	{"Unicode host trailing dot kept", "http://bücher.example./", "http://xn--bcher-kva.example."},
	{"empty labels kept", "http://a..b./", "http://a..b."},
	{"A-label of 63 bytes", "http://" + strings.Repeat("b", 55) + "ü.example/", "http://xn--" + strings.Repeat("b", 55) + "-8yf.example"},
	{"long ASCII label kept", "http://" + strings.Repeat("b", 70) + ".example/", "http://" + strings.Repeat("b", 70) + ".example"},

	// Everything else is kept: the paper names no other rule.
	{"userinfo kept", "http://user:pw@Example.com:80/", "http://user:pw@example.com"},
	{"percent case kept", "http://example.com/%7ea/%2f", "http://example.com/%7ea/%2f"},
	{"dot segments kept", "http://example.com/a/./b/../c", "http://example.com/a/./b/../c"},
	{"query order kept", "http://example.com/?b=2&a=1", "http://example.com/?b=2&a=1"},
	{"www kept", "http://www.example.com/", "http://www.example.com"},
	{"invalid query escape kept", "http://example.com/?a=%zz", "http://example.com/?a=%zz"},
	{"raw non-ASCII query kept", "http://example.com/?x=⚑", "http://example.com/?x=⚑"},
	{"session id kept", "http://example.com/a;jsessionid=X?sid=1", "http://example.com/a;jsessionid=X?sid=1"},
	{"space in path encoded", "http://example.com/a b", "http://example.com/a%20b"},
	{"non-ASCII path encoded", "http://example.com/café", "http://example.com/caf%C3%A9"},
	{"space in query encoded", "http://example.com/?q=a b", "http://example.com/?q=a%20b"},
	{"space ending the query", "http://example.com/? #top", "http://example.com/?%20"},
	{"surrounding white space", " \thttp://example.com/a/\n", "http://example.com/a"},

	// IP literals (RFC 3986 §3.2.2, RFC 6874 for zones): lowercased, port
	// rules apply after the bracket.
	{"IPv6 host", "http://[2001:DB8::1]/a/", "http://[2001:db8::1]/a"},
	{"IPv6 port 80", "http://[2001:db8::1]:80/", "http://[2001:db8::1]"},
	{"IPv6 other port", "http://[2001:db8::1]:8080/", "http://[2001:db8::1]:8080"},
	{"IPv6 empty port", "http://[::1]:/", "http://[::1]"},
	{"IPv6 zone", "http://[fe80::1%25EN0]/", "http://[fe80::1%25en0]"},
	{"IPv6 zone with escaped space", "http://[fe80::1%25Local%20Area%20Connection]/", "http://[fe80::1%25local%20area%20connection]"},
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
			assertCanonical(t, canon.Canonicalize, tt.in, tt.want)
		})
	}
}

// assertCanonical asserts that canonicalize turns in into want, and want
// into itself.
func assertCanonical(t *testing.T, canonicalize func(string) (string, error), in, want string) {
	t.Helper()
	got, err := canonicalize(in)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	again, err := canonicalize(got)
	require.NoError(t, err, "canonicalizing the result %q", got)
	assert.Equal(t, got, again, "not idempotent")
}

// sentinels are the errors of package canon that errors.Is matches.
var sentinels = []error{canon.ErrNotAbsolute, canon.ErrInvalidHost, canon.ErrInvalidPort}

// assertError asserts that err is an *Error naming the input in and that
// it matches the sentinel want and no other; a nil want asks for a parse
// error, a *url.Error.
func assertError(t *testing.T, err error, in string, want error) {
	t.Helper()
	var e *canon.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, in, e.URI)
	if want == nil {
		var ue *url.Error
		assert.ErrorAs(t, err, &ue, "want a parse error")
	}
	for _, sentinel := range sentinels {
		assert.Equal(t, sentinel == want, errors.Is(err, sentinel), "errors.Is(%v, %v)", err, sentinel)
	}
}

// TestCanonicalizeErrors: the paper canonicalizes absolute URIs only
// (§3.1); relative and hostless inputs match ErrNotAbsolute, invalid hosts
// ErrInvalidHost, ports above 65535 (RFC 793's 16 bits) ErrInvalidPort, and
// what net/url cannot parse wraps its *url.Error. Every error is an *Error
// naming the input.
func TestCanonicalizeErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want error // nil: a parse error, matching no sentinel
	}{
		{"empty", "", canon.ErrNotAbsolute},
		{"white space", "  \n", canon.ErrNotAbsolute},
		{"relative path", "a/b.html", canon.ErrNotAbsolute},
		{"absolute path", "/a/b.html", canon.ErrNotAbsolute},
		{"network-path reference", "//example.com/a", canon.ErrNotAbsolute},
		{"query only", "?q=1", canon.ErrNotAbsolute},
		{"fragment only", "#top", canon.ErrNotAbsolute},
		{"mailto", "mailto:user@example.com", canon.ErrNotAbsolute},
		{"urn", "urn:isbn:0451450523", canon.ErrNotAbsolute},
		{"opaque http", "http:example.com/a", canon.ErrNotAbsolute},
		{"empty host", "http:///a", canon.ErrNotAbsolute},
		{"file without host", "file:///etc/hosts", canon.ErrNotAbsolute},
		{"port without host", "http://:80/", canon.ErrNotAbsolute},
		{"userinfo without host", "http://user@/a", canon.ErrNotAbsolute},
		{"host of ignored characters", "http://\u00ad/", canon.ErrInvalidHost},

		{"port above 65535", "http://h:65536/", canon.ErrInvalidPort},
		{"port 99999", "http://h:99999/", canon.ErrInvalidPort},
		{"long port", "http://h:123456789012345678901234567890/", canon.ErrInvalidPort},
		{"port above 65535 after zeros", "http://h:0065536/", canon.ErrInvalidPort},
		{"IPv6 port above 65535", "http://[::1]:70000/", canon.ErrInvalidPort},

		// RFC 5890 §2.3.2.1: an A-label is "xn--" and the punycode of a
		// U-label, which is not empty and not all ASCII.
		{"empty A-label", "https://xn--/", canon.ErrInvalidHost},
		{"empty A-label upper case", "https://XN--.example/", canon.ErrInvalidHost},
		{"empty A-label in fullwidth", "http://ｘｎ--.example/", canon.ErrInvalidHost},
		{"invalid punycode", "http://xn--a.example/", canon.ErrInvalidHost},
		{"punycode of ASCII", "http://xn--abc-.example/", canon.ErrInvalidHost},
		// RFC 5890 §2.3.2.1: an A-label has at most 63 bytes.
		{"A-label of 64 bytes", "http://" + strings.Repeat("b", 56) + "ü.example/", canon.ErrInvalidHost},
		{"A-label of 64 bytes as punycode", "http://xn--" + strings.Repeat("b", 56) + "-t2f.example/", canon.ErrInvalidHost},
		{"long A-label found by fuzzing", "A://" + strings.Repeat("B", 4000) + "ึ", canon.ErrInvalidHost},
		// RFC 5893: a label with right-to-left characters must be all
		// right-to-left.
		{"bidi violation", "http://a\u05d0.example/", canon.ErrInvalidHost},
		{"maps to space", "http://a\u3000b.example/", canon.ErrInvalidHost},
		{"maps to brace", "http://\ufe38.example/", canon.ErrInvalidHost},
		{"angle bracket", "http://a<b.example/", canon.ErrInvalidHost},
		{"quote", "http://a\"b.example/", canon.ErrInvalidHost},
		{"escaped percent", "http://a%25b.example/", canon.ErrInvalidHost},
		{"invalid UTF-8", "http://\xff.example/", canon.ErrInvalidHost},
		{"escaped invalid UTF-8", "http://%FF.example/", canon.ErrInvalidHost},
		{"non-ASCII zone", "http://[fe80::1%25é]/", canon.ErrInvalidHost},
		{"invalid UTF-8 zone", "http://[fe80::1%25\xff]/", canon.ErrInvalidHost},

		{"bad path escape", "http://example.com/%zz", nil},
		{"bad host escape", "http://exa%2mple.com/", nil},
		{"ASCII escaped in host", "http://ex%41mple.com/", nil},
		{"space in host", "http://exa mple.com/", nil},
		{"non-numeric port", "http://example.com:http/", nil},
		{"two colons in http host", "http://example.com:80:80/", nil},
		{"unclosed IPv6", "http://[::1/", nil},
		{"IPv4 in brackets", "http://[192.0.2.1]/", nil},
		{"escaped zone", "http://[fe80::1%25%C3%A9]/", nil},
		{"control character", "http://example.com/a\x00b", nil},
		{"bad scheme", "1http://example.com/", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := canon.Canonicalize(tt.in)
			require.Error(t, err, "Canonicalize(%q) = %q", tt.in, got)
			assertError(t, err, tt.in, tt.want)
		})
	}
}

// TestIdempotentRegressions holds inputs whose result Canonicalize used to
// reject, found by fuzzing: each now has a result that is its own canonical
// form, or is an error.
func TestIdempotentRegressions(t *testing.T) {
	for _, in := range []string{
		"http://[fe80::1%25é]/",
		"http://[fe80::1%25\xff]/",
		"http://[fe80::1%25a%20b]/",
		"A://::",
	} {
		t.Run(in, func(t *testing.T) {
			got, err := canon.Canonicalize(in)
			if err != nil {
				return
			}
			again, err := canon.Canonicalize(got)
			require.NoError(t, err, "canonicalizing the result %q", got)
			assert.Equal(t, got, again)
		})
	}
}

func TestErrorMessage(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"not absolute", "a/b", `canonicalize "a/b": canon: URI has no scheme or host`},
		{"port", "http://h:65536/", `canonicalize "http://h:65536/": canon: port out of range: 65536`},
		{"empty A-label", "https://xn--/", `canonicalize "https://xn--/": canon: invalid host name: "xn--" has a label that converts to nothing`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := canon.Canonicalize(tt.in)
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestRules(t *testing.T) {
	// Rules 2: ports as numbers and hosts in ASCII. A change of the
	// default output must raise it.
	assert.Equal(t, 2, canon.Rules)
}
