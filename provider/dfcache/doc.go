// Package dfcache keeps document frequencies in a file on disk, shared by
// runs, in front of a slow lexsig.DF such as a web search engine's hit
// counts. The paper kept such a local cache of the DF values it got from
// Yahoo!, to ask for each term once (§2.1 "TFIDF").
//
//	db, err := dfcache.Open("df.cache", nil)
//	if err != nil {
//		return err
//	}
//	defer db.Close()
//	df := db.Wrap(engineDF, "yahoo-2009") // a lexsig.DF and lexsig.BatchDF
//	sig, err := lexsig.Compute(ctx, words, df, 4)
//
// # Sources
//
// One file holds the values of several DFs, each under a source name given
// to Wrap: the DF values and |D| of one search engine or corpus are never
// answered for another. A Source wrapping a nil DF answers from the file
// alone (ErrNotCached for what it lacks), so that an experiment can be run
// again offline with exactly the values of an earlier run. Options.MaxAge
// makes values expire and be asked for again.
//
// # Concurrency and crashes
//
// A DB is safe for concurrent use. Lookups of a value in flight wait for it,
// so each term reaches the underlying DF once however many goroutines ask;
// DocFreqs looks up what the file lacks with one lexsig.BatchDF call when the
// underlying DF has it. The file is a bbolt database: every write is a
// transaction, and concurrent writes are joined into one with bbolt's Batch
// (waiting up to Options.BatchDelay). A process killed at any moment leaves
// a consistent file holding every value whose lookup had returned; what was
// in flight is lost and asked for again.
//
// A file is held by one process at a time, with an advisory lock: a second
// process (or a second Open in the same process) waits Options.LockTimeout
// and then fails with ErrLocked. Several read-only opens (Options.ReadOnly)
// may share a file when no process holds it for writing. To share values
// between machines, export them with package dftable, or use a database
// server.
//
// # Layout
//
// The bbolt file has a bucket "meta" whose key "format" holds Format, and a
// bucket "sources" with one bucket per source name. A source's bucket holds
// the key "docs" (its |D|) and a bucket "terms" keyed by term. Each value is
// 16 bytes: the number and the Unix time in nanoseconds it was stored,
// both big-endian int64.
//
// # What the caller must do
//
// Close the DB when done, so that other processes can open the file. Pick a
// source name per engine and index version, and change it (or set MaxAge)
// when the engine's numbers should be asked for afresh: values are otherwise
// kept forever. Pass terms as lexsig produces them (lowercase); the cache
// does not normalize them.
//
// # What it does not do
//
// It keeps no copy in memory beyond bbolt's memory map (a lookup from the
// file takes about two microseconds), bounds neither the file's size nor
// the number of terms, never evicts values (only replaces expired ones), and
// does not compact the file. It caches no errors, negative document
// frequencies or non-positive |D|.
package dfcache
