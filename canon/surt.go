package canon

import (
	"net/netip"
	"slices"
	"strings"
)

// SURT returns the sort-friendly key under which web archives index raw (a
// "Sort-friendly URI Reordering Transform"): URIs of one site sort together,
// and so do those of a site and its subdomains.
//
// raw is first canonicalized with Strict options plus SortQuery and StripWWW.
// The key is then built from the result:
//
//   - the scheme and any user information are dropped, so http and https
//     share keys;
//   - the host's labels are reversed and joined with commas, without a
//     trailing comma ("www.Example.com" → "com,example"); an IP address,
//     IPv4 or bracketed IPv6, is kept as written ("127.0.0.1", "[::1]");
//   - a port the paper's rules keep follows as ":port" ("com,example:8080");
//   - ")" ends the host part, followed by the path ("/" when empty) and, if
//     there is a query, "?" and the query;
//   - the whole key is lowercased, ASCII letters only, escapes included
//     ("%2F" → "%2f"), so keys are case-insensitive in the path as well.
//
// For example:
//
//	http://www.Example.com/a/b?x=1      → com,example)/a/b?x=1
//	https://example.com                 → com,example)/
//	http://example.com:8080/A/?b=2&a=1  → com,example:8080)/a/?a=1&b=2
//	http://192.168.0.1/index.html       → 192.168.0.1)/index.html
//	http://Bücher.example/%7euser/./x/  → example,xn--bcher-kva)/~user/x
//
// Lowercasing the path makes two URIs that differ only in case share a key,
// as in the archives' own keys. SURT returns the errors of Options.Canonicalize.
// It is safe for concurrent use.
func SURT(raw string) (string, error) {
	o := Strict()
	o.SortQuery = true
	o.StripWWW = true
	u, err := o.canonicalURL(raw)
	if err != nil {
		return "", err
	}
	name, port := splitPort(u.Host)
	var b strings.Builder
	b.WriteString(surtHost(name))
	if port != "" {
		b.WriteByte(':')
		b.WriteString(port)
	}
	b.WriteByte(')')
	if p := u.EscapedPath(); p != "" {
		b.WriteString(p)
	} else {
		b.WriteByte('/')
	}
	if u.RawQuery != "" {
		b.WriteByte('?')
		b.WriteString(u.RawQuery)
	}
	return lowerASCII(b.String()), nil
}

// surtHost reverses the labels of the host name, or keeps an IP address.
func surtHost(name string) string {
	if strings.HasPrefix(name, "[") {
		return name
	}
	if a, err := netip.ParseAddr(name); err == nil && a.Is4() {
		return name
	}
	labels := strings.Split(name, ".")
	slices.Reverse(labels)
	return strings.Join(labels, ",")
}

// lowerASCII lowercases the ASCII letters of s and leaves other bytes alone.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
