// Package store is relink's embedded default provider: a local web in one
// SQLite file (the pure-Go driver modernc.org/sqlite, FTS5 with BM25) that
// holds pages, the links between them and a full-text index, and serves
// every interface the pipeline needs with no service and no network:
// backlink.Provider (Backlinks), filter.Fetcher (Fetch), lexsig.DF and
// lexsig.BatchDF (DocFreq, DocFreqs, Docs), dftable.Vocabulary (Terms, the
// whole vocabulary with its document frequencies) and lexsig.Searcher
// (Search).
//
//	s, err := store.Open("dev.db", nil)
//	m, err := corpus.ReadManifest("dev-corpus.json")
//	st, err := s.IngestManifest(ctx, m, corpus.IngestOptions{})
//	fmt.Println(st) // 4532 pages, 6 redirects, ... in 30.1s
//	view := s.WithMissing(target) // the paper's missing page
//	links, err := view.Backlinks(ctx, target, 10)
//	page, err := view.Fetch(ctx, links[0].URI)
//	results, err := view.Search(ctx, lexsig.Query{Terms: terms}, 1000)
//
// The manifest, the ingest's options and summaries and the descriptions
// of pages and links are declared in package provider/corpus, which
// provider/postgres shares; this package keeps the same names as aliases
// (IngestOptions is corpus.IngestOptions), so that code written against
// it compiles.
//
// # Ingest
//
// A store is filled from a corpus manifest (IngestManifest; the format of
// BENCHMARK.md), from a directory with a base URL (IngestDir), or from WARC
// files (IngestWARC, read with relink's provider/warc, since the Go module
// proxy here serves no maintained WARC library). Worker goroutines read
// and parse pages; one goroutine writes them in input order, one
// transaction per batch, so page ids do not depend on scheduling. Every
// file or record finished is recorded with its outcome: an interrupted
// ingest (cancelled, or the process killed) keeps its committed batches,
// and running it again skips what is done and finishes the job without
// duplicates. Files that are not pages (binary, empty, unreadable, too
// large, not HTML, a URI already taken, a WARC capture with an error
// status) are counted by reason and recorded, not errors; invalid UTF-8 is
// decoded (backlink.Decode), not skipped.
//
// A page whose <meta http-equiv="refresh"> sends the reader on within
// RedirectMaxDelay seconds and which shows at most RedirectMaxWords words is
// a redirect stub, stored as a redirect; so are WARC 3xx responses.
//
// # URLs of files
//
// A file's URL is its root's base followed by its path below the root's
// directory; index.html stands for its directory, and a "dir" style root
// serves a/b.html as a/b/. Hrefs are resolved in file space, as the files'
// authors wrote them: against the file's own location (and <base>), then
// mapped to public URLs. A path under any root's directory, reached
// directly, through symlinks, as an absolute /usr/share/doc/... path or a
// file: URL (a directory meaning its index.html), maps to that root's URL;
// an http(s) URL that starts with a base or a site's alias moves under the
// base; a relative href that climbs out of every root resolves against the
// page's root base, as it would on the web; an absolute path whose first
// segment does not exist on the local disk ("/license.html") is a path on
// the page's web host. Other local paths stay file: URLs, which are not web
// links.
//
// # Stored HTML
//
// A page is served as the bytes it was ingested from. For files, one
// change is made: the href of every <a> and <area> is rewritten to the
// absolute public URL it maps to (fragment and query kept), since a "dir"
// page served at a/b/ would otherwise resolve its relative hrefs one level
// too deep, and aliases and local paths would point nowhere. Only those
// tags are written anew; every other byte is copied (UTF-16 files, which
// cannot be rewritten byte-wise, are stored as UTF-8). backlink.Extract on
// a fetched page, with the Page.URI that Fetch reports, therefore finds
// exactly the links the store counted. WARC captures are kept byte for byte
// (content coding undone) and replayed with their recorded status and
// header; their relative links resolve against the captured URI, which
// Fetch reports. Bodies are compressed with DEFLATE.
//
// # Link sources from Common Crawl
//
// IngestWAT adds the link records of WAT files (package
// provider/commoncrawl): the links of pages the store holds no copy of, with
// their anchor text and no surrounding words. Such link sources are
// backlinks ranked with pages by in-degree and carry Backlink.Anchors; Fetch
// answers 404 for them and the full-text index does not hold them. A page
// ingested later replaces the link source at its URI.
//
// # Links and backlinks
//
// Links are read with backlink.Outlinks: canonical target, anchor words,
// whether the link is navigation (backlink's heuristic: nav, aside, page
// header and footer, sidebars, tables of contents, breadcrumbs, prev/next,
// "¶" permalinks) and whether it belongs to an image map.
//
// Backlinks stands in for a search engine's backlink query (the paper used
// Yahoo! BOSS, §3.1) with a documented, deterministic rank: the pages that
// link to the URI, those with more distinct linking pages first (their
// in-degree, computed once per ingest, self-links and image-map links left
// out, navigation links counted), then by URI. A crude popularity order,
// like PageRank's first approximation. By default every <a> link counts,
// navigation included, as the paper counted every link; BacklinkOptions
// leaves navigation out or counts image maps. A link to a redirect stub is
// a link to the stub, not to its target: that is what backlink.Extract
// sees on the page.
//
// # Search and document frequencies
//
// The index holds each page's title and visible words (backlink.Words),
// lowercased as lexsig.Normalize does, in an FTS5 table whose tokenizer
// splits exactly as package internal/words does (letters, digits and
// marks), so the index's terms are the terms lexsig counts. DocFreq is exact
// (fts5vocab's document count) and Docs is the number of pages, |D| of the
// paper's Equation 2. Search is conjunctive by default, as a web search
// engine is, ranked by BM25 with a title term weighing DefaultTitleWeight
// times a text term, at most MaxResults (1000) results; disjunctive and
// phrase queries are options of lexsig.Query. Answers are cached (least
// recently used) since an experiment repeats queries.
//
// Each finished ingest of a store of 1,000 pages or more also keeps every
// term's postings (the pages that hold it, with its count in the title and
// in the text), made from FTS5's own record of its tokens (a smaller
// index's posting lists are short: FTS5 ranks them about as fast). Search
// answers from them the queries whose terms are single ASCII words,
// conjunctive or disjunctive: the same BM25, computed with the same
// floating-point operations in the same order as FTS5's bm25(), so the
// answers are FTS5's to the last bit, in less time: FTS5's bm25() reads
// each term's whole posting list again for every query (an experiment of
// 1000 targets over 54k pages spent 27 CPU seconds searching, against
// 184). Other queries, and a store whose
// full-text index changed after its postings were made (by an ingest under
// way, or a version before postings), search with FTS5; a writable store
// checks at every search, with one lookup, a read-only one when it is
// opened. An ingest that finds a finished store without postings makes
// them.
//
// DefaultTitleWeight was measured on the development corpus
// (dev-corpus.json, TestMeasureTitleWeight): for 300 pages with content
// backlinks, the 4-term anchor-text signature of each (the paper's best
// method, Table 4) was searched with title weights from 1 to 50. The mean
// nDCG rose slowly with the weight (0.757 at 1, 0.768 at 3, 0.782 at 8,
// 0.796 at 50), because documentation generators write page titles as
// link text. A weight fitted to that would tune the search engine to the
// method under test and to these sites rather than to the web, so a
// conventional moderate weight, 3, is the default; Options.TitleWeight
// changes it.
//
// # Missing pages
//
// WithMissing returns a cheap view in which some URIs are missing: Fetch
// answers 404 for them and they are never backlinks (their links cannot be
// read), but they stay in the search index and in document frequencies, as
// in the paper, where the search engine still held the page. Views share
// the database, so an experiment can evaluate each target alone,
// concurrently. MarkMissing records missing URIs in the file instead.
//
// # Performance
//
// On the development corpus (31 Debian 12 documentation packages, 4,538
// files, 197 MB of HTML) an ingest makes 4,532 pages, 6 redirects and
// 522,346 links into a 103 MB file. On an idle machine (2 cores), run in
// turn with the version before three times, it took 6.2, 6.4 and 6.7 s of
// wall time (680 to 735 pages a second), 10.3 to 11.1 s of CPU and at
// most 300 MB resident, where the version before took 7.0, 7.5 and 9.5 s,
// 10.3 to 13.1 s of CPU and 271 MB. The large corpus of lab/corpus
// (53,936 pages, 12,697 redirects, 5.23 million links), twice each in
// turn, took 48.5 and 54.4 s (991 to 1,112 pages a second), 83 to 92 s
// of CPU and 685 MB, against 67.0 and 75.2 s, 100 to 107 s and 644 MB: an
// ingest grows with its pages, at under 2 ms of CPU a page (the fixed
// costs of the start and the finish weigh more in a small corpus). The workers
// and the writer share both cores: the workers hand their pages to the
// writer through a queue that holds the whole read-ahead window (when it
// held two pages, both workers waited while the writer committed a batch,
// 6.7 s summed over the two on dev), and the writer, which alone writes
// the store, holds a core while it writes: a worker starts a page only
// while a core is free (scheduled as one goroutine among three, the
// writer had about two thirds of one). The pages parsed ahead cost the
// memory above.
// What still runs alone is the finish: on large, measured on the same
// shared machine, 5.2 s to build the index of the links by target, 1.4 s
// to merge the full-text index, 0.7 s to copy the document frequencies
// and 0.4 s for ANALYZE; the in-degrees, 1.9 s of queries there, are
// counted by a store's first ingest as it writes the links (inDegrees).
// While another session keeps both cores busy, Linux shares them between
// sessions, an ingest gets about one, and it takes about its CPU time.
// TestMeasureIngest (-ingest) measures it, and lab/cmd/storediff checks
// that a change to the ingest builds the same store.
//
// Each page is read once (the ingest rewrites its hrefs and learns its
// title while backlink's walker reads its words and links, through
// internal/walkhook), compressed, and written by SQLite. The workers may
// parse two batches ahead of the writer, so that they do not wait while it
// commits one. The writer keeps each batch's links and full-text rows and
// writes them just before the batch commits: the links many rows a
// statement in the table's key order, the full-text rows in id order, so
// that FTS5, allowed 8 MiB of new terms (ftsHashSize) and no merging of
// its segments until the end, makes about one index segment a batch
// rather than one a page. A store's first ingest builds the index of the
// links by target once, when it finishes, instead of row by row; the
// finish then merges the full-text index into one segment, counts the
// in-degrees and the document frequencies, and has ANALYZE estimate its
// statistics from a sample (analysisLimit), which reading the links whole
// made grow with the store.
//
// Conjunctive queries of 3 or 4 title words answer in
// about 1 ms (median) and under 12 ms (99th percentile) with the cache
// off; Backlinks takes about 0.15 ms, Fetch 0.3 ms and a DF lookup 20 µs
// (TestMeasureQueryLatency and TestMeasureProviders with -devstore).
//
// # Readers, writers and crashes
//
// One ingest writes a store at a time: a second, from this process or
// another, fails at once with ErrLocked (an flock on the file named the
// store's path plus "-lock", which the kernel releases however the writer
// ends, kill -9 included). An ingest marks the store as being ingested
// before it writes anything and clears the mark in the transaction that
// finishes it, so Open with Options.ReadOnly refuses, with ErrIncomplete
// and a message that says whether an ingest is running or did not finish,
// a store a reader must not trust: one being written, one whose ingest was
// interrupted (running the same ingest again resumes and finishes it), one
// no ingest has filled. The check is made when the store is opened: a
// Store opened before an ingest began sees its batches as they commit
// (CheckComplete asks again), and while a store's first ingest runs, or
// after it was interrupted, its links have no index by target yet:
// Backlinks answers, slowly, until an ingest finishes the store.
//
// A read-only Open creates and changes no file. A missing path is
// ErrNoStore; a directory, an empty, truncated or corrupt file, or another
// program's SQLite database is ErrNotStore, which a writable Open refuses
// too rather than write a schema into it. The writer works in WAL mode
// and Close leaves the file in rollback-journal mode, a single file with
// nothing beside it, so that a store can be read where the reader cannot
// write: a read-only disk, or another user's directory.
//
// Resuming goes by content: a WARC or WAT file's progress is recorded with
// the size and SHA-256 digest of the part read, so a file that was cut
// short and completed since, or replaced by another under the same name,
// is read again (Stats.Changed and LinkStats.Changed count it) and only
// records finished in the unchanged part are passed over; a record found
// malformed is always read again.
//
// # What the caller must do, and what it does not do
//
// The caller opens the store once and closes it once, after every view is
// done; it passes canonical URIs or accepts that every method
// canonicalizes its input (canon.Canonicalize). A Store is safe for
// concurrent use; one ingest runs at a time (a second fails with
// ErrLocked). Readers open with Options.ReadOnly.
//
// The store does not crawl or fetch anything, does not stem or drop stop
// words (lexsig does), does not deduplicate near-identical pages, and does
// not recompute backlink ranks when views mark pages missing: the rank is a
// property of the whole collection, as a search engine's would be. It is
// for one machine; at scale the same interfaces are served by an existing
// database and search engine.
package store
