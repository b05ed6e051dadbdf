package backlink

import "strings"

// Outlinks returns the links on the HTML page html in page order: every
// <a href> and <area href> a person could follow whose target, resolved
// against pageURI and the page's first <base href>, is an http or https URI.
// URIs are canonical (canon.Canonicalize); a page linking twice to one URI
// gives two Links. hrefs that do not parse, and javascript:, mailto:, data:,
// ftp: and other schemes, are skipped, as are links inside the parts of the
// page Render does not show. Start and End are offsets in the sequence Words
// returns for the same page, so a caller can draw a radius around any link.
//
// html is decoded as Decode(html, "") does. A pageURI that is not absolute
// returns an error wrapping ErrBadURI. A page without links returns an empty
// slice.
func Outlinks(html []byte, pageURI string) ([]Link, error) {
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
	w.splitWords()
	r := resolver{base: w.baseURL(page)}
	out := make([]Link, 0, len(w.links))
	for i := range w.links {
		l := &w.links[i]
		if u, ok := r.resolve(l.href); ok && isHTTP(u) {
			out = append(out, w.link(l, u))
		}
	}
	return out, nil
}

// isHTTP reports whether the canonical URI u is an http or https URI.
func isHTTP(u string) bool {
	return strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")
}
