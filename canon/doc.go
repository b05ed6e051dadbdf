// Package canon canonicalizes URIs so that two spellings of one resource
// compare equal, and turns them into the sort-friendly keys (SURTs) that web
// archives index by.
//
// # Rules
//
// Canonicalize applies exactly the paper's rules (Ware, Klein and Nelson,
// §3.1 "URI canonicalization"): lowercase the scheme and host, drop the
// default port (:80 for http and, by the same reasoning, :443 for https),
// drop the fragment, and drop the slash that ends the URI. These are the
// rules under which the rest of relink decides that a link points at a
// missing page, so backlink and filter compare URIs with Canonicalize.
//
// Options adds the stricter normalizations web archives use, one field per
// rule: PercentEncoding, DotSegments, IDNA and EmptyQuery (which Strict
// selects, as they keep the resource a URI names), and StripWWW, SortQuery
// and SessionIDs (which may not, and are off unless asked for). The zero
// Options are the paper's rules alone. Every combination is idempotent.
//
//	c, err := canon.Strict().Canonicalize("http://Bücher.example/%7eu/./a/")
//	// c == "http://xn--bcher-kva.example/~u/a"
//
// SURT canonicalizes with Strict plus SortQuery and StripWWW and rewrites the
// result as "com,example)/path?query": host labels reversed, scheme dropped,
// lowercased.
//
// # What the caller must do
//
// Pass absolute URIs: resolve an href against its page (and any <base>)
// first, for example with net/url's ResolveReference. A relative or hostless
// URI is an error matching ErrNotAbsolute; every error is an *Error that
// names the input. Use the same rules on both sides of a comparison: a URI
// canonicalized with Strict does not in general equal one canonicalized with
// the paper's rules.
//
// # What it does not do
//
// canon is pure string processing. It does no I/O: it follows no redirects,
// resolves no host names (DNS), fetches nothing, and so cannot know that two
// hosts or two paths serve the same page. It does not guess a missing
// scheme ("example.com/a" is relative), does not change the path's case (a
// SURT key is lowercased whole, but it is a key, not a URI), does not
// reorder or drop query parameters unless asked, and does not undo
// escaping beyond the unreserved characters. All functions are safe for
// concurrent use.
package canon
