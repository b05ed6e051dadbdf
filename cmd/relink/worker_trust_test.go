package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/internal/pgtest"
	"github.com/linkrot/relink/provider/brave"
	"github.com/linkrot/relink/repair"
)

// keyRecorder is a Brave-like search API on loopback that records the key
// of each request and answers with results.
func keyRecorder(t *testing.T, results []outputCandidate) (*httptest.Server, func() []string) {
	t.Helper()
	api := fakeAPIs["brave"]
	var (
		mu   sync.Mutex
		keys []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, api.key(r))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(api.answer(r, 1000, results))
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(keys)
	}
}

// TestWorkerOwnsTrust: a queued run's settings never decide where a
// worker's keys go nor what it may reach. A worker holding a Brave key
// sends it only to its own -search-url (here; the engine's own host
// without one), never to the -search-url of the run that queued the dead
// link, and fetches no private address unless the worker itself was
// given -allow-private, whatever the run asked (issue 23, item 7).
func TestWorkerOwnsTrust(t *testing.T) {
	clearEnv(t)
	t.Setenv(brave.KeyEnv, "worker-secret")
	dsn := pgtest.Database(t)
	mustRun(t, "corpus", "-dir", "testdata/fixsite", "-base", "https://example.org/", "-store", dsn)
	site, seen := liveFixSite(t)
	base := site.URL + "/"
	results := []outputCandidate{{Rank: 1, URI: base + "care/starter-feeding.html", Title: "Sourdough starter feeding guide"}}
	own, ownKeys := keyRecorder(t, results)
	queued, queuedKeys := keyRecorder(t, results)
	startWorkers(t, dsn, 1, "-search-url", own.URL)

	in := base + "blog/first-loaf.html\t" + base + "guides/sourdough-starter.html\n"
	got, stderr := fixResults(t, in, "-store", dsn, "-queue", "-search", "brave", "-search-url", queued.URL,
		"-fetch", "web", "-allow-private", "-rate", "inf")
	require.Len(t, got, 1)
	if keys := queuedKeys(); len(keys) != 0 {
		t.Errorf("the run's -search-url got %d requests, keys %q; want none", len(keys), keys)
	}
	keys := ownKeys()
	if len(keys) == 0 || slices.ContainsFunc(keys, func(k string) bool { return k != "worker-secret" }) {
		t.Errorf("the worker's -search-url got keys %q, want the worker's own on every request", keys)
	}
	if s := seen(); len(s) != 0 {
		t.Errorf("the worker fetched the private site (%v): the run's -allow-private is not the worker's", s)
	}
	if got[0].Verdict == repair.Moved || got[0].Verdict == repair.Alive {
		t.Errorf("result %+v, want no page answered: the site is private to the worker", got[0])
	}
	for _, flag := range []string{"-search-url", "-allow-private"} {
		if !containsAll(stderr, flag, "relink worker") {
			t.Errorf("fix -queue's stderr %q does not say that %s is the workers' to set", stderr, flag)
		}
	}
}

// containsAll reports whether s holds every one of subs.
func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// TestWorkerAdopts: for each of workerOwned, a run's value gives way to
// the worker's, and adopt changes nothing else.
func TestWorkerAdopts(t *testing.T) {
	values := map[string][2]string{ // the run's, the worker's
		"allow-private":    {"true", "false"},
		"proxy":            {"http://127.0.0.1:1", "http://127.0.0.1:2"},
		"ca":               {"run.pem", "worker.pem"},
		"search-url":       {"http://127.0.0.1:3/", "http://127.0.0.1:4/"},
		"archive-url":      {"http://127.0.0.1:5/", "http://127.0.0.1:6/"},
		"archive-data-url": {"http://127.0.0.1:7/", "http://127.0.0.1:8/"},
		"mediawiki-api":    {"http://127.0.0.1:9/api.php", "http://127.0.0.1:10/api.php"},
	}
	if len(values) != len(workerOwned) {
		t.Fatalf("the test knows %d of the %d workerOwned flags", len(values), len(workerOwned))
	}
	base := []string{"-search", "brave", "-archive", "ccindex", "-backlinks-from", "mediawiki", "-user-agent", "test/1"}
	parsed := func(args ...string) *liveConfig {
		var c liveConfig
		fs := newFlagSet("test")
		c.register(fs)
		require.NoError(t, fs.Parse(args))
		return &c
	}
	for _, name := range workerOwned {
		v, ok := values[name]
		if !ok {
			t.Errorf("no values for -%s", name)
			continue
		}
		c := parsed(append(slices.Clone(base), "-"+name+"="+v[0])...)
		c.adopt(parsed("-" + name + "=" + v[1]))
		want := parsed(append(slices.Clone(base), "-"+name+"="+v[1])...)
		if d := cmp.Diff(want, c, cmp.AllowUnexported(liveConfig{})); d != "" {
			t.Errorf("-%s: after adopt (-want +got):\n%s", name, d)
		}
	}
}
