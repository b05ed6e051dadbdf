package site

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/provider/warc"
)

// search returns the paths of the store's results for terms.
func search(t *testing.T, s *store.Store, terms ...string) []string {
	t.Helper()
	rs, err := s.Search(context.Background(), lexsig.Query{Terms: terms}, 10)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rs {
		out = append(out, r.URI)
	}
	return out
}

// TestIndexBuild checks that a crawl fills the host's store (search and
// document frequencies as from any store), stops when the caller is
// confident, and that a second crawl of the host reads what the first
// fetched from the store instead of asking again.
func TestIndexBuild(t *testing.T) {
	s := newSite(t, map[string]string{
		"/":                 page("Home", "/docs/", "Frobnicator documentation", "/blog/", "Blog"),
		"/docs/":            page("Docs", "/docs/setup/", "Frobnicator setup", "/docs/api/", "API"),
		"/docs/setup/":      page("Frobnicator setup"),
		"/docs/api/":        page("Widget API reference"),
		"/blog/":            page("Blog", "/blog/widgets/", "Widgets"),
		"/blog/widgets/":    page("Widget news"),
		"/robots.txt":       "User-agent: *\nDisallow: /nothing\n",
		"/sitemap.xml":      "",
		"/not-linked-page/": page("Never linked"),
	})
	x := &Index{Dir: t.TempDir(), Crawler: &Crawler{Fetcher: testClient(t)}, IngestEvery: 1}
	defer x.Close()
	ctx := context.Background()
	asks := 0
	confident := func(ctx context.Context, st *store.Store) bool {
		asks++
		return slices.Contains(search(t, st, "frobnicator", "setup"), s.srv.URL+"/docs/setup")
	}
	site, err := x.Build(ctx, Job{Missing: s.srv.URL + "/old/frobnicator-setup.html"}, confident)
	if err != nil {
		t.Fatal(err)
	}
	if site.Report.Stopped != StopConfident || asks == 0 {
		t.Errorf("Stopped %q after %d questions, want %q", site.Report.Stopped, asks, StopConfident)
	}
	if got := search(t, site.Store, "frobnicator", "setup"); !slices.Contains(got, s.srv.URL+"/docs/setup") { // canonical
		t.Errorf("search = %v, want the setup page", got)
	}
	if docs, err := site.Store.Docs(ctx); err != nil || docs != 3 {
		t.Errorf("Docs = %d, %v; want 3 (home, docs, setup)", docs, err)
	}
	if df, err := site.Store.DocFreq(ctx, "frobnicator"); err != nil || df != 3 {
		t.Errorf("DocFreq(frobnicator) = %d, %v; want 3", df, err)
	}
	before := len(s.paths())

	site, err = x.Build(ctx, Job{Missing: s.srv.URL + "/old/widget-news.html", Clues: Clues{Anchors: []string{"Widget news"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	again := s.paths()[before:]
	for _, p := range []string{"/docs/", "/docs/setup/", "/sitemap.xml"} {
		if slices.Contains(again, p) {
			t.Errorf("second crawl asked again for %s: %v", p, again)
		}
	}
	if site.Report.Known < 3 {
		t.Errorf("Known = %d, want the 3 pages of the first crawl", site.Report.Known)
	}
	if got := search(t, site.Store, "widget", "news"); !slices.Contains(got, s.srv.URL+"/blog/widgets") {
		t.Errorf("search = %v, want the widget news page", got)
	}
}

// TestIndexMovedAndAge checks that a domain change is remembered for the
// host's later crawls, and that a directory older than MaxAge is built
// anew.
func TestIndexMovedAndAge(t *testing.T) {
	target := newSite(t, map[string]string{"/": page("New home", "/a", "Frobnicate"), "/a": page("Frobnicate")})
	old := newSiteRedirect(t, target.srv.URL)
	dir := t.TempDir()
	x := &Index{Dir: dir, Crawler: &Crawler{Fetcher: testClient(t)}}
	ctx := context.Background()
	site, err := x.Build(ctx, Job{Missing: old.srv.URL + "/frobnicate"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if site.Report.MovedTo != target.host() {
		t.Fatalf("MovedTo = %q, want %q", site.Report.MovedTo, target.host())
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}

	// A new Index (another run) goes straight to the new host.
	x = &Index{Dir: dir, Crawler: &Crawler{Fetcher: testClient(t)}}
	oldAsked := len(old.paths())
	if _, err := x.Build(ctx, Job{Missing: old.srv.URL + "/other"}, nil); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(oldAsked, len(old.paths())); diff != "" {
		t.Errorf("old host asked again (-want +got):\n%s", diff)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}

	// Aged past MaxAge, the directory is built anew: the crawl asks the
	// old host's root again.
	hd := filepath.Join(dir, hostDir(old.host()))
	st, err := readState(hd)
	if err != nil {
		t.Fatal(err)
	}
	st.Created = st.Created.Add(-2 * DefaultMaxAge)
	b, _ := json.Marshal(st)
	if err := os.WriteFile(filepath.Join(hd, stateFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	x = &Index{Dir: dir, Crawler: &Crawler{Fetcher: testClient(t)}}
	defer x.Close()
	if _, err := x.Build(ctx, Job{Missing: old.srv.URL + "/other"}, nil); err != nil {
		t.Fatal(err)
	}
	if len(old.paths()) != oldAsked+1 {
		t.Errorf("old host asked %v, want its root once more", old.paths())
	}
	if st, err := readState(hd); err != nil || time.Since(st.Created) > time.Hour {
		t.Errorf("state %+v, %v; want a new one", st, err)
	}
}

// TestIndexErrors checks the errors of a misused Index.
func TestIndexErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := (&Index{}).Build(ctx, Job{Missing: "https://example.org/a"}, nil); !errors.Is(err, ErrNoDir) {
		t.Errorf("no Dir: %v, want ErrNoDir", err)
	}
	x := &Index{Dir: t.TempDir(), Crawler: &Crawler{Fetcher: testClient(t)}}
	if _, err := x.Build(ctx, Job{Missing: "mailto:a@example.org"}, nil); !errors.Is(err, ErrBadJob) {
		t.Errorf("bad URI: %v, want ErrBadJob", err)
	}
}

// TestIndexCatchUp checks that the pages of a crawl cut short before its
// ingest (a WARC file the store has not read) are in the store once the
// host is opened again.
func TestIndexCatchUp(t *testing.T) {
	s := newSite(t, map[string]string{"/": page("Home")})
	dir := t.TempDir()
	ctx := context.Background()
	x := &Index{Dir: dir, Crawler: &Crawler{Fetcher: testClient(t)}}
	if _, err := x.Build(ctx, Job{Missing: s.srv.URL + "/gone"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, hostDir(s.host()), "crawl-20000101T000000.000000000.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	w := warc.NewWriter(f, true)
	body := []byte(page("Frobnicator handbook"))
	if err := w.WriteResponse(s.srv.URL+"/handbook", time.Now(), 200, http.Header{"Content-Type": {"text/html"}}, body); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	x = &Index{Dir: dir, Crawler: &Crawler{Fetcher: testClient(t)}}
	defer x.Close()
	site, err := x.Build(ctx, Job{Missing: s.srv.URL + "/gone"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := search(t, site.Store, "frobnicator", "handbook"); !slices.Contains(got, s.srv.URL+"/handbook") {
		t.Errorf("search = %v, want the page of the cut crawl", got)
	}
}

// TestHostDir checks that every host gets a plain directory name.
func TestHostDir(t *testing.T) {
	for host, want := range map[string]string{
		"example.org":      "example.org",
		"example.org:8080": "example.org_8080",
		"[::1]:8080":       "___1__8080",
	} {
		if got := hostDir(host); got != want {
			t.Errorf("hostDir(%q) = %q, want %q", host, got, want)
		}
	}
}

// TestIndexHostBudget checks that a host budget bounds the requests of all
// the crawls of a host together: the first spends it, the next sends
// nothing and answers from the store.
func TestIndexHostBudget(t *testing.T) {
	pages := map[string]string{"/": page("Home", "/p0", "P")}
	for i := range 30 {
		pages["/p"+strconv.Itoa(i)] = page("P", "/p"+strconv.Itoa(i+1), "P")
	}
	s := newSite(t, pages)
	x := &Index{Dir: t.TempDir(), Crawler: &Crawler{Fetcher: testClient(t)}}
	defer x.Close()
	ctx := context.Background()
	first, err := x.Build(ctx, Job{Missing: s.srv.URL + "/a", HostBudget: 8}, nil)
	if err != nil {
		t.Fatal(err)
	}
	asked := len(s.paths())
	second, err := x.Build(ctx, Job{Missing: s.srv.URL + "/b", HostBudget: 8}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if first.Report.Stopped != StopBudget || second.Report.Stopped != StopBudget || len(s.paths()) != asked {
		t.Errorf("stopped %q then %q, requests %d then %d; want the budget spent by the first", first.Report.Stopped, second.Report.Stopped, asked, len(s.paths()))
	}
	if n := first.Report.Requests; n > 8 {
		t.Errorf("first crawl sent %d requests, over the host budget 8", n)
	}
}

// TestIndexSkipsNoPage checks that a URL an earlier crawl of the Index
// found no page at (a 404, a file that is not HTML) is not asked for
// again by the host's next crawl, nor counted in its budget.
func TestIndexSkipsNoPage(t *testing.T) {
	s := newSite(t, map[string]string{"/": page("Home", "/gone", "Gone", "/data.txt", "Data", "/a", "A"), "/a": page("A"), "/data.txt": "plain"})
	s.types["/data.txt"] = "text/plain"
	x := &Index{Dir: t.TempDir(), Crawler: &Crawler{Fetcher: testClient(t)}}
	defer x.Close()
	ctx := context.Background()
	first, err := x.Build(ctx, Job{Missing: s.srv.URL + "/x"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/gone", "/data.txt"} {
		if !slices.Contains(s.paths(), p) {
			t.Fatalf("first crawl asked for %v, want %s", s.paths(), p)
		}
	}
	asked := len(s.paths())
	second, err := x.Build(ctx, Job{Missing: s.srv.URL + "/y"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.paths()) != asked || second.Report.Requests != 0 || second.Report.Skipped < 2 {
		t.Errorf("second crawl: %d requests (%v), skipped %d; want none, /gone and /data.txt skipped; first's NoPage %v",
			second.Report.Requests, s.paths()[asked:], second.Report.Skipped, first.Report.NoPage)
	}
}

// TestSitemapFile keeps a host's sitemap URLs with their dates, and reads
// a file of URLs alone, as an earlier version wrote it.
func TestSitemapFile(t *testing.T) {
	dir := t.TempDir()
	urls := []SitemapURL{{URI: "https://example.org/a"}, {URI: "https://example.org/b%20c", Modified: time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)}}
	if err := writeSitemap(dir, urls); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(urls, readSitemap(dir)); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	if err := os.WriteFile(filepath.Join(dir, sitemapFile), []byte("https://example.org/x\nhttps://example.org/y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]SitemapURL{{URI: "https://example.org/x"}, {URI: "https://example.org/y"}}, readSitemap(dir)); diff != "" {
		t.Errorf("URLs alone (-want +got):\n%s", diff)
	}
	if err := os.WriteFile(filepath.Join(dir, sitemapFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := readSitemap(dir); got == nil || len(got) != 0 {
		t.Errorf("an empty file: %#v, want read and none", got)
	}
}
