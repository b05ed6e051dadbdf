// Package relink finds where a missing web page went, using only the pages
// that link to it.
//
// A Finder looks for one missing URI with a Strategy (nil: Default, the
// project's best method) and returns the candidates, an audit trail of
// every backlink page (kept, or why not) and a confidence that the first
// candidate is the page. Its four providers are interfaces; package
// provider/store gives all four from one SQLite file that relink corpus
// builds, and provider/web, provider/site and the search engines' packages
// serve the live web:
//
//	f := &relink.Finder{Backlinks: provider, Fetcher: fetcher, DF: df, Searcher: searcher}
//	res, err := f.Find(ctx, "https://example.com/old/page.html")
//	if errors.Is(err, relink.ErrNoQuery) {
//		// no backlink gave a word: res.Backlinks says why
//	}
//	if err == nil && res.Found {
//		fmt.Println(res.Candidates[0].URI, res.Confidence)
//	}
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
// Every stage of the method is a small package that can be used alone,
// and every source of data is an interface the caller plugs in:
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
// Find is the stages Clues (the neighborhood a Strategy needs, each page
// inspected with Gather and Inspect), the Strategy's Find, and Answer (the
// candidates without the missing URI and the pages that link to it, ranked
// anew, with their Confidence). They are public, so that a program that
// runs many finds (an experiment, a bulk repair) calls the same code with
// caches around the providers; Finder.Pages keeps inspected pages across
// finds. A Finder never panics on a caller's mistake: missing providers are
// ErrProvider, a URI that is not http(s) ErrScheme.
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
//   - [github.com/linkrot/relink/provider/searchapi] runs the web search APIs
//     (provider/google, brave, marginalia, mojeek, searxng) as Searchers.
//
// # Methods
//
// Paper is the paper's method, with its knobs (depth, backlinks, radius,
// signature size, which links count); its zero value is the paper's best
// setting. The project's own methods are Strategies too: the backlinks' most
// used anchor text as a phrase (AnchorPhrase), the dead URI's words
// (URLTerms) and its last segment as a phrase (URLPhrase), both combined (Combined), a Cascade that stops at the first
// confident query, a Fusion of several queries' ranks, and Rerank, which
// orders the top candidates by how much of the anchor phrases their titles
// hold. Best is Rerank over a Fusion of eight queries, each counted once
// (two of them signatures of the words near the links). MovedLink follows the
// backlinks' own links to where they point now, when a site moved its
// pages and updated its links (its old pages read from their archived
// copies, Needs.ArchivedBacklinks). Default, what a Finder uses when given
// none, is MovedLink over Best. ArchiveTitle and ArchiveSignature use an
// archived copy of the page (Needs.Archive, Finder.Archive). Strategies
// lists them all.
//
// Many dead links of one site moved by one rule: LearnURLRules learns the
// rewrite (a new host, a version segment, a renamed prefix, files served as
// directories) from the pairs already found with confidence, and
// ApplyURLRules proposes each other dead URI's new home, for one fetch to
// check.
//
// # Programs
//
// The tool is cmd/relink (corpus, df, find, fix, review, signature,
// soft404, worker); fix runs
// a Finder's stages over many dead links with caches shared by the run,
// then the URL rules, and writes with package repair. The examples
// directory holds small programs that show the library: a Finder over a
// store, a Finder with the caller's own providers, a signature from saved
// pages, and the soft-404 check. The paper's experiment, which runs every
// method through a Finder's stages, lives in the nested module lab, outside
// what go get downloads.
package relink
