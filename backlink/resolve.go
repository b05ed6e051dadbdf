package backlink

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/linkrot/relink/canon"
)

// parseURI parses an absolute page URI; which names it in errors.
func parseURI(which, raw string) (*url.URL, error) {
	if _, err := canon.Canonicalize(raw); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrBadURI, which, err)
	}
	u, err := url.Parse(cleanHref(raw))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrBadURI, which, err)
	}
	return u, nil
}

// baseURL returns the URL hrefs on the page resolve against: the first
// <base href> resolved against the page URI, unless it is unusable
// (unparsable, or a data: or javascript: URL, which the HTML standard
// ignores), and the page URI otherwise.
func (w *walker) baseURL(page *url.URL) *url.URL {
	if !w.hasBase {
		return page
	}
	b, err := page.Parse(cleanHref(w.base))
	if err != nil || b.Scheme == "data" || b.Scheme == "javascript" {
		return page
	}
	return b
}

// resolver resolves the hrefs of one page, remembering the answers: pages
// repeat hrefs (the same menu in header and footer, many links into one
// API page that differ only in their fragment).
type resolver struct {
	base *url.URL
	memo map[string]string // href without fragment -> canonical URI, or ""
}

// resolve resolves href against r.base and canonicalizes it; ok is false
// when href is not a URL or the result has no scheme or host. The fragment
// is cut before parsing, as url.Parse does, and canonicalization drops it
// anyway, so hrefs that differ only in their fragment share an answer.
func (r *resolver) resolve(href string) (uri string, ok bool) {
	href = cleanHref(href)
	if i := strings.IndexByte(href, '#'); i >= 0 {
		href = href[:i]
	}
	if u, ok := r.memo[href]; ok {
		return u, u != ""
	}
	if r.memo == nil {
		r.memo = make(map[string]string)
	}
	c := ""
	if u, err := r.base.Parse(href); err == nil {
		c, _ = canon.Canonicalize(u.String())
	}
	r.memo[href] = c
	return c, c != ""
}

// cleanHref prepares an href for URL parsing as the WHATWG URL parser does:
// it strips leading and trailing C0 controls and spaces and removes ASCII
// tabs and newlines.
func cleanHref(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	}
	return s
}

// lastSegment returns the last non-empty segment of the path of the
// canonical URI u, or "" when the path has none.
func lastSegment(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	path := strings.TrimRight(p.EscapedPath(), "/")
	return path[strings.LastIndexByte(path, '/')+1:]
}

// plainHref marks the bytes an href path may hold for the prefilter to
// judge it; any other byte (percent signs, non-ASCII, spaces, backslashes,
// brackets, quotes...) sends the href to full resolution, since URL parsing
// may escape or unescape it.
var plainHref = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for _, c := range []byte("-._~/:@$&+,;=") {
		t[c] = true
	}
	return t
}()

// mayMatch is the prefilter: it reports false only for an href that cannot
// resolve to a URI whose path has segment as its last non-empty segment.
//
// Why it is safe: when the href's path (up to the first '?' or '#') holds
// only plain bytes, URL parsing and resolution copy its segments verbatim,
// dot-segment removal only drops "." and ".." segments and the segments
// they cancel, and canonicalization only drops trailing slashes. So the
// resolved path ends (trailing slashes aside) with the href's own last
// non-empty segment, unless that segment is ".", "..", or missing (an empty
// path, "?q", "#frag", "/"), in which case the result depends on the base
// and the href must be resolved. That also covers a page linking to itself
// ("#top", ""), and a <base> changes only what the href's path is merged
// with, never its last segment. The tests compare the prefilter with
// resolving every href, on varied pages and under fuzzing.
func mayMatch(href []byte, segment string) bool {
	// Trim as cleanHref does.
	i, j := 0, len(href)
	for i < j && href[i] <= ' ' {
		i++
	}
	for j > i && href[j-1] <= ' ' {
		j--
	}
	// The path part: up to the first '?' or '#'.
	end := j
	for k := i; k < j; k++ {
		c := href[k]
		if c == '?' || c == '#' {
			end = k
			break
		}
		if !plainHref[c] {
			return true
		}
	}
	for end > i && href[end-1] == '/' {
		end--
	}
	start := end
	for start > i && href[start-1] != '/' {
		start--
	}
	last := href[start:end]
	if len(last) == 0 || string(last) == "." || string(last) == ".." {
		return true
	}
	return string(last) == segment
}
