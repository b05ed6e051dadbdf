package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/provider/brave"
	"github.com/linkrot/relink/provider/google"
	"github.com/linkrot/relink/provider/marginalia"
	"github.com/linkrot/relink/provider/mojeek"
	"github.com/linkrot/relink/provider/searchapi"
	"github.com/linkrot/relink/provider/searxng"
	"github.com/linkrot/relink/provider/store"
)

// buildStore ingests testdata/site, a four-page site, into a new store.
func buildStore(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "site.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.IngestDir(context.Background(), "testdata/site", "https://example.org/", store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFindJSON runs the paper's method with the missing page kept among
// the candidates, as the paper's experiment counted it.
func TestFindJSON(t *testing.T) {
	db := buildStore(t)
	got, _ := runJSON(t, "-store", db, "-method", "paper", "-keep-missing", "https://example.org/guides/sourdough-starter.html")
	if got.URI != "https://example.org/guides/sourdough-starter.html" {
		t.Errorf("uri = %q", got.URI)
	}
	// Three pages link to the target; each passes the filters (§3.1).
	if len(got.Backlinks) != 3 {
		t.Fatalf("backlinks = %+v, want 3", got.Backlinks)
	}
	for _, b := range got.Backlinks {
		if !b.Kept || b.Words == 0 {
			t.Errorf("backlink %+v: want kept with words", b)
		}
	}
	// The anchors' rarest terms (Equations 1-3) make the query, and the
	// missing page, still in the index, is found at rank 1.
	if got.Query != "guide schedule feeding sourdough" {
		t.Errorf("query = %q, want %q", got.Query, "guide schedule feeding sourdough")
	}
	if len(got.Signature) != 4 || got.Signature[0].Term != "guide" || got.Signature[0].TF != 1 || got.Signature[0].DF != 2 {
		t.Errorf("signature = %+v", got.Signature)
	}
	if len(got.Candidates) == 0 || got.Candidates[0].URI != "https://example.org/guides/sourdough-starter.html" {
		t.Errorf("candidates = %+v, want the target first", got.Candidates)
	}
}

// TestFindText runs with -terms alone, which means the paper's method.
func TestFindText(t *testing.T) {
	db := buildStore(t)
	r := mustRun(t, "find", "-store", db, "-terms", "2", "-keep-missing", "https://example.org/guides/sourdough-starter.html")
	for _, want := range []string{"method:    paper 1-anchor-10, 2 terms", "backlinks: 3 found, 3 kept", "query: guide schedule", "<- the missing page itself"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
}

// TestFindKeep checks that the missing URI and the backlink pages are left
// out of the candidates unless -keep-missing and -keep-backlinks keep them.
func TestFindKeep(t *testing.T) {
	db := buildStore(t)
	backlinks := []string{"https://example.org", "https://example.org/blog/first-loaf.html", "https://example.org/recipes/focaccia.html"}
	tests := []struct {
		name                string
		args                []string
		missing, backlinked bool
	}{
		{"default", nil, false, false},
		{"keep missing", []string{"-keep-missing"}, true, false},
		{"keep backlinks", []string{"-keep-backlinks"}, false, true},
		{"keep both", []string{"-keep-missing", "-keep-backlinks"}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A disjunctive query of anchor words matches every page.
			got, _ := runJSON(t, append(append([]string{"-store", db, "-method", "paper", "-or", "-results", "10"}, tt.args...), target)...)
			var uris []string
			for _, c := range got.Candidates {
				uris = append(uris, c.URI)
			}
			if slices.Contains(uris, target) != tt.missing {
				t.Errorf("candidates %q: the missing page there = %v, want %v", uris, !tt.missing, tt.missing)
			}
			if slices.ContainsFunc(uris, func(u string) bool { return slices.Contains(backlinks, u) }) != tt.backlinked {
				t.Errorf("candidates %q: a backlink page there = %v, want %v", uris, !tt.backlinked, tt.backlinked)
			}
		})
	}
}

// TestRunErrors checks that a command line that cannot work is refused
// with an error that says why, before any request reaches a service.
func TestFindErrors(t *testing.T) {
	clearEnv(t)
	db := buildStore(t)
	fake := newFakeSearch(t, "google")
	live := func(engine string, more ...string) []string {
		return append([]string{"-store", db, "-search", engine, "-search-url", fake.URL, "-rate", "inf"}, more...)
	}
	tests := []struct {
		name string
		args []string
		want string // a part of the error's text
	}{
		{"no URL", []string{"-store", db}, "one URL"},
		{"two URLs", []string{"-store", db, "https://a.example/", "https://b.example/"}, "one URL"},
		{"no store", []string{"-store", filepath.Join(t.TempDir(), "none.db"), "https://a.example/"}, "relink corpus"},
		{"bad radius", []string{"-store", db, "-radius", "near", "https://a.example/"}, "near"},
		{"relative URL", []string{"-store", db, "/guides/x.html"}, ""},
		{"unknown method", []string{"-store", db, "-method", "magic", target}, "best, paper, phrase, url-phrase, url-2"},
		{"unknown engine", []string{"-store", db, "-search", "altavista", target}, "store, google, brave, marginalia, mojeek, searxng"},
		{"unknown df", []string{"-store", db, "-df", "guess", target}, "store, search, table"},
		{"unknown archive", []string{"-store", db, "-archive", "archive.today", target}, "none, wayback, memento"},
		{"df search with brave", live("brave", "-key", "k", "-df", "search", target), "the engines that do are google, mojeek ("},
		{"df search with marginalia", live("marginalia", "-df", "search", target), "the engines that do are google, mojeek ("},
		// SearXNG dropped number_of_results (2026-05-25): every DF would fail.
		{"df search with searxng", live("searxng", "-df", "search", target), "-df search: searxng reports no hit counts"},
		{"archive method without archive", []string{"-store", db, "-method", "archive-ls5", target}, "-archive wayback"},
		{"zero docs", live("google", "-key", "k", "-cx", "c", "-df", "search", "-docs", "0", target), "bad -docs"},
		{"negative docs", live("google", "-key", "k", "-cx", "c", "-df", "search", "-docs", "-5", target), "bad -docs"},
		{"docs not a number", live("google", "-key", "k", "-cx", "c", "-df", "search", "-docs", "many", target), "-docs"},
		{"docs without df search", live("google", "-key", "k", "-cx", "c", "-docs", "1000", target), "-df search"},
		{"df table file missing", []string{"-store", db, "-df", "table", "-df-table", filepath.Join(t.TempDir(), "none.df"), target}, "-df-table"},
		{"df table not a table", []string{"-store", db, "-df", "table", "-df-table", "testdata/site/index.html", target}, "dftable"},
		{"df-table without df table", []string{"-store", db, "-df-table", "x.df", target}, "-df table"},
		{"search-url with the store", []string{"-store", db, "-search-url", fake.URL, target}, "live -search"},
		{"key with the store", []string{"-store", db, "-key", "k", target}, "-key"},
		{"key with searxng", live("searxng", "-key", "k", target), "-key"},
		{"cx with brave", live("brave", "-key", "k", "-cx", "c", target), "-cx"},
		{"archive-url without archive", []string{"-store", db, "-archive-url", fake.URL, target}, "-archive"},
		{"bad archive URL", []string{"-store", db, "-archive", "wayback", "-archive-url", "web.archive.org", target}, "-archive-url"},
		{"memento without its URL", []string{"-store", db, "-archive", "memento", target}, "MemGator"},
		{"paper flag with a strategy", []string{"-store", db, "-method", "rerank", "-terms", "3", target}, "-terms"},
		{"or with mojeek", live("mojeek", "-key", "k", "-or", target), "OR"},
		{"negative rate", live("google", "-key", "k", "-cx", "c", "-rate", "-1", target), "-rate"},
		{"bad search URL", []string{"-store", db, "-search", "google", "-key", "k", "-cx", "c", "-search-url", "ftp://x", target}, "google"},
		{"backlinks with a strategy is fine, -links is not", []string{"-store", db, "-method", "fusion", "-backlinks", "5", "-links", "content", target}, "-links"},
		{"exclude-nav against links", []string{"-store", db, "-exclude-nav", "-links", "all", target}, "-exclude-nav"},
		{"unknown links", []string{"-store", db, "-links", "some", target}, "prefer-content"},
		{"bad fetch", []string{"-store", db, "-fetch", "ftp", target}, "-fetch"},
		{"ftp target", []string{"-store", db, "ftp://example.org/a"}, "not an http or https URI"},
	}
	// Files named on the command line that are missing or wrong are
	// failures (1); everything else here is bad usage (2).
	failures := map[string]bool{"no store": true, "df table file missing": true, "df table not a table": true}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runArgs(t, append([]string{"find"}, tt.args...)...)
			want := exitUsage
			if failures[tt.name] {
				want = exitFailure
			}
			if r.code != want {
				t.Errorf("relink find %q: exit %d, want %d (stderr %q)", tt.args, r.code, want, r.stderr)
			}
			if !strings.Contains(r.stderr, tt.want) {
				t.Errorf("relink find %q: stderr %q, want an error that says %q", tt.args, r.stderr, tt.want)
			}
			checkOneLine(t, r.stderr)
		})
	}
	if n := fake.requests.Load(); n != 0 {
		t.Errorf("the fake engine got %d requests, want none", n)
	}
}

// TestRunFetchWeb serves the fixture site over HTTP on loopback and fetches
// the backlink pages live: the result is the same as replaying them.
func TestFindFetchWeb(t *testing.T) {
	srv := httptest.NewServer(http.FileServer(http.Dir("testdata/site")))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "live.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.IngestDir(context.Background(), "testdata/site", srv.URL+"/", store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	target := srv.URL + "/guides/sourdough-starter.html"
	got, _ := runJSON(t, "-store", path, "-method", "paper", "-keep-missing", "-fetch", "web", "-allow-private", target)
	if len(got.Backlinks) != 3 {
		t.Fatalf("backlinks = %+v, want 3", got.Backlinks)
	}
	for _, b := range got.Backlinks {
		if !b.Kept {
			t.Errorf("backlink %+v not kept", b)
		}
	}
	if got.Query != "guide schedule feeding sourdough" || len(got.Candidates) == 0 || got.Candidates[0].URI != target {
		t.Errorf("query %q, candidates %+v; want the target first", got.Query, got.Candidates)
	}

	// Without -allow-private the live fetcher refuses loopback: every
	// backlink is recorded as unfetched, none is lost.
	got, stderr := runJSON(t, "-store", path, "-method", "paper", "-fetch", "web", target)
	if !strings.Contains(stderr, "no query could be formed") || !strings.Contains(got.Error, "none of 3 backlink pages kept (fetch 3)") {
		t.Errorf("error %q, stderr %q: want a note that no query could be formed", got.Error, stderr)
	}
	if len(got.Backlinks) != 3 {
		t.Fatalf("backlinks = %+v, want 3", got.Backlinks)
	}
	for _, b := range got.Backlinks {
		if b.Kept || b.Filter != "fetch" || !strings.Contains(b.Reason, "private") {
			t.Errorf("backlink %+v: want rejected by fetch for a private address", b)
		}
	}
}

// The fixture site's missing page, and another page the fake engines
// answer with.
const (
	target = "https://example.org/guides/sourdough-starter.html"
	other  = "https://example.org/recipes/focaccia.html"
)

// storeQuery is the paper's query with the store's document frequencies
// (TestRunJSON), and hitsQuery the one with fakeHits over DefaultDocs:
// sourdough (TF 2, DF 2e6) weighs 15.4, starter (3, 9e7) 11.6, feeding
// (2, 4e7) 9.4, schedule (1, 3e8) 2.7 and guide (1, 9e8) 1.6 (Equations
// 1-3).
const (
	storeQuery = "guide schedule feeding sourdough"
	hitsQuery  = "sourdough starter feeding schedule"
)

// fakeHits are the hit counts the fake engines report for single terms,
// chosen so that the signature differs from the store's: a test can tell
// whose document frequencies were used. Other terms have 1000.
var fakeHits = map[string]int64{
	"sourdough": 2_000_000,
	"starter":   90_000_000,
	"feeding":   40_000_000,
	"schedule":  300_000_000,
	"guide":     900_000_000,
}

// fakeResults are what every fake engine answers a query with: another
// page first, the missing page second.
var fakeResults = []outputCandidate{
	{Rank: 1, URI: other, Title: "Focaccia"},
	{Rank: 2, URI: target, Title: "Sourdough starter: feeding and care"},
}

// fakeAPI is one search API, as much of it as a fake needs: the parameter
// that holds the query, where the key travels, and the JSON answer for
// results and a hit count, in the format the provider's testdata holds.
type fakeAPI struct {
	query  string
	key    func(r *http.Request) string
	answer func(r *http.Request, hits int64, rs []outputCandidate) any
}

func param(name string) func(*http.Request) string {
	return func(r *http.Request) string { return r.URL.Query().Get(name) }
}

func header(name string) func(*http.Request) string {
	return func(r *http.Request) string { return r.Header.Get(name) }
}

// urlTitles renders results as most APIs do: a list of url and title.
func urlTitles(rs []outputCandidate) []map[string]string {
	out := []map[string]string{}
	for _, r := range rs {
		out = append(out, map[string]string{"url": r.URI, "title": r.Title})
	}
	return out
}

var fakeAPIs = map[string]fakeAPI{
	// Custom Search JSON API: items[].link and .title, and
	// searchInformation.totalResults, a decimal string.
	"google": {"q", param(google.KeyParam), func(_ *http.Request, hits int64, rs []outputCandidate) any {
		items := []map[string]string{}
		for _, r := range rs {
			items = append(items, map[string]string{"link": r.URI, "title": r.Title})
		}
		return map[string]any{
			"searchInformation": map[string]string{"totalResults": strconv.FormatInt(hits, 10)},
			"items":             items,
		}
	}},
	"brave": {"q", header(brave.KeyHeader), func(_ *http.Request, _ int64, rs []outputCandidate) any {
		return map[string]any{
			"query": map[string]bool{"more_results_available": false},
			"web":   map[string]any{"results": urlTitles(rs)},
		}
	}},
	"marginalia": {"query", header(marginalia.KeyHeader), func(_ *http.Request, _ int64, rs []outputCandidate) any {
		return map[string]any{"license": "CC-BY-NC-SA 4.0", "results": urlTitles(rs)}
	}},
	"mojeek": {"q", param(mojeek.KeyParam), func(_ *http.Request, hits int64, rs []outputCandidate) any {
		return map[string]any{"response": map[string]any{
			"status": "OK", "head": map[string]int64{"results": hits}, "results": urlTitles(rs),
		}}
	}},
	// SearXNG pages until a page brings no new URL: the second is empty.
	"searxng": {"q", nil, func(r *http.Request, hits int64, rs []outputCandidate) any {
		if r.URL.Query().Get("pageno") != "1" {
			rs = nil
		}
		return map[string]any{"number_of_results": hits, "results": urlTitles(rs), "unresponsive_engines": []any{}}
	}},
}

// fakeSearch is a search API on loopback. A query of one word is taken for
// a hit count (the DF of a term), any other for a search: the paper's
// queries here have four terms.
type fakeSearch struct {
	*httptest.Server
	requests  atomic.Int32 // every request
	hitCounts atomic.Int32 // requests of one word
	failHits  atomic.Bool  // answer hit counts with 500
	fail      atomic.Int32 // a status to answer everything with, echoing the key

	mu      sync.Mutex
	queries []string // the searches, in order
	keys    []string // the key of every request
}

func newFakeSearch(t *testing.T, engine string) *fakeSearch {
	t.Helper()
	api, ok := fakeAPIs[engine]
	if !ok {
		t.Fatalf("no fake for %s", engine)
	}
	f := &fakeSearch{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.requests.Add(1)
		q, key := r.URL.Query().Get(api.query), ""
		if api.key != nil {
			key = api.key(r)
		}
		single := !strings.Contains(q, " ")
		f.mu.Lock()
		f.keys = append(f.keys, key)
		if !single {
			f.queries = append(f.queries, q)
		}
		f.mu.Unlock()
		w.Header().Set("Retry-After", "0") // retries, if any, at once
		if status := int(f.fail.Load()); status != 0 {
			// A careless service that echoes the key and the request.
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"error": "key %s refused for %s"}`, key, r.URL)
			return
		}
		answer := api.answer(r, int64(len(fakeResults)), fakeResults)
		if single {
			f.hitCounts.Add(1)
			if f.failHits.Load() {
				http.Error(w, "hit counts are down", http.StatusInternalServerError)
				return
			}
			hits, ok := fakeHits[q]
			if !ok {
				hits = 1000
			}
			answer = api.answer(r, hits, fakeResults[:1])
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(answer)
	}))
	t.Cleanup(f.Close)
	return f
}

// seen returns the searches and the keys the fake got so far. Requests of
// a failed run may still be arriving.
func (f *fakeSearch) seen() (queries, keys []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.queries), slices.Clone(f.keys)
}

// clearEnv empties every variable find reads keys from, so that a
// test sees only the keys it passes.
func clearEnv(t *testing.T) {
	t.Helper()
	for _, name := range []string{google.KeyEnv, google.CXEnv, brave.KeyEnv, marginalia.KeyEnv, mojeek.KeyEnv, searxng.URLEnv} {
		t.Setenv(name, "")
	}
}

// runJSON runs find with args and -json and returns its output and what
// it wrote on stderr.
func runJSON(t *testing.T, args ...string) (output, string) {
	t.Helper()
	r := mustRun(t, append([]string{"find", "-json"}, args...)...)
	var got output
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	return got, r.stderr
}

// TestRunLiveEngines runs the paper's method end to end against a fake of
// each search API: the candidates are the engine's, the key reaches it,
// and with -df search the document frequencies are the engine's hit
// counts (§2.1 "TFIDF"), kept in a -df-cache file from which a second run
// answers every term while the engine's hit counts are down.
func TestFindLiveEngines(t *testing.T) {
	tests := []struct {
		engine    string
		args      []string
		key       string // the key the engine must receive
		hitCounts bool   // run with -df search -df-cache
		query     string
	}{
		{engine: "google", args: []string{"-key", "gk-1", "-cx", "cx-1"}, key: "gk-1", hitCounts: true, query: hitsQuery},
		{engine: "mojeek", args: []string{"-key", "mk-1"}, key: "mk-1", hitCounts: true, query: hitsQuery},
		{engine: "searxng", query: storeQuery}, // SearXNG dropped its hit counts: -df search is refused
		{engine: "brave", args: []string{"-key", "bk-1"}, key: "bk-1", query: storeQuery},
		{engine: "marginalia", key: marginalia.PublicKey, query: storeQuery},
	}
	for _, tt := range tests {
		t.Run(tt.engine, func(t *testing.T) {
			clearEnv(t)
			db := buildStore(t)
			fake := newFakeSearch(t, tt.engine)
			args := append([]string{"-store", db, "-method", "paper", "-keep-missing", "-keep-backlinks", "-search", tt.engine, "-search-url", fake.URL, "-rate", "inf"}, tt.args...)
			cache := filepath.Join(t.TempDir(), "df.cache")
			if tt.hitCounts {
				args = append(args, "-df", "search", "-df-cache", cache)
			}
			args = append(args, target)
			got, _ := runJSON(t, args...)

			if diff := cmp.Diff(fakeResults, got.Candidates); diff != "" {
				t.Errorf("candidates (-want +got):\n%s", diff)
			}
			if got.Query != tt.query || !slices.Equal(got.Queries, []string{tt.query}) {
				t.Errorf("query %q, queries %q; want %q", got.Query, got.Queries, tt.query)
			}
			queries, keys := fake.seen()
			if asked := slices.Compact(queries); !slices.Equal(asked, []string{tt.query}) { // pages of one query
				t.Errorf("the engine was asked %q, want %q", asked, tt.query)
			}
			for _, k := range keys {
				if k != tt.key {
					t.Fatalf("the engine got the key %q, want %q", k, tt.key)
				}
			}
			if got.Search != tt.engine || got.Method != "paper 1-anchor-10, 4 terms" {
				t.Errorf("search %q, method %q", got.Search, got.Method)
			}
			if !tt.hitCounts {
				if got.DF.Source != "store:site.db/|D|=4" || got.DF.Cache != nil || fake.hitCounts.Load() != 0 {
					t.Errorf("df %+v after %d hit counts, want the store's without a cache", got.DF, fake.hitCounts.Load())
				}
				return
			}

			source := tt.engine + "/|D|=4310000000"
			if got.DF.Source != source {
				t.Errorf("df source %q, want %q", got.DF.Source, source)
			}
			if len(got.Signature) != 4 {
				t.Fatalf("signature %+v, want 4 terms", got.Signature)
			}
			for _, term := range got.Signature {
				want := math.Log(float64(DefaultDocs)/float64(fakeHits[term.Term])) * float64(term.TF)
				if term.DF != fakeHits[term.Term] || math.Abs(term.Weight-want) > 1e-9 {
					t.Errorf("term %+v, want DF %d (the engine's hit count) and weight %.3f", term, fakeHits[term.Term], want)
				}
			}
			// Five distinct anchor words, each asked once and stored.
			if n := fake.hitCounts.Load(); n != 5 {
				t.Errorf("%d hit counts asked, want 5", n)
			}
			if c := got.DF.Cache; c == nil || c.File != cache || c.Misses != 5 || c.Stored != 5 || c.Hits != 0 {
				t.Errorf("df cache %+v, want 5 misses stored in %s", c, cache)
			}

			// The engine's hit counts are down: the second run (a new
			// process would do the same) reads them all from the file.
			fake.failHits.Store(true)
			fake.hitCounts.Store(0)
			again, _ := runJSON(t, args...)
			if n := fake.hitCounts.Load(); n != 0 {
				t.Errorf("second run asked %d hit counts, want none", n)
			}
			if c := again.DF.Cache; c == nil || c.Hits != 5 || c.Misses != 0 {
				t.Errorf("second run's df cache %+v, want 5 hits", c)
			}
			if diff := cmp.Diff(got.Signature, again.Signature); diff != "" {
				t.Errorf("second run's signature (-first +second):\n%s", diff)
			}
			if diff := cmp.Diff(fakeResults, again.Candidates); diff != "" {
				t.Errorf("second run's candidates (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRunLiveText checks the text output of a run against a live engine:
// where the numbers came from, the signature and the candidates, the
// missing page marked.
func TestFindLiveText(t *testing.T) {
	clearEnv(t)
	t.Setenv(google.KeyEnv, "env-key")
	t.Setenv(google.CXEnv, "env-cx")
	db := buildStore(t)
	fake := newFakeSearch(t, "google")
	r := mustRun(t, "find", "-store", db, "-method", "paper", "-keep-missing", "-keep-backlinks", "-search", "google", "-search-url", fake.URL, "-rate", "inf", "-df", "search", target)
	text := r.stdout
	for _, want := range []string{
		"search:    google\n",
		"df:        google/|D|=4310000000\n",
		"sourdough               2  2000000",
		"query: " + hitsQuery + "\n",
		"   1  " + other + "\n",
		"   2  " + target + "   <- the missing page itself\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if _, keys := fake.seen(); len(keys) == 0 || keys[0] != "env-key" {
		t.Errorf("keys %q, want the environment's", keys)
	}
}

// TestRunMissingKey checks that an engine without its key is refused with
// an error naming where the key comes from, before any request.
func TestFindMissingKey(t *testing.T) {
	tests := []struct {
		engine string
		args   []string
		want   string
	}{
		{"google", []string{"-cx", "c"}, google.KeyEnv},
		{"google", []string{"-key", "k"}, google.CXEnv},
		{"brave", nil, brave.KeyEnv},
		{"mojeek", nil, mojeek.KeyEnv},
		{"searxng", nil, searxng.URLEnv},
	}
	for _, tt := range tests {
		t.Run(tt.engine+" "+tt.want, func(t *testing.T) {
			clearEnv(t)
			db := buildStore(t)
			fake := newFakeSearch(t, tt.engine)
			args := []string{"-store", db, "-search", tt.engine, "-rate", "inf"}
			if tt.engine != "searxng" { // for SearXNG the URL is what is missing
				args = append(args, "-search-url", fake.URL)
			}
			r := runArgs(t, append(append(append([]string{"find"}, args...), tt.args...), target)...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and an error naming $%s", r.code, r.stderr, tt.want)
			}
			if n := fake.requests.Load(); n != 0 {
				t.Errorf("the engine got %d requests, want none", n)
			}
		})
	}
}

// TestRunNeverPrintsKey runs with a distinctive key against engines that
// refuse it (401) or fail (500) and echo it in their answer: the run fails
// with an error that says what happened, and the key is in neither stdout,
// stderr nor the error, in text or JSON, whether it came from -key or the
// environment.
func TestFindNeverPrintsKey(t *testing.T) {
	const secret = "sekrit-7f3a9c-0123456789"
	tests := []struct {
		engine string
		status int
		env    bool // the key comes from the environment, not -key
		args   []string
	}{
		{"google", 401, false, []string{"-cx", "c", "-df", "search"}},
		{"google", 500, true, []string{"-cx", "c"}},
		{"mojeek", 401, true, []string{"-df", "search"}},
		{"mojeek", 500, false, nil},
		{"brave", 401, false, nil},
		{"brave", 500, true, nil},
		{"marginalia", 401, true, nil},
		{"marginalia", 500, false, nil},
	}
	envOf := map[string]string{"google": google.KeyEnv, "mojeek": mojeek.KeyEnv, "brave": brave.KeyEnv, "marginalia": marginalia.KeyEnv}
	for _, tt := range tests {
		for _, asJSON := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s %d env=%v json=%v", tt.engine, tt.status, tt.env, asJSON), func(t *testing.T) {
				clearEnv(t)
				db := buildStore(t)
				fake := newFakeSearch(t, tt.engine)
				fake.fail.Store(int32(tt.status))
				args := append([]string{"-store", db, "-search", tt.engine, "-search-url", fake.URL, "-rate", "inf"}, tt.args...)
				if tt.env {
					t.Setenv(envOf[tt.engine], secret)
				} else {
					args = append(args, "-key", secret)
				}
				if asJSON {
					args = append(args, "-json")
				}
				var stdout, stderr bytes.Buffer
				e := &env{stdout: &stdout, stderr: &stderr}
				err := runFind(context.Background(), e, append(args, target))
				if err == nil {
					t.Fatalf("runFind = nil error, want the engine's %d", tt.status)
				}
				if _, keys := fake.seen(); len(keys) == 0 || keys[0] != secret {
					t.Fatalf("the engine got keys %q, want %q", keys, secret)
				}
				var se *searchapi.StatusError // the same for every engine
				if !errors.As(err, &se) || se.Status != tt.status {
					t.Errorf("run = %v, want a StatusError %d", err, tt.status)
				}
				if tt.status == 401 && !errors.Is(err, searchapi.ErrUnauthorized) {
					t.Errorf("run = %v, want ErrUnauthorized", err)
				}
				line := fail(&stderr, "relink find", err)
				if line != exitFailure {
					t.Errorf("exit %d, want 1", line)
				}
				checkOneLine(t, stderr.String())
				for name, text := range map[string]string{"stdout": stdout.String(), "stderr": stderr.String(), "error": err.Error()} {
					if strings.Contains(text, secret) {
						t.Errorf("%s shows the key: %q", name, text)
					}
				}
			})
		}
	}
}

// TestRunCancel checks that a cancelled context (Ctrl-C) stops a run
// waiting on a slow engine at once, not after the engine's 30 s timeout.
func TestFindCancel(t *testing.T) {
	clearEnv(t)
	db := buildStore(t)
	arrived := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case arrived <- struct{}{}:
		default:
		}
		<-r.Context().Done()
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-arrived
		cancel()
	}()
	// The engine never answers: only the cancel ends the run.
	var stdout, stderr bytes.Buffer
	args := []string{"-store", db, "-method", "paper", "-search", "google", "-search-url", srv.URL, "-key", "k", "-cx", "c", "-df", "search", "-rate", "inf", target}
	err := runFind(ctx, &env{stdout: &stdout, stderr: &stderr}, args)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("runFind = %v, want context.Canceled", err)
	}
}

// The fake archive's captures of the missing page: a good one from 2019
// and, once the page had moved, a redirect to its new address.
const (
	goodCapture     = "20190501083000"
	redirectCapture = "20210304120000"
	movedTo         = "https://example.org/guides/starter-care.html"
)

// fakeWayback answers the CDX API (a JSON array of rows, the first naming
// the fields) and raw id_ replays as the Wayback Machine does, from the
// two captures above. With fail set it answers every request with 500.
func fakeWayback(t *testing.T, captures bool, fail bool) *httptest.Server {
	t.Helper()
	archived, err := os.ReadFile("testdata/archive/sourdough-starter-2019.html")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if fail {
			w.Header().Set("Retry-After", "0")
			http.Error(w, "the archive is down", http.StatusInternalServerError)
			return
		}
		if r.URL.Path == "/cdx/search/cdx" {
			q := r.URL.Query()
			rows := [][]string{{"urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length"}}
			key := "org,example)/guides/sourdough-starter.html"
			switch {
			case !captures || q.Get("url") != target:
			case slices.Contains(q["filter"], "statuscode:3.."):
				rows = append(rows, []string{key, redirectCapture, target, "text/html", "301", "REDIRECTDIGEST", "512"})
			case slices.Contains(q["filter"], "statuscode:2.."):
				rows = append(rows, []string{key, goodCapture, target, "text/html", "200", "GOODDIGEST", "2345"})
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(rows)
			return
		}
		// The Wayback Machine sends Memento-Datetime with every replay of
		// a capture (and a captured redirect is one).
		switch r.URL.Path {
		case "/web/" + goodCapture + "id_/" + target:
			w.Header().Set("Memento-Datetime", "Mon, 01 Jan 2024 00:00:00 GMT")
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(archived)
		case "/web/" + redirectCapture + "id_/" + target:
			w.Header().Set("Memento-Datetime", "Thu, 04 Mar 2021 12:00:00 GMT")
			w.Header().Set("Location", movedTo)
			w.WriteHeader(http.StatusMovedPermanently)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestRunArchiveWayback runs an archive method with the Wayback Machine:
// the query is the archived copy's own signature, and the page's
// historical redirect is printed before the candidates.
func TestFindArchiveWayback(t *testing.T) {
	db := buildStore(t)
	wb := fakeWayback(t, true, false)
	args := []string{"-store", db, "-method", "archive-ls5", "-keep-missing", "-archive", "wayback", "-archive-url", wb.URL, "-rate", "inf", "-archive-rate", "inf", target}
	got, stderr := runJSON(t, args...)

	// The top five words of the 2019 copy by TF-IDF against the store's
	// four pages (Klein and Nelson's page signature): "doubles" and
	// "yeast" twice in the copy and on one page (2 ln 4), "culture" three
	// times on two (3 ln 2), "feeding" five times on three, then "acid",
	// once on one, first by text of its ties.
	const query = "doubles yeast culture feeding acid"
	if got.Method != "archive-ls5" || got.Query != query || !slices.Equal(got.Queries, []string{query}) {
		t.Errorf("method %q, query %q, queries %q; want archive-ls5 and %q", got.Method, got.Query, got.Queries, query)
	}
	if len(got.Candidates) == 0 || got.Candidates[0].URI != target {
		t.Errorf("candidates %+v, want the target first", got.Candidates)
	}
	captured := time.Date(2019, 5, 1, 8, 30, 0, 0, time.UTC)
	wantArchive := &outputArchive{Service: "wayback", Status: 200, Captured: &captured, Location: wb.URL + "/web/" + goodCapture + "id_/" + target}
	if diff := cmp.Diff(wantArchive, got.Archive); diff != "" {
		t.Errorf("archive (-want +got):\n%s", diff)
	}
	moved := time.Date(2021, 3, 4, 12, 0, 0, 0, time.UTC)
	wantRedirects := []outputRedirect{{
		Captured: moved, Status: 301, Final: movedTo,
		Hops: []outputHop{{From: target, To: movedTo, Status: 301, Time: moved}},
	}}
	if diff := cmp.Diff(wantRedirects, got.Redirects); diff != "" {
		t.Errorf("redirects (-want +got):\n%s", diff)
	}
	if len(got.Notes) != 0 || stderr != "" {
		t.Errorf("notes %q, stderr %q; want none", got.Notes, stderr)
	}

	text := mustRun(t, append([]string{"find"}, args...)...).stdout
	hop := "2021-03-04 12:00:00 UTC  301  " + target + " -> " + movedTo
	for _, want := range []string{"historical redirects (wayback): 1\n", hop, "archived copy (wayback): captured 2019-05-01 08:30:00 UTC", "query: " + query} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if i, j := strings.Index(text, hop), strings.Index(text, "<- the missing page itself"); i < 0 || j < 0 || i > j {
		t.Errorf("the redirects should come before the candidates:\n%s", text)
	}
}

// TestRunArchiveWithout checks that an archive that fails or holds nothing
// is a note on stderr, not an error: the run goes on without a copy.
func TestFindArchiveWithout(t *testing.T) {
	tests := []struct {
		name  string
		fail  bool     // the archive answers 500, else it has no capture
		notes []string // parts of each note, in order
	}{
		{"never captured", false, []string{"wayback holds no archived copy of the page (status 404)"}},
		{"archive down", true, []string{"wayback gave no archived copy", "wayback could not list historical redirects"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := buildStore(t)
			wb := fakeWayback(t, false, tt.fail)
			got, stderr := runJSON(t, "-store", db, "-method", "archive-title", "-archive", "wayback", "-archive-url", wb.URL, "-rate", "inf", "-archive-rate", "inf", target)
			if got.Archive != nil || len(got.Queries) != 0 || len(got.Candidates) != 0 {
				t.Errorf("archive %+v, queries %q, candidates %+v; want none", got.Archive, got.Queries, got.Candidates)
			}
			// The first note says no query could be formed: archive-title
			// had no title.
			if len(got.Notes) > 0 && strings.Contains(got.Notes[0], "no query could be formed") {
				got.Notes = got.Notes[1:]
			}
			if len(got.Notes) != len(tt.notes) {
				t.Fatalf("notes %q, want %d", got.Notes, len(tt.notes))
			}
			for i, want := range tt.notes {
				if !strings.Contains(got.Notes[i], want) || !strings.Contains(stderr, "relink find: note: "+got.Notes[i]) {
					t.Errorf("note %q (stderr %q), want one that says %q", got.Notes[i], stderr, want)
				}
			}
			if len(got.Backlinks) != 3 {
				t.Errorf("backlinks %+v, want the 3 of the store", got.Backlinks)
			}
		})
	}
}

// TestFindArchiveMemento runs the archived title's query with a copy
// found through a MemGator server's TimeMap.
func TestFindArchiveMemento(t *testing.T) {
	archived, err := os.ReadFile("testdata/archive/sourdough-starter-2019.html")
	if err != nil {
		t.Fatal(err)
	}
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/timemap/json/"+target: // MemGator's TimeMap
			w.Header().Set("Content-Type", "application/json")
			last := map[string]any{"datetime": "2019-05-01T08:30:00Z", "uri": srv.URL + "/web/" + goodCapture + "/" + target}
			json.NewEncoder(w).Encode(map[string]any{"original_uri": target, "mementos": map[string]any{"list": []any{last}, "last": last}})
		case r.URL.Path == "/web/"+goodCapture+"id_/"+target: // the raw memento
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(archived)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	db := buildStore(t)
	got, stderr := runJSON(t, "-store", db, "-method", "archive-title", "-keep-missing", "-archive", "memento", "-archive-url", srv.URL, "-allow-private", "-rate", "inf", "-archive-rate", "inf", target)
	const query = "sourdough starter feeding care" // the title, "and" left out
	if got.Query != query {
		t.Errorf("query %q, want %q (stderr %q)", got.Query, query, stderr)
	}
	if got.Archive == nil || got.Archive.Service != "memento" || got.Archive.Location != srv.URL+"/web/"+goodCapture+"id_/"+target {
		t.Errorf("archive %+v, want the raw memento", got.Archive)
	}
	if len(got.Candidates) == 0 || got.Candidates[0].URI != target || got.Redirects != nil {
		t.Errorf("candidates %+v, redirects %+v; want the target first and no redirects (memento lists none)", got.Candidates, got.Redirects)
	}
}

// TestFindMethods runs every method of relink.Strategies() that needs no
// archive, and best, on the store: each prints the queries it sent.
func TestFindMethods(t *testing.T) {
	db := buildStore(t)
	methods := map[string]relink.Strategy{"best": relink.Default()}
	for _, s := range relink.Strategies() {
		if !s.Needs().Archive {
			methods[s.Name()] = s
		}
	}
	for name, s := range methods {
		t.Run(name, func(t *testing.T) {
			got, _ := runJSON(t, "-store", db, "-method", name, target)
			if got.Method != s.Name() {
				t.Errorf("method %q, want %q", got.Method, s.Name())
			}
			// Only the paper's method searches a signature of its own.
			_, paper := s.(relink.Paper)
			if len(got.Queries) == 0 || got.Query != got.Queries[0] || (len(got.Signature) != 0) != paper {
				t.Errorf("query %q, queries %q, signature %+v: want the queries sent, and a signature for the paper's method alone", got.Query, got.Queries, got.Signature)
			}
			if len(got.Backlinks) != 3 {
				t.Errorf("backlinks %+v, want 3", got.Backlinks)
			}
		})
	}
}

// TestFindDFSources checks the document frequencies of -df store and -df
// table, each behind a -df-cache file under its own source name.
func TestFindDFSources(t *testing.T) {
	table := filepath.Join(t.TempDir(), "bakery.df")
	// A table in provider/dftable's format: header, then sorted terms.
	const rows = "relink-df/1\t1000\tbakery-2024\nfeeding\t10\nguide\t500\nschedule\t400\nsourdough\t20\nstarter\t300\n"
	if err := os.WriteFile(table, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		source string
		query  string
		df     map[string]int64
	}{
		{"store", []string{"-df", "store"}, "store:site.db/|D|=4", storeQuery, map[string]int64{"guide": 2}},
		// feeding 2 ln 100, sourdough 2 ln 50, starter 3 ln 3.3, then
		// schedule ln 2.5 before guide ln 2.
		{"table", []string{"-df", "table", "-df-table", table}, "table:bakery-2024/|D|=1000", "feeding sourdough starter schedule",
			map[string]int64{"feeding": 10, "sourdough": 20, "starter": 300, "schedule": 400}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := buildStore(t)
			cache := filepath.Join(t.TempDir(), "df.cache")
			got, _ := runJSON(t, append(append([]string{"-store", db, "-method", "paper", "-df-cache", cache}, tt.args...), target)...)
			if got.DF.Source != tt.source || got.DF.Cache == nil || got.DF.Cache.Stored != 5 {
				t.Errorf("df %+v, want source %q and 5 terms stored", got.DF, tt.source)
			}
			if got.Query != tt.query {
				t.Errorf("query %q, want %q", got.Query, tt.query)
			}
			for _, term := range got.Signature {
				if want, ok := tt.df[term.Term]; ok && term.DF != want {
					t.Errorf("term %+v, want DF %d", term, want)
				}
			}
		})
	}
}

// TestFindDefaultDFTable checks that -df table without -df-table reads the
// table relink ships: its source named, each signature term's document
// frequency the table's, out of the table's |D|.
func TestFindDefaultDFTable(t *testing.T) {
	mem, h, err := defaultDF()
	if err != nil {
		t.Fatal(err)
	}
	if h.Docs != 53936 || h.Source != "lab/corpus/large.json" {
		t.Fatalf("shipped table's header %+v, want 53936 pages of lab/corpus/large.json", h)
	}
	// A word of nearly every documentation page, and one of none.
	if n, _ := mem.DocFreq(context.Background(), "the"); n < 10000 {
		t.Errorf("DF(the) = %d, want most of the pages", n)
	}
	if n, _ := mem.DocFreq(context.Background(), "zzqxv"); n != 0 {
		t.Errorf("DF(zzqxv) = %d, want 0", n)
	}
	got, _ := runJSON(t, "-store", buildStore(t), "-method", "paper", "-df", "table", target)
	if want := "table:lab/corpus/large.json/|D|=53936"; got.DF.Source != want {
		t.Errorf("df source %q, want %q", got.DF.Source, want)
	}
	if len(got.Signature) == 0 {
		t.Fatal("no signature")
	}
	for _, term := range got.Signature {
		if want, _ := mem.DocFreq(context.Background(), term.Term); term.DF != want {
			t.Errorf("term %+v, want the table's DF %d", term, want)
		}
	}
}

// TestFindNoQuery looks for a page nothing links to: not a failure, but a
// result with its (empty) trail, and one note on stderr that says why no
// query could be formed (relink.ErrNoQuery).
func TestFindNoQuery(t *testing.T) {
	db := buildStore(t)
	r := mustRun(t, "find", "-store", db, "https://example.org/nothing-links-here.html")
	if !strings.Contains(r.stdout, "backlinks: 0 found, 0 kept\n") || !strings.Contains(r.stdout, "no query: ") {
		t.Errorf("output:\n%s\nwant no backlinks and no query", r.stdout)
	}
	const note = "relink find: note: relink: no query could be formed for https://example.org/nothing-links-here.html: no backlinks\n"
	if r.stderr != note {
		t.Errorf("stderr %q, want %q", r.stderr, note)
	}
}
