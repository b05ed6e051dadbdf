// Package canon canonicalizes URIs so that two spellings of one resource
// compare equal, and turns them into the sort-friendly keys (SURTs) that web
// archives index by.
//
// # Rules
//
// Canonicalize applies the paper's rules (Ware, Klein and Nelson, §3.1
// "URI canonicalization") exactly: lowercase the scheme and host, drop the
// default port (:80 for http and, by the same reasoning, :443 for https),
// drop the fragment, and drop the slash that ends the URI. These are the
// rules under which the rest of relink decides that a link points at a
// missing page, so backlink and filter compare URIs with Canonicalize.
//
// Two more rules give a host and a port one spelling each, so that the
// paper's rules see one name where a browser sees one (since Rules 2). A
// port is a number: ":0080" is port 80, which the :80 rule removes, and a
// port above 65535 is an error. A host name is written in ASCII, Unicode
// labels as punycode (IDNA, RFC 5890 and 5891, by UTS #46 as browsers do),
// so that "http://Bücher.example/" and "http://xn--bcher-kva.example/" are
// one key; a host IDNA rejects, such as "xn--", is an error. Rules is the
// version of these rules, for stores that keep canonical URIs as keys.
//
// Options adds the stricter normalizations web archives use, one field per
// rule: PercentEncoding, DotSegments, TrailingDot and EmptyQuery (which
// Strict selects, as they keep the resource a URI names), and StripWWW,
// SortQuery and SessionIDs (which may not, and are off unless asked for).
// The zero Options are Canonicalize's rules alone. Every combination is
// idempotent.
//
//	c, err := canon.Strict().Canonicalize("http://Bücher.example./%7eu/./a/?x=⚑")
//	// c == "http://xn--bcher-kva.example/~u/a/?x=%E2%9A%91"
//
// SURT gives the key of a URI in the indexes of the Wayback Machine, pywb
// and Common Crawl, byte for byte as their own canonicalizer writes it:
// "http://www.Example.com/a/?b=2&a=1" is "com,example)/a?a=1&b=2". The key
// follows the archives' rules, not Options, and a URI and its canonical form
// have one key.
//
// # What the caller must do
//
// Pass absolute URIs: resolve an href against its page (and any <base>)
// first, for example with net/url's ResolveReference. A relative or hostless
// URI is an error matching ErrNotAbsolute, an invalid host one matching
// ErrInvalidHost, a port above 65535 one matching ErrInvalidPort; every
// error is an *Error that names the input. Use the same rules on both sides
// of a comparison: a URI canonicalized with Strict does not in general equal
// one canonicalized with the paper's rules. Record Rules beside keys you
// store, and rebuild them when it changes.
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
