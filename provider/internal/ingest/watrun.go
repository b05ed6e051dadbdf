package ingest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/linkrot/relink/provider/commoncrawl"
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
	WriteChanged(&b, st.Changed)
	fmt.Fprintf(&b, " in %.1fs", st.Duration.Seconds())
	return b.String()
}

// Count adds n to m[key], making m when needed.
func Count(m *map[string]int, key string, n int) {
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
		Count(&st.Skipped, r, n)
	}
	for r, n := range o.DroppedLinks {
		Count(&st.DroppedLinks, r, n)
	}
}

// AddSource counts a link source added for p with links link records,
// self links to p itself left out.
func (st *LinkStats) AddSource(p *commoncrawl.Page, links, self int) {
	st.Sources++
	st.Links += links
	for r, n := range p.Dropped {
		Count(&st.DroppedLinks, r, n)
	}
	Count(&st.DroppedLinks, DropSelfLink, self)
}

// SelfLinks returns how many of p's links go to p itself.
func SelfLinks(p *commoncrawl.Page) int {
	self := 0
	for _, l := range p.Links {
		if l.Target == p.URI {
			self++
		}
	}
	return self
}

// A LinkSink writes the link sources of WAT files, one transaction (batch)
// at a time. RunWAT calls it from one goroutine.
type LinkSink interface {
	// Begin opens a batch unless one is open; Open reports whether one is.
	Begin(ctx context.Context) error
	Open() bool
	// WriteRecord writes a record in the open batch, a page or a skip,
	// and counts its outcome in st. When it.Retry is set an earlier ingest
	// may have recorded the record as malformed: a malformed skip replaces
	// that row, and a page or another skip removes it.
	WriteRecord(ctx context.Context, it *WATItem, st *LinkStats) error
	// Progress records the progress row of a WAT file ("wat:" and its
	// path) in the open batch.
	Progress(ctx context.Context, file, outcome string) error
	// Commit commits the open batch; Rollback abandons it.
	Commit(ctx context.Context) error
	Rollback()
	// Finish brings the store's derived data up to date after the last
	// batch and marks the store complete.
	Finish(ctx context.Context) error
}

// RunWAT reads the WAT files at abs (absolute paths, as WATInputs gives,
// of total size) on one goroutine while the calling one writes their
// records through lw, committing every opts.BatchSize link sources and
// malformed records, each file's progress with every batch. prior holds
// the progress rows earlier ingests recorded, by path. Cancelled, it
// rolls back the open batch and returns the counts of the committed ones
// with ctx's cause; when the input is done it commits and calls
// lw.Finish. Its errors are prefixed "store: ingest WAT".
func RunWAT(ctx context.Context, abs []string, total Progress, opts Options, prior map[string]string, lw LinkSink) (LinkStats, error) {
	start := time.Now()
	var st LinkStats
	batch := opts.BatchSize
	if batch <= 0 {
		batch = DefaultBatchSize
	}
	ps := &State{Prior: prior}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		items      = make(chan WATItem, 256)
		produceErr error
		finished   = make(chan struct{})
	)
	go func() {
		defer close(finished)
		defer close(items)
		produceErr = ProduceWAT(ctx, abs, opts.MaxFileSize, items, ps)
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
		if !lw.Open() {
			return nil
		}
		if current != "" {
			if err := lw.Progress(ctx, current, ProgressNext+" "+at+" "+strconv.Itoa(next)); err != nil {
				return err
			}
		}
		if err := lw.Commit(ctx); err != nil {
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
		if err := lw.Begin(ctx); err != nil {
			writeErr = err
			cancel()
			continue
		}
		if it.End {
			current = ""
			writeErr = lw.Progress(ctx, it.File, ProgressDone+" "+it.At+" "+strconv.Itoa(it.Record))
		} else {
			current, next, at = it.File, it.After(), it.At
			records++
			writeErr = lw.WriteRecord(ctx, &it, &batchSt)
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
		lw.Rollback()
		st.Duration = time.Since(start)
		return st, context.Cause(parent)
	case writeErr != nil:
		lw.Rollback()
		st.Duration = time.Since(start)
		return st, fmt.Errorf("store: ingest WAT: %w", writeErr)
	}
	err := commit()
	if err == nil {
		err = lw.Finish(context.WithoutCancel(ctx))
	}
	st.Duration = time.Since(start)
	if err != nil {
		return st, fmt.Errorf("store: ingest WAT: %w", err)
	}
	return st, produceErr
}
