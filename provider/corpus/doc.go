// Package corpus holds the types that relink's two stores, provider/store
// (one SQLite file) and provider/postgres (a PostgreSQL database), share in
// their methods: the manifest that describes a corpus of local HTML files
// (Manifest, ReadManifest), the options, progress and summary of an ingest
// (IngestOptions, Progress, Stats, LinkStats and the Reason constants of
// what was skipped), and what a store tells about its pages and links
// (PageInfo, Link, LinkSource, BacklinkOptions).
//
//	m, err := corpus.ReadManifest("dev-corpus.json")
//	st, err := s.IngestManifest(ctx, m, corpus.IngestOptions{Workers: 2})
//	fmt.Println(st) // "4512 pages, 6 redirects, ... in 17.0s"
//
// A program that uses one store names these types through this package and
// builds only that store's database driver: importing provider/postgres
// does not bring in SQLite. Package provider/store keeps an alias of every
// name declared here (store.IngestOptions is corpus.IngestOptions), so
// code written against it keeps compiling.
//
// The package only describes: it reads a manifest file (ReadManifest) but
// never a corpus's pages, and it opens, writes and queries no database.
package corpus
