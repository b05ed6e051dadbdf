package main

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/repair"
)

// TestFixCache runs the same live fix three times: with a cache, again
// with it (which sends far fewer requests: pages, soft-404 verdicts and
// search answers come from the cache, and document frequencies from
// -df-cache), and with -no-cache (which fetches every page again). Each run's
// calls are the requests the site and the engine saw in it.
func TestFixCache(t *testing.T) {
	clearEnv(t)
	srv, seen := liveFixSite(t)
	engine := newFakeSearch(t, "google")
	base := srv.URL + "/"
	in := base + "blog/first-loaf.html\t" + base + "guides/sourdough-starter.html\n" +
		base + "blog/first-loaf.html\t" + base + "guides/rye-bread.html\n" +
		base + "index.html\t" + base + "recipes/focaccia.html\n"
	dir := t.TempDir()
	args := []string{"-fetch", "web", "-allow-private", "-search", "google", "-key", "k", "-cx", "c",
		"-search-url", engine.URL, "-df", "search", "-df-cache", filepath.Join(dir, "df.cache"), "-rate", "inf", "-concurrency", "1"}
	sent := func() int {
		n := int(engine.requests.Load())
		for _, v := range seen() {
			n += v
		}
		return n
	}
	var runs, fetches []int
	var results [][]repair.Result
	for _, extra := range [][]string{{"-cache", filepath.Join(dir, "cache")}, {"-cache", filepath.Join(dir, "cache")}, {"-no-cache"}} {
		before := sent()
		got, stderr := fixResults(t, in, append(append([]string{}, args...), extra...)...)
		if len(got) != 3 {
			t.Fatalf("%v: %d results, want 3 (stderr %q)", extra, len(got), stderr)
		}
		total, fetch := 0, 0
		for _, r := range got {
			total += r.Calls.Fetch + r.Calls.Search + r.Calls.Archive + r.Calls.Backlinks
			fetch += r.Calls.Fetch
		}
		fetches = append(fetches, fetch)
		if n := sent() - before; total != n {
			t.Errorf("run %d: calls add up to %d, the site and the engine saw %d", len(runs)+1, total, n)
		}
		runs = append(runs, total)
		results = append(results, got)
	}
	t.Logf("requests: first run %d, second (cached) %d, without the cache %d", runs[0], runs[1], runs[2])
	if runs[0] == 0 || runs[1]*4 > runs[0] {
		t.Errorf("requests: first run %d, second %d; want the second under a quarter of the first", runs[0], runs[1])
	}
	// Without the cache the pages are all fetched again, and the host's
	// soft-404 probes, which the first run asked once, each time (the
	// document frequencies still come from -df-cache).
	if fetches[2] <= fetches[0] {
		t.Errorf("fetches without the cache %d, want more than the first run's %d", fetches[2], fetches[0])
	}
	// robots.txt was asked by the first run and by the run without the
	// cache, not by the second; nor by a run with the cache for a page of
	// the same site that no run fetched.
	fixResults(t, base+"guides/never-fetched.html\n", append(append([]string{}, args...), "-cache", filepath.Join(dir, "cache"))...)
	if seen()["/guides/never-fetched.html"] == 0 {
		t.Error("the new page was not fetched")
	}
	if n := seen()["/robots.txt"]; n != 2 {
		t.Errorf("robots.txt asked %d times, want 2", n)
	}
	for i := 1; i < 3; i++ {
		if diff := cmp.Diff(verdicts(results[0]), verdicts(results[i])); diff != "" {
			t.Errorf("run %d's verdicts differ from the first's (-first +run):\n%s", i+1, diff)
		}
	}
}
