package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"github.com/linkrot/relink/provider/corpus"
	"github.com/linkrot/relink/provider/internal/ingest"
)

// The defaults, reasons and types of an ingest are declared in package
// provider/corpus, which provider/postgres shares without SQLite; the
// names below are the same as corpus's, kept so that code written against
// this package compiles.

// Ingest defaults, the same as corpus's.
const (
	// DefaultBatchSize is corpus.DefaultBatchSize: how many files or
	// records one ingest transaction holds.
	DefaultBatchSize = corpus.DefaultBatchSize
	// DefaultMaxFileSize is corpus.DefaultMaxFileSize: the bytes of one
	// page, 20 MiB. A larger file or record is skipped with ReasonTooLarge.
	DefaultMaxFileSize = corpus.DefaultMaxFileSize
)

// ftsHashSize is the memory, in bytes, that the full-text index may fill
// with new terms before it writes them to a new segment (FTS5's
// "hashsize", 1 MiB by default; an ingest sets it, and it stays in the
// store's configuration). A batch of the dev corpus, 500 pages, fills a
// few MiB: at 1 MiB it made several segments a batch, which FTS5 then
// merged again; at 8 MiB about one, and the writer spends a quarter less
// time on the index.
const ftsHashSize = 8 << 20

// Redirect stubs, the same as corpus's: a page is a redirect stub, not a
// page, when a <meta http-equiv="refresh"> names a URL to go to within
// RedirectMaxDelay seconds and the page shows at most RedirectMaxWords
// words.
const (
	// RedirectMaxDelay is corpus.RedirectMaxDelay, in seconds.
	RedirectMaxDelay = corpus.RedirectMaxDelay
	// RedirectMaxWords is corpus.RedirectMaxWords.
	RedirectMaxWords = corpus.RedirectMaxWords
)

// Reasons a file or record is not a page, the keys of Stats.Skipped: the
// same as corpus's Reason constants, where each is described.
const (
	ReasonUnreadable = corpus.ReasonUnreadable // the file could not be read
	ReasonTooLarge   = corpus.ReasonTooLarge   // larger than IngestOptions.MaxFileSize
	ReasonEmpty      = corpus.ReasonEmpty      // no bytes at all
	ReasonBinary     = corpus.ReasonBinary     // named like HTML, but not text
	ReasonNotHTML    = corpus.ReasonNotHTML    // text that is not HTML
	ReasonDuplicate  = corpus.ReasonDuplicate  // another file or record gave this URI
	ReasonStatus     = corpus.ReasonStatus     // a WARC capture neither 2xx nor a redirect
	ReasonBadURI     = corpus.ReasonBadURI     // a URI canon.Canonicalize rejects
	ReasonBadRecord  = corpus.ReasonBadRecord  // a WARC record or file that cannot be parsed
	ReasonInternal   = corpus.ReasonInternal   // parsing failed as it never should
)

// IngestOptions is corpus.IngestOptions, which configures an ingest. The
// zero value is ready to use. Moves, Migrations and Edit apply to
// IngestManifest and IngestDir; IngestWARC ignores them.
type IngestOptions = corpus.IngestOptions

// Migration is corpus.Migration: the canonical URIs of one site's pages
// mapped to their new URIs (IngestOptions.Migrations).
type Migration = corpus.Migration

// Progress is corpus.Progress, the state of an ingest.
type Progress = corpus.Progress

// Stats is corpus.Stats: what one ingest added to the store (or, from
// Totals, what the store holds). Its String method gives the summary line.
type Stats = corpus.Stats

// loadSources reads the sources earlier ingests finished, with their
// outcomes.
func loadSources(ctx context.Context, w *sql.DB) (map[string]string, error) {
	rows, err := w.QueryContext(ctx, `SELECT source, outcome FROM sources`)
	if err != nil {
		return nil, fmt.Errorf("store: ingest: %w", err)
	}
	defer rows.Close()
	done := map[string]string{}
	for rows.Next() {
		var s, o string
		if err := rows.Scan(&s, &o); err != nil {
			return nil, fmt.Errorf("store: ingest: %w", err)
		}
		done[s] = o
	}
	return done, rows.Err()
}

// deferLinksIndex drops the index of the links by target (linksIndex)
// when the store holds no links, so that the ingest that fills it writes
// the links table alone and finish builds the index once, from the sorted
// links. Kept up row by row, the index took more of the writer's time
// than the table, and more as it grew: each batch's links point all over
// it, so every commit wrote most of its pages anew. A store with links
// keeps its index, since rebuilding it could cost more than what a few
// pages added would. Until finish, Backlinks and the in-degrees read the
// links without the index: an interrupted ingest leaves a store that
// answers slowly, which is refused to readers anyway (ErrIncomplete), and
// the ingest that completes it builds the index. It reports whether the
// store held no links.
func deferLinksIndex(ctx context.Context, w *sql.DB) (bool, error) {
	var any bool
	if err := w.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM links)`).Scan(&any); err != nil {
		return false, fmt.Errorf("store: ingest: %w", err)
	}
	if any {
		return false, nil
	}
	if _, err := w.ExecContext(ctx, `DROP INDEX IF EXISTS links_dst`); err != nil {
		return false, fmt.Errorf("store: ingest: %w", err)
	}
	return true, nil
}

// buildLinksIndex creates the index of the links by target unless it
// exists. SQLite sorts the links to build it, in memory up to the cache
// size and in temporary files beyond; the writer keeps temporary files in
// memory, which would hold the whole sort (about 25 bytes a link), so
// they are files on disk while it runs.
func buildLinksIndex(ctx context.Context, w *sql.DB) error {
	var exists bool
	if err := w.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'links_dst')`).Scan(&exists); err != nil || exists {
		return err
	}
	if _, err := w.ExecContext(ctx, `PRAGMA temp_store = FILE`); err != nil {
		return err
	}
	_, err := w.ExecContext(ctx, linksIndex)
	if _, err2 := w.ExecContext(ctx, `PRAGMA temp_store = MEMORY`); err == nil {
		err = err2
	}
	return err
}

// analysisLimit is how many rows of each index ANALYZE reads (SQLite's
// analysis_limit) to estimate the statistics the query planner uses. Read
// whole, the links' two indexes took a quarter of an ingest's last step on
// the development corpus, and more as the store grows; the store's queries
// have one plan that fits, which the estimates choose as well.
const analysisLimit = 1000

// finish brings the derived data up to date unless meta says it is (the
// writer clears the mark when it adds pages or redirects, so an
// interrupted ingest leaves it cleared for the run that completes the job):
// each page's in-degree (the backlink rank), the copy of the document
// frequencies, a merged full-text index and fresh planner statistics. In
// the same transaction it deletes the mark of a running ingest: from then
// on readers accept the store (CheckComplete). It first builds the index
// of the links by target if an ingest dropped it (deferLinksIndex). The
// in-degrees are deg's when deg is not nil and counted them all.
func finish(ctx context.Context, w *sql.DB, deg *inDegrees) error {
	if err := buildLinksIndex(ctx, w); err != nil {
		return fmt.Errorf("store: ingest: finish: %w", err)
	}
	var fresh bool
	if err := w.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM meta WHERE key = 'derived')`).Scan(&fresh); err != nil {
		return fmt.Errorf("store: ingest: finish: %w", err)
	}
	const finished = `DELETE FROM meta WHERE key = 'ingest'`
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: ingest: finish: %w", err)
	}
	defer tx.Rollback()
	if fresh {
		// A store derived by a version that made no postings gets them.
		made, err := postingsMade(ctx, tx)
		if err == nil && made == "" {
			err = buildPostings(ctx, tx)
		}
		if err == nil {
			_, err = tx.ExecContext(ctx, finished)
		}
		if err == nil {
			err = tx.Commit()
		}
		if err != nil {
			return fmt.Errorf("store: ingest: finish: %w", err)
		}
		return nil
	}
	if deg != nil && !deg.off {
		err = deg.write(ctx, tx)
	} else {
		_, err = tx.ExecContext(ctx, `UPDATE pages SET
			inlinks = (SELECT count(DISTINCT src) FROM links
				WHERE dst = pages.id AND area = 0 AND src <> pages.id),
			content_inlinks = (SELECT count(DISTINCT src) FROM links
				WHERE dst = pages.id AND area = 0 AND nav = 0 AND src <> pages.id)`)
	}
	if err != nil {
		return fmt.Errorf("store: ingest: finish: %w", err)
	}
	for _, q := range []string{
		`INSERT INTO fts (fts) VALUES ('optimize')`,
		`DELETE FROM df`,
		`INSERT INTO df (term, docs) SELECT term, doc FROM fts_vocab`,
		`INSERT OR REPLACE INTO meta (key, value) VALUES ('derived', '1')`,
		finished,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("store: ingest: finish: %w", err)
		}
	}
	if err := buildPostings(ctx, tx); err != nil {
		return fmt.Errorf("store: ingest: finish: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: ingest: finish: %w", err)
	}
	for _, q := range []string{`PRAGMA analysis_limit = ` + strconv.Itoa(analysisLimit), `ANALYZE`, `PRAGMA wal_checkpoint(TRUNCATE)`} {
		if _, err := w.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("store: ingest: finish: %w", err)
		}
	}
	return nil
}

// configureFTS sets the full-text index's configuration for an ingest,
// which stays in the store: FTS5 may hold ftsHashSize bytes of new terms
// in memory, and does not merge the index's segments as it goes
// (automerge 0), since finish merges them all into one ('optimize'); a
// merge on the way would only be done again.
func configureFTS(ctx context.Context, w *sql.DB) error {
	for _, q := range []string{
		`INSERT INTO fts (fts, rank) VALUES ('hashsize', ` + strconv.Itoa(ftsHashSize) + `)`,
		`INSERT INTO fts (fts, rank) VALUES ('automerge', 0)`,
	} {
		if _, err := w.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("store: ingest: %w", err)
		}
	}
	return nil
}

// ingest runs src's jobs (ingest.Run) and writes their items in order, one
// transaction per batch, holding the writer lock (ErrLocked when another
// ingest holds it), then brings the derived data up to date (finish).
func (s *Store) ingest(ctx context.Context, src ingest.Source, opts IngestOptions) (Stats, error) {
	start := time.Now()
	w, err := s.writer()
	if err != nil {
		return Stats{}, err
	}
	end, err := s.beginIngest(ctx, w, src.Kind)
	if err != nil {
		return Stats{}, err
	}
	defer end()
	prior, err := loadSources(ctx, w)
	if err != nil {
		return Stats{}, err
	}
	noLinks, err := deferLinksIndex(ctx, w)
	if err != nil {
		return Stats{}, err
	}
	if err := configureFTS(ctx, w); err != nil {
		return Stats{}, err
	}
	wr, err := newWriter(ctx, w)
	if err != nil {
		return Stats{}, err
	}
	defer wr.close()
	if noLinks {
		wr.degrees = &inDegrees{}
	}
	st, err := ingest.Run(ctx, src, opts, prior, wr)
	// A search during the ingest may have cached a partial answer.
	s.docs.Store(-1)
	s.cache.clear()
	st.Duration = time.Since(start)
	return st, err
}

// IngestManifest adds the pages of every site of m to the store: each HTML
// file under a root that passes the site's include and exclude expressions
// becomes a page at its public URL, with its <a> and <area> hrefs rewritten
// to the public URLs they stand for (see the package documentation). Files
// are read and parsed by opts.Workers goroutines and written in a fixed
// order, opts.BatchSize files per transaction.
//
// An ingest can be interrupted (ctx cancelled, the process killed): every
// committed batch stands, and running it again skips the files already
// done and finishes the job without duplicates. Files that are not pages
// (binary, empty, unreadable, too large, not HTML, a URI already taken) are
// counted in Stats.Skipped and recorded, not errors. A root directory that
// does not exist is an error, as is a database failure. On cancellation
// IngestManifest returns the stats so far and ctx's error. While another
// ingest writes the store it fails at once with ErrLocked; until it
// finishes, read-only Opens refuse the store with ErrIncomplete.
func (s *Store) IngestManifest(ctx context.Context, m *Manifest, opts IngestOptions) (Stats, error) {
	src, err := ingest.ManifestSource(m, opts)
	if err != nil {
		return Stats{}, err
	}
	return s.ingest(ctx, src, opts)
}

// IngestDir adds the HTML files under dir as pages whose URLs are base
// followed by their path relative to dir (index.html standing for its
// directory): a manifest with one site named after base's host and one
// root of StyleFile. base must be an absolute http(s) URL; a missing final
// slash is added. Everything else is as for IngestManifest.
func (s *Store) IngestDir(ctx context.Context, dir, base string, opts IngestOptions) (Stats, error) {
	m, err := ingest.DirManifest(dir, base)
	if err != nil {
		return Stats{}, err
	}
	return s.IngestManifest(ctx, m, opts)
}

// IngestWARC adds the captures in the named WARC files (plain or gzip) to
// the store: each response record with a 2xx status and an HTML body (by
// its Content-Type, or by its bytes when it has none) becomes a page at its
// canonical WARC-Target-URI; a 3xx response with a Location, and an HTML
// redirect stub, become redirects; resource records count as 200
// responses. Other records (requests, metadata, revisits) are passed over.
//
// The page's body is kept byte for byte as the server sent it, with only
// its content coding (gzip, deflate) undone, and Fetch replays it with the
// recorded status and header (less Content-Encoding and Transfer-Encoding,
// which no longer apply). Links are read from the page as captured,
// resolved against its URI. When a URI was captured more than once, the
// first capture in file order is the page and the others are skipped as
// duplicates. Captures that are not pages are counted in Stats.Skipped.
//
// The provider/warc package reads the files: the Go module proxy serves no
// maintained WARC library here, so relink carries its own small reader.
// Resumption, batching and errors are as for IngestManifest; a file that
// cannot be opened is an error, a file that turns out malformed is counted
// with ReasonBadRecord from the first bad record on. Resuming goes by the
// files' content (the size and SHA-256 digest of what was read): a file
// finished and unchanged is passed over; one that grew (a download that was
// cut short and completed) or was replaced by another under the same name
// is read again and counted in Stats.Changed, records an earlier ingest
// finished in its unchanged part passed over (Stats.Resumed), and a record
// found malformed before read again. A path given twice is read once.
func (s *Store) IngestWARC(ctx context.Context, paths []string, opts IngestOptions) (Stats, error) {
	src, err := ingest.WARCSource(paths, opts)
	if err != nil {
		return Stats{}, err
	}
	return s.ingest(ctx, src, opts)
}
