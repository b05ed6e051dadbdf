package postgres_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/internal/pgtest"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/commoncrawl"
	"github.com/linkrot/relink/provider/corpus"
	"github.com/linkrot/relink/provider/internal/ingest/fixture"
	"github.com/linkrot/relink/provider/postgres"
	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/provider/warc"
)

// fixtureWeb copies the stores' fixture web and returns its manifest.
func fixtureWeb(t testing.TB) *corpus.Manifest {
	t.Helper()
	root := fixture.Web(t, "../store/testdata/web")
	m, err := corpus.ParseManifest(bytes.NewReader(fixture.ManifestJSON(root)))
	require.NoError(t, err)
	return m
}

// writeWARC writes a small WARC file: two pages, a duplicate capture, an
// HTTP redirect, a meta-refresh stub and a stylesheet.
func writeWARC(t testing.TB, path string) {
	t.Helper()
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, true)
	date := time.Date(2010, 3, 1, 12, 0, 0, 0, time.UTC)
	html := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	for _, r := range []struct {
		uri    string
		status int
		header http.Header
		body   string
	}{
		{"http://warc.example.com/", 200, html, `<html><head><title>Warc Home</title></head><body><p>Archived <a href="a.html">alpha page</a> and <a href="/old">old alpha</a>.</p></body></html>`},
		{"http://warc.example.com/a.html", 200, html, `<html><head><title>Alpha</title></head><body><p>Alpha zebra text, <a href="./">home</a>.</p></body></html>`},
		{"http://warc.example.com/old", 301, http.Header{"Location": {"/a.html"}}, ""},
		{"http://warc.example.com/", 200, html, `<html><body>a later capture</body></html>`},
		{"http://warc.example.com/stub.html", 200, html, `<html><head><meta http-equiv="refresh" content="0;url=a.html"></head><body>Moved.</body></html>`},
		{"http://warc.example.com/style.css", 200, http.Header{"Content-Type": {"text/css"}}, "p { color: red }"},
	} {
		require.NoError(t, w.WriteResponse(r.uri, date, r.status, r.header, []byte(r.body)))
	}
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
}

// The link sources of the WAT file (writeWAT).
const (
	blog  = "https://blog.example/post"
	gone  = "https://gone.example/old"
	intro = fixture.FileBase + "guide/intro.html"
)

// writeWAT writes a WAT file: blog links to the fixture web's guide
// introduction, to gone and to itself; the WARC file's alpha page (which
// the WARC ingest, after it, takes over) links to blog; a page of the
// fixture web is passed over, blog again is a duplicate, a page linking
// only to itself has no links, and a record is not JSON.
func writeWAT(t testing.TB, path string) {
	t.Helper()
	var buf bytes.Buffer
	w := commoncrawl.NewWriter(&buf)
	fetched := time.Date(2024, 5, 18, 1, 58, 10, 0, time.UTC)
	page := func(uri string, links ...commoncrawl.Link) {
		require.NoError(t, w.WritePage(&commoncrawl.Page{URI: uri, Fetched: fetched, Status: 200, Links: links}))
	}
	page(blog, commoncrawl.Link{Target: intro, Anchor: "intro guide"}, commoncrawl.Link{Target: gone, Anchor: "old page"},
		commoncrawl.Link{Target: blog}, commoncrawl.Link{Target: intro, Anchor: "again"})
	page("http://warc.example.com/a.html", commoncrawl.Link{Target: blog, Anchor: "a post"})
	page(fixture.FileBase+"api.html", commoncrawl.Link{Target: gone, Anchor: "gone"})
	page(blog, commoncrawl.Link{Target: gone, Anchor: "a later capture"})
	page("https://lonely.example/", commoncrawl.Link{Target: "https://lonely.example/#self", Anchor: "me"})
	raw := warc.NewWriter(&buf, true)
	require.NoError(t, raw.WriteRecord(warc.Header{
		{Name: "WARC-Type", Value: warc.TypeMetadata},
		{Name: "WARC-Target-URI", Value: "https://news.example/"},
		{Name: "Content-Type", Value: "application/json"},
	}, []byte(`{"Envelope": nope}`)))
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
}

// sources is what the comparison tests ingest into both stores.
type sources struct {
	manifest  *corpus.Manifest
	warc, wat string
}

// newSources makes the fixture web, the WARC file and the WAT file.
func newSources(t testing.TB) sources {
	t.Helper()
	dir := t.TempDir()
	src := sources{fixtureWeb(t), filepath.Join(dir, "crawl.warc.gz"), filepath.Join(dir, "links.wat.gz")}
	writeWARC(t, src.warc)
	writeWAT(t, src.wat)
	return src
}

// ingester is what both stores ingest with.
type ingester interface {
	IngestManifest(context.Context, *corpus.Manifest, corpus.IngestOptions) (corpus.Stats, error)
	IngestWARC(context.Context, []string, corpus.IngestOptions) (corpus.Stats, error)
	IngestWAT(context.Context, []string, corpus.IngestOptions) (corpus.LinkStats, error)
}

// ingestAll ingests src into s: the manifest, the WAT file, then the WARC
// file. It returns the ingests' stats, without their durations.
func ingestAll(t testing.TB, src sources, s ingester) []any {
	t.Helper()
	ctx := context.Background()
	opts := corpus.IngestOptions{BatchSize: 7, Workers: 3}
	a, err := s.IngestManifest(ctx, src.manifest, opts)
	require.NoError(t, err)
	b, err := s.IngestWAT(ctx, []string{src.wat}, corpus.IngestOptions{BatchSize: 2})
	require.NoError(t, err)
	c, err := s.IngestWARC(ctx, []string{src.warc}, opts)
	require.NoError(t, err)
	a.Duration, b.Duration, c.Duration = 0, 0, 0
	return []any{a, b, c}
}

// openPG opens a new store in a new database.
func openPG(t testing.TB, opts *postgres.Options) (*postgres.Store, string) {
	t.Helper()
	dsn := pgtest.Database(t)
	s, err := postgres.Open(context.Background(), postgres.DSN(dsn), opts)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s, dsn
}

// TestSameAsSQLite ingests the same manifest and WARC file into an SQLite
// store and a PostgreSQL store and checks that they answer alike: the
// same ingest counts, pages, links, in-degrees, backlinks in the same
// order, fetched bytes, document frequencies and search results.
func TestSameAsSQLite(t *testing.T) {
	src := newSources(t)
	ctx := context.Background()
	lite, err := store.Open(filepath.Join(t.TempDir(), "s.db"), nil)
	require.NoError(t, err)
	defer lite.Close()
	pg, pgDSN := openPG(t, nil)

	liteSt := ingestAll(t, src, lite)
	pgSt := ingestAll(t, src, pg)
	if d := cmp.Diff(liteSt, pgSt); d != "" {
		t.Errorf("ingest stats differ (-sqlite +postgres):\n%s", d)
	}
	ll, err := lite.LinkTotals(ctx)
	require.NoError(t, err)
	pl, err := pg.LinkTotals(ctx)
	require.NoError(t, err)
	if d := cmp.Diff(ll, pl); d != "" || pl.Sources != 1 {
		t.Errorf("LinkTotals differ (-sqlite +postgres), or not one link source:\n%s", d)
	}
	lls, err := lite.LinkSource(ctx, blog)
	require.NoError(t, err)
	pls, err := pg.LinkSource(ctx, blog)
	require.NoError(t, err)
	if d := cmp.Diff(lls, pls); d != "" {
		t.Errorf("LinkSource differs (-sqlite +postgres):\n%s", d)
	}
	if _, err := pg.LinkSource(ctx, "http://warc.example.com/a.html"); !errors.Is(err, postgres.ErrNotFound) {
		t.Errorf("a page took the link source's URI over, yet LinkSource says %v", err)
	}
	require.NoError(t, pg.CheckComplete(ctx))
	lt, err := lite.Totals(ctx)
	require.NoError(t, err)
	pt, err := pg.Totals(ctx)
	require.NoError(t, err)
	if d := cmp.Diff(lt, pt); d != "" {
		t.Errorf("Totals differ (-sqlite +postgres):\n%s", d)
	}
	if lt.Pages < 10 {
		t.Fatalf("only %d pages ingested", lt.Pages)
	}
	docs, err := pg.Docs(ctx)
	require.NoError(t, err)
	if docs != int64(lt.Pages) {
		t.Errorf("Docs = %d, want %d", docs, lt.Pages)
	}

	var pages []corpus.PageInfo
	for p, err := range lite.Pages(ctx) {
		require.NoError(t, err)
		pages = append(pages, p)
	}
	var pgPages []corpus.PageInfo
	for p, err := range pg.Pages(ctx) {
		require.NoError(t, err)
		pgPages = append(pgPages, p)
	}
	if d := cmp.Diff(pages, pgPages); d != "" {
		t.Errorf("Pages differ (-sqlite +postgres):\n%s", d)
	}
	vocabulary := map[string]bool{}
	targets := map[string]bool{"http://warc.example.com/old": true, "http://warc.example.com/stub.html": true, "http://nowhere.example/": true, gone: true, blog: true}
	for _, p := range pages {
		targets[p.URI] = true
		ll, err := lite.Links(ctx, p.URI)
		require.NoError(t, err)
		pl, err := pg.Links(ctx, p.URI)
		require.NoError(t, err)
		if d := cmp.Diff(ll, pl); d != "" {
			t.Errorf("Links(%s) differ (-sqlite +postgres):\n%s", p.URI, d)
		}
		for _, l := range ll {
			targets[l.URI] = true
		}
		lf, err := lite.Fetch(ctx, p.URI)
		require.NoError(t, err)
		pf, err := pg.Fetch(ctx, p.URI)
		require.NoError(t, err)
		if d := cmp.Diff(lf, pf); d != "" {
			t.Errorf("Fetch(%s) differs (-sqlite +postgres):\n%s", p.URI, d)
		}
		words, err := backlink.Words(lf.Body, lf.Header.Get("Content-Type"))
		require.NoError(t, err)
		for _, w := range words {
			vocabulary[lexsig.Normalize(w)] = true
		}
	}
	for uri := range targets {
		for _, opts := range []corpus.BacklinkOptions{{}, {ExcludeNav: true}, {Area: true}} {
			lb, err := lite.BacklinksWith(ctx, uri, 0, opts)
			require.NoError(t, err)
			pb, err := pg.BacklinksWith(ctx, uri, 0, opts)
			require.NoError(t, err)
			if d := cmp.Diff(lb, pb); d != "" {
				t.Errorf("BacklinksWith(%s, %+v) differ (-sqlite +postgres):\n%s", uri, opts, d)
			}
		}
		lf, err := lite.Fetch(ctx, uri)
		require.NoError(t, err)
		pf, err := pg.Fetch(ctx, uri)
		require.NoError(t, err)
		if d := cmp.Diff(lf, pf); d != "" {
			t.Errorf("Fetch(%s) differs (-sqlite +postgres):\n%s", uri, d)
		}
	}
	terms := slices.Sorted(func(yield func(string) bool) {
		for w := range vocabulary {
			if !yield(w) {
				return
			}
		}
	})
	terms = append(terms, "absent-term", "", "two words")
	ldf, err := lite.DocFreqs(ctx, terms)
	require.NoError(t, err)
	pdf, err := pg.DocFreqs(ctx, terms)
	require.NoError(t, err)
	if d := cmp.Diff(ldf, pdf); d != "" {
		t.Errorf("DocFreqs differ (-sqlite +postgres):\n%s", d)
	}
	lv, pv := vocabularyOf(t, lite), vocabularyOf(t, pg)
	if d := cmp.Diff(lv, pv); d != "" || len(lv) < 10 {
		t.Errorf("Terms differ (-sqlite +postgres), or under 10 terms:\n%s", d)
	}
	for i, term := range terms[:min(len(terms), 50)] {
		n, err := pg.DocFreq(ctx, term)
		require.NoError(t, err)
		if n != pdf[i] {
			t.Errorf("DocFreq(%q) = %d, DocFreqs says %d", term, n, pdf[i])
		}
	}
	for _, q := range []lexsig.Query{
		{Terms: []string{"models"}},
		{Terms: []string{"the", "guide"}},
		{Terms: []string{"alpha", "zebra"}, Mode: lexsig.Disjunctive},
		{Terms: []string{"alpha", "zebra"}, Phrase: true},
		{Terms: []string{"the", "guide"}, Phrase: true},
		{Terms: []string{"alpha zebra", "text"}},
		{Terms: []string{"alpha zebra", "the guide"}, Mode: lexsig.Disjunctive},
		{Terms: []string{"warc home"}},
		{Terms: []string{"café"}},
		{Terms: []string{"and", "or", "not"}},
		{Terms: []string{"!!"}},
	} {
		lr, err := lite.Search(ctx, q, 0)
		require.NoError(t, err)
		pr, err := pg.Search(ctx, q, 0)
		require.NoError(t, err)
		if len(lr) == 0 && len(q.Terms) > 1 && q.Terms[0] != "and" {
			t.Errorf("Search(%s) found nothing in SQLite: the query tests nothing", q.String())
		}
		if d := cmp.Diff(lr, pr, cmpopts.EquateApprox(1e-9, 1e-9)); d != "" {
			t.Errorf("Search(%s) differs (-sqlite +postgres):\n%s", q.String(), d)
		}
	}
	// A phrase that runs from a page's title into its text ("Warc Home"
	// and "Archived alpha page") matches the page's tsvector but is no
	// phrase of the page, as FTS5 keeps its columns apart.
	span := lexsig.Query{Terms: []string{"home", "archived"}, Phrase: true}
	require.Equal(t, 1, pgtest.Int(t, pgDSN, `SELECT count(*) FROM pages WHERE tsv @@ 'home <-> archived'::tsquery`))
	for name, s := range map[string]lexsig.Searcher{"sqlite": lite, "postgres": pg} {
		res, err := s.Search(ctx, span, 0)
		require.NoError(t, err)
		if len(res) != 0 {
			t.Errorf("%s: Search(%s) = %v, want no page", name, span.String(), res)
		}
	}
}

// TestMissing checks the missing-page views: a missing page answers 404
// and is no backlink, but stays in search and document frequencies.
func TestMissing(t *testing.T) {
	src := newSources(t)
	ctx := context.Background()
	pg, dsn := openPG(t, nil)
	ingestAll(t, src, pg)
	home, alpha := "http://warc.example.com", "http://warc.example.com/a.html" // canonical
	before, err := pg.Backlinks(ctx, alpha, 0)
	require.NoError(t, err)
	require.Contains(t, uris(before), home)

	view := pg.WithMissing(home)
	page, err := view.Fetch(ctx, home)
	require.NoError(t, err)
	if page.Status != http.StatusNotFound {
		t.Errorf("missing page: Fetch status %d, want 404", page.Status)
	}
	after, err := view.Backlinks(ctx, alpha, 0)
	require.NoError(t, err)
	if slices.Contains(uris(after), home) {
		t.Errorf("missing page %s is still a backlink of %s", home, alpha)
	}
	res, err := view.Search(ctx, lexsig.Query{Terms: []string{"archived"}}, 0)
	require.NoError(t, err)
	if !slices.Contains(resultURIs(res), home) {
		t.Errorf("missing page is not found by search: %v", res)
	}
	if page, _ := pg.Fetch(ctx, home); page.Status != http.StatusOK {
		t.Errorf("the store itself: Fetch status %d, want 200", page.Status)
	}

	require.NoError(t, pg.MarkMissing(ctx, home))
	again, err := postgres.Open(ctx, postgres.DSN(dsn), &postgres.Options{ReadOnly: true})
	require.NoError(t, err)
	defer again.Close()
	if !again.IsMissing(home) || !slices.Equal(again.Missing(), []string{home}) {
		t.Errorf("MarkMissing did not persist: Missing() = %v", again.Missing())
	}
	if err := again.MarkMissing(ctx, alpha); !errors.Is(err, postgres.ErrReadOnly) {
		t.Errorf("MarkMissing on a read-only store: %v, want ErrReadOnly", err)
	}
	require.ErrorIs(t, again.ClearMissing(ctx, home), postgres.ErrReadOnly)
	require.NoError(t, pg.ClearMissing(ctx))
}

// vocabularyOf returns what a store's Terms lists, term and frequency a
// line, checking the byte order.
func vocabularyOf(t *testing.T, s interface {
	Terms(context.Context, func(string, int64) error) error
}) []string {
	t.Helper()
	var out []string
	prev := ""
	err := s.Terms(context.Background(), func(term string, n int64) error {
		if term <= prev && prev != "" {
			t.Errorf("Terms: %q after %q", term, prev)
		}
		prev = term
		out = append(out, fmt.Sprintf("%s %d", term, n))
		return nil
	})
	require.NoError(t, err)
	return out
}

func uris(bs []backlink.Backlink) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.URI
	}
	return out
}

func resultURIs(rs []lexsig.Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.URI
	}
	return out
}

// dump returns the content of every table of the store at dsn that an
// ingest writes, sorted, for comparing databases.
func dump(t testing.TB, dsn string) map[string][]string {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer c.Close(ctx)
	out := map[string][]string{}
	for table, q := range map[string]string{
		"pages":     `SELECT concat_ws('|', uri, address, site, title, status, content_type, md5(header), words, len, inlinks, content_inlinks, source, md5(body), tsv::text) FROM pages`,
		"links":     `SELECT concat_ws('|', dst, src, pos, anchor, nav, area) FROM links`,
		"redirects": `SELECT concat_ws('|', uri, target, status, source) FROM redirects`,
		"terms":     `SELECT concat_ws('|', term, docs) FROM terms`,
		"corpus":    `SELECT concat_ws('|', pages, length) FROM corpus`,
		"uris":      `SELECT concat_ws('|', uri, kind) FROM uris`,
		"sources":   `SELECT concat_ws('|', source, outcome) FROM sources`,
		"skipped":   `SELECT concat_ws('|', source, reason, detail) FROM skipped`,
		"ingests":   `SELECT kind FROM ingests`,
		"sources_l": `SELECT concat_ws('|', uri, fetched, inlinks, content_inlinks, source) FROM link_sources`,
		"records":   `SELECT concat_ws('|', dst, src, pos, anchor) FROM link_records`,
	} {
		rows, _ := c.Query(ctx, q)
		list, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err, table)
		sort.Strings(list)
		out[table] = list
	}
	return out
}

// TestConcurrentIngests checks that ingests at once lose and double
// nothing: the two halves of a manifest (IngestOptions.Shares) ingested by
// two Stores (two sessions, as two processes would be) at the same time
// give the database one ingest of the whole gives, and so does the whole
// manifest ingested twice at once.
func TestConcurrentIngests(t *testing.T) {
	m := fixtureWeb(t)
	ctx := context.Background()
	opts := corpus.IngestOptions{BatchSize: 3, Workers: 2}

	one, oneDSN := openPG(t, nil)
	_, err := one.IngestManifest(ctx, m, opts)
	require.NoError(t, err)
	want := dump(t, oneDSN)
	if len(want["pages"]) < 8 {
		t.Fatalf("the whole manifest gave %d pages", len(want["pages"]))
	}

	half := func(i int) corpus.IngestOptions {
		o := opts
		o.Shares, o.Share = 2, i
		return o
	}
	for name, inputs := range map[string][]corpus.IngestOptions{"halves": {half(0), half(1)}, "twice": {opts, opts}} {
		t.Run(name, func(t *testing.T) {
			dsn := pgtest.Database(t)
			errs := make(chan error, len(inputs))
			stats := make(chan corpus.Stats, len(inputs))
			for _, o := range inputs {
				s, err := postgres.Open(ctx, postgres.DSN(dsn), nil)
				require.NoError(t, err)
				defer s.Close()
				go func() {
					st, err := s.IngestManifest(ctx, m, o)
					stats <- st
					errs <- err
				}()
			}
			for range inputs {
				require.NoError(t, <-errs)
				if st := <-stats; name == "halves" && st.Pages == 0 {
					t.Errorf("a half ingested no page: %v", st)
				}
			}
			got := dump(t, dsn)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("concurrent ingests (%s) differ from one (-one +concurrent):\n%s", name, d)
			}
		})
	}
}

// TestConcurrentWAT checks that one WAT file ingested twice at once adds
// its link sources once, as one ingest does.
func TestConcurrentWAT(t *testing.T) {
	src := newSources(t)
	ctx := context.Background()
	build := func(times int) map[string][]string {
		s, dsn := openPG(t, nil)
		_, err := s.IngestManifest(ctx, src.manifest, corpus.IngestOptions{})
		require.NoError(t, err)
		errs := make(chan error, times)
		for range times {
			w, err := postgres.Open(ctx, postgres.DSN(dsn), nil)
			require.NoError(t, err)
			defer w.Close()
			go func() {
				_, err := w.IngestWAT(ctx, []string{src.wat}, corpus.IngestOptions{BatchSize: 1})
				errs <- err
			}()
		}
		for range times {
			require.NoError(t, <-errs)
		}
		return dump(t, dsn)
	}
	want, got := build(1), build(2)
	if len(want["sources_l"]) != 2 {
		t.Fatalf("one WAT ingest gave %d link sources, want 2", len(want["sources_l"]))
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("the WAT file ingested twice at once differs from once (-once +twice):\n%s", d)
	}
}

// TestIncomplete checks that a store whose ingest runs or did not finish
// is refused to readers, and that running the ingest again finishes it.
func TestIncomplete(t *testing.T) {
	m := fixtureWeb(t)
	ctx := context.Background()
	pg, dsn := openPG(t, nil)
	readOnly := func() error {
		s, err := postgres.Open(ctx, postgres.DSN(dsn), &postgres.Options{ReadOnly: true})
		if err == nil {
			s.Close()
		}
		return err
	}
	err := readOnly()
	require.ErrorIs(t, err, postgres.ErrIncomplete)
	require.ErrorContains(t, err, "no ingest has filled")

	// While the ingest waits in its progress callback, it is running.
	cctx, cancel := context.WithCancel(ctx)
	var during error
	first := true
	_, err = pg.IngestManifest(cctx, m, corpus.IngestOptions{BatchSize: 2, Workers: 1, Progress: func(p corpus.Progress) {
		if p.Files >= 4 && first {
			first = false
			during = readOnly()
			cancel()
		}
	}})
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorIs(t, during, postgres.ErrIncomplete)
	require.ErrorContains(t, during, "is running")
	err = readOnly()
	require.ErrorIs(t, err, postgres.ErrIncomplete)
	require.ErrorContains(t, err, "did not finish")

	st, err := pg.IngestManifest(ctx, m, corpus.IngestOptions{})
	require.NoError(t, err)
	if st.Resumed == 0 {
		t.Errorf("the second ingest resumed nothing: %v", st)
	}
	require.NoError(t, readOnly())
}

// TestSchema checks the schema's versioning and the refusals of Open.
func TestSchema(t *testing.T) {
	ctx := context.Background()
	exec := func(dsn, q string) {
		t.Helper()
		c, err := pgx.Connect(ctx, dsn)
		require.NoError(t, err)
		defer c.Close(ctx)
		_, err = c.Exec(ctx, q)
		require.NoError(t, err)
	}
	t.Run("empty read-only", func(t *testing.T) {
		dsn := pgtest.Database(t)
		_, err := postgres.Open(ctx, postgres.DSN(dsn), &postgres.Options{ReadOnly: true})
		require.ErrorIs(t, err, postgres.ErrNoStore)
	})
	t.Run("another program's tables", func(t *testing.T) {
		dsn := pgtest.Database(t)
		exec(dsn, `CREATE TABLE accounts (id int)`)
		_, err := postgres.Open(ctx, postgres.DSN(dsn), nil)
		require.ErrorIs(t, err, postgres.ErrNotStore)
	})
	t.Run("newer", func(t *testing.T) {
		s, dsn := openPG(t, nil)
		s.Close()
		exec(dsn, `UPDATE schema_version SET version = version + 1`)
		_, err := postgres.Open(ctx, postgres.DSN(dsn), nil)
		require.ErrorIs(t, err, postgres.ErrSchema)
	})
	t.Run("other rules", func(t *testing.T) {
		s, dsn := openPG(t, nil)
		s.Close()
		exec(dsn, `UPDATE meta SET value = '0' WHERE key = 'link_rules'`)
		_, err := postgres.Open(ctx, postgres.DSN(dsn), nil)
		require.ErrorIs(t, err, postgres.ErrRules)
	})
	t.Run("reopen", func(t *testing.T) {
		s, dsn := openPG(t, nil)
		v, err := s.LinkRules(ctx)
		require.NoError(t, err)
		if v != backlink.Rules {
			t.Errorf("LinkRules = %d, want %d", v, backlink.Rules)
		}
		s.Close()
		again, err := postgres.Open(ctx, postgres.DSN(dsn), nil)
		require.NoError(t, err)
		again.Close()
	})
}

// TestRankings checks that both rankings put the page whose title holds
// the query first, and that BM25 scores are those of SQLite's FTS5.
func TestRankings(t *testing.T) {
	src := newSources(t)
	ctx := context.Background()
	pg, dsn := openPG(t, nil)
	ingestAll(t, src, pg)
	cd, err := postgres.Open(ctx, postgres.DSN(dsn), &postgres.Options{Ranking: postgres.RankCD, ReadOnly: true})
	require.NoError(t, err)
	defer cd.Close()
	q := lexsig.Query{Terms: []string{"alpha"}}
	for _, s := range []*postgres.Store{pg, cd} {
		res, err := s.Search(ctx, q, 10)
		require.NoError(t, err)
		require.NotEmpty(t, res)
		if res[0].URI != "http://warc.example.com/a.html" || res[0].Score <= 0 || math.IsNaN(res[0].Score) {
			t.Errorf("Search(alpha) = %+v, want a.html first with a positive score", res)
		}
	}
	if _, err := postgres.Open(ctx, postgres.DSN(dsn), &postgres.Options{Ranking: "pagerank"}); err == nil {
		t.Error("Open accepted an unknown ranking")
	}
}

// TestOddBytes ingests a file whose name is not UTF-8, which SQLite takes
// as it is and PostgreSQL's text cannot: it is ingested, and ingested
// again without error or double.
func TestOddBytes(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "caf\xe9.html"), []byte("<html><head><title>Caf\xc3\xa9</title></head><body><p>Odd <a href=\"other.html\">name</a>.</p></body></html>"), 0o644))
	ctx := context.Background()
	pg, _ := openPG(t, nil)
	for i := range 2 {
		_, err := pg.IngestDir(ctx, dir, "https://odd.example/", corpus.IngestOptions{})
		require.NoError(t, err, "ingest %d", i)
	}
	st, err := pg.Totals(ctx)
	require.NoError(t, err)
	if st.Pages != 1 || len(st.Skipped) != 0 {
		t.Errorf("Totals = %v, want the one page", st)
	}
	res, err := pg.Search(ctx, lexsig.Query{Terms: []string{"café"}}, 0)
	require.NoError(t, err)
	if len(res) != 1 {
		t.Errorf("Search(café) = %v, want the page", res)
	}
}

// TestSchemas checks that one database holds several stores, one schema
// each: each schema's store is built and read on its own, and what the
// ingest of one schema does is not taken for the other's (ingest ids are
// counted per schema, so that both schemas' first ingests have id 1): an
// ingest running in one schema is not an ingest running in the other. A
// read-only Open of a schema that does not exist creates nothing.
func TestSchemas(t *testing.T) {
	m := fixtureWeb(t)
	ctx := context.Background()
	dsn := pgtest.Database(t)
	open := func(schema string, readOnly bool) (*postgres.Store, error) {
		return postgres.Open(ctx, postgres.DSN(dsn), &postgres.Options{Schema: schema, ReadOnly: readOnly})
	}
	readable := func(schema string) error {
		s, err := open(schema, true)
		if err == nil {
			s.Close()
		}
		return err
	}
	const a, b = "alpha", `Beta "mode"`

	// Schema b's first ingest, of half of the web, is interrupted.
	sb, err := open(b, false)
	require.NoError(t, err)
	defer sb.Close()
	require.Equal(t, b, sb.Schema())
	half := corpus.IngestOptions{Shares: 2, Share: 0, BatchSize: 1, Workers: 1}
	cctx, cancel := context.WithCancel(ctx)
	half.Progress = func(p corpus.Progress) {
		if p.Files >= 2 {
			cancel()
		}
	}
	_, err = sb.IngestManifest(cctx, m, half)
	require.ErrorIs(t, err, context.Canceled)

	// While schema a's first ingest runs, a's store is being built and
	// b's is interrupted, not running.
	sa, err := open(a, false)
	require.NoError(t, err)
	defer sa.Close()
	var duringA, duringB error
	first := true
	_, err = sa.IngestManifest(ctx, m, corpus.IngestOptions{BatchSize: 2, Workers: 1, Progress: func(p corpus.Progress) {
		if p.Files >= 2 && first {
			first = false
			duringA, duringB = readable(a), readable(b)
		}
	}})
	require.NoError(t, err)
	require.False(t, first, "the ingest reported no progress")
	require.ErrorIs(t, duringA, postgres.ErrIncomplete)
	require.ErrorContains(t, duringA, "is running")
	require.ErrorIs(t, duringB, postgres.ErrIncomplete)
	require.ErrorContains(t, duringB, "did not finish")

	// Schema b's ingest, run again, finishes.
	half.Progress = nil
	_, err = sb.IngestManifest(ctx, m, half)
	require.NoError(t, err)
	ra, err := open(a, true)
	require.NoError(t, err)
	defer ra.Close()
	rb, err := open(b, true)
	require.NoError(t, err)
	defer rb.Close()
	na, err := ra.Docs(ctx)
	require.NoError(t, err)
	nb, err := rb.Docs(ctx)
	require.NoError(t, err)
	if nb == 0 || nb >= na {
		t.Errorf("schema a holds %d pages, schema b %d: want the whole web and part of it", na, nb)
	}

	// The database's own schema holds no store; a schema that does not
	// exist is no store, and a reader does not create it.
	require.ErrorIs(t, readable(""), postgres.ErrNoStore)
	require.ErrorIs(t, readable("nosuch"), postgres.ErrNoStore)
	require.Equal(t, 0, pgtest.Int(t, dsn, `SELECT count(*) FROM pg_namespace WHERE nspname = 'nosuch'`))
	require.Equal(t, 1, pgtest.Int(t, dsn, `SELECT count(*) FROM pg_tables WHERE schemaname = $1 AND tablename = 'pages'`, b))
}
