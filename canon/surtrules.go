package canon

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// The web archives' canonicalization rules that SURT applies (see SURT) and
// Canonicalize does not.

// archiveHost applies the archives' host rules to name, a host that
// Canonicalize's rules have written in lowercase ASCII, without the brackets
// of an IP literal: halve runs of dots, trim dots, read IPv4 addresses in
// other forms, escape what is left (only a zone can have such bytes) and
// remove a "www" label.
func archiveHost(name string) string {
	name = strings.Trim(strings.ReplaceAll(unescapeAll(name), "..", "."), ".")
	if ip, ok := ipv4Form(name); ok {
		return ip
	}
	name = lowerASCII(escapeArchive(name))
	if m := wwwLabel.FindStringIndex(name); m != nil {
		name = name[m[1]:]
	}
	return name
}

// wwwLabel matches the label the archives drop from the front of a host.
var wwwLabel = regexp.MustCompile(`^www[0-9]*\.`)

// surtLabels reverses the dot-separated labels of host and joins them with
// commas.
func surtLabels(host string) string {
	labels := strings.Split(host, ".")
	slices.Reverse(labels)
	return strings.Join(labels, ",")
}

// The forms of an IPv4 address the archives read: a decimal first number,
// or an octal one (a leading 0), and up to three more numbers.
var (
	decimalIPv4 = regexp.MustCompile(`^[1-9][0-9]*(\.[0-9]+){0,3}$`)
	octalIPv4   = regexp.MustCompile(`^0[0-7]*(\.[0-7]+){0,3}$`)
)

// ipv4Form returns host as four decimal numbers when the archives read it as
// an IPv4 address: a host of digits only is a 32-bit number, taken modulo
// 2^32; a host of up to four dot-separated numbers in one of the forms above
// is read as the C library's inet_aton reads it.
func ipv4Form(host string) (string, bool) {
	if host == "" {
		return "", false
	}
	if strings.Trim(host, "0123456789") == "" {
		var v uint32
		for i := 0; i < len(host); i++ {
			v = v*10 + uint32(host[i]-'0')
		}
		return dotted(v), true
	}
	if !decimalIPv4.MatchString(host) && !octalIPv4.MatchString(host) {
		return "", false
	}
	return inetAton(host)
}

// inetAton reads s, dot-separated numbers of digits only, as inet_aton(3)
// does: a number with a leading 0 is octal; "a.b.c.d" are four bytes; in
// "a.b.c", "a.b" and "a" the last number fills the remaining 16, 24 or 32
// bits.
func inetAton(s string) (string, bool) {
	parts := strings.Split(s, ".")
	var v uint64
	for i, p := range parts {
		n, ok := parseCNumber(p)
		if !ok {
			return "", false
		}
		if i < len(parts)-1 {
			if n > 0xff {
				return "", false
			}
			v |= n << (24 - 8*i)
			continue
		}
		if n > 0xffffffff>>(8*i) {
			return "", false
		}
		v |= n
	}
	return dotted(uint32(v)), true
}

// parseCNumber reads the digits p as strtoul(3) with base 0 does: octal
// after a leading 0, decimal otherwise. It fails on an 8 or 9 in an octal
// number and on values above 2^32, which no address part may have.
func parseCNumber(p string) (uint64, bool) {
	base := uint64(10)
	if len(p) > 1 && p[0] == '0' {
		base = 8
	}
	var n uint64
	for i := 0; i < len(p); i++ {
		d := uint64(p[i] - '0')
		if d >= base {
			return 0, false
		}
		if n = n*base + d; n > 1<<32 {
			return 0, false
		}
	}
	return n, true
}

func dotted(v uint32) string {
	return fmt.Sprintf("%d.%d.%d.%d", v>>24, v>>16&0xff, v>>8&0xff, v&0xff)
}

// surtPath applies the archives' path rules (see SURT) to the raw path p.
func surtPath(p string) string {
	p = lowerASCII(escapeArchive(resolvePath(unescapeAll(p))))
	if strings.Contains(p, ".aspx") {
		for _, re := range aspSessionPath {
			if m := re.FindStringSubmatchIndex(p); m != nil {
				p = p[:m[3]] + p[m[6]:]
			}
		}
	}
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	return p
}

// aspSessionPath match, in a lowercased path, the session segments of
// ASP.NET's cookieless sessions, "/(s(…))/" and its older form "/(…)/",
// before a .aspx page; submatch 1 is the path before the segment, 2 the
// segment, 3 what follows.
var aspSessionPath = []*regexp.Regexp{
	regexp.MustCompile(`^(.*/)(\((?:[a-z]\([0-9a-z]{24}\))+\)/)([^?]+\.aspx.*)$`),
	regexp.MustCompile(`^(.*/)(\([0-9a-z]{24}\)/)([^?]+\.aspx.*)$`),
}

// resolvePath resolves the "." and ".." segments of the decoded path p and
// removes its empty segments but the last, so that "/a//b/./c/" is "/a/b/c/"
// and "/a/.." is "/". A ".." above the root is kept, and so is anything
// before the first slash. An empty path is "/".
func resolvePath(p string) string {
	if p == "" {
		return "/"
	}
	segs := strings.Split(p, "/")[1:]
	kept := make([]string, 0, len(segs))
	for _, s := range segs {
		switch {
		case s == ".":
		case s == ".." && len(kept) > 0:
			kept = kept[:len(kept)-1]
		default:
			kept = append(kept, s)
		}
	}
	var b strings.Builder
	b.Grow(len(p))
	b.WriteByte('/')
	for i, s := range kept {
		if i == len(kept)-1 {
			b.WriteString(s)
		} else if s != "" {
			b.WriteString(s)
			b.WriteByte('/')
		}
	}
	return b.String()
}

// surtQuery applies the archives' query rules (see SURT) to the raw query q.
// It lowercases before it removes session identifiers, where the archives
// match them case-insensitively before they lowercase: the same bytes go.
func surtQuery(q string) string {
	if q == "" {
		return ""
	}
	q = lowerASCII(escapeArchive(unescapeAll(q)))
	for _, s := range sessionQuery {
		if !strings.Contains(q, s.literal) {
			continue
		}
		if m := s.re.FindStringSubmatchIndex(q); m != nil {
			after := ""
			if m[4] >= 0 {
				after = q[m[4]:m[5]]
			}
			q = q[m[2]:m[3]] + after
		}
	}
	return sortParams(q)
}

// sessionQuery match a lowercased query whose last parameter of the kind is
// a session identifier; submatch 1 is the query before it, 2 the query
// after it and its "&". The parameter's name is not anchored at a "&":
// "xsid=…" counts as "sid=…", as in the archives' keys. A pattern can match
// only a query that holds its literal.
var sessionQuery = []struct {
	literal string
	re      *regexp.Regexp
}{
	{"jsessionid=", regexp.MustCompile(`^(.*)(?:jsessionid=[0-9a-z]{32})(?:&(.*))?$`)},
	{"phpsessid=", regexp.MustCompile(`^(.*)(?:phpsessid=[0-9a-z]{32})(?:&(.*))?$`)},
	{"sid=", regexp.MustCompile(`^(.*)(?:sid=[0-9a-z]{32})(?:&(.*))?$`)},
	{"aspsessionid", regexp.MustCompile(`^(.*)(?:aspsessionid[a-z]{8}=[a-z]{24})(?:&(.*))?$`)},
	{"cftoken=", regexp.MustCompile(`^(.*)(?:cfid=[^&]+&cftoken=[^&]+)(?:&(.*))?$`)},
}

// sortParams sorts the "&"-separated parameters of q by name, then value,
// a parameter without "=" first; empty parameters count and sort first.
func sortParams(q string) string {
	if len(q) <= 1 {
		return q
	}
	params := strings.Split(q, "&")
	slices.SortFunc(params, func(a, b string) int {
		ka, va, ha := strings.Cut(a, "=")
		kb, vb, hb := strings.Cut(b, "=")
		if c := strings.Compare(ka, kb); c != 0 {
			return c
		}
		if ha != hb {
			if ha {
				return 1
			}
			return -1
		}
		return cmp.Compare(va, vb)
	})
	return strings.Join(params, "&")
}

// unescapeAll decodes the %XX escapes of s until none is left, as decoding
// it again and again would ("%2541" → "%41" → "A"), in one pass: a byte
// decoded at the end of the output may complete an escape with the two
// before it. A "%" that starts no escape stays.
func unescapeAll(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		b = append(b, s[i])
		for n := len(b); n >= 3 && b[n-3] == '%' && isHex(b[n-2]) && isHex(b[n-1]); n = len(b) {
			b = append(b[:n-3], unhex(b[n-2])<<4|unhex(b[n-1]))
		}
	}
	return string(b)
}

// escapeArchive percent-encodes, upper-case hex, the bytes the archives
// encode in a decoded path or query: up to and including the space, "#",
// "%", and from 0x7F up.
func escapeArchive(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c > ' ' && c < 0x7f && c != '#' && c != '%' {
			if b.Cap() > 0 {
				b.WriteByte(c)
			}
			continue
		}
		if b.Cap() == 0 {
			b.Grow(len(s) + 16)
			b.WriteString(s[:i])
		}
		writeEscape(&b, c)
	}
	if b.Cap() == 0 {
		return s
	}
	return b.String()
}
