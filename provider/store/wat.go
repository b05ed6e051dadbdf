package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/linkrot/relink/provider/corpus"
	"github.com/linkrot/relink/provider/internal/ingest"
)

// Reasons a page of a WAT file does not become a link source, besides
// those of package commoncrawl and ReasonDuplicate: keys of
// LinkStats.Skipped, the same as corpus's.
const (
	// ReasonPageInStore is corpus.ReasonPageInStore: the store holds the
	// page itself.
	ReasonPageInStore = corpus.ReasonPageInStore
	// ReasonNoLinks is corpus.ReasonNoLinks: the page has no link to a URI
	// other than itself.
	ReasonNoLinks = corpus.ReasonNoLinks
)

// DropSelfLink is corpus.DropSelfLink, the reason a link of a WAT page to
// the page itself is not stored (a key of LinkStats.DroppedLinks).
const DropSelfLink = corpus.DropSelfLink

// LinkStats is corpus.LinkStats: what one link ingest (IngestWAT) added
// to the store, or with LinkTotals what the store holds. Its String method
// gives the summary line.
type LinkStats = corpus.LinkStats

// IngestWAT adds the link records of Common Crawl WAT files (read with
// package commoncrawl, gzip or plain) to the store: every HTML page of the
// files with a 2xx status becomes a link source holding its <a href> links
// to http(s) URIs (targets canonical, anchor texts with white space
// normalised), and its fetch time. Backlinks then returns link sources
// with pages, with the anchor texts of their links in Backlink.Anchors;
// Fetch answers 404 for them, and Search and the document frequencies do
// not see them, as the store holds no copy of their text.
//
// A page the store already holds (ReasonPageInStore), a URI an earlier
// record already gave (ReasonDuplicate: the first in input order stays),
// and a page with no link but to itself (ReasonNoLinks) are passed over;
// so are links to the page itself (DropSelfLink). A page ingested later
// (IngestManifest, IngestWARC) replaces a link source of the same URI.
// Records that hold no page, and malformed ones, are counted by reason in
// LinkStats.Skipped; the malformed ones are recorded with their reason
// like skipped files. A file that cannot be opened is an error; one whose
// WARC framing breaks (a truncated download) is read up to the break,
// which is counted with commoncrawl.ReasonBadRecord.
//
// One goroutine reads and parses (opts.Workers is not used) while another
// writes, one transaction per opts.BatchSize pages; opts.MaxFileSize, when
// set, bounds the JSON block of one record (else
// commoncrawl.DefaultMaxRecordBytes). Memory stays bounded whatever the
// size of the files. Each file's progress is recorded with every batch:
// an interrupted ingest keeps its committed batches, and running it again
// resumes each file after its last committed record. Resuming goes by the
// files' content, as for IngestWARC (the size and SHA-256 digest of what
// was read): a file finished and unchanged is passed over; one that grew
// (a download that was cut short and completed) is read on from the record
// it broke at, and one replaced by another under the same name is read
// anew, both counted in LinkStats.Changed; records an earlier ingest
// finished in the unchanged part are passed over (LinkStats.Resumed). A
// file recorded by a store written before digests were recorded is read
// on from the first record the earlier ingest did not finish, and its
// digest is recorded. A path given twice is read once. While another
// ingest writes the store IngestWAT fails at once with ErrLocked. When the
// ingest ends, the in-degrees of pages and link sources (the backlink
// rank) are recomputed.
func (s *Store) IngestWAT(ctx context.Context, paths []string, opts IngestOptions) (LinkStats, error) {
	start := time.Now()
	w, err := s.writer()
	if err != nil {
		return LinkStats{}, err
	}
	abs, total, err := ingest.WATInputs(paths)
	if err != nil {
		return LinkStats{}, err
	}
	end, err := s.beginIngest(ctx, w, "wat")
	if err != nil {
		return LinkStats{}, err
	}
	defer end()
	prior, err := watProgress(ctx, w, abs)
	if err != nil {
		return LinkStats{}, err
	}
	lw, err := newLinkWriter(ctx, w)
	if err != nil {
		return LinkStats{}, err
	}
	defer lw.close()
	st, err := ingest.RunWAT(ctx, abs, total, opts, prior, lw)
	st.Duration = time.Since(start)
	return st, err
}

// watProgress reads the progress rows earlier ingests recorded for the
// files, by path.
func watProgress(ctx context.Context, w *sql.DB, paths []string) (map[string]string, error) {
	rows := map[string]string{}
	for _, p := range paths {
		var outcome string
		err := w.QueryRowContext(ctx, `SELECT outcome FROM sources WHERE source = ?`, "wat:"+p).Scan(&outcome)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("store: ingest WAT: %w", err)
		}
		rows[p] = outcome
	}
	return rows, nil
}
