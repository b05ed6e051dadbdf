package backlink

import (
	"net/url"
	"strings"
	"unicode"

	"github.com/linkrot/relink/canon"
)

// maxAddress bounds the length of a link text that isAddress reads: an
// address longer than this is not one a person wrote out.
const maxAddress = 2048

// IsAddress reports whether text, the visible text of a link to target, is
// the target's address written out rather than words about the page (see
// Link.Address): the URI with or without its scheme, or a tail of its path
// holding a "/" or a ".". Hosts compare without case and without a leading
// "www."; paths compare as written or unescaped. A target that is not an
// absolute URI gives false.
func IsAddress(text, target string) bool {
	t, err := canon.Canonicalize(target)
	if err != nil || len(text) > maxAddress {
		return false
	}
	return isAddress(text, t)
}

// isAddress is IsAddress for a canonical target.
func isAddress(text, target string) bool {
	s := strings.Trim(strings.TrimSpace(text), "<>()[]\"'")
	if s == "" || strings.ContainsFunc(s, unicode.IsSpace) || !strings.ContainsAny(s, "./") {
		return false
	}
	i := strings.Index(target, "://")
	if i < 0 {
		return false
	}
	want := []string{target[i+3:]}
	if p, err := url.PathUnescape(want[0]); err == nil && p != want[0] {
		want = append(want, p)
	}
	s = strings.TrimRight(s, "/")
	if j := strings.Index(s, "://"); j >= 0 {
		c, err := canon.Canonicalize(s)
		if err != nil {
			return false
		}
		s = c[strings.Index(c, "://")+3:]
	}
	whole := stripWWW(s)
	tail := "/" + strings.TrimPrefix(strings.TrimPrefix(s, "./"), "/")
	for _, w := range want {
		if strings.EqualFold(hostOf(whole), hostOf(stripWWW(w))) && pathOf(whole) == pathOf(stripWWW(w)) ||
			strings.HasSuffix(w, tail) {
			return true
		}
	}
	return false
}

// stripWWW returns a host-and-path without a leading "www.".
func stripWWW(s string) string {
	if len(s) > 4 && strings.EqualFold(s[:4], "www.") {
		return s[4:]
	}
	return s
}

// hostOf returns the part of a host-and-path before its first "/".
func hostOf(s string) string {
	if i := strings.IndexByte(s, '/'); i >= 0 {
		return s[:i]
	}
	return s
}

// pathOf returns the part of a host-and-path from its first "/", or "".
func pathOf(s string) string {
	return s[len(hostOf(s)):]
}
