package backlink

import (
	"strings"
	"unique"
)

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

// rawLink is a link the walker recorded, before its href is resolved.
type rawLink struct {
	href  string
	rel   string
	start int  // byte offset in the text where the link starts
	end   int  // byte offset where it ends
	area  bool // an image-map <area>
	// nav is the navigation verdict of the link's elements (see nav.go);
	// the anchor-text rules are applied after the walk.
	nav bool
}

// startLink opens a link for an <a> start tag with attributes at, whose
// elements carry flags.
func (w *walker) startLink(at *attrs, flags uint8) {
	if !at.hasHref || !w.keep(at.href) {
		return
	}
	w.links = append(w.links, rawLink{
		href:  string(at.href),
		rel:   string(at.rel),
		start: len(w.text),
		end:   -1,
		nav:   isNav(flags) || linkAttrNav(at),
	})
	w.open = len(w.links) - 1
}

// area records an image-map <area href> with attributes at.
func (w *walker) area(at *attrs, flags uint8) {
	if !at.hasHref || w.mode != keepAll {
		return
	}
	w.links = append(w.links, rawLink{
		href:  string(at.href),
		rel:   string(at.rel),
		start: len(w.text),
		end:   len(w.text),
		area:  true,
		nav:   isNav(flags) || linkAttrNav(at),
	})
}

// closeLink ends the open link, if any, at the current end of the text.
func (w *walker) closeLink() {
	if w.open >= 0 {
		w.links[w.open].end = len(w.text)
		w.open = -1
	}
}

// keep reports whether a link with this href is to be recorded.
func (w *walker) keep(href []byte) bool {
	switch w.mode {
	case keepAll:
		return true
	case keepFilter:
		return mayMatch(href, w.segment)
	}
	return false
}

// setBase records the href of the first <base>, whose attributes are at.
func (w *walker) setBase(at *attrs) {
	if !w.hasBase && at.hasHref {
		w.base, w.hasBase = string(at.href), true
	}
}

// link returns the Link for a recorded link whose canonical target is uri.
// w.words must be filled.
func (w *walker) link(l *rawLink, uri string) Link {
	first, last := w.wordRange(l.start, l.end)
	return Link{
		// Interned: the pages of a site repeat the same links (menus,
		// tables of contents), whose URIs and anchors a cache of many
		// Documents then holds once.
		URI:      unique.Make(uri).Value(),
		Anchor:   unique.Make(joinWords(w.text, w.words[first:last])).Value(),
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
