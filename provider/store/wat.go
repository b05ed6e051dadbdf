package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/linkrot/relink/provider/internal/ingest"
)

// Reasons a page of a WAT file does not become a link source, besides
// those of package commoncrawl (its Reason constants) and ReasonDuplicate
// (an earlier record gave the same URI): keys of LinkStats.Skipped.
const (
	// ReasonPageInStore: the store holds the page itself, whose own links
	// count instead.
	ReasonPageInStore = "page-in-store"
	// ReasonNoLinks: the page has no link to a URI other than itself.
	ReasonNoLinks = "no-links"
)

// DropSelfLink is the reason a link of a WAT page to the page itself is
// not stored, a key of LinkStats.DroppedLinks beside commoncrawl's Drop
// constants: it could never make the page a backlink.
const DropSelfLink = "self-link"

// LinkStats counts what one link ingest (IngestWAT) added to the store, or
// with LinkTotals what the store holds.
type LinkStats struct {
	// Sources and Links are the link sources and link records added.
	Sources, Links int
	// Records is the number of WAT records read and handled; Resumed is
	// the number an earlier ingest had finished, in a file or the part of
	// a file that is unchanged since, passed over this time.
	Records, Resumed int
	// Changed is the number of WAT files that an earlier ingest had read,
	// in part or whole, and whose content has changed since (a download
	// that was cut short and completed, or another file under the same
	// name), as Stats.Changed counts WARC files: they are read again, and
	// only the records that the earlier ingest finished in the part that
	// is the same are passed over (Resumed).
	Changed int
	// Skipped counts the records that gave no link source, by reason:
	// commoncrawl's Reason constants, ReasonDuplicate, ReasonPageInStore
	// and ReasonNoLinks. The malformed ones (commoncrawl.SkipError.Malformed)
	// are also recorded in the store, where Totals counts them.
	Skipped map[string]int
	// DroppedLinks counts the links of the sources added that are not
	// stored, by reason: commoncrawl's Drop constants and DropSelfLink.
	DroppedLinks map[string]int
	// Duration is the wall time of the ingest.
	Duration time.Duration
}

// String returns the summary line of a link ingest, for example
// "13402 link sources, 951233 link records from 40213 WAT records, skipped: 26810 not-response, 3 duplicate; links dropped: 201344 not-a-href in 41.2s".
func (st LinkStats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d link sources, %d link records", st.Sources, st.Links)
	if st.Records > 0 {
		fmt.Fprintf(&b, " from %d WAT records", st.Records)
	}
	list := func(title string, m map[string]int) {
		if len(m) == 0 {
			return
		}
		b.WriteString(title)
		for i, r := range slices.Sorted(maps.Keys(m)) {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%d %s", m[r], r)
		}
	}
	list(", skipped: ", st.Skipped)
	list("; links dropped: ", st.DroppedLinks)
	if st.Resumed > 0 {
		fmt.Fprintf(&b, ", %d already ingested", st.Resumed)
	}
	ingest.WriteChanged(&b, st.Changed)
	fmt.Fprintf(&b, " in %.1fs", st.Duration.Seconds())
	return b.String()
}

// count adds one to m[key], making m when needed.
func count(m *map[string]int, key string, n int) {
	if n == 0 {
		return
	}
	if *m == nil {
		*m = map[string]int{}
	}
	(*m)[key] += n
}

// merge adds the counts of o to st, but not its Records, Resumed and
// Changed.
func (st *LinkStats) merge(o LinkStats) {
	st.Sources += o.Sources
	st.Links += o.Links
	for r, n := range o.Skipped {
		count(&st.Skipped, r, n)
	}
	for r, n := range o.DroppedLinks {
		count(&st.DroppedLinks, r, n)
	}
}

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
	var st LinkStats
	w, err := s.writer()
	if err != nil {
		return st, err
	}
	abs, total, err := ingest.WATInputs(paths)
	if err != nil {
		return st, err
	}
	batch := opts.BatchSize
	if batch <= 0 {
		batch = DefaultBatchSize
	}
	end, err := s.beginIngest(ctx, w, "wat")
	if err != nil {
		return st, err
	}
	defer end()
	prior, err := watProgress(ctx, w, abs)
	if err != nil {
		return st, err
	}
	ps := &ingest.State{Prior: prior}
	lw, err := newLinkWriter(ctx, w)
	if err != nil {
		return st, err
	}
	defer lw.close()

	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		items      = make(chan ingest.WATItem, 256)
		produceErr error
		finished   = make(chan struct{})
	)
	go func() {
		defer close(finished)
		defer close(items)
		produceErr = ingest.ProduceWAT(ctx, abs, opts.MaxFileSize, items, ps)
	}()

	var (
		batchSt  LinkStats // what the open transaction holds
		inBatch  int
		records  int // records handled
		writeErr error
		current  string // the file whose records are in the batch, "" after its end
		next     int    // the record of current after the last one written
		at       string // the part of current read then (countingReader.position)
	)
	commit := func() error {
		if lw.tx == nil {
			return nil
		}
		if current != "" {
			if err := lw.progress(ctx, current, ingest.ProgressNext+" "+at+" "+strconv.Itoa(next)); err != nil {
				return err
			}
		}
		if err := lw.commit(); err != nil {
			return err
		}
		st.merge(batchSt)
		batchSt, inBatch = LinkStats{}, 0
		return nil
	}
	for it := range items {
		if writeErr != nil || ctx.Err() != nil {
			continue // drain, so that the reader can stop
		}
		if err := lw.begin(ctx); err != nil {
			writeErr = err
			cancel()
			continue
		}
		if it.End {
			current = ""
			writeErr = lw.progress(ctx, it.File, ingest.ProgressDone+" "+it.At+" "+strconv.Itoa(it.Record))
		} else {
			current, next, at = it.File, it.After(), it.At
			records++
			writeErr = lw.writeRecord(ctx, &it, &batchSt)
			if it.Page != nil || (it.Skip != nil && it.Skip.Malformed()) {
				inBatch++
			}
		}
		if writeErr == nil && inBatch >= batch {
			writeErr = commit()
		}
		if writeErr != nil {
			cancel()
			continue
		}
		if opts.Progress != nil {
			p := total
			p.Files = records + int(ps.Resumed.Load())
			p.Bytes = ps.Read.Load()
			opts.Progress(p)
		}
	}
	<-finished
	st.Records = records
	st.Resumed = int(ps.Resumed.Load())
	st.Changed = int(ps.Changed.Load())
	switch {
	case parent.Err() != nil:
		// Interrupted: the last committed batch stands; a rerun resumes.
		lw.rollback()
		st.Duration = time.Since(start)
		return st, context.Cause(parent)
	case writeErr != nil:
		lw.rollback()
		st.Duration = time.Since(start)
		return st, fmt.Errorf("store: ingest WAT: %w", writeErr)
	}
	err = commit()
	if err == nil {
		err = finish(context.WithoutCancel(ctx), w)
	}
	st.Duration = time.Since(start)
	if err != nil {
		return st, fmt.Errorf("store: ingest WAT: %w", err)
	}
	return st, produceErr
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
