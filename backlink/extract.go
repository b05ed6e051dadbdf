package backlink

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"

	"github.com/linkrot/relink/canon"
)

// ErrBadURI is returned, wrapped together with the cause from
// canon.Canonicalize, when a page URI or a target URI is not an absolute URI
// with a scheme and a host.
var ErrBadURI = errors.New("backlink: bad URI")

// ErrRadius is returned by Extract for a radius below Page.
var ErrRadius = errors.New("backlink: radius below Page")

// Rules is the version of the rules that give a Link its verdicts (Nav,
// Address, Fragment). It changes whenever one of those rules does, so that
// a store that recorded verdicts can tell that they are stale: 1 before
// Address, Fragment and the main-content exception of the navigation
// rules; 2 since.
const Rules = 2

// Link is a link on a page.
type Link struct {
	// URI is the target, absolute and canonical (canon.Canonicalize),
	// resolved against the page URI and the page's first <base href>.
	URI string
	// Anchor is the anchor's visible words joined by single spaces; "" for
	// an image link without alt text and for an <area>.
	Anchor string
	// Area marks a link of an image map (<area href>). Such links do not
	// count as links to a target (the paper, §3.1 "Backlink validation").
	Area bool
	// Nav marks a navigation link: a menu, sidebar, breadcrumb, pager or
	// permalink link (the package documentation, "Navigation links").
	Nav bool
	// Rel is the rel attribute as written, or "".
	Rel string
	// Fragment is the fragment of the href as written, without its "#":
	// a link with one points at a part of the page (a section, a
	// function), and its text names that part.
	Fragment string
	// Address marks a link whose visible text is the link's own address
	// written out rather than words about the page: the target URI, with
	// or without its scheme, or a tail of its path holding a "/" or a "."
	// ("https://example.org/a/b.html", "example.org/a/b.html",
	// "a/b.html", "b.html"). Its words are the URI's, not a description.
	Address bool
	// Start and End bound the anchor in the page's word sequence (as Words
	// returns it): the anchor's words are words[Start:End]. A word only
	// partly inside the anchor ("re<a>link</a>" renders as one word) counts
	// as an anchor word. An anchor without words has Start == End, the index
	// of the first word after it.
	Start, End int
}

// Located is a page read once, with the links on it to one target, from
// which words can be drawn for any radius. It is safe for concurrent use:
// its methods do not modify it.
type Located struct {
	text  []byte
	words []span
	links []Link
}

// Extract returns the words a person sees within radius words of every link
// on the HTML page html whose href, resolved against pageURI and the page's
// first <base href>, equals target under canon.Canonicalize (the paper,
// §3.1 "Backlink validation", §3.2 "Radius"): for each such link in page
// order, its anchor words plus radius words before and after it. Page (-1)
// returns every visible word of the page once; Anchor (0) the anchor words
// alone. Words are counted in rendered order across element boundaries (see
// Render and Words); the windows of neighbouring links may overlap, and then
// the words they share are returned once per link, as each link contributes
// its own context.
//
// Only <a href> links a person can see count: <area> links of image maps do
// not (a page whose only link to the target is in an image map returns
// ErrNoLink, as in the paper), nor do <link> elements or links inside
// script, template, svg and the other parts Render does not show. An anchor
// with no words (an image without alt text) counts; its radius words are
// drawn as for any other.
//
// html is decoded as Decode(html, "") does; to honour a Content-Type header,
// decode the page with Decode first and pass the result. A page URI or
// target that is not absolute returns an error wrapping ErrBadURI and the
// canon error; a radius below Page returns ErrRadius; a page with no link to
// target returns ErrNoLink. The result is empty, not nil, when the links
// have no words to draw (image links without alt text, radius Anchor).
// Extract is Locate followed by Located.Words(radius, true), but cheaper: it
// splits into words only the text near the links. It is safe for concurrent
// use.
func Extract(html []byte, pageURI, target string, radius Radius) ([]string, error) {
	if radius < Page {
		return nil, fmt.Errorf("%w: %d", ErrRadius, radius)
	}
	w := getWalker()
	defer putWalker(w)
	if _, err := w.match(html, pageURI, target, true); err != nil {
		return nil, err
	}
	if radius == Page {
		return w.allWords(), nil
	}
	r := min(int(radius), len(w.text)+1) // no window is wider than the page
	// Only the text around the links is split into words (see window),
	// unless that turns out to cost more than splitting the whole page.
	spans := w.spans[:0]
	budget := 2*len(w.text) + 4096
	for _, i := range w.matched {
		var ok bool
		if spans, ok = w.window(spans, &w.links[i], r, &budget); !ok {
			spans = w.globalWindows(spans[:0], r)
			break
		}
	}
	w.spans = spans
	return appendWords(make([]string, 0, len(spans)), w.text, spans), nil
}

// globalWindows appends to dst the words drawn for radius r around every
// matched link, from the page's whole word sequence.
func (w *walker) globalWindows(dst []span, r int) []span {
	w.splitWords()
	for _, i := range w.matched {
		l := &w.links[i]
		first, last := w.wordRange(l.start, l.end)
		dst = append(dst, w.words[max(0, first-r):min(len(w.words), last+r)]...)
	}
	return dst
}

// Locate reads the HTML page html once and finds the links on it to target,
// as Extract does, returning them with the page's words so that words for
// several radii can be drawn without reading the page again. A page with no
// link to target returns ErrNoLink; bad URIs return errors wrapping
// ErrBadURI.
func Locate(html []byte, pageURI, target string) (*Located, error) {
	w := getWalker()
	defer putWalker(w)
	links, err := w.locate(html, pageURI, target, true)
	if err != nil {
		return nil, err
	}
	// The Located takes the walker's text and words; the walker goes back
	// to the pool without them.
	loc := &Located{text: w.text, words: w.words, links: links}
	w.text, w.words = nil, nil
	return loc, nil
}

// Links returns the links to the target in page order; never empty.
func (l *Located) Links() []Link {
	return append([]Link(nil), l.links...)
}

// Words returns the words drawn around the links to the target for radius
// r, as Extract does: for each link in page order its anchor words and r
// words on each side; for Page, every word of the page. When nav is false,
// links classified as navigation are left out (for Page, nav makes no
// difference). A negative r other than Page is read as Page. The result may
// be empty when nav is false and every link is navigation.
//
// A link is navigation when it sits in a nav, aside, page header or page
// footer, or in an element whose role, class or id says navigation (menus,
// sidebars, breadcrumbs, tables of contents, pagers, related links), when
// its rel is prev, next, up, home, index or contents, when it is a "¶"
// permalink, or when its text is just "next", "previous", "up", "home",
// "top", "index" or "contents"; the package documentation ("Navigation
// links") spells the rules out.
func (l *Located) Words(r Radius, nav bool) []string {
	if nav {
		return l.WordsOf(r, nil)
	}
	return l.WordsOf(r, func(k Link) bool { return !k.Nav })
}

// WordsOf is Words for the links keep accepts (every link when keep is
// nil): for each, in page order, its anchor words and r words on each
// side; for Page, every word of the page whatever keep says. The result
// is empty when keep accepts no link.
func (l *Located) WordsOf(r Radius, keep func(Link) bool) []string {
	if r < Page {
		r = Page
	}
	if keep == nil {
		keep = func(Link) bool { return true }
	}
	return selectWords(l.text, l.words, l.links, r, keep)
}

// selectWords draws the words for radius r around the links keep accepts
// from a page's text and words.
func selectWords(text []byte, ws []span, links []Link, r Radius, keep func(Link) bool) []string {
	if r == Page {
		return appendWords(make([]string, 0, len(ws)), text, ws)
	}
	rr := min(int(r), len(ws)) // no window is wider than the page
	// window returns the words drawn around link l.
	window := func(l Link) []span {
		return ws[max(0, l.Start-rr):min(len(ws), l.End+rr)]
	}
	words, size := 0, 0
	for _, l := range links {
		if !keep(l) {
			continue
		}
		w := window(l)
		words += len(w)
		if len(w) > 0 {
			size += int(w[len(w)-1].end - w[0].start)
		}
	}
	out := make([]string, 0, words)
	if words == 0 {
		return out
	}
	// One string holds the text of all the windows; the words are slices
	// of it.
	var b strings.Builder
	b.Grow(size)
	for _, l := range links {
		if !keep(l) {
			continue
		}
		if w := window(l); len(w) > 0 {
			b.Write(text[w[0].start:w[len(w)-1].end])
		}
	}
	all := b.String()
	off := 0
	for _, l := range links {
		if !keep(l) {
			continue
		}
		w := window(l)
		if len(w) == 0 {
			continue
		}
		base := off - int(w[0].start)
		for _, s := range w {
			out = append(out, all[base+int(s.start):base+int(s.end)])
		}
		off += int(w[len(w)-1].end - w[0].start)
	}
	return out
}

// locate walks the page and returns the links to target, with w.words
// filled. With prefilter false every href is resolved: that is the slow
// reference the prefilter is tested against.
func (w *walker) locate(body []byte, pageURI, target string, prefilter bool) ([]Link, error) {
	t, err := w.match(body, pageURI, target, prefilter)
	if err != nil {
		return nil, err
	}
	w.splitWords()
	links := make([]Link, len(w.matched))
	for i, j := range w.matched {
		links[i] = w.link(&w.links[j], t)
	}
	return links, nil
}

// match walks the page and fills w.matched with the indexes in w.links of
// the links to target, returning target's canonical form; ErrNoLink when
// there are none.
func (w *walker) match(body []byte, pageURI, target string, prefilter bool) (string, error) {
	page, err := parseURI("page", pageURI)
	if err != nil {
		return "", err
	}
	t, err := canon.Canonicalize(target)
	if err != nil {
		return "", fmt.Errorf("%w: target: %w", ErrBadURI, err)
	}
	b, _, err := Decode(body, "")
	if err != nil {
		return "", err
	}
	segment := lastSegment(t)
	mode := keepFilter
	if !prefilter || segment == "" {
		mode = keepAll
	}
	w.walk(b, mode, segment)
	r := resolver{base: w.baseURL(page)}
	w.matched = w.matched[:0]
	for i := range w.links {
		l := &w.links[i]
		if l.area {
			continue
		}
		if u, ok := r.resolve(l.href); ok && u == t {
			w.matched = append(w.matched, i)
		}
	}
	if len(w.matched) == 0 {
		return "", ErrNoLink
	}
	return t, nil
}

// link returns the Link for a recorded link whose canonical target is uri.
// w.words must be filled.
func (w *walker) link(l *rawLink, uri string) Link {
	first, last := w.wordRange(l.start, l.end)
	var anchor string
	if last > first {
		anchor = strings.Join(appendWords(nil, w.text, w.words[first:last]), " ")
	}
	return Link{
		URI:      uri,
		Anchor:   anchor,
		Area:     l.area,
		Nav:      l.nav || !l.area && navText(w.text[l.start:l.end]),
		Rel:      l.rel,
		Fragment: fragment(l.href),
		Address:  !l.area && l.end-l.start <= maxAddress && isAddress(string(w.text[l.start:l.end]), uri),
		Start:    first,
		End:      last,
	}
}

// fragment returns the fragment of an href, without its "#", or "".
func fragment(href string) string {
	_, f, _ := strings.Cut(href, "#")
	return strings.TrimSpace(f)
}

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
