package canon_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/canon"
)

// surtTests are SURT keys worked out by hand from the rules of the Internet
// Archive's surt library and webarchive-commons with their default
// canonicalizer (the keys of the Wayback CDX server and pywb), one group per
// rule. A comment names the rule where the key may surprise.
var surtTests = []struct {
	name string
	in   string
	want string
}{
	// Host: labels reversed, scheme, user information and fragment dropped.
	{"plain", "http://example.com/index.html", "com,example)/index.html"},
	{"https scheme dropped", "https://example.com/login", "com,example)/login"},
	{"ftp scheme dropped", "ftp://ftp.example.org/pub/", "org,example,ftp)/pub"},
	{"subdomains", "http://news.bbc.co.uk/2/hi/default.stm", "uk,co,bbc,news)/2/hi/default.stm"},
	{"no path", "http://example.com", "com,example)/"},
	{"host case", "http://WWW.Example.COM/", "com,example)/"},
	{"user information", "http://user:pass@www.example.com/private/", "com,example)/private"},
	{"fragment", "http://example.com/doc.html#section-2", "com,example)/doc.html"},
	{"trailing dot", "http://example.com./", "com,example)/"},
	{"tab and newline removed", "http://example.com/a\tb\nc", "com,example)/abc"},

	// One leading "www" label, with or without digits, is dropped.
	{"www", "http://www.example.com/", "com,example)/"},
	{"www2", "http://www2.example.co.uk/news/", "uk,co,example)/news"},
	{"www34", "http://www34.archive.org/index.html", "org,archive)/index.html"},
	{"www only once", "http://www.www.example.com/", "com,example,www)/"},
	{"www before the last label", "http://www.com/", "com)/"},
	{"www prefix of a label kept", "http://wwwfoo.example.org/", "org,example,wwwfoo)/"},

	// IDNA: the host in ASCII (RFC 5890, RFC 5891).
	{"Unicode host", "http://Bücher.example/", "example,xn--bcher-kva)/"},
	{"Unicode host with www", "https://www.例え.jp/", "jp,xn--r8jz45g)/"},
	{"punycode host", "http://xn--bcher-kva.example/", "example,xn--bcher-kva)/"},

	// IP addresses: IPv4 reversed like a name, in any form the C library
	// reads; IPv6 without brackets, not reversed (it has no dots).
	{"IPv4 reversed", "http://192.168.1.254/info/", "254,1,168,192)/info"},
	{"IPv4 with port", "http://127.0.0.1:8080/admin/", "1,0,0,127:8080)/admin"},
	{"IPv4 as one number", "http://3279880203/blah", "11,0,127,195)/blah"},
	{"IPv4 octal", "http://017.0.0.1/", "1,0,0,15)/"},
	{"IPv4 shortened", "http://10.0.258/", "2,1,0,10)/"},
	{"IPv4 out of range is a name", "http://1.2.3.256/", "256,3,2,1)/"},
	{"IPv6", "http://[2001:db8::1]/a/b", "2001:db8::1)/a/b"},
	{"IPv6 case and port", "https://[2001:DB8::A]:8443/", "2001:db8::a:8443)/"},
	{"IPv6 zone", "http://[fe80::1%25en0]/", "fe80::1%25en0)/"},

	// Ports: the scheme's default and port 0 are dropped; a port is a
	// number (RFC 3986 §3.2.3).
	{"http port 80", "http://example.com:80/a", "com,example)/a"},
	{"https port 443", "https://example.com:443/a", "com,example)/a"},
	{"https on port 80", "https://example.com:80/", "com,example:80)/"},
	{"http on port 443", "http://www.example.com:443/", "com,example:443)/"},
	{"other port", "https://example.com:8443/login", "com,example:8443)/login"},
	{"port with leading zeros", "http://example.com:0080/", "com,example)/"},
	{"port 0", "http://example.com:0/", "com,example)/"},
	{"empty port", "http://example.com:/a", "com,example)/a"},

	// Path: lowercased; one trailing slash removed, before a query too.
	{"path case", "http://example.com/Shop/Item.ASPX", "com,example)/shop/item.aspx"},
	{"trailing slash", "http://archive.org/goo/", "org,archive)/goo"},
	{"trailing slash before query", "http://example.com/a/?q=1", "com,example)/a?q=1"},
	{"root slash before query", "http://example.com/?q=1", "com,example)/?q=1"},
	{"dot segments", "http://example.com/a/./b/../c/", "com,example)/a/c"},
	{"dot dot above root kept", "http://example.com/../a", "com,example)/../a"},
	{"empty segments", "http://example.com//twoslashes?more//slashes", "com,example)/twoslashes?more//slashes"},

	// Percent-encoding: decoded repeatedly, then space, "#", "%" and
	// non-ASCII bytes encoded again, and the whole lowercased.
	{"unreserved decoded", "http://example.com/%7Euser/caf%C3%A9", "com,example)/~user/caf%c3%a9"},
	{"encoded slash decoded", "http://example.com/a%2Fb", "com,example)/a/b"},
	{"double encoding decoded", "http://example.com/a%252541", "com,example)/aa"},
	{"stray percent", "http://example.com/100%-cotton", "com,example)/100%25-cotton"},
	{"space", "http://example.com/my file.pdf", "com,example)/my%20file.pdf"},
	{"raw non-ASCII path", "http://example.com/Straße", "com,example)/stra%c3%9fe"},
	{"raw non-ASCII query", "http://example.com/?q=⚑", "com,example)/?q=%e2%9a%91"},
	{"encoded non-ASCII query", "http://example.com/?Q=%E2%9A%91", "com,example)/?q=%e2%9a%91"},
	{"encoded query", "http://example.com/go?url=http%3A%2F%2Fexample.org%2F&x=%7E", "com,example)/go?url=http://example.org/&x=~"},
	{"encoded ampersand splits", "http://example.com/script?type=a+b+%26+c&grape=wine", "com,example)/script?+c&grape=wine&type=a+b+"},

	// Query: lowercased, sorted by name then value, empty dropped.
	{"query sorted", "http://example.com/search?q=Web+Archive&lang=en", "com,example)/search?lang=en&q=web+archive"},
	{"query sorted by value", "http://archive.org/goo/?a=2&b&a=1", "org,archive)/goo?a=1&a=2&b"},
	{"name without value first", "http://example.com/?a=&a", "com,example)/?a&a="},
	{"empty parameters kept", "http://example.com/?a=1&&b=2&", "com,example)/?&&a=1&b=2"},
	{"empty query", "http://example.com/page?", "com,example)/page"},
	{"path and query case", "http://example.com/Item.ASPX?ID=42&Color=Red", "com,example)/item.aspx?color=red&id=42"},

	// Session identifiers: in the query with the values they have, and
	// ASP.NET's in the path; others stay.
	{"jsessionid", "http://example.com/app/view?jsessionid=0123456789ABCDEF0123456789abcdef&item=7", "com,example)/app/view?item=7"},
	{"phpsessid", "http://forum.example.org/index.php?PHPSESSID=0123456789abcdef0123456789abcdef&action=profile;u=4221", "org,example,forum)/index.php?action=profile;u=4221"},
	{"sid last leaves an empty parameter", "http://example.com/viewtopic.php?t=12&sid=9682993c8daa2c5497996114facdc805", "com,example)/viewtopic.php?&t=12"},
	{"aspsessionid", "http://example.com/default.asp?ASPSESSIONIDQACTDBSR=ABCDEFGHIJKLMNOPQRSTUVWX&page=2", "com,example)/default.asp?page=2"},
	{"cfid and cftoken", "http://example.com/cart.cfm?CFID=1169580&CFTOKEN=48630702&step=3", "com,example)/cart.cfm?step=3"},
	{"only a session id", "http://example.com/a?jsessionid=0123456789abcdef0123456789abcdef", "com,example)/a"},
	{"short session id kept", "http://example.com/a?jsessionid=abc123&x=1", "com,example)/a?jsessionid=abc123&x=1"},
	{"path jsessionid kept", "http://example.com/shop;jsessionid=0123456789ABCDEF0123456789ABCDEF?x=1", "com,example)/shop;jsessionid=0123456789abcdef0123456789abcdef?x=1"},
	{"ASP.NET session segment", "http://example.com/(S(abcdefghij0123456789klmn))/Default.aspx?page=2", "com,example)/default.aspx?page=2"},
	{"ASP.NET old session segment", "http://example.com/app/(abcdefghij0123456789klmn)/Default.aspx", "com,example)/app/default.aspx"},
}

func TestSURT(t *testing.T) {
	for _, tt := range surtTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := canon.SURT(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestSURTOfCanonical: a URI and its canonical form (the paper's rules,
// §3.1) have one key, so a store keyed by Canonicalize can look its URIs up
// in an archive's index.
func TestSURTOfCanonical(t *testing.T) {
	for _, tt := range surtTests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := canon.Canonicalize(tt.in)
			if err != nil {
				t.Skipf("Canonicalize rejects %q: %v", tt.in, err)
			}
			got, err := canon.SURT(c)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got, "SURT(%q), canonical form of %q", c, tt.in)
		})
	}
}

func TestSURTErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want error
	}{
		{"relative", "a/b", canon.ErrNotAbsolute},
		{"no scheme", "example.com/a", canon.ErrNotAbsolute},
		{"hostless", "mailto:a@example.com", canon.ErrNotAbsolute},
		{"dns record", "dns:archive.org", canon.ErrNotAbsolute},
		{"empty host", "http:///a", canon.ErrNotAbsolute},
		{"host of dots", "http://../a", canon.ErrNotAbsolute},
		{"bad IDNA", "http://xn--a.example/", canon.ErrInvalidHost},
		{"empty A-label", "https://xn--/", canon.ErrInvalidHost},
		{"host list", "mongodb://a:1,b:2/db", canon.ErrInvalidHost},
		{"port out of range", "http://example.com:65536/", canon.ErrInvalidPort},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := canon.SURT(tt.in)
			require.Error(t, err, "SURT(%q) = %q", tt.in, got)
			assertError(t, err, tt.in, tt.want)
		})
	}
}
