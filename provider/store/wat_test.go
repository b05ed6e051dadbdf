package store_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/commoncrawl"
	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/provider/warc"
)

// The link sources of the WAT fixture (writeWATFixture).
const (
	blog   = "https://blog.example/post"
	news   = "https://news.example"
	wiki   = "https://wiki.example/links"
	gone   = "https://gone.example/old"
	lonely = "https://lonely.example/self"
)

var watFetched = time.Date(2024, 5, 18, 1, 58, 10, 0, time.UTC)

// writeWATFixture writes a WAT file of link records that point into the
// fixture web (fi, its guide introduction) and at a page nobody holds
// (gone):
//
//   - blog links to fi twice ("intro guide" and an image link), to gone
//     ("old page") and to itself;
//   - news links to fi ("the intro") and to blog; wiki links to blog and
//     to gone ("zyzzyva archive");
//   - f0, a page of the store, links to gone: passed over;
//   - blog again (a duplicate), lonely (a link to itself only), a request
//     envelope and a record that is not JSON.
//
// It returns the number of records.
func writeWATFixture(t *testing.T, path string) int {
	t.Helper()
	var buf bytes.Buffer
	w := commoncrawl.NewWriter(&buf)
	raw := warc.NewWriter(&buf, true)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	page := func(uri string, links ...commoncrawl.Link) {
		must(w.WritePage(&commoncrawl.Page{URI: uri, Fetched: watFetched, Status: 200, Links: links}))
	}
	meta := func(uri, block string) {
		must(raw.WriteRecord(warc.Header{
			{Name: "WARC-Type", Value: warc.TypeMetadata},
			{Name: "WARC-Target-URI", Value: uri},
			{Name: "Content-Type", Value: "application/json"},
		}, []byte(block)))
	}
	page(blog+"#top",
		commoncrawl.Link{Target: fi, Anchor: "intro guide"},
		commoncrawl.Link{Target: gone, Anchor: "old page"},
		commoncrawl.Link{Target: blog},
		commoncrawl.Link{Target: fi + "#x"})
	meta(news, `{"Envelope":{"WARC-Header-Metadata":{"WARC-Type":"request","WARC-Target-URI":"https://news.example/"}}}`)
	page(news+"/", commoncrawl.Link{Target: fi, Anchor: "the intro"}, commoncrawl.Link{Target: blog, Anchor: "a post"})
	page(wiki, commoncrawl.Link{Target: blog}, commoncrawl.Link{Target: gone, Anchor: "zyzzyva archive"})
	page(f0, commoncrawl.Link{Target: gone, Anchor: "gone"})
	page(blog, commoncrawl.Link{Target: wiki, Anchor: "a later capture"})
	page(lonely, commoncrawl.Link{Target: lonely + "#self", Anchor: "me"})
	meta(news, `{"Envelope": nope}`)
	must(os.WriteFile(path, buf.Bytes(), 0o644))
	return 9 // warcinfo, 6 pages, the request, the bad JSON
}

// watFixtureStats is what ingesting the WAT fixture into the fixture web
// adds.
var watFixtureStats = store.LinkStats{
	Sources: 3, Links: 7, Records: 9,
	Skipped: map[string]int{
		commoncrawl.ReasonNotMetadata: 1, commoncrawl.ReasonNotResponse: 1, commoncrawl.ReasonBadJSON: 1,
		store.ReasonPageInStore: 1, store.ReasonDuplicate: 1, store.ReasonNoLinks: 1,
	},
	DroppedLinks: map[string]int{store.DropSelfLink: 1},
}

var ignoreLinkTime = cmpopts.IgnoreFields(store.LinkStats{}, "Duration")

// watStore ingests the fixture web and the WAT fixture into a new store.
func watStore(t *testing.T) (*store.Store, string) {
	t.Helper()
	s, _, _ := fixtureStore(t)
	wat := filepath.Join(t.TempDir(), "links.warc.wat.gz")
	writeWATFixture(t, wat)
	st, err := s.IngestWAT(context.Background(), []string{wat}, store.IngestOptions{BatchSize: 2})
	if err != nil {
		t.Fatalf("IngestWAT: %v", err)
	}
	if diff := cmp.Diff(watFixtureStats, st, ignoreLinkTime); diff != "" {
		t.Errorf("IngestWAT stats (-want +got):\n%s", diff)
	}
	return s, wat
}

func TestIngestWATBacklinks(t *testing.T) {
	s, _ := watStore(t)
	ctx := context.Background()
	bl := func(uri string, rank int, anchors ...string) backlink.Backlink {
		b := backlink.Backlink{URI: uri, Rank: rank, Level: 1}
		if len(anchors) > 0 {
			b.Anchors = anchors
		}
		return b
	}
	// In-degrees: the fixture web's (TestBacklinks) plus blog 2 (news,
	// wiki), news 0, wiki 1 (blog's later capture was a duplicate, not
	// ingested: 0).
	tests := []struct {
		name    string
		uri     string
		limit   int
		opts    store.BacklinkOptions
		missing []string
		want    []backlink.Backlink
	}{
		{name: "pages and link sources", uri: fi, want: []backlink.Backlink{
			bl(dt, 1), bl(blog, 2, "intro guide", ""), bl(d0, 3), bl(f0, 4), bl(fg, 5), bl(news, 6, "the intro")}},
		{name: "limit", uri: fi, limit: 2, want: []backlink.Backlink{bl(dt, 1), bl(blog, 2, "intro guide", "")}},
		{name: "navigation excluded", uri: fi, opts: store.BacklinkOptions{ExcludeNav: true}, want: []backlink.Backlink{
			bl(dt, 1), bl(blog, 2, "intro guide", ""), bl(d0, 3), bl(f0, 4), bl(news, 5, "the intro")}},
		{name: "missing link source", uri: fi, missing: []string{blog}, want: []backlink.Backlink{
			bl(dt, 1), bl(d0, 2), bl(f0, 3), bl(fg, 4), bl(news, 5, "the intro")}},
		{name: "target nobody stores", uri: gone, want: []backlink.Backlink{
			bl(blog, 1, "old page"), bl(wiki, 2, "zyzzyva archive")}},
		{name: "link source as target", uri: blog + "/", want: []backlink.Backlink{bl(news, 1, "a post"), bl(wiki, 2, "")}},
		{name: "unknown URI", uri: "https://nowhere.example/", want: []backlink.Backlink{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.WithMissing(tt.missing...).BacklinksWith(ctx, tt.uri, tt.limit, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("BacklinksWith(%q, %d, %+v) (-want +got):\n%s", tt.uri, tt.limit, tt.opts, diff)
			}
		})
	}
}

// TestIngestWATStore checks what else the store says about link sources:
// they are not pages (Fetch, Search, Docs, PageInfo), they count in the
// in-degrees, and they describe themselves.
func TestIngestWATStore(t *testing.T) {
	s, wat := watStore(t)
	ctx := context.Background()
	p, err := s.Fetch(ctx, blog)
	if err != nil || p.Status != http.StatusNotFound {
		t.Errorf("Fetch(%q) = %v, %v; want a 404", blog, p, err)
	}
	if _, err := s.PageInfo(ctx, blog); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("PageInfo(%q): %v, want ErrNotFound", blog, err)
	}
	res, err := s.Search(ctx, lexsig.Query{Terms: []string{"zyzzyva"}}, 10)
	if err != nil || len(res) != 0 {
		t.Errorf("Search(zyzzyva) = %v, %v; want no result: anchors are not pages", res, err)
	}
	if n, err := s.Docs(ctx); err != nil || n != int64(fixtureStats.Pages) {
		t.Errorf("Docs() = %d, %v; want %d", n, err, fixtureStats.Pages)
	}
	info, err := s.PageInfo(ctx, fi)
	if err != nil {
		t.Fatal(err)
	}
	if info.Backlinks != 6 || info.ContentBacklinks != 5 {
		t.Errorf("PageInfo(fi) backlinks = %d, %d; want 6, 5 (4 and 3 pages, 2 link sources)", info.Backlinks, info.ContentBacklinks)
	}
	got, err := s.LinkSource(ctx, blog+"/#x")
	if err != nil {
		t.Fatal(err)
	}
	want := store.LinkSource{URI: blog, Fetched: watFetched, Links: 3, Backlinks: 2, ContentBacklinks: 2, Source: "wat:" + wat + "#1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("LinkSource(%q) (-want +got):\n%s", blog, diff)
	}
	for _, uri := range []string{fi, gone, lonely} {
		if _, err := s.LinkSource(ctx, uri); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("LinkSource(%q): %v, want ErrNotFound", uri, err)
		}
	}
	links, err := s.Links(ctx, blog)
	if err != nil {
		t.Fatal(err)
	}
	wantLinks := []store.Link{{URI: fi, Anchor: "intro guide"}, {URI: gone, Anchor: "old page"}, {URI: fi}}
	if diff := cmp.Diff(wantLinks, links); diff != "" {
		t.Errorf("Links(%q) (-want +got):\n%s", blog, diff)
	}
	lt, err := s.LinkTotals(ctx)
	if err != nil || lt.Sources != 3 || lt.Links != 7 {
		t.Errorf("LinkTotals() = %+v, %v; want 3 sources, 7 links", lt, err)
	}
	total, err := s.Totals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if total.Pages != fixtureStats.Pages || total.Links != fixtureStats.Links || total.Skipped[commoncrawl.ReasonBadJSON] != 1 {
		t.Errorf("Totals() = %+v; want the fixture web's pages and links and the bad WAT record", total)
	}

	// A second run finds every record done.
	again, err := s.IngestWAT(ctx, []string{wat}, store.IngestOptions{})
	if err != nil || again.Sources != 0 || again.Records != 0 || again.Resumed != 9 {
		t.Errorf("second IngestWAT = %+v, %v; want nothing read, 9 records passed over", again, err)
	}
}

// TestIngestWATThenPage ingests a capture of a link source's page: the
// page takes the link source's place, its own links count instead, and
// the in-degrees follow.
func TestIngestWATThenPage(t *testing.T) {
	s, _ := watStore(t)
	ctx := context.Background()
	dir := t.TempDir()
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, true)
	body := `<html><head><title>Blog</title></head><body><p>Read the <a href="https://files.example.org/docs/guide/intro.html">widget guide</a>.</p></body></html>`
	if err := w.WriteResponse(blog, watFetched, 200, http.Header{"Content-Type": {"text/html"}}, []byte(body)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "blog.warc.gz")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.IngestWARC(ctx, []string{path}, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LinkSource(ctx, blog); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("LinkSource(%q) after its page was ingested: %v, want ErrNotFound", blog, err)
	}
	got, err := s.Backlinks(ctx, gone, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].URI != wiki {
		t.Errorf("Backlinks(gone) = %+v, want wiki alone: the page does not link to gone", got)
	}
	got, err = s.Backlinks(ctx, fi, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []backlink.Backlink{
		{URI: dt, Rank: 1, Level: 1}, {URI: blog, Rank: 2, Level: 1}, {URI: d0, Rank: 3, Level: 1},
		{URI: f0, Rank: 4, Level: 1}, {URI: fg, Rank: 5, Level: 1}, {URI: news, Rank: 6, Level: 1, Anchors: []string{"the intro"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Backlinks(fi) after the blog page was ingested (-want +got):\n%s", diff)
	}
	info, err := s.PageInfo(ctx, blog)
	if err != nil || info.Backlinks != 2 {
		t.Errorf("PageInfo(blog) = %+v, %v; want a page with 2 backlinks (news, wiki)", info, err)
	}
}

// TestIngestWATResume interrupts an ingest and runs it again: the store
// ends up as one uninterrupted run leaves it.
func TestIngestWATResume(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	wat := filepath.Join(dir, "links.wat.gz")
	records := writeWATFixture(t, wat)
	s, err := store.Open(filepath.Join(dir, "resume.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cctx, cancel := context.WithCancel(ctx)
	cut, err := s.IngestWAT(cctx, []string{wat}, store.IngestOptions{BatchSize: 1, Progress: func(p store.Progress) {
		if p.Files >= 4 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted IngestWAT: %v, want context.Canceled", err)
	}
	partial, err := s.LinkTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if partial.Sources == 0 || partial.Sources != cut.Sources || partial.Links != cut.Links {
		t.Errorf("interrupted IngestWAT reported %+v, the store holds %+v; want the same, not empty", cut, partial)
	}
	st, err := s.IngestWAT(ctx, []string{wat}, store.IngestOptions{BatchSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	if st.Resumed == 0 || st.Resumed+st.Records != records || st.Skipped[store.ReasonDuplicate] != 1 {
		t.Errorf("second run = %+v; want some records resumed, the rest read, one duplicate (blog's later capture)", st)
	}
	whole, err := s.LinkTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// In a store without the fixture web, f0 becomes a link source too.
	if whole.Sources != 4 || whole.Links != 8 {
		t.Errorf("LinkTotals after resuming = %+v, want 4 sources and 8 links", whole)
	}
	got, err := s.Backlinks(ctx, gone, 0)
	if err != nil || len(got) != 3 || got[0].URI != blog {
		t.Errorf("Backlinks(gone) after resuming = %+v, %v; want blog first of 3", got, err)
	}
}

// watRef is the WAT fixture and what one ingest of it leaves in a new
// store, for the tests that reach the same store by other ways.
type watRef struct {
	whole   []byte // the file
	records int
	links   store.LinkStats // LinkTotals
	totals  store.Stats     // Totals
}

// newWATRef writes the WAT fixture and ingests it into a new store.
func newWATRef(t *testing.T) watRef {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	full := filepath.Join(dir, "full.wat.gz")
	var ref watRef
	ref.records = writeWATFixture(t, full)
	var err error
	ref.whole, err = os.ReadFile(full)
	require.NoError(t, err)
	s, err := store.Open(filepath.Join(dir, "ref.db"), nil)
	require.NoError(t, err)
	defer s.Close()
	_, err = s.IngestWAT(ctx, []string{full}, store.IngestOptions{})
	require.NoError(t, err)
	ref.links, err = s.LinkTotals(ctx)
	require.NoError(t, err)
	ref.totals, err = s.Totals(ctx)
	require.NoError(t, err)
	return ref
}

// check checks that s holds what one ingest of the fixture leaves, and
// that an ingest of the file at path, the fixture, finds it unchanged.
func (ref watRef) check(t *testing.T, s *store.Store, path string) {
	t.Helper()
	ctx := context.Background()
	links, err := s.LinkTotals(ctx)
	require.NoError(t, err)
	if diff := cmp.Diff(ref.links, links); diff != "" {
		t.Errorf("LinkTotals (-one ingest +resumed):\n%s", diff)
	}
	totals, err := s.Totals(ctx)
	require.NoError(t, err)
	if diff := cmp.Diff(ref.totals, totals); diff != "" {
		t.Errorf("Totals (-one ingest +resumed):\n%s", diff)
	}
	again, err := s.IngestWAT(ctx, []string{path}, store.IngestOptions{})
	require.NoError(t, err)
	if diff := cmp.Diff(store.LinkStats{Resumed: ref.records}, again, ignoreLinkTime); diff != "" {
		t.Errorf("ingest of the unchanged file (-want +got):\n%s", diff)
	}
}

// TestWATResumeByContent is issue 12 item 8 for WAT files, as
// TestWARCResumeByContent is for WARC files: resuming goes by the file's
// content, not its name. A WAT file ingested while its download was cut
// short, then completed, is read on from the record it broke at (it was
// skipped as done), and the bad record recorded for the cut is gone; an
// unchanged file is passed over; a file replaced by another at the same
// path is read anew. LinkStats says what was read again.
func TestWATResumeByContent(t *testing.T) {
	ctx := context.Background()
	ref := newWATRef(t)
	dir := t.TempDir()
	s, err := store.Open(filepath.Join(dir, "grown.db"), nil)
	require.NoError(t, err)
	defer s.Close()
	path := filepath.Join(dir, "links.wat.gz")
	require.NoError(t, os.WriteFile(path, ref.whole[:len(ref.whole)/2], 0o644))
	cut, err := s.IngestWAT(ctx, []string{path}, store.IngestOptions{BatchSize: 2})
	require.NoError(t, err)
	if cut.Skipped[commoncrawl.ReasonBadRecord] != 1 || cut.Sources == 0 || cut.Sources >= ref.links.Sources {
		t.Fatalf("ingest of the cut file = %v; want some link sources and the cut record bad", cut)
	}

	require.NoError(t, os.WriteFile(path, ref.whole, 0o644)) // the download completed
	grown, err := s.IngestWAT(ctx, []string{path}, store.IngestOptions{BatchSize: 2})
	require.NoError(t, err)
	if grown.Sources+cut.Sources != ref.links.Sources || grown.Changed != 1 || grown.Resumed == 0 ||
		grown.Resumed+grown.Records != ref.records || grown.Skipped[store.ReasonDuplicate] != 1 {
		t.Errorf("ingest of the completed file = %v; want the %d other link sources, 1 changed file, "+
			"the records done before resumed, the rest read, one duplicate (blog's later capture)", grown, ref.links.Sources-cut.Sources)
	}
	if !strings.Contains(grown.String(), "1 changed file read again") {
		t.Errorf("summary %q does not say a changed file was read again", grown)
	}
	ref.check(t, s, path) // and the unchanged file is passed over

	// Another crawl under the same name.
	const other = "https://other.example/"
	var buf bytes.Buffer
	require.NoError(t, commoncrawl.NewWriter(&buf).WritePage(&commoncrawl.Page{
		URI: other, Fetched: watFetched, Status: 200, Links: []commoncrawl.Link{{Target: gone, Anchor: "another crawl"}}}))
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	replaced, err := s.IngestWAT(ctx, []string{path}, store.IngestOptions{})
	require.NoError(t, err)
	if diff := cmp.Diff(store.LinkStats{
		Sources: 1, Links: 1, Records: 2, Changed: 1, Skipped: map[string]int{commoncrawl.ReasonNotMetadata: 1}, // the warcinfo record
	}, replaced, ignoreLinkTime); diff != "" {
		t.Errorf("ingest of a replaced file (-want +got):\n%s", diff)
	}
	if ls, err := s.LinkSource(ctx, other); err != nil || ls.Source != "wat:"+path+"#1" {
		t.Errorf("LinkSource(%q) after the replaced file = %+v, %v; want record 1 of %s", other, ls, err, path)
	}
}

// TestWATResumeRows resumes WAT ingests from the progress rows other
// runs left, then ingests the completed file: the store ends up as one
// ingest of the whole file leaves it, whatever the row, and a further run
// finds the file unchanged. A record found malformed is read again even
// when the ingest was interrupted right after it; a row without a digest
// (a store written before digests were recorded) is trusted for the
// records it says are done.
func TestWATResumeRows(t *testing.T) {
	ctx := context.Background()
	ref := newWATRef(t)
	cutData := ref.whole[:len(ref.whole)/2]
	cutRecords := func() int { // records handled in the cut file, the bad one included
		p := filepath.Join(t.TempDir(), "cut.wat.gz")
		require.NoError(t, os.WriteFile(p, cutData, 0o644))
		s, err := store.Open(filepath.Join(t.TempDir(), "cut.db"), nil)
		require.NoError(t, err)
		defer s.Close()
		st, err := s.IngestWAT(ctx, []string{p}, store.IngestOptions{})
		require.NoError(t, err)
		return st.Records
	}()

	// interrupt ingests data into s and cancels the ingest once n records
	// are handled.
	interrupt := func(t *testing.T, s *store.Store, path string, data []byte, n int) {
		t.Helper()
		require.NoError(t, os.WriteFile(path, data, 0o644))
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		_, err := s.IngestWAT(cctx, []string{path}, store.IngestOptions{BatchSize: 1, Progress: func(p store.Progress) {
			if p.Files >= n {
				cancel()
			}
		}})
		require.ErrorIs(t, err, context.Canceled)
	}
	ingest := func(t *testing.T, s *store.Store, path string, data []byte) {
		t.Helper()
		require.NoError(t, os.WriteFile(path, data, 0o644))
		_, err := s.IngestWAT(ctx, []string{path}, store.IngestOptions{})
		require.NoError(t, err)
	}
	tests := []struct {
		name string
		// setup leaves a progress row for the file at path in s.
		setup func(t *testing.T, s *store.Store, path string)
		// legacy turns the row into one without the digest.
		legacy      bool
		wantResumed int // records passed over when the completed file is ingested
	}{
		{name: "cut, interrupted after the bad record", setup: func(t *testing.T, s *store.Store, path string) {
			interrupt(t, s, path, cutData, cutRecords)
		}, wantResumed: cutRecords - 1},
		{name: "cut, interrupted before the bad record", setup: func(t *testing.T, s *store.Store, path string) {
			interrupt(t, s, path, cutData, cutRecords-1)
		}, wantResumed: cutRecords - 1},
		{name: "interrupted, no digest", legacy: true, setup: func(t *testing.T, s *store.Store, path string) {
			interrupt(t, s, path, ref.whole, 4)
		}, wantResumed: 4},
		{name: "cut, no digest", legacy: true, setup: func(t *testing.T, s *store.Store, path string) {
			ingest(t, s, path, cutData)
		}, wantResumed: cutRecords - 1},
		{name: "done, no digest", legacy: true, setup: func(t *testing.T, s *store.Store, path string) {
			ingest(t, s, path, ref.whole)
		}, wantResumed: ref.records},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "s.db")
			path := filepath.Join(dir, "links.wat.gz")
			s, err := store.Open(db, nil)
			require.NoError(t, err)
			tt.setup(t, s, path)
			require.NoError(t, s.Close())
			if tt.legacy {
				raw, err := sql.Open("sqlite", db)
				require.NoError(t, err)
				// "next N H R" or "done N H R" becomes "next R" or "done R".
				source := "wat:" + path
				var row string
				require.NoError(t, raw.QueryRow(`SELECT outcome FROM sources WHERE source = ?`, source).Scan(&row))
				f := strings.Fields(row)
				require.Len(t, f, 4, "progress row %q", row)
				_, err = raw.Exec(`UPDATE sources SET outcome = ? WHERE source = ?`, f[0]+" "+f[3], source)
				require.NoError(t, err)
				require.NoError(t, raw.Close())
			}
			s, err = store.Open(db, nil)
			require.NoError(t, err)
			defer s.Close()

			require.NoError(t, os.WriteFile(path, ref.whole, 0o644))
			st, err := s.IngestWAT(ctx, []string{path}, store.IngestOptions{})
			require.NoError(t, err)
			if st.Resumed != tt.wantResumed || st.Resumed+st.Records != ref.records || st.Changed != 0 {
				t.Errorf("ingest of the completed file = %v; want %d records resumed, the rest read, no changed file", st, tt.wantResumed)
			}
			ref.check(t, s, path)
		})
	}
}

// TestIngestWATBroken reads a file cut short and a file that is not WAT
// beside a good one, and refuses a missing file.
func TestIngestWATBroken(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.wat.gz")
	writeWATFixture(t, good)
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.wat.gz")
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	text := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(text, []byte("not a WAT file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(filepath.Join(dir, "broken.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st, err := s.IngestWAT(ctx, []string{cut, text, good}, store.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Skipped[commoncrawl.ReasonBadRecord] != 2 || st.Sources != 4 {
		t.Errorf("IngestWAT = %+v; want 2 bad records (the cut file, the text file) and the good file's 4 sources", st)
	}
	total, err := s.Totals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if total.Skipped[commoncrawl.ReasonBadRecord] != 2 {
		t.Errorf("Totals().Skipped = %v, want the 2 bad records recorded", total.Skipped)
	}
	if _, err := s.IngestWAT(ctx, []string{filepath.Join(dir, "absent.wat.gz")}, store.IngestOptions{}); err == nil {
		t.Error("IngestWAT of a missing file: no error")
	}
	ro, err := store.Open(s.Path(), &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.IngestWAT(ctx, []string{good}, store.IngestOptions{}); !errors.Is(err, store.ErrReadOnly) {
		t.Errorf("IngestWAT on a read-only store: %v, want ErrReadOnly", err)
	}
}

// TestSchemaVersion1 opens a store file of schema version 1 (the fixture
// web, with what version 2 added taken out again): read-only it serves
// as it is; writable it is upgraded in place and takes link records.
func TestSchemaVersion1(t *testing.T) {
	ctx := context.Background()
	_, m := store.FixtureWeb(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "v1.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.IngestManifest(ctx, m, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`DROP TRIGGER rank_link_sources; DROP TRIGGER page_replaces_link_source;
		DROP TABLE link_records; DROP TABLE link_sources;
		UPDATE meta SET value = '1' WHERE key = 'schema_version'`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	wantFi := []backlink.Backlink{{URI: dt, Rank: 1, Level: 1}, {URI: d0, Rank: 2, Level: 1}, {URI: f0, Rank: 3, Level: 1}, {URI: fg, Rank: 4, Level: 1}}
	ro, err := store.Open(path, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only Open of a version 1 file: %v", err)
	}
	got, err := ro.Backlinks(ctx, fi, 0)
	if err != nil || !cmp.Equal(wantFi, got) {
		t.Errorf("version 1, read-only: Backlinks(fi) = %v, %v; want %v", got, err, wantFi)
	}
	if lt, err := ro.LinkTotals(ctx); err != nil || lt.Sources != 0 {
		t.Errorf("version 1, read-only: LinkTotals() = %+v, %v; want none", lt, err)
	}
	if _, err := ro.LinkSource(ctx, blog); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("version 1, read-only: LinkSource: %v, want ErrNotFound", err)
	}
	if links, err := ro.Links(ctx, blog); err != nil || len(links) != 0 {
		t.Errorf("version 1, read-only: Links(blog) = %v, %v; want none", links, err)
	}
	ro.Close()

	rw, err := store.Open(path, nil)
	if err != nil {
		t.Fatalf("Open of a version 1 file: %v", err)
	}
	defer rw.Close()
	got, err = rw.Backlinks(ctx, fi, 0)
	if err != nil || !cmp.Equal(wantFi, got) {
		t.Errorf("upgraded: Backlinks(fi) = %v, %v; want %v", got, err, wantFi)
	}
	wat := filepath.Join(dir, "links.wat.gz")
	writeWATFixture(t, wat)
	st, err := rw.IngestWAT(ctx, []string{wat}, store.IngestOptions{})
	if err != nil || st.Sources != 3 {
		t.Errorf("upgraded: IngestWAT = %+v, %v; want 3 sources", st, err)
	}
}

// TestLinkStatsString pins the summary line.
func TestLinkStatsString(t *testing.T) {
	st := watFixtureStats
	st.Resumed = 4
	st.Changed = 2
	st.Duration = 1500 * time.Millisecond
	want := "3 link sources, 7 link records from 9 WAT records, skipped: 1 bad-json, 1 duplicate, 1 no-links, " +
		"1 not-metadata, 1 not-response, 1 page-in-store; links dropped: 1 self-link, 4 already ingested, " +
		"2 changed files read again in 1.5s"
	if got := st.String(); got != want {
		t.Errorf("LinkStats.String() = %q, want %q", got, want)
	}
	if !strings.HasPrefix(store.LinkStats{}.String(), "0 link sources, 0 link records in") {
		t.Errorf("LinkStats{}.String() = %q", store.LinkStats{}.String())
	}
}
