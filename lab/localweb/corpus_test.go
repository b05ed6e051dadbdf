package localweb_test

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/lab/localweb"
	"github.com/linkrot/relink/provider/brave"
	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/provider/wayback"
	"github.com/linkrot/relink/provider/web"
)

// TestCorpusMovedPage is the experiment's moved mode on a local internet:
// the CI corpus's Click manual (lab/corpus/ci.json, a Debian package) as the
// web before a page moved serves the archives, the web after the move
// serves the proxy and the search engine, and relink's Finder, with its
// live providers pointed at the local web, looks for the page. It runs
// only where the corpus's packages are installed.
func TestCorpusMovedPage(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests a corpus twice")
	}
	m, err := store.ReadManifest(filepath.Join("..", "corpus", "ci.json"))
	if err != nil {
		t.Fatal(err)
	}
	// One site of the four is enough, and a quarter of the time under
	// the race detector.
	for _, s := range m.Sites {
		if s.Name == "click" {
			m.Sites = []store.Site{s}
		}
	}
	for _, s := range m.Sites {
		for _, r := range s.Roots {
			if _, err := os.Stat(r.Dir); err != nil {
				t.Skipf("the CI corpus is not installed (%s): lab/scripts/install-corpus.sh installs it", r.Dir)
			}
		}
	}
	ctx := context.Background()
	dir := t.TempDir()
	ingest := func(name string, moves map[string]string) *store.Store {
		s, err := store.Open(filepath.Join(dir, name), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		if _, err := s.IngestManifest(ctx, m, store.IngestOptions{Moves: moves}); err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := ingest("before.db", nil)
	var target store.PageInfo
	for p, err := range before.Pages(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		if p.ContentBacklinks >= 5 && p.Title != "" {
			target = p
			break
		}
	}
	if target.URI == "" {
		t.Fatal("no page with 5 content backlinks in the corpus")
	}
	u, _ := url.Parse(target.URI)
	moved := u.Scheme + "://" + u.Host + "/relocated/target.html"
	after := ingest("after.db", map[string]string{target.URI: moved})

	srv := start(t, localweb.Options{Web: after, Archive: before, Relaxed: true})
	fetcher := &web.Client{Proxy: http.ProxyURL(srv.ProxyURL()), RootCAs: srv.CA().Pool(), Rate: rate.Inf, PerHost: 4, Timeout: 10 * time.Second}
	defer fetcher.CloseIdleConnections()
	search, err := brave.New(brave.Options{Key: "k", BaseURL: srv.URL("brave"), Transport: transport})
	if err != nil {
		t.Fatal(err)
	}
	defer search.CloseIdleConnections()
	archive := &wayback.Client{BaseURL: srv.URL("wayback"), Rate: rate.Inf}
	defer archive.CloseIdleConnections()

	// The page is gone from the web, and the archive has it.
	if p, err := fetcher.Fetch(ctx, target.URI); err != nil || p.Status != http.StatusNotFound {
		t.Fatalf("Fetch(%s) through the proxy = %v, %v; want 404", target.URI, p, err)
	}
	if p, err := archive.LastGood(ctx, target.URI); err != nil || p.Status != 200 {
		t.Fatalf("LastGood(%s) = %v, %v", target.URI, p, err)
	}

	f := &relink.Finder{Backlinks: after, Fetcher: fetcher, DF: after, Searcher: search, Archive: archive}
	res, err := f.Find(ctx, target.URI)
	if err != nil {
		t.Fatalf("Find(%s): %v", target.URI, err)
	}
	want, _ := canon.Canonicalize(moved)
	for i, c := range res.Candidates {
		if got, _ := canon.Canonicalize(c.URI); got == want {
			t.Logf("%s (%q) found at %s, rank %d, confidence %.2f, found %v", target.URI, target.Title, c.URI, i+1, res.Confidence, res.Found)
			return
		}
	}
	t.Errorf("Find(%s) candidates %v, want %s among them", target.URI, res.Candidates, moved)
}
