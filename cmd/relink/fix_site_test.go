package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/repair"
)

// siteServer is a small bakery site on loopback that moved its sourdough
// guide and deleted its rye page, counting the requests of each path.
func siteServer(t *testing.T) (*httptest.Server, func() map[string]int) {
	t.Helper()
	page := func(title, body string) string {
		return "<!DOCTYPE html><html><head><title>" + title + "</title></head><body><h1>" + title + "</h1>" + body + "</body></html>"
	}
	para := "<p>Flour, water and patience make bread. This page explains the craft in detail for the home baker who keeps a kitchen notebook.</p>"
	pages := map[string]string{
		"/": page("The Bakery", `<p>Welcome to the bakery.</p><ul><li><a href="/recipes/">Recipes</a></li><li><a href="/blog/">Blog</a></li></ul>`),
		"/recipes/": page("Recipes", `<ul><li><a href="/recipes/sourdough-starter-feeding-schedule.html">Sourdough starter feeding schedule</a></li>`+
			`<li><a href="/recipes/baguette.html">Baguette</a></li></ul>`),
		"/recipes/sourdough-starter-feeding-schedule.html": page("Sourdough starter feeding schedule",
			"<p>Feed the sourdough starter twice a day: discard half, add flour and water, and keep it warm. A healthy starter doubles in six hours.</p>"+para),
		"/recipes/baguette.html": page("Baguette", "<p>A baguette needs a hot oven and steam.</p>"+para),
		"/blog/":                 page("Blog", `<p>See our <a href="/guides/sourdough.html">sourdough starter feeding schedule</a> and our <a href="/guides/rye.html">dark rye loaf</a>.</p>`+para+para+para),
	}
	var mu sync.Mutex
	asked := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked[r.URL.Path]++
		mu.Unlock()
		body, ok := pages[r.URL.Path]
		if !ok && !strings.HasSuffix(r.URL.Path, "/") {
			if _, dir := pages[r.URL.Path+"/"]; dir {
				http.Redirect(w, r, r.URL.Path+"/", http.StatusMovedPermanently)
				return
			}
		}
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		out := map[string]int{}
		for k, v := range asked {
			out[k] = v
		}
		return out
	}
}

// TestFixSiteIndex runs fix with no store, no engine and no key: the dead
// links' own site is the index. The moved guide is found on the site by
// a crawl led by its anchor text, checked live; the deleted page is gone;
// the crawl is recorded in the evidence and its requests counted.
func TestFixSiteIndex(t *testing.T) {
	srv, asked := siteServer(t)
	in := srv.URL + "/blog/\t" + srv.URL + "/guides/sourdough.html\n" +
		srv.URL + "/blog/\t" + srv.URL + "/guides/rye.html\n"
	got, stderr := fixResults(t, in, "-format", "pairs", "-allow-private", "-rate", "inf", "-concurrency", "1")
	if len(got) != 2 {
		t.Fatalf("%d results: %+v\n%s", len(got), got, stderr)
	}
	moved, gone := got[0], got[1]
	named, _ := fixResults(t, in, "-format", "pairs", "-allow-private", "-rate", "inf", "-concurrency", "1", "-search", "site")
	if len(named) != 2 || named[0].URI != got[0].URI || named[1].Verdict != got[1].Verdict {
		t.Errorf("-search site gives %+v, the default %+v", named, got)
	}
	if moved.Verdict != repair.Moved || moved.URI != srv.URL+"/recipes/sourdough-starter-feeding-schedule.html" {
		t.Errorf("moved guide: %s %s (%v), evidence %+v, backlinks %+v", moved.Verdict, moved.URI, moved.Error, moved.Evidence, moved.Backlinks)
	}
	if gone.Verdict == repair.Moved {
		t.Errorf("deleted page: moved to %s; want gone or unknown", gone.URI)
	}
	for _, r := range got {
		i := slices.IndexFunc(r.Evidence, func(e repair.Evidence) bool { return e.Kind == "site" })
		if i < 0 || !strings.Contains(r.Evidence[i].Detail, "crawled 127.0.0.1") {
			t.Errorf("%s: no site evidence: %+v", r.Dead, r.Evidence)
		}
		if r.Calls.Search != 0 {
			t.Errorf("%s: calls %+v, want no search", r.Dead, r.Calls)
		}
	}
	// The first dead link's crawl is counted as its fetches; the second
	// finds the host's pages in the store and the cache (its own URL too,
	// which the first crawl met on the blog).
	if got[0].Calls.Fetch == 0 || got[1].Calls.Fetch >= got[0].Calls.Fetch {
		t.Errorf("fetches %d then %d, want some, then fewer", got[0].Calls.Fetch, got[1].Calls.Fetch)
	}
	// The second dead link's crawl read the first's pages from the store.
	if n := asked()["/recipes/"]; n > 2 {
		t.Errorf("/recipes/ asked %d times", n)
	}
}

// TestFixSiteFused runs fix with no store and an engine: each query asks
// the site's index and the engine, and their lists are fused. The moved
// guide, which both lists hold, is found and the evidence says it came
// from both; the engine's searches are counted. Then an engine whose
// month's quota is spent: the site's answers alone find the guide all
// the same, and standard error and the evidence say the engine failed.
func TestFixSiteFused(t *testing.T) {
	clearEnv(t)
	srv, _ := siteServer(t)
	newHome := srv.URL + "/recipes/sourdough-starter-feeding-schedule.html"
	in := srv.URL + "/blog/\t" + srv.URL + "/guides/sourdough.html\n" +
		srv.URL + "/blog/\t" + srv.URL + "/guides/rye.html\n"
	base := []string{"-format", "pairs", "-allow-private", "-rate", "inf", "-concurrency", "1", "-no-cache"}

	engine := fakeEngine(t, []outputCandidate{
		{Rank: 1, URI: newHome, Title: "Sourdough starter feeding schedule"},
		{Rank: 2, URI: "https://forum.example/t/rye", Title: "Rye bread forum"},
	})
	got, stderr := fixResults(t, in, append(base, "-search", "google", "-key", "k", "-cx", "c", "-search-url", engine.URL)...)
	require.Len(t, got, 2, stderr)
	moved := got[0]
	if moved.Verdict != repair.Moved || moved.URI != newHome {
		t.Fatalf("moved guide: %s %s (%v), evidence %+v", moved.Verdict, moved.URI, moved.Error, moved.Evidence)
	}
	if d := evidenceOf(moved, "lists"); !strings.Contains(d, newHome+" from site and google") {
		t.Errorf("lists evidence %q, want the new home from both lists", d)
	}
	if moved.Calls.Search == 0 || got[1].Verdict == repair.Moved {
		t.Errorf("calls %+v, deleted page %s %s: want the engine asked, the deleted page not moved", moved.Calls, got[1].Verdict, got[1].URI)
	}

	var asked atomic.Int64
	spent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"type": "ErrorResponse", "error": {"code": "QUOTA_LIMITED", "detail": "Request quota limit exceeded", "status": 429}}`)
	}))
	t.Cleanup(spent.Close)
	got, stderr = fixResults(t, in, append(base, "-search", "brave", "-key", "k", "-search-url", spent.URL)...)
	require.Len(t, got, 2, stderr)
	moved = got[0]
	if moved.Verdict != repair.Moved || moved.URI != newHome {
		t.Errorf("with the engine's quota spent, the moved guide: %s %s (%v), evidence %+v", moved.Verdict, moved.URI, moved.Error, moved.Evidence)
	}
	if d := evidenceOf(moved, "search"); !strings.Contains(d, "queries answered without a list") || !strings.Contains(d, "brave") {
		t.Errorf("search evidence %q, want the engine's failure", d)
	}
	if d := evidenceOf(moved, "lists"); !strings.Contains(d, newHome+" from site") || strings.Contains(d, "brave") {
		t.Errorf("lists evidence %q, want the site's alone", d)
	}
	if strings.Count(stderr, "a search failed") != 1 {
		t.Errorf("stderr %q: want the engine's failure said once", stderr)
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("the spent engine was asked %d times, want once (a spent quota stops it)", n)
	}
}

// evidenceOf returns the details of r's evidence of kind, joined.
func evidenceOf(r repair.Result, kind string) string {
	var ds []string
	for _, e := range r.Evidence {
		if e.Kind == kind {
			ds = append(ds, e.Detail)
		}
	}
	return strings.Join(ds, " | ")
}
