package repair

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/linkrot/relink/canon"
)

// safeURI percent-encodes the bytes of s that may not appear raw in a URI
// (RFC 3986 §2: controls, space, and " < > \ ^ ` { | }), a % that starts
// no escape, and, when ascii is set, every byte above 0x7f (an IRI's
// UTF-8). What is left can be written into a Markdown destination, an
// HTML attribute, a reST target or a redirect map without breaking its
// syntax; the syntaxes' own escapes (parentheses, ampersands, quotes) are
// the writers' business.
func safeURI(s string, ascii bool) string {
	const hex = "0123456789ABCDEF"
	bad := func(i int) bool {
		c := s[i]
		return c <= ' ' || c == 0x7f || strings.IndexByte("\"<>\\^`{|}", c) >= 0 ||
			(ascii && c >= 0x80) ||
			(c == '%' && !(i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])))
	}
	i := 0
	for i < len(s) && !bad(i) {
		i++
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	b = append(b, s[:i]...)
	for ; i < len(s); i++ {
		if bad(i) {
			b = append(b, '%', hex[s[i]>>4], hex[s[i]&15])
		} else {
			b = append(b, s[i])
		}
	}
	return string(b)
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f'
}

// origin is a URL's scheme, host and port in canonical form ("https",
// "example.org", "" for the default port), for telling whether two URLs are
// on one site.
type origin struct{ scheme, host, port string }

// originOf returns u's origin; ok is false for a URL that canon cannot
// canonicalize (no scheme or host).
func originOf(u string) (o origin, ok bool) {
	c, err := canon.Canonicalize(u)
	if err != nil {
		return origin{}, false
	}
	p, err := url.Parse(c)
	if err != nil {
		return origin{}, false
	}
	return origin{scheme: p.Scheme, host: p.Hostname(), port: p.Port()}, true
}

// canonKey is the key a dead URL is looked up by: its canonical form.
func canonKey(u string) (string, bool) {
	c, err := canon.Canonicalize(u)
	return c, err == nil
}

// splitFragment cuts u at its first '#'.
func splitFragment(u string) (base, frag string, has bool) {
	return strings.Cut(u, "#")
}

// unwritable says why the new URI n may not be written into a file (a
// page's link or a server's redirect map), or "": only an http or https
// URI may be, whatever chose it, and none that holds a password, which a
// search answer is not the page's to give and a result read back from a
// journal holds redacted (xxxxx).
func unwritable(n *url.URL) string {
	if n.Scheme != "http" && n.Scheme != "https" {
		return fmt.Sprintf("the new URI %q is not an http or https URI; not written", n.Redacted())
	}
	if _, ok := n.User.Password(); ok {
		return fmt.Sprintf("the new URI %q holds a password; not written", n.Redacted())
	}
	return ""
}
