package canon

import (
	"net/url"
	"strings"
)

// SURT returns the key under which web archives index raw (a "Sort-friendly
// URI Reordering Transform"): URIs of one site sort together, and so do
// those of a site and its subdomains. The key is byte for byte the one the
// Wayback CDX server and pywb give, that of the Internet Archive's surt
// library (Python) and webarchive-commons (Java) with their default
// canonicalizer, so that it can be looked up in their indexes (the Wayback
// Machine's, Common Crawl's):
//
//	http://www.Example.com/a/b/?x=1   → com,example)/a/b?x=1
//	https://example.com:8080/A?b&a=1  → com,example:8080)/a?a=1&b
//	http://192.168.0.1/index.html     → 1,0,168,192)/index.html
//	http://Bücher.example/%7euser/    → example,xn--bcher-kva)/~user
//
// The archives' rules, in the order they apply them:
//
//   - the scheme, any user information and the fragment are dropped, so
//     http and https share keys; so are tabs and line breaks anywhere;
//   - the host is lowercased and written in ASCII (IDNA), runs of dots are
//     halved and dots at its ends removed, an IPv4 address written as one
//     number or in octal ("3279880203", "0300.0250.0.1") is written as four
//     decimal numbers, and one leading "www." or "www" plus digits and a dot
//     ("www2.", "www34.") is removed;
//   - the host's labels are reversed and joined by commas ("com,example"),
//     IPv4 addresses included; an IPv6 address loses its brackets and,
//     having no dots, stays as it is;
//   - a port other than the scheme's default (80 for http, 443 for https)
//     and other than 0 follows as ":port", and ")" ends the host;
//   - the path is percent-decoded repeatedly ("%2541" → "A"), its "." and
//     ".." segments resolved and its empty segments removed ("//a" → "/a";
//     a ".." above the root stays), then percent-encoded again: bytes up to
//     the space, "#", "%" and those from 0x7F up, upper-case hex; it is
//     lowercased, an ASP.NET session segment ("/(S(…24 characters…))/" before
//     a .aspx page) is removed, and so is one slash at its end, also before
//     a query ("/a/?q" → "/a?q"); an empty path is "/";
//   - the query is decoded and encoded again like the path (so "%26" becomes
//     "&", a parameter separator, as in the archives' keys); the last
//     jsessionid, phpsessid or sid parameter with a 32-letter-or-digit
//     value, an ASPSESSIONIDxxxxxxxx parameter with a 24-letter value and a
//     CFID followed by a CFTOKEN are removed; it is lowercased and its
//     "&"-separated parameters sorted by name, then value (a parameter
//     without "=" before one with it); an empty query and its "?" are
//     dropped.
//
// The host rules are Canonicalize's, with the same errors: a URI without a
// scheme, "//" and a host is an *Error wrapping ErrNotAbsolute, an invalid
// host one wrapping ErrInvalidHost (as is an authority that lists several
// hosts), a port above 65535 one wrapping ErrInvalidPort. Unlike
// Canonicalize, SURT reads a malformed escape in the path or query as the
// archives do (a "%" that starts no escape is written %25), so
// "http://example.com/100%-cotton" has a key.
//
// Where the archives' two libraries differ, SURT follows the Python one,
// which pywb uses: an IPv4 address in a shortened form ("10.0.258") is read
// as the C library reads it, only one "www" label is removed, port 0 is
// dropped. It differs from both where they are lenient or do I/O: it does
// not guess a missing scheme ("example.com/a"), repair doubled schemes or
// extra slashes ("http://https://a", "http:////a"), resolve host names in
// DNS, or accept hosts that Canonicalize rejects (see ErrInvalidHost); it
// gives no key to the archives' pseudo-URIs ("dns:", "filedesc:",
// "warcinfo:"). And it converts host names by UTS #46, as Canonicalize
// does, where they use IDNA 2003: the two differ for a few characters
// ("faß.de" is "de,xn--fa-hia" here, "de,fass" there), and where IDNA 2003
// fails on a host UTS #46 converts (an empty label beside a Unicode one)
// the archives keep the host's UTF-8 bytes percent-encoded.
//
// A URI and its canonical form have one key: SURT(Canonicalize(raw)) is
// SURT(raw). SURT is safe for concurrent use.
func SURT(raw string) (string, error) {
	s := strings.Trim(raw, space)
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	}
	s, _, _ = strings.Cut(s, "#")
	scheme, rest, ok := cutScheme(s)
	if !ok {
		return "", &Error{URI: raw, Err: ErrNotAbsolute}
	}
	end := strings.IndexAny(rest, "/?")
	if end < 0 {
		end = len(rest)
	}
	host, port, err := surtAuthority(scheme, rest[:end])
	if err != nil {
		return "", &Error{URI: raw, Err: err}
	}
	path, query, _ := strings.Cut(rest[end:], "?")

	var b strings.Builder
	b.WriteString(host)
	if port != "" && port != "0" {
		b.WriteByte(':')
		b.WriteString(port)
	}
	b.WriteByte(')')
	b.WriteString(surtPath(path))
	if q := surtQuery(query); q != "" {
		b.WriteByte('?')
		b.WriteString(q)
	}
	return b.String(), nil
}

// cutScheme splits s into its lowercased scheme and what follows "//",
// and reports whether s starts with a scheme (RFC 3986 §3.1: a letter,
// then letters, digits, "+", "-" and ".") followed by "://".
func cutScheme(s string) (scheme, rest string, ok bool) {
	scheme, rest, ok = strings.Cut(s, "://")
	if !ok || scheme == "" || !isLetter(scheme[0]) {
		return "", "", false
	}
	for i := 1; i < len(scheme); i++ {
		if c := scheme[i]; !isLetter(c) && !('0' <= c && c <= '9') && c != '+' && c != '-' && c != '.' {
			return "", "", false
		}
	}
	return lowerASCII(scheme), rest, true
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// surtAuthority checks the authority a of a URI with scheme under
// Canonicalize's host rules and returns the SURT form of its host and its
// port, empty when it is the scheme's default.
func surtAuthority(scheme, a string) (host, port string, err error) {
	a = a[strings.LastIndexByte(a, '@')+1:] // user information is dropped
	u, err := url.Parse(scheme + "://" + a)
	if err != nil {
		return "", "", err
	}
	if u.Host == "" {
		return "", "", ErrNotAbsolute
	}
	if name, _ := splitPort(u.Host); strings.Contains(name, ":") && !strings.HasPrefix(name, "[") {
		return "", "", ErrInvalidHost
	}
	if err := (Options{}).host(u); err != nil {
		return "", "", err
	}
	name, port := splitPort(u.Host)
	host = archiveHost(strings.TrimSuffix(strings.TrimPrefix(name, "["), "]"))
	if host == "" {
		return "", "", ErrNotAbsolute
	}
	return surtLabels(host), port, nil
}
