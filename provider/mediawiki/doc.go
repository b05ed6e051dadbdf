// Package mediawiki lists the pages of a MediaWiki wiki, such as
// Wikipedia, that cite a URL: a backlink.Provider over the Action API's
// list=exturlusage (the API form of Special:LinkSearch). Wikipedia's
// references are among the most linked-to records of the web's pages, and
// a dead reference's citation (its title, its site) is the anchor text
// relink looks for it again by.
//
//	c := &mediawiki.Client{} // English Wikipedia
//	pages, err := c.Backlinks(ctx, "https://old.example/a.html", 10)
//	// pages[i].URI is an article's URL, https://en.wikipedia.org/wiki/...
//
// # What it asks
//
// For a URI it asks list=exturlusage with euquery, the URI without its
// scheme, once with euprotocol=http and once with euprotocol=https (an
// empty euprotocol means http alone before MediaWiki 1.41, both after),
// in namespace 0 (articles) by default, with euprop=title|url, following
// the API's continuation (every field of "continue" sent back) until it
// has limit pages. euquery is a prefix match, so the links the wiki gives
// are compared with the URI (canon.Canonicalize, scheme aside) and only
// the same URI counts. Each page's title becomes its URL by the wiki's
// article path, asked once from meta=siteinfo unless Client.ArticlePath
// gives it.
//
// # Politeness
//
// It follows the Wikimedia API etiquette: one request at a time per
// Client (requests wait for one another), at most Client.Rate a second (1
// by default), a User-Agent that names relink and where to reach its
// authors (Wikimedia refuses generic ones; give your own contact with
// Client.UserAgent), maxlag=5 on every request, and after a maxlag or
// ratelimited error the wait the answer's Retry-After asks (at least 5
// seconds), up to MaxLagAttempts times. HTTP 429 answers (Wikimedia has
// enforced API rate limits on anonymous clients since 2026) pause every
// request of the Client for their Retry-After, at least 5 seconds, and
// 5xx answers are retried with backoff, by the shared API client.
//
// # What it does not do
//
// It does not log in (anonymous reads suffice for exturlusage), read the
// wiki pages themselves (a Fetcher does), list links from other
// namespaces unless asked (Client.Namespaces), or cache answers (wrap it
// in a provider/cache Backlinks).
package mediawiki
