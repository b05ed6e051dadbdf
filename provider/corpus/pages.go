package corpus

import "time"

// BacklinkOptions says which links make a page a backlink, for a store's
// BacklinksWith and Provider methods. The zero value
// counts every <a> link, navigation included, as the paper did (and as the
// benchmark's plain method names mean).
type BacklinkOptions struct {
	// ExcludeNav leaves navigation links out (sidebars, tables of contents,
	// breadcrumbs, page headers and footers, prev/next, "¶" permalinks; the
	// heuristic is backlink's): a page is then a backlink only if one of
	// its other links points to the target.
	ExcludeNav bool
	// Area counts links of image maps (<area href>), which the paper did
	// not count (§3.1 "Backlink validation").
	Area bool
}

// PageInfo describes one page of a store, as its PageInfo and Pages
// methods return it.
type PageInfo struct {
	// URI is the page's canonical URI.
	URI string
	// Site is the manifest site the page belongs to, or the host of a WARC
	// capture.
	Site string
	// Title is the text of the page's <title>.
	Title string
	// Words is the number of words a person sees on the page.
	Words int
	// Backlinks is the number of distinct other pages and link sources
	// that link to it (image maps left out): its in-degree, the backlink
	// rank's key.
	Backlinks int
	// ContentBacklinks is Backlinks with pages' navigation links left out
	// too (a link source's links all count).
	ContentBacklinks int
	// Source is the file or WARC record the page came from.
	Source string
}

// Link is one link of a stored page, as a store's Links method returns
// it.
type Link struct {
	// URI is the link's canonical target.
	URI string
	// Anchor is the anchor's visible words joined by spaces.
	Anchor string
	// Nav marks a navigation link, Area an image-map link.
	Nav, Area bool
}

// LinkSource describes a link source: a page the store holds no copy of,
// known by its link records (a store's IngestWAT), as its LinkSource
// method returns it.
type LinkSource struct {
	// URI is the page's canonical URI.
	URI string
	// Fetched is when the crawler fetched the page; the zero Time when
	// unknown.
	Fetched time.Time
	// Links is the number of its link records.
	Links int
	// Backlinks and ContentBacklinks are its in-degree, as for PageInfo:
	// the distinct other pages and link sources that link to it.
	Backlinks, ContentBacklinks int
	// Source is the WAT file and record it came from, "wat:<path>#<record>".
	Source string
}
