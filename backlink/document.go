package backlink

import (
	"fmt"
	"net/url"
	"slices"
	"unsafe"

	"github.com/linkrot/relink/canon"
)

// Document is an HTML page read once, with its words and every link on it
// resolved, so that the links to any number of targets can be located
// without reading the page again (a backlink page of several missing URIs,
// or one page visited at two levels of a neighborhood). It is immutable and
// safe for concurrent use.
type Document struct {
	text  []byte
	words []span
	links []Link // every <a href> and <area href> that resolves, in page order
}

// Parse reads the HTML page html, whose URI is pageURI, into a Document:
// it renders the page and resolves every <a href> and <area href> against
// pageURI and the page's first <base href>, as Extract does. html is
// decoded as Decode(html, "") does. A pageURI that is not absolute returns
// an error wrapping ErrBadURI. Parse costs about what Outlinks costs; when
// only one target matters, Locate is cheaper, since it resolves only the
// hrefs that could match.
func Parse(html []byte, pageURI string) (*Document, error) {
	page, err := parseURI("page", pageURI)
	if err != nil {
		return nil, err
	}
	b, _, err := Decode(html, "")
	if err != nil {
		return nil, err
	}
	w := getWalker()
	defer putWalker(w)
	w.walk(b, keepAll, "")
	return w.document(page), nil
}

// document returns the Document of the page w has walked, whose URI is
// page; it takes w's text and words.
func (w *walker) document(page *url.URL) *Document {
	w.splitWords()
	r := resolver{base: w.baseURL(page)}
	d := &Document{links: make([]Link, 0, len(w.links))}
	for i := range w.links {
		if u, ok := r.resolve(w.links[i].href); ok {
			d.links = append(d.links, w.link(&w.links[i], u))
		}
	}
	// The Document takes copies of the walker's text and words, of their
	// size: the walker's buffers, grown as the page was read, go back to
	// the pool for the next page.
	if len(w.text) > 0 {
		d.text, d.words = slices.Clone(w.text), slices.Clone(w.words)
	}
	return d
}

// Locate returns the links on the page to target, as the function Locate
// does: <area> links do not count, a page with no link to target returns
// ErrNoLink, and a target that is not absolute returns an error wrapping
// ErrBadURI. The Located shares the Document's text.
func (d *Document) Locate(target string) (*Located, error) {
	t, err := canon.Canonicalize(target)
	if err != nil {
		return nil, fmt.Errorf("%w: target: %w", ErrBadURI, err)
	}
	var links []Link
	for _, l := range d.links {
		if !l.Area && l.URI == t {
			links = append(links, l)
		}
	}
	if links == nil {
		return nil, ErrNoLink
	}
	return &Located{text: d.text, words: d.words, links: links}, nil
}

// Outlinks returns the page's links to http and https URIs, in page order,
// as the function Outlinks does.
func (d *Document) Outlinks() []Link {
	out := make([]Link, 0, len(d.links))
	for _, l := range d.links {
		if isHTTP(l.URI) {
			out = append(out, l)
		}
	}
	return out
}

// Words returns the words a person sees on the page, as the function Words
// does with no Content-Type.
func (d *Document) Words() []string {
	all := string(d.text)
	out := make([]string, len(d.words))
	for i, s := range d.words {
		out[i] = all[s.start:s.end]
	}
	return out
}

// Size returns about how many bytes of memory the Document holds: its
// text, its words and its links, counted by the capacity of the buffers
// that hold them. A cache of Documents can keep to a byte budget by it.
// The links' URIs and anchors are interned, held once however many
// Documents link alike (a site's menus repeat on every page): Size
// counts them as shared, not at all.
func (d *Document) Size() int {
	n := cap(d.text) + cap(d.words)*int(unsafe.Sizeof(span{})) + cap(d.links)*int(unsafe.Sizeof(Link{}))
	for _, l := range d.links {
		n += len(l.Rel) + len(l.Fragment)
	}
	return n
}
