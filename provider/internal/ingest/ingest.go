package ingest

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/internal/words"
	"github.com/linkrot/relink/lexsig"
)

// Ingest defaults.
const (
	// DefaultBatchSize is how many files or records one ingest transaction
	// holds. On the development corpus 500 ingests 12% faster than 200
	// (fewer, larger full-text segments to merge) and 1000 gains nothing
	// more.
	DefaultBatchSize = 500
	// DefaultMaxFileSize bounds the bytes of one page: 20 MiB. A larger
	// file or record is skipped with ReasonTooLarge.
	DefaultMaxFileSize = 20 << 20
)

// A page is a redirect stub, not a page, when a <meta http-equiv="refresh">
// names a URL to go to within RedirectMaxDelay seconds and the page shows
// at most RedirectMaxWords words (BENCHMARK.md: "Pages that are only a
// redirect ... are redirects, not pages"). The stubs of the development
// corpus wait 0 seconds and show 0 to 6 words.
const (
	// RedirectMaxDelay is the longest refresh delay, in seconds, of a
	// redirect stub: a reader is sent on before reading anything.
	RedirectMaxDelay = 5
	// RedirectMaxWords is the most visible words a redirect stub shows.
	RedirectMaxWords = 100
)

// Reasons a file or record is not a page, the keys of Stats.Skipped.
const (
	// ReasonUnreadable: the file or directory could not be read.
	ReasonUnreadable = "unreadable"
	// ReasonTooLarge: larger than Options.MaxFileSize.
	ReasonTooLarge = "too-large"
	// ReasonEmpty: no bytes at all.
	ReasonEmpty = "empty"
	// ReasonBinary: a file named like HTML whose bytes are not text (NUL
	// and control bytes, or the signature of an image, PDF, archive...;
	// filter.SniffBody decides).
	ReasonBinary = "binary"
	// ReasonNotHTML: text that is not HTML (a feed, code), or a WARC
	// capture whose type is not HTML.
	ReasonNotHTML = "not-html"
	// ReasonDuplicate: another file or record already gave this URI.
	ReasonDuplicate = "duplicate"
	// ReasonStatus: a WARC capture whose HTTP status is neither 2xx nor a
	// redirect with a Location.
	ReasonStatus = "http-status"
	// ReasonBadURI: a URI that canon.Canonicalize rejects.
	ReasonBadURI = "bad-uri"
	// ReasonBadRecord: a WARC record or file that cannot be parsed.
	ReasonBadRecord = "bad-record"
	// ReasonInternal: parsing the page failed in a way it never should (a
	// panic, recorded with its message); please report it.
	ReasonInternal = "internal-error"
)

// Options configures an ingest. The zero value is ready to use.
type Options struct {
	// Workers is the number of goroutines that read and parse pages; 0
	// means runtime.NumCPU(). One more goroutine writes to the database.
	Workers int
	// BatchSize is the number of files or records per transaction; 0
	// means DefaultBatchSize.
	BatchSize int
	// MaxFileSize bounds the bytes of one page; 0 means
	// DefaultMaxFileSize.
	MaxFileSize int64
	// Progress, when not nil, is called after each file or record is
	// written, from one goroutine at a time. It must return quickly.
	Progress func(Progress)
	// Moves, when not nil, publishes pages at other URIs than their files
	// map to: the page whose URI is a key is stored at the value instead,
	// while every link to the old URI, on every page, stays as written, so
	// the old URI becomes a dead link with backlinks and the new one a page
	// no one links to yet: a site that moved a page (the experiment's
	// "moved" mode). The moved page's links resolve as from its old place,
	// except its links to itself (tables of contents, permalinks), which
	// move with it. Keys and values are canonicalized; one that cannot be is an
	// error. IngestManifest and IngestDir apply it; IngestWARC ignores it.
	Moves map[string]string
	// Migrations, when not nil, move whole sites, as a site that is
	// reorganised moves all its pages at once by one rule: every page
	// whose URI is a key of a Migration is published at its value, and its
	// links to the pages of the same Migration follow them (the site
	// updated its own links, fragments kept), while every other page keeps
	// its links to the old URIs, which answer 404 (the experiment's
	// "migrated" mode). A page in Moves is not migrated. Keys and values
	// are canonicalized; one that cannot be, or a URI in two Migrations, is
	// an error. IngestManifest and IngestDir apply them; IngestWARC ignores
	// them.
	Migrations []Migration
	// Edit, when not nil, is given the bytes of each page of a manifest
	// with the page's canonical URI (where its file maps to, before Moves
	// and Migrations) and returns the bytes to store instead: the
	// experiment's "edited" mode changes a page's text this way. It is
	// called from several goroutines at once. IngestWARC ignores it.
	Edit func(uri string, page []byte) []byte
	// Shares, when above 1, splits the input among that many ingests
	// that may run at once (on several machines, into one PostgreSQL
	// database): this one takes only its Share (0 to Shares-1), the files
	// of a manifest or the WARC files whose path hashes (FNV-1a) to Share
	// modulo Shares. Every share reads the whole manifest, so that links
	// between the shares resolve as in one ingest. The other shares'
	// files are neither read nor counted.
	Shares, Share int
}

// mine reports whether the source named key belongs to the ingest's
// share of the input (Options.Shares).
func (o *Options) mine(key string) bool {
	if o.Shares <= 1 {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(key))
	return int(h.Sum32()%uint32(o.Shares)) == o.Share
}

// checkShare returns an error for a Share outside 0 to Shares-1.
func (o *Options) checkShare() error {
	if o.Shares > 1 && (o.Share < 0 || o.Share >= o.Shares) {
		return fmt.Errorf("store: ingest: share %d of %d", o.Share, o.Shares)
	}
	return nil
}

// A Migration maps the canonical URIs of one site's pages to their new
// URIs (Options.Migrations).
type Migration map[string]string

// Progress is the state of an ingest.
type Progress struct {
	// Files is the number of files or WARC records finished so far,
	// including those an earlier ingest had finished; TotalFiles is the
	// number to do, or 0 when unknown (WARC input).
	Files, TotalFiles int
	// Bytes is the number of input bytes read so far; TotalBytes is the
	// size of the input (file sizes for directories, WARC file sizes for
	// WARC input).
	Bytes, TotalBytes int64
}

// Stats counts what one ingest added to the store.
type Stats struct {
	// Pages, Redirects and Links are the pages, redirects and links added.
	Pages, Redirects, Links int
	// NavLinks and AreaLinks are the navigation links and image-map links
	// among Links.
	NavLinks, AreaLinks int
	// Skipped counts the files and records that are not pages, by reason
	// (the Reason constants).
	Skipped map[string]int
	// Resumed is the number of files or records an earlier, interrupted
	// ingest had already finished, passed over this time.
	Resumed int
	// Changed is the number of WARC files that an earlier ingest had read,
	// in part or whole, and whose content has changed since (a download
	// that was cut short and completed, or another file under the same
	// name): they are read again, and only the records that the earlier
	// ingest finished in the part that is the same are passed over.
	Changed int
	// Duration is the wall time of the ingest.
	Duration time.Duration
}

// String returns the summary line of an ingest, for example
// "4512 pages, 37 redirects, 812345 links (512345 navigation, 0 image-map), skipped: 3 binary, 1 unreadable in 41.2s".
func (st Stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d pages, %d redirects, %d links (%d navigation, %d image-map), skipped: ",
		st.Pages, st.Redirects, st.Links, st.NavLinks, st.AreaLinks)
	if len(st.Skipped) == 0 {
		b.WriteString("none")
	}
	for i, r := range slices.Sorted(maps.Keys(st.Skipped)) {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d %s", st.Skipped[r], r)
	}
	if st.Resumed > 0 {
		fmt.Fprintf(&b, ", %d already ingested", st.Resumed)
	}
	WriteChanged(&b, st.Changed)
	fmt.Fprintf(&b, " in %.1fs", st.Duration.Seconds())
	return b.String()
}

// WriteChanged adds to a summary line the number of files read again
// because their content changed, when there are any.
func WriteChanged(b *strings.Builder, n int) {
	switch {
	case n == 1:
		b.WriteString(", 1 changed file read again")
	case n > 1:
		fmt.Fprintf(b, ", %d changed files read again", n)
	}
}

// count counts the items of a committed batch, as the Sink left them.
func (st *Stats) count(items []*Item) {
	for _, it := range items {
		st.add(it)
	}
	clear(items) // let the pages go
}

// add counts it.
func (st *Stats) add(it *Item) {
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
	Total   Progress
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
func Run(ctx context.Context, src Source, opts Options, prior map[string]string, sink Sink) (Stats, error) {
	start := time.Now()
	var st Stats
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	batch := opts.BatchSize
	if batch <= 0 {
		batch = DefaultBatchSize
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
				st.count(batchIt)
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
		st.count(batchIt)
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
			it = skipped(ReasonInternal, fmt.Errorf("panic: %v", r))
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
			return skipped(ReasonBadURI, err)
		}
		return skipped(ReasonBadRecord, err)
	}
	if in.rewrite != nil {
		// The rewritten page is not needed once it is compressed.
		defer releaseScan(body)
	}
	ws := doc.Words()
	if meta.hasRefresh && len(ws) <= RedirectMaxWords {
		delay, target, ok := parseRefresh(meta.refresh)
		if ok && delay <= RedirectMaxDelay && target != "" {
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
