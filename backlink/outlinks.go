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
	d, err := Parse(html, pageURI)
	if err != nil {
		return nil, err
	}
	return d.Outlinks(), nil
}

// isHTTP reports whether the canonical URI u is an http or https URI.
func isHTTP(u string) bool {
	return strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")
}
