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
// A link counts when a person can see and follow it: an <a href> outside
// script, style, template, svg and the other parts a browser does not show,
// whose href resolves (against the page URI and the page's first <base
// href>) to the target under canon.Canonicalize. Links of image maps
// (<area>) do not count, as in the paper. Words are the words of the
// rendered page, split by the one word rule of internal/words, and a radius
// counts them across element boundaries.
//
// Each link contributes its own window of words, so the windows of links
// close together overlap; the words drawn from one page for one radius
// stop at MaxDrawn of the page's word count (four times its words, and at
// least 131,072), which no page of the project's corpora reaches at the
// paper's radii, but which keeps a page with links to the target by the
// thousand from filling the memory. Located.Draw reports when a page
// reaches it.
//
// Locate reads a page once for several radii; Parse reads it once for
// several targets (a Document); Render and Words give the visible text of
// any page (the filters use them), and Decode its bytes in UTF-8; Outlinks
// lists the links of a page for a link store; Neighborhood collects level-1
// and level-2 backlinks in a deterministic order.
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
// # Navigation links
//
// A link is navigation (Link.Nav; left out by Located.Words with nav
// false) when any of these holds:
//
//  1. It is inside a nav or aside element, or inside an element whose role
//     attribute lists navigation, banner, contentinfo or complementary.
//  2. It is inside a header or footer element that is not itself inside
//     article, main, section, aside or nav (or role="main"/"article"): the
//     page banner and page footer, not the header of a blog post (the
//     HTML-AAM mapping of header and footer to banner and contentinfo).
//  3. It is inside an element, or is an a element, whose class or id holds
//     a keyword. Class and id values are split into tokens at white space
//     and each token into parts at '-' and '_'; a part that equals, ignoring
//     ASCII case, one of nav, navbar, navigation, menu, sidebar,
//     sphinxsidebar, toc, breadcrumb, breadcrumbs, related, pager,
//     pagination, prev, previous, next, header or footer is a keyword.
//     "site-nav", "main-navigation" and "nav-links" match; "toctree-wrapper"
//     does not: in Sphinx the toctree inside the page body is the content of
//     index pages, while the sidebar's toctree is inside "sphinxsidebar"
//     anyway. Four exceptions keep content apart: header and footer parts
//     count only where rule 2 would let a header element count; header,
//     footer and sidebar parts do not count in a token that also has a part
//     content, main, entry, post, article or page ("entry-header",
//     "content-sidebar-wrap"); nav, navbar and navigation parts do not
//     count in a token that also has a part content ("wy-nav-content", the
//     body of every Read the Docs theme page, where "main-navigation"
//     still counts); and the class and id of html, body, main and article
//     elements are not read at all, since themes put words such as
//     "has-sidebar" or "category-menu" there. Rule 3 stops at the page's
//     main content: inside a main element or an element with role="main",
//     the keywords of the elements around it no longer count (Read the
//     Docs themes wrap the whole page in "wy-grid-for-nav"), while rules
//     1 and 2 still do.
//  4. The a element's rel lists prev, next, up, home, index or contents.
//  5. It is a permalink: the a element's class holds the token headerlink
//     or permalink, or its visible text is just "¶", "#" or "§".
//  6. Its visible text is one of next, previous, prev, up, home, top, index
//     or contents, ignoring case.
//
// In rules 5 and 6, white space (no-break spaces included) and the arrows
// « » ← → ↑ in the text are ignored: "Next »" and "↑ Top" count.
//
// # What it does not do
//
// It runs no JavaScript, so links a script would add are not found (the
// paper did not run scripts either); it applies no CSS, so text hidden by a
// style sheet counts as visible and there is no layout beyond lynx-like
// line breaks; and it builds no DOM: it streams over the x/net/html
// tokenizer, so malformed HTML is repaired only as far as a stack of open
// elements allows. It fetches nothing and does not rank or filter pages.
// Pages are read up to MaxPageSize bytes, and the memory one page takes is
// in proportion to its bytes (at most about twenty times a page of a
// megabyte or more, on the pages BenchmarkHostilePages builds to defeat
// that): a caller that reads pages from the open web bounds their size
// before handing them over.
package backlink
