// Package postgres is relink's store on PostgreSQL: the same local web as
// package provider/store's SQLite file (pages with their HTML, the links
// between them, a full-text index), in a database that many processes on
// many machines can load and read at once. It serves the same interfaces
// with the same contracts: backlink.Provider (Backlinks, in the store's
// documented order), filter.Fetcher (Fetch), lexsig.DF and lexsig.BatchDF
// (DocFreq, DocFreqs, Docs) and lexsig.Searcher (Search), and the same
// views (WithMissing, MarkMissing).
//
//	s, err := postgres.Open(ctx, "postgres://relink@db/web", nil)
//	m, err := corpus.ReadManifest("dev-corpus.json")
//	st, err := s.IngestManifest(ctx, m, corpus.IngestOptions{})
//	view := s.WithMissing(target) // the paper's missing page
//	links, err := view.Backlinks(ctx, target, 10)
//	page, err := view.Fetch(ctx, links[0].URI)
//	results, err := view.Search(ctx, lexsig.Query{Terms: terms}, 1000)
//
// The manifest, the ingest's options and summaries and the descriptions
// of pages and links are package provider/corpus's, which provider/store
// shares: a program that uses this package alone builds no SQLite driver.
//
// It talks to the server with pgx v5 (pgxpool). Nothing of the server is
// assumed beyond PostgreSQL 13 or later with its built-in full-text
// search; the tests run against Debian's PostgreSQL 15.
//
// # Ingest
//
// IngestManifest, IngestDir and IngestWARC read and parse their input with
// the very code provider/store runs (package provider/internal/ingest):
// for the same input both stores hold the same pages, bodies, links,
// words and skips, and answer alike (TestSameAsSQLite checks every page,
// link, backlink list, fetched page, document frequency and search
// result). Only the writing differs: each batch (IngestOptions.BatchSize
// files) is one transaction that claims its sources and URIs, COPYs the
// pages (with their tsvectors) and links, and adds the batch's terms to
// the document frequencies. IngestWAT adds the link sources of WAT files
// (pages known only by their links, provider/store's IngestWAT), which
// Backlinks returns with pages.
//
// Several ingests may load one database at once, from this process or
// others, on one machine or many, with nothing lost or written twice:
//
//   - a file or record is claimed in the sources table (INSERT ... ON
//     CONFLICT DO NOTHING) by the first ingest to write it; an ingest that
//     finds it taken passes it over;
//   - a URI is claimed in the uris table by the first page or redirect
//     written there; a later one is a duplicate, as in one ingest;
//   - rows are locked in key order, so that two batches do not deadlock;
//     when PostgreSQL must still break one (two inputs holding the same
//     URIs in another order), the batch is written again;
//   - IngestOptions.Shares and Share split one manifest among ingests
//     (relink corpus -share I/N): every share reads the whole manifest, so
//     that links resolve as in one ingest, and parses its own files.
//
// Two ingests of the two halves of the development corpus at once build
// the very database one ingest builds (every table compared row by row),
// and so does one manifest ingested twice at once (TestConcurrentIngests
// on the fixture web).
//
// # A partial ingest is never read as complete
//
// Every ingest records itself in the ingests table and holds a session
// advisory lock on its id while it runs; a killed one leaves its row and
// the server releases its lock. Its Finish brings the in-degrees (the
// backlink rank) up to date, waiting for any batch in flight (the corpus
// row orders them), and deletes its row and those of interrupted ingests.
// Open with Options.ReadOnly, and CheckComplete, refuse with ErrIncomplete
// a store with a running ingest (a row whose lock is held), an interrupted
// one (a row whose lock is not), or in-degrees older than the last batch.
// Running the interrupted ingest again resumes it. A killed process's
// ingest reads as running until its server process sees the connection
// closed: at once on one machine, after TCP keepalive (or
// idle_in_transaction_session_timeout) when the network between them was
// lost.
//
// # Schema
//
// The schema is versioned (the schema_version table, SchemaVersion):
// Open applies the missing migrations in one transaction under an
// advisory lock, refuses a later version with ErrSchema, a database or
// schema holding other tables with ErrNotStore, and a store built under
// other link or canonicalization rules with ErrRules, as provider/store
// does. A read-only Open never creates or changes anything: its
// connections are default_transaction_read_only.
//
// One database holds several stores, one PostgreSQL schema each
// (Options.Schema): Open creates the schema when it is missing, unless
// read-only, and sets its connections' search_path to it alone, so that
// every table, the version lookup and the check for another program's
// tables are the schema's. Ingest ids are counted per schema, and the
// advisory locks of a schema other than public have a class of their own
// (a hash of the schema's name), so that an ingest running in one schema
// is never taken for one of another. The experiment (lab/cmd/experiment)
// keeps its evaluation modes' stores so, beside the paper's. A schema per
// store needs one DSN and one server's pool of connections; a database
// per store would do as well, with a DSN each.
//
// Every table that grows with the web is keyed by canonical URI: pages,
// redirects, uris and link_sources by their own URI, links and
// link_records by their target (dst, src, pos), so that a target's page
// row and the rows of every link to it share one key. That is the
// distribution column of a Citus cluster: create_distributed_table
// ('pages', 'uri'), ('redirects', 'uri'), ('uris', 'uri'),
// ('link_sources', 'uri'), ('links', 'dst', colocate_with => 'pages') and
// ('link_records', 'dst', colocate_with => 'pages'); terms,
// corpus, meta, sources, skipped, missing and ingests stay small and
// become reference tables. Backlinks and Fetch are then single-shard
// queries, Search and DocFreq fan out or read a reference table, and
// Finish's in-degree count is a co-located GROUP BY. Citus is not needed
// and not tested.
//
// # Search and document frequencies
//
// A page's title and visible words, exactly as lexsig counts them (split by
// internal/words, lowercased by lexsig.Normalize, as provider/store's FTS5
// tokenizer does), are a tsvector built by the ingest, not by a text
// search configuration: title words at positions 1 to tlen with weight A,
// then the text's with weight D; a GIN index finds the matching pages.
// Queries are tsqueries of quoted words (a term of several words a
// phrase), conjunctive by default, disjunctive and phrase queries as
// lexsig.Query says.
//
// PostgreSQL has no BM25; ts_rank_cd (cover density) is what it offers.
// Search ranks by BM25 as FTS5 does (k1 = 1.2, b = 0.75, a title word
// counting TitleWeight times, FTS5's IDF): document frequencies and N from
// the terms and corpus tables, which every batch keeps exact (not ts_stat
// at query time), term frequencies from the tsvector cut down to the
// query's words. A phrase (a phrase query, or a term of several words) is
// one term, as in FTS5: its frequency is the number of places the page
// holds it, within the title or within the text, and its document
// frequency the number of pages holding it, counted at query time.
// Options.Ranking = RankCD uses ts_rank_cd instead. A tsvector keeps at
// most 256 positions of a word and none past 16383, so very repetitive or
// long pages count a word, or a phrase, less often than FTS5 does;
// otherwise scores equal FTS5's to nine digits. (Before phrases were
// scored whole, the experiment's phrase-query methods ranked up to 0.10
// mean nDCG below SQLite's on the development corpus.)
//
// On the development corpus (lab/corpus/dev.json, 4,532 pages), the
// paper's best method (4-term anchor-text signatures of 300 pages with
// content backlinks, TestMeasureRanking) finds the page with mean nDCG
// 0.789 (first for 197) with this BM25, 0.727 (first for 154) with
// ts_rank_cd, and 0.787 (first for 196) with SQLite's FTS5. Latency
// (median, 99th percentile, on 2 shared cores): BM25 1.9 ms and 62 ms,
// ts_rank_cd 0.7 ms and 20 ms, FTS5 0.7 ms and 11 ms; conjunctive queries
// of 3 and 4 title words 2.5 and 1.7 ms median, 40 and 35 ms at the 99th
// percentile; Backlinks 0.5 ms, Fetch 0.3 ms, DocFreqs 0.2 ms median
// (TestMeasureProviders). BM25's cost is reading the tsvectors of the
// matching pages.
//
// # Performance
//
// The development corpus ingested into PostgreSQL 15 (fsync on, 128 MB
// shared buffers, the same 2 shared cores), beside an SQLite store in the
// same run: 4,532 pages, 6 redirects, 522,346 links in both; 25.7 s wall
// time against 16.9 s (the machine was shared: wall times varied from
// run to run by half); 11.9 s of CPU in relink and 8.6 s in the server's
// backends, against 14.3 s for SQLite; 206 MB peak resident memory in
// relink against 264 MB; a 402 MB database (links 274 MB: two text URIs a
// row, and two indexes) against a 103 MB file. Two ingests of the halves
// at once took 25.5 s, 170 and 186 MB, and built the same database.
// lab/results/postgres/README.md has the figures and how to measure them
// again.
//
// # What the caller must do, and what it does not do
//
// The caller opens the store once and closes it once, after every view is
// done. A Store is safe for concurrent use; one ingest runs through a
// Store at a time (another fails with ErrLocked), and any number through
// other Stores. The DSN's password is never printed or logged: DSN's
// String hides it, and Open's errors do not repeat it.
//
// The store keeps no query cache (provider/store does), does not crawl,
// stem or deduplicate, and does not recompute in-degrees when views mark
// pages missing.
package postgres
