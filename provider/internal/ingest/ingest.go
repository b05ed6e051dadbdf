package ingest

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/internal/words"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/corpus"
)

// mine reports whether the source named key belongs to the ingest's
// share of the input (IngestOptions.Shares).
func mine(o *corpus.IngestOptions, key string) bool {
	if o.Shares <= 1 {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(key))
	return int(h.Sum32()%uint32(o.Shares)) == o.Share
}

// checkShare returns an error for a Share outside 0 to Shares-1.
func checkShare(o *corpus.IngestOptions) error {
	if o.Shares > 1 && (o.Share < 0 || o.Share >= o.Shares) {
		return fmt.Errorf("store: ingest: share %d of %d", o.Share, o.Shares)
	}
	return nil
}

// count counts in st the items of a committed batch, as the Sink left
// them.
func count(st *corpus.Stats, items []*Item) {
	for _, it := range items {
		add(st, it)
	}
	clear(items) // let the pages go
}

// add counts it in st.
func add(st *corpus.Stats, it *Item) {
	switch {
	case it.Page != nil:
		st.Pages++
		st.Links += len(it.Page.Links)
		for _, l := range it.Page.Links {
			if l.Nav {
				st.NavLinks++
			}
			if l.Area {
				st.AreaLinks++
			}
		}
	case it.Redirect != nil:
		st.Redirects++
	case it.Skip != "":
		if st.Skipped == nil {
			st.Skipped = map[string]int{}
		}
		st.Skipped[it.Skip]++
	}
}

// Item is the outcome of one file or record: a page, a redirect, a skip,
// or (none of them) a marker that a whole WARC file is done. A Sink writes
// it.
type Item struct {
	// Seq is the item's place in the ingest's input order.
	Seq int
	// Source names the file or record ("file:PATH", "warc:PATH#I"); Size
	// is the input bytes it stands for.
	Source string
	Size   int64
	// Page, Redirect or Skip (a Reason constant, with Detail) is the
	// outcome; none of them marks the end of a WARC file.
	Page     *Page
	Redirect *Redirect
	Skip     string
	Detail   string
	// File and Progress, when Progress is not "", are the row that records
	// the progress through a WARC file (its source key, and how far it is
	// read) after this item.
	File, Progress string
	// Retry says that an earlier ingest recorded an outcome for Source,
	// which this one replaces.
	Retry bool
}

// Page is a parsed page, ready to write.
type Page struct {
	// URI is the page's canonical URI; Address the URI as published or
	// captured, which Fetch reports; Site its manifest site or host.
	URI, Address, Site, Title string
	// ContentType, Status and Header are what Fetch replays; a nil Header
	// is synthesized from ContentType.
	ContentType string
	Status      int
	Header      []byte
	// Body is the page's bytes as served, compressed with Deflate.
	Body []byte
	// Words is the number of visible words.
	Words int
	// TitleText and Text are the title's and the page's words, lowercased
	// as lexsig.Normalize does and joined by spaces: the full-text index's
	// input.
	TitleText, Text string
	// Links are the page's links in page order (backlink.Outlinks).
	Links []backlink.Link
}

// Redirect is a redirect, ready to write: URI redirects to Target.
type Redirect struct {
	URI, Target string
	Status      int
}

// job is one unit of work: run reads and parses one source.
type job struct {
	Seq            int
	Source         string
	Size           int64
	run            func() Item
	File, Progress string // as in Item
	Retry          bool
}

// skipped returns the item for a source that is not a page.
func skipped(reason string, err error) Item {
	it := Item{Skip: reason}
	if err != nil {
		it.Detail = err.Error()
	}
	return it
}

// producer emits the jobs of an ingest in a fixed order; emit reports false
// when the ingest is stopping.
type producer func(ctx context.Context, emit func(job) bool, ps *State) error

// State is what a producer reads and counts besides its jobs.
type State struct {
	// Prior holds the outcome an earlier ingest recorded for each source
	// it finished (the store's sources table).
	Prior map[string]string
	// Resumed counts the sources passed over as done, Read the input
	// bytes read, Changed the files read again because their content
	// changed (Stats.Changed).
	Resumed, Read, Changed atomic.Int64
}

// done reports whether an earlier ingest finished source.
func (ps *State) done(source string) bool {
	_, ok := ps.Prior[source]
	return ok
}

// A Source is the input of one ingest: what it is, how large, and the
// producer of its jobs. ManifestSource and WARCSource make one.
type Source struct {
	// Kind names the ingest ("files", "warc") in a store's mark of an
	// unfinished ingest.
	Kind string
	// Total is the known size of the input.
	Total   corpus.Progress
	produce producer
}

// A Sink writes the items of an ingest, one transaction (batch) at a time.
// Run calls it from one goroutine.
type Sink interface {
	// Write writes it in the open batch, opening one if needed, or keeps
	// it (the pointer stays valid until the batch commits or rolls back)
	// to write when the batch commits.
	Write(ctx context.Context, it *Item) error
	// Commit commits the open batch, if any. Run counts the batch's items
	// as Write and Commit left them: a page or redirect whose URI the
	// store already holds is written as a skip (Page and Redirect nil,
	// Skip ReasonDuplicate, Detail the URI); an item whose source another
	// ingest, running at the same time, has written is dropped (Page,
	// Redirect and Skip all empty) and not counted.
	Commit(ctx context.Context) error
	// Rollback abandons the open batch, if any.
	Rollback()
	// Finish brings the store's derived data up to date after the last
	// batch of a complete ingest and marks the store complete.
	Finish(ctx context.Context) error
}

// Run runs src's jobs on opts.Workers goroutines and writes their items
// through sink in input order, whatever order the workers finish them in
// (so that ids given in write order do not depend on scheduling),
// committing every opts.BatchSize items. prior holds the outcome an
// earlier ingest recorded for each source it finished, which the producer
// passes over. When the input is done Run commits the last batch and calls
// sink.Finish. Cancelled, it rolls back the open batch and returns the
// counts of the committed ones with ctx's cause; a failed write, Commit
// or Finish is returned as it is; otherwise Run returns the producer's
// error (a root or file that could not be read), after finishing.
func Run(ctx context.Context, src Source, opts corpus.IngestOptions, prior map[string]string, sink Sink) (corpus.Stats, error) {
	start := time.Now()
	var st corpus.Stats
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	batch := opts.BatchSize
	if batch <= 0 {
		batch = corpus.DefaultBatchSize
	}
	ps := &State{Prior: prior}
	produce, total, wr := src.produce, src.Total, sink

	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		jobs  = make(chan job)
		ahead = newReadAhead(max(64, 16*workers, 2*batch), ReadAheadBytes)
		// The results hold the whole window, so that a worker never
		// waits to hand over a page while the writer commits a batch.
		results    = make(chan Item, ahead.maxItems)
		cores      = newCores(runtime.GOMAXPROCS(0))
		produceErr error
		wg, workWG sync.WaitGroup
		seq        int
	)
	emit := func(j job) bool {
		if !ahead.acquire(ctx, j.Size) {
			return false
		}
		j.Seq = seq
		seq++
		select {
		case jobs <- j:
			return true
		case <-ctx.Done():
			return false
		}
	}
	wg.Go(func() {
		defer close(jobs)
		produceErr = produce(ctx, emit, ps)
	})
	for range workers {
		workWG.Go(func() {
			for j := range jobs {
				cores.wait()
				it := runJob(j)
				cores.leave()
				it.Seq, it.Source, it.Size = j.Seq, j.Source, j.Size
				it.File, it.Progress, it.Retry = j.File, j.Progress, j.Retry
				results <- it
			}
		})
	}
	go func() {
		workWG.Wait()
		close(results)
	}()

	// The writer: items are written in job order, whatever order the
	// workers finish them in, so page ids do not depend on scheduling.
	var (
		pending  = map[int]Item{}
		next     int
		inBatch  int
		batchIt  []*Item // what the open transaction holds, counted when it commits
		files    int
		bytes    int64
		writeErr error
	)
	writing := false
	for it := range results {
		if writeErr != nil {
			if writing {
				cores.leave()
				writing = false
			}
			continue // drain, so that the workers can stop
		}
		if !writing {
			cores.take()
			writing = true
		}
		pending[it.Seq] = it
		for {
			it, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			ahead.release(it.Size)
			if ctx.Err() != nil {
				break // stopping: leave the item unwritten
			}
			if err := wr.Write(ctx, &it); err != nil {
				writeErr = err
				cancel()
				break
			}
			batchIt = append(batchIt, &it)
			if it.Page != nil || it.Redirect != nil || it.Skip != "" {
				files++ // not the marker that ends a WARC file
			}
			bytes += it.Size
			inBatch++
			if inBatch >= batch {
				if err := wr.Commit(ctx); err != nil {
					writeErr = err
					cancel()
					break
				}
				count(&st, batchIt)
				batchIt, inBatch = batchIt[:0], 0
			}
			if opts.Progress != nil {
				p := total
				p.Files = files + int(ps.Resumed.Load())
				p.Bytes = max(bytes, ps.Read.Load())
				opts.Progress(p)
			}
		}
		if len(results) == 0 {
			// About to wait for the workers: let them have the core.
			cores.leave()
			writing = false
		}
	}
	if writing {
		cores.leave()
	}
	wg.Wait()
	st.Resumed = int(ps.Resumed.Load())
	st.Changed = int(ps.Changed.Load())
	switch {
	case parent.Err() != nil:
		// Interrupted: the last committed batch stands; a rerun finishes.
		wr.Rollback()
		st.Duration = time.Since(start)
		return st, context.Cause(parent)
	case writeErr != nil:
		wr.Rollback()
		st.Duration = time.Since(start)
		return st, writeErr
	}
	err := wr.Commit(ctx)
	if err == nil {
		count(&st, batchIt)
		err = wr.Finish(context.WithoutCancel(ctx))
	}
	st.Duration = time.Since(start)
	if err != nil {
		return st, err
	}
	return st, produceErr
}

// cores shares the processors between the writer and the workers, the
// writer first. The writer alone writes the store, in input order, so
// when it falls behind nothing the workers parse ahead makes up for it;
// scheduled as one goroutine among three on two cores, it had about two
// thirds of a core. While it writes it holds one processor, and a worker
// starts a page only while fewer than all of them are held: the writer
// never waits (it may briefly make one too many, until a worker ends its
// page), and a worker waits between pages only.
type cores struct {
	mu   sync.Mutex
	cond sync.Cond
	free int
}

// newCores returns n free processors.
func newCores(n int) *cores {
	c := &cores{free: n}
	c.cond.L = &c.mu
	return c
}

// take holds a processor for the writer, at once.
func (c *cores) take() {
	c.mu.Lock()
	c.free--
	c.mu.Unlock()
}

// wait holds a processor for a worker, waiting until one is free.
func (c *cores) wait() {
	c.mu.Lock()
	for c.free <= 0 {
		c.cond.Wait()
	}
	c.free--
	c.mu.Unlock()
}

// leave frees a processor that take or wait held.
func (c *cores) leave() {
	c.mu.Lock()
	c.free++
	c.mu.Unlock()
	c.cond.Signal()
}

// ReadAheadBytes bounds the input bytes of the files or records that the
// workers may have read and parsed ahead of the writer (unless a single
// one is larger).
const ReadAheadBytes = 64 << 20

// readAhead bounds the work done ahead of the writer: at most maxItems
// items and maxBytes input bytes between the producer and the writer, and
// always at least one item, however large. The window must hold more than
// a batch: the writer takes no items while it commits one, and the workers
// must not wait for it then.
type readAhead struct {
	mu       sync.Mutex
	items    int
	bytes    int64
	maxItems int
	maxBytes int64
	freed    chan struct{} // closed, and replaced, when an item leaves
}

// newReadAhead returns an empty window.
func newReadAhead(maxItems int, maxBytes int64) *readAhead {
	return &readAhead{maxItems: maxItems, maxBytes: maxBytes, freed: make(chan struct{})}
}

// acquire waits for room for an item of size bytes; it reports false when
// ctx is done first.
func (r *readAhead) acquire(ctx context.Context, size int64) bool {
	for {
		r.mu.Lock()
		if r.items == 0 || r.items < r.maxItems && r.bytes+size <= r.maxBytes {
			r.items++
			r.bytes += size
			r.mu.Unlock()
			return true
		}
		freed := r.freed
		r.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			return false
		}
	}
}

// release makes room again for an item of size bytes.
func (r *readAhead) release(size int64) {
	r.mu.Lock()
	r.items--
	r.bytes -= size
	close(r.freed)
	r.freed = make(chan struct{})
	r.mu.Unlock()
}

// runJob runs j, turning a panic of the parsing code into a skipped item
// so that one bad page cannot stop an ingest; the panic's value is
// recorded as the detail.
func runJob(j job) (it Item) {
	defer func() {
		if r := recover(); r != nil {
			it = skipped(corpus.ReasonInternal, fmt.Errorf("panic: %v", r))
		}
	}()
	return j.run()
}

// pageInput is what pageItem needs to make a page (or a redirect) of an
// HTML document.
type pageInput struct {
	uri, site   string
	address     string // the URI as published: hrefs resolve against it
	data        []byte // the page's bytes as read
	status      int
	contentType string
	header      []byte
	// rewrite, when not nil, rewrites the hrefs of the page's <a> and
	// <area> tags, and the page is stored so rewritten; setBase, when not
	// nil, learns the page's <base href> before (readPage).
	rewrite hrefFunc
	setBase func(string)
	// resolve resolves a meta refresh URL written on the page to a
	// canonical URI.
	resolve func(href string) (string, bool)
}

// pageItem reads an HTML document (readPage) and returns it as a page, or
// as a redirect when it is a redirect stub.
func pageItem(in pageInput) Item {
	body, text, meta, doc, err := readPage(in.data, in.address, in.contentType, in.rewrite, in.setBase)
	if err != nil {
		if errors.Is(err, backlink.ErrBadURI) {
			return skipped(corpus.ReasonBadURI, err)
		}
		return skipped(corpus.ReasonBadRecord, err)
	}
	if in.rewrite != nil {
		// The rewritten page is not needed once it is compressed.
		defer releaseScan(body)
	}
	ws := doc.Words()
	if meta.hasRefresh && len(ws) <= corpus.RedirectMaxWords {
		delay, target, ok := parseRefresh(meta.refresh)
		if ok && delay <= corpus.RedirectMaxDelay && target != "" {
			if t, ok := in.resolve(target); ok && t != in.uri {
				return Item{Redirect: &Redirect{URI: in.uri, Target: t, Status: in.status}}
			}
		}
	}
	title := meta.title
	if !utf8.ValidString(title) {
		_, m := scanPage(text, nil)
		title = strings.ToValidUTF8(m.title, "\uFFFD")
	}
	return Item{Page: &Page{
		URI:         in.uri,
		Address:     in.address,
		Site:        in.site,
		Title:       title,
		ContentType: in.contentType,
		Status:      in.status,
		Header:      in.header,
		Body:        Deflate(body),
		Words:       len(ws),
		TitleText:   indexText(words.Split(title)),
		Text:        indexText(ws),
		Links:       doc.Outlinks(),
	}}
}

// indexText joins words, lowercased as lexsig.Normalize does, with spaces:
// the text the full-text index holds, so that the index's terms are
// exactly the words lexsig counts.
func indexText(ws []string) string {
	n := 0
	for _, w := range ws {
		n += len(w) + 1
	}
	var b strings.Builder
	b.Grow(n)
	for i, w := range ws {
		if i > 0 {
			b.WriteByte(' ')
		}
		writeLower(&b, w)
	}
	return b.String()
}

// writeLower writes w lowercased as lexsig.Normalize does: an ASCII word
// byte by byte, without the copy Normalize makes of a word with a capital
// (3% of the workers' time on the development corpus), any other through
// Normalize.
func writeLower(b *strings.Builder, w string) {
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			b.WriteString(lexsig.Normalize(w))
			return
		}
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
}
