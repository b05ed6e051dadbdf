package canon

import (
	"strings"
	"unicode/utf8"
)

const upperHex = "0123456789ABCDEF"

// normalizePercent rewrites the escapes of s as Options.PercentEncoding
// describes: upper-case hex digits, unreserved characters decoded, and a "%"
// that starts no escape written %25.
func normalizePercent(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			b.WriteString("%25")
			continue
		}
		v := unhex(s[i+1])<<4 | unhex(s[i+2])
		if isUnreserved(v) {
			b.WriteByte(v)
		} else {
			writeEscape(&b, v)
		}
		i += 2
	}
	return b.String()
}

// isUnreserved reports whether c is an unreserved character of RFC 3986
// §2.3: A-Z a-z 0-9 - . _ ~.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

// unescapeLoose decodes the valid %XX escapes of s and leaves everything else,
// including "+" and stray "%", as it is. It is used to compare parameter
// names, never to build a URI.
func unescapeLoose(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// escapeNonASCII percent-encodes the bytes of s above 0x7F, upper-case hex,
// and leaves the others alone.
func escapeNonASCII(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2*(len(s)-i))
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		if c := s[i]; c < utf8.RuneSelf {
			b.WriteByte(c)
		} else {
			writeEscape(&b, c)
		}
	}
	return b.String()
}

// writeEscape writes c as %XX with upper-case hex digits.
func writeEscape(b *strings.Builder, c byte) {
	b.WriteByte('%')
	b.WriteByte(upperHex[c>>4])
	b.WriteByte(upperHex[c&15])
}
