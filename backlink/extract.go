package backlink

import (
	"errors"
	"fmt"

	"github.com/linkrot/relink/canon"
)

// ErrBadURI is returned, wrapped together with the cause from
// canon.Canonicalize, when a page URI or a target URI is not an absolute URI
// with a scheme and a host.
var ErrBadURI = errors.New("backlink: bad URI")

// ErrRadius is returned by Extract for a radius below Page.
var ErrRadius = errors.New("backlink: radius below Page")

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
// The words drawn from one page are at most MaxDrawn of its word count,
// which no page reaches at the paper's radii unless it holds links to the
// target by the thousand; Located.Draw tells whether a page reached it.
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
		spans, ok = w.window(spans, &w.links[i], r, &budget)
		if !ok || len(spans) > DrawFloor {
			// Splitting locally costs too much, or the words may be more
			// than MaxDrawn allows, which depends on the page's word count:
			// split the whole page.
			spans = w.globalWindows(spans[:0], r)
			break
		}
	}
	w.spans = spans
	return appendWords(make([]string, 0, len(spans)), w.text, spans), nil
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
// be empty when nav is false and every link is navigation. Like Extract, it
// holds at most MaxDrawn of the page's word count; Draw tells whether that
// bound left words out.
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
// is empty when keep accepts no link. It holds at most MaxDrawn of the
// page's word count; Draw tells whether that bound left words out.
func (l *Located) WordsOf(r Radius, keep func(Link) bool) []string {
	words, _ := l.Draw(r, keep)
	return words
}

// Draw is WordsOf that also reports whether the bound on the words drawn
// from one page cut them: words holds at most MaxDrawn(n) words for a page
// of n words, and cut is true when the windows of the links keep accepts
// hold more. Then words are the first MaxDrawn(n) words WordsOf would
// give without the bound, in page order: the last window kept may be cut
// short, and the links after it give none. No page of the project's
// corpora is cut at the paper's radii (see MaxDrawn); a page that is cut
// has links to the target by the thousand, and a caller that keeps an
// audit trail should record it. For Page, cut is always false.
func (l *Located) Draw(r Radius, keep func(Link) bool) (words []string, cut bool) {
	if r < Page {
		r = Page
	}
	if keep == nil {
		keep = func(Link) bool { return true }
	}
	return selectWords(l.text, l.words, l.links, r, keep)
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
