package ingest

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/linkrot/relink/provider/commoncrawl"
	"github.com/linkrot/relink/provider/corpus"
)

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
func merge(st *corpus.LinkStats, o corpus.LinkStats) {
	st.Sources += o.Sources
	st.Links += o.Links
	for r, n := range o.Skipped {
		Count(&st.Skipped, r, n)
	}
	for r, n := range o.DroppedLinks {
		Count(&st.DroppedLinks, r, n)
	}
}

// AddSource counts in st a link source added for p with links link
// records, self links to p itself left out.
func AddSource(st *corpus.LinkStats, p *commoncrawl.Page, links, self int) {
	st.Sources++
	st.Links += links
	for r, n := range p.Dropped {
		Count(&st.DroppedLinks, r, n)
	}
	Count(&st.DroppedLinks, corpus.DropSelfLink, self)
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
	WriteRecord(ctx context.Context, it *WATItem, st *corpus.LinkStats) error
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
func RunWAT(ctx context.Context, abs []string, total corpus.Progress, opts corpus.IngestOptions, prior map[string]string, lw LinkSink) (corpus.LinkStats, error) {
	start := time.Now()
	var st corpus.LinkStats
	batch := opts.BatchSize
	if batch <= 0 {
		batch = corpus.DefaultBatchSize
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
		batchSt  corpus.LinkStats // what the open transaction holds
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
		merge(&st, batchSt)
		batchSt, inBatch = corpus.LinkStats{}, 0
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
