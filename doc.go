// Package relink finds where a missing web page went, using only the pages
// that link to it.
//
// The method is Ware, Klein and Nelson's "An Evaluation of Link Neighborhood
// Lexical Signatures to Rediscover Missing Web Pages": take the pages that
// link to the missing URI (its backlinks), keep the ones that pass five
// filters, draw the words each of them uses to point at the missing URI (the
// anchor text, or a radius of words around the link), rank those words by
// TF-IDF, and send the top few as a query (a lexical signature) to a search
// engine, which often answers with the page at its new address. The paper's
// best setting is level-1 backlinks, anchor text only, the top 10 backlinks
// and 4 terms.
//
// Every stage is a small package that can be used alone, and every source of
// data is an interface the caller plugs in:
//
//	uri, _ := canon.Canonicalize("HTTP://Example.com:80/old/page.html#top")
//	links, _ := backlink.Neighborhood(ctx, provider, uri, 1, 10)
//	tf := map[string]int{}
//	for _, l := range links {
//		page, _ := fetcher.Fetch(ctx, l.URI)
//		if rej, _ := filters.Check(ctx, page); rej != nil {
//			continue // recorded with its filter and reason
//		}
//		words, _ := backlink.Extract(page.Body, page.URI, uri, backlink.Anchor)
//		lexsig.CountInto(tf, words)
//	}
//	terms, _ := lexsig.Rank(ctx, tf, df)
//	results, _ := searcher.Search(ctx, lexsig.Signature(terms).Top(4).Query(lexsig.Conjunctive), 10)
//
// The Finder runs these stages for one missing URI and returns the
// candidates with an audit trail; Evaluate runs the paper's grid of methods
// over many targets, fetching, filtering and parsing each backlink page and
// running each distinct query once, and scores the results with package
// score.
//
// # Packages
//
//   - [github.com/linkrot/relink/canon] canonicalizes URIs: the paper's four
//     rules, stricter archive-style options and SURT keys.
//   - [github.com/linkrot/relink/backlink] walks the backlink neighborhood,
//     renders HTML to the words a person sees and extracts the words around
//     links to a target.
//   - [github.com/linkrot/relink/filter] fetches nothing itself: it defines
//     Page and Fetcher and applies the paper's five filters (HTTP status, file
//     type, size, language, soft 404).
//   - [github.com/linkrot/relink/lexsig] tokenizes, drops stop words, counts
//     term frequencies, ranks by TF-IDF and builds queries; it defines the DF
//     and Searcher interfaces and a DF cache.
//   - [github.com/linkrot/relink/score] scores results with the paper's DCG*,
//     rank buckets, MRR and success@k, and renders the paper's tables.
//   - [github.com/linkrot/relink/provider/store] is the embedded default: one
//     SQLite file holding pages, links and a full-text index, serving every
//     interface above with no service and no network.
//   - [github.com/linkrot/relink/provider/warc] reads and writes WARC files and
//     replays them as a Fetcher.
//   - [github.com/linkrot/relink/provider/web] fetches from the live web with
//     retries, per-host politeness, robots.txt and size and time limits.
//
// # Beyond the paper
//
// A Strategy is a method of the project's own, run on the Clues of a missing
// page (its URI, its gathered level-1 backlinks and, for some, an archived
// copy): the backlinks' most used anchor text as a phrase (AnchorPhrase),
// the dead URI's words (URLTerms), both combined (Combined), a Cascade that
// stops at the first confident query, a Fusion of several queries' ranks,
// and Rerank, which orders the top candidates by how much of the anchor
// phrases their titles hold. Best returns the best that needs no archived
// copy; set it as Finder.Strategy. ArchiveTitle and ArchiveSignature use an
// archived copy (Clues.Archive, Finder.Archive). Evaluate runs Strategies
// beside the paper's grid and reports each method's cost.
//
// # Programs
//
// The examples directory holds small programs built on these packages:
// corpus builds a store, rediscover treats a URL as missing and finds it
// again, signature computes a lexical signature from saved backlink pages,
// soft404 runs the paper's soft-404 check on a live URL, and experiment
// reproduces the paper's tables and figures.
package relink
