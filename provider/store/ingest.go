package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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

// ftsHashSize is the memory, in bytes, that the full-text index may fill
// with new terms before it writes them to a new segment (FTS5's
// "hashsize", 1 MiB by default; an ingest sets it, and it stays in the
// store's configuration). A batch of the dev corpus, 500 pages, fills a
// few MiB: at 1 MiB it made several segments a batch, which FTS5 then
// merged again; at 8 MiB about one, and the writer spends a quarter less
// time on the index.
const ftsHashSize = 8 << 20

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
	// ReasonTooLarge: larger than IngestOptions.MaxFileSize.
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

// IngestOptions configures an ingest. The zero value is ready to use.
type IngestOptions struct {
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
}

// A Migration maps the canonical URIs of one site's pages to their new
// URIs (IngestOptions.Migrations).
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
	writeChanged(&b, st.Changed)
	fmt.Fprintf(&b, " in %.1fs", st.Duration.Seconds())
	return b.String()
}

// writeChanged adds to a summary line the number of files read again
// because their content changed, when there are any.
func writeChanged(b *strings.Builder, n int) {
	switch {
	case n == 1:
		b.WriteString(", 1 changed file read again")
	case n > 1:
		fmt.Fprintf(b, ", %d changed files read again", n)
	}
}

// merge adds the counts of o to st.
func (st *Stats) merge(o Stats) {
	st.Pages += o.Pages
	st.Redirects += o.Redirects
	st.Links += o.Links
	st.NavLinks += o.NavLinks
	st.AreaLinks += o.AreaLinks
	for r, n := range o.Skipped {
		if st.Skipped == nil {
			st.Skipped = map[string]int{}
		}
		st.Skipped[r] += n
	}
}

// add counts it.
func (st *Stats) add(it *item) {
	switch {
	case it.page != nil:
		st.Pages++
		st.Links += len(it.page.links)
		for _, l := range it.page.links {
			if l.Nav {
				st.NavLinks++
			}
			if l.Area {
				st.AreaLinks++
			}
		}
	case it.redirect != nil:
		st.Redirects++
	case it.skip != "":
		if st.Skipped == nil {
			st.Skipped = map[string]int{}
		}
		st.Skipped[it.skip]++
	}
}

// item is the outcome of one file or record: a page, a redirect, a skip,
// or (none of them) a marker that a whole WARC file is done.
type item struct {
	seq      int
	source   string
	size     int64
	page     *pageRow
	redirect *redirectRow
	skip     string
	detail   string
	// file and progress, when progress is not "", are the row that records
	// the progress through a WARC file (its path, and how far it is read)
	// after this item.
	file, progress string
	// retry says that an earlier ingest recorded an outcome for source,
	// which this one replaces.
	retry bool
}

// pageRow is a parsed page, ready to write.
type pageRow struct {
	uri, address, site, title string
	contentType               string
	status                    int
	header                    []byte // nil: synthesize on Fetch
	body                      []byte // deflated
	words                     int
	titleText, text           string // lowercased words, for the index
	links                     []backlink.Link
}

// redirectRow is a redirect, ready to write.
type redirectRow struct {
	uri, target string
	status      int
}

// job is one unit of work: run reads and parses one source.
type job struct {
	seq            int
	source         string
	size           int64
	run            func() item
	file, progress string // as in item
	retry          bool
}

// skipped returns the item for a source that is not a page.
func skipped(reason string, err error) item {
	it := item{skip: reason}
	if err != nil {
		it.detail = err.Error()
	}
	return it
}

// producer emits the jobs of an ingest in a fixed order; emit reports false
// when the ingest is stopping.
type producer func(ctx context.Context, emit func(job) bool, ps *produceState) error

// produceState is what a producer reads and counts besides its jobs.
type produceState struct {
	// prior holds the outcome an earlier ingest recorded for each source
	// it finished (the sources table).
	prior map[string]string
	// resumed counts the sources passed over as done, read the input
	// bytes read, changed the files read again because their content
	// changed (Stats.Changed).
	resumed, read, changed atomic.Int64
}

// done reports whether an earlier ingest finished source.
func (ps *produceState) done(source string) bool {
	_, ok := ps.prior[source]
	return ok
}

// ingest runs produce's jobs on workers and writes their items in order, one
// transaction per batch, holding the writer lock (ErrLocked when another
// ingest holds it). kind names the ingest in the store's mark of an
// unfinished ingest; total is the known size of the input.
func (s *Store) ingest(ctx context.Context, kind string, opts IngestOptions, total Progress, produce producer) (Stats, error) {
	start := time.Now()
	var st Stats
	w, err := s.writer()
	if err != nil {
		return st, err
	}
	end, err := s.beginIngest(ctx, w, kind)
	if err != nil {
		return st, err
	}
	defer end()
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	batch := opts.BatchSize
	if batch <= 0 {
		batch = DefaultBatchSize
	}
	prior, err := loadSources(ctx, w)
	if err != nil {
		return st, err
	}
	if err := deferLinksIndex(ctx, w); err != nil {
		return st, err
	}
	if _, err := w.ExecContext(ctx, `INSERT INTO fts (fts, rank) VALUES ('hashsize', ?)`, ftsHashSize); err != nil {
		return st, fmt.Errorf("store: ingest: %w", err)
	}
	ps := &produceState{prior: prior}
	wr, err := newWriter(ctx, w)
	if err != nil {
		return st, err
	}
	defer wr.close()

	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		jobs       = make(chan job)
		results    = make(chan item, workers)
		inFlight   = make(chan struct{}, max(64, 16*workers))
		produceErr error
		wg, workWG sync.WaitGroup
		seq        int
	)
	emit := func(j job) bool {
		select {
		case inFlight <- struct{}{}:
		case <-ctx.Done():
			return false
		}
		j.seq = seq
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
				it := runJob(j)
				it.seq, it.source, it.size = j.seq, j.source, j.size
				it.file, it.progress, it.retry = j.file, j.progress, j.retry
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
		pending  = map[int]item{}
		next     int
		inBatch  int
		batchSt  Stats // what the open transaction holds
		files    int
		bytes    int64
		writeErr error
	)
	for it := range results {
		if writeErr != nil {
			continue // drain, so that the workers can stop
		}
		pending[it.seq] = it
		for {
			it, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			<-inFlight
			if ctx.Err() != nil {
				break // stopping: leave the item unwritten
			}
			if err := wr.write(ctx, &it); err != nil {
				writeErr = err
				cancel()
				break
			}
			batchSt.add(&it)
			if it.page != nil || it.redirect != nil || it.skip != "" {
				files++ // not the marker that ends a WARC file
			}
			bytes += it.size
			inBatch++
			if inBatch >= batch {
				if err := wr.commit(ctx); err != nil {
					writeErr = err
					cancel()
					break
				}
				st.merge(batchSt)
				batchSt, inBatch = Stats{}, 0
			}
			if opts.Progress != nil {
				p := total
				p.Files = files + int(ps.resumed.Load())
				p.Bytes = max(bytes, ps.read.Load())
				opts.Progress(p)
			}
		}
	}
	wg.Wait()
	st.Resumed = int(ps.resumed.Load())
	st.Changed = int(ps.changed.Load())
	s.docs.Store(-1)
	s.cache.clear()
	switch {
	case parent.Err() != nil:
		// Interrupted: the last committed batch stands; a rerun finishes.
		wr.rollback()
		st.Duration = time.Since(start)
		return st, context.Cause(parent)
	case writeErr != nil:
		wr.rollback()
		st.Duration = time.Since(start)
		return st, writeErr
	}
	err = wr.commit(ctx)
	if err == nil {
		st.merge(batchSt)
		err = finish(context.WithoutCancel(ctx), w)
	}
	s.docs.Store(-1)
	s.cache.clear() // a search during the ingest may have cached a partial answer
	st.Duration = time.Since(start)
	if err != nil {
		return st, err
	}
	return st, produceErr
}

// runJob runs j, turning a panic of the parsing code into a skipped item
// so that one bad page cannot stop an ingest; the panic's value is
// recorded as the detail.
func runJob(j job) (it item) {
	defer func() {
		if r := recover(); r != nil {
			it = skipped(ReasonInternal, fmt.Errorf("panic: %v", r))
		}
	}()
	return j.run()
}

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
// the ingest that completes it builds the index.
func deferLinksIndex(ctx context.Context, w *sql.DB) error {
	var any bool
	if err := w.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM links)`).Scan(&any); err != nil {
		return fmt.Errorf("store: ingest: %w", err)
	}
	if any {
		return nil
	}
	if _, err := w.ExecContext(ctx, `DROP INDEX IF EXISTS links_dst`); err != nil {
		return fmt.Errorf("store: ingest: %w", err)
	}
	return nil
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

// finish brings the derived data up to date unless meta says it is (the
// writer clears the mark when it adds pages or redirects, so an
// interrupted ingest leaves it cleared for the run that completes the job):
// each page's in-degree (the backlink rank), the copy of the document
// frequencies, a merged full-text index and fresh planner statistics. In
// the same transaction it deletes the mark of a running ingest: from then
// on readers accept the store (CheckComplete). It first builds the index
// of the links by target if an ingest dropped it (deferLinksIndex).
func finish(ctx context.Context, w *sql.DB) error {
	if err := buildLinksIndex(ctx, w); err != nil {
		return fmt.Errorf("store: ingest: finish: %w", err)
	}
	var fresh bool
	if err := w.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM meta WHERE key = 'derived')`).Scan(&fresh); err != nil {
		return fmt.Errorf("store: ingest: finish: %w", err)
	}
	const finished = `DELETE FROM meta WHERE key = 'ingest'`
	if fresh {
		if _, err := w.ExecContext(ctx, finished); err != nil {
			return fmt.Errorf("store: ingest: finish: %w", err)
		}
		return nil
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: ingest: finish: %w", err)
	}
	defer tx.Rollback()
	for _, q := range []string{
		`UPDATE pages SET
			inlinks = (SELECT count(DISTINCT src) FROM links
				WHERE dst = pages.id AND area = 0 AND src <> pages.id),
			content_inlinks = (SELECT count(DISTINCT src) FROM links
				WHERE dst = pages.id AND area = 0 AND nav = 0 AND src <> pages.id)`,
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
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: ingest: finish: %w", err)
	}
	for _, q := range []string{`ANALYZE`, `PRAGMA wal_checkpoint(TRUNCATE)`} {
		if _, err := w.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("store: ingest: finish: %w", err)
		}
	}
	return nil
}

// pageInput is what pageItem needs to make a page (or a redirect) of an
// HTML document.
type pageInput struct {
	uri, site   string
	address     string // the URI as published: hrefs resolve against it
	body        []byte // the bytes to store and serve
	meta        pageMeta
	status      int
	contentType string
	header      []byte
	// resolve resolves a meta refresh URL written on the page to a
	// canonical URI.
	resolve func(href string) (string, bool)
}

// pageItem renders an HTML document and returns it as a page, or as a
// redirect when it is a redirect stub.
func pageItem(in pageInput) item {
	dec, _, err := backlink.Decode(in.body, in.contentType)
	if err != nil {
		return skipped(ReasonBadRecord, err)
	}
	// One reading of the page gives its words and its links (Words and
	// Outlinks would read it once each).
	doc, err := backlink.Parse(dec, in.address)
	if err != nil {
		if errors.Is(err, backlink.ErrBadURI) {
			return skipped(ReasonBadURI, err)
		}
		return skipped(ReasonBadRecord, err)
	}
	ws := doc.Words()
	if in.meta.hasRefresh && len(ws) <= RedirectMaxWords {
		delay, target, ok := parseRefresh(in.meta.refresh)
		if ok && delay <= RedirectMaxDelay && target != "" {
			if t, ok := in.resolve(target); ok && t != in.uri {
				return item{redirect: &redirectRow{uri: in.uri, target: t, status: in.status}}
			}
		}
	}
	title := in.meta.title
	if !utf8.ValidString(title) {
		_, m := scanPage(dec, nil, nil)
		title = strings.ToValidUTF8(m.title, "\uFFFD")
	}
	return item{page: &pageRow{
		uri:         in.uri,
		address:     in.address,
		site:        in.site,
		title:       title,
		contentType: in.contentType,
		status:      in.status,
		header:      in.header,
		body:        deflate(in.body),
		words:       len(ws),
		titleText:   indexText(words.Split(title)),
		text:        indexText(ws),
		links:       doc.Outlinks(),
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
		b.WriteString(lexsig.Normalize(w))
	}
	return b.String()
}
