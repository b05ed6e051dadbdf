// Package backlink reads the pages that link to a missing page: it renders
// HTML to the words a person sees, finds the links on a page to a target URI,
// draws the words around them, lists a page's outlinks, tells navigation
// links from content links, and walks the backlink neighborhood of a URI
// through a Provider. It implements §3.1 ("Backlink validation",
// "Rendering") and §3.2 ("Backlink Depth", "Radius") of the paper.
//
// Extract is the heart of it: given a backlink page, its URI and the missing
// URI, it returns the anchor words of every link to the missing URI, plus a
// radius of words on each side, or the whole page:
//
//	words, err := backlink.Extract(body, "http://example.com/list.html",
//		"http://example.org/missing.html", backlink.Anchor)
//	if errors.Is(err, backlink.ErrNoLink) {
//		// the page does not link to the target: drop it
//	}
//
// Locate reads a page once for several radii; Render and Words give the
// visible text of any page (the filters use them); Outlinks lists the links
// of a page for a link store; Neighborhood collects level-1 and level-2
// backlinks in a deterministic order.
//
// # What the caller does
//
// backlink does no I/O of its own except through the Provider handed to
// Neighborhood: the caller fetches the pages (with filter.Fetcher or its own
// crawler, cache or WARC replay) and passes their bytes. A caller that knows
// the HTTP Content-Type header passes it to Render, Words or Decode; the
// functions that take no header decode as a browser does without one (byte
// order mark, <meta>, then detection). Everything here is safe for
// concurrent use.
//
// # What it does not do
//
// It runs no JavaScript, so links a script would add are not found (the
// paper did not run scripts either); it applies no CSS, so text hidden by a
// style sheet counts as visible and there is no layout beyond lynx-like
// line breaks; and it builds no DOM: it streams over the x/net/html
// tokenizer, so malformed HTML is repaired only as far as a stack of open
// elements allows. It fetches nothing and does not rank or filter pages.
package backlink
