package main

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/cache"
	"github.com/linkrot/relink/repair"
)

// plantMoved writes into the cache directory dir what a hostile user
// with write access to it would: the live page of dead, "fetched" with
// the command line live, answering 200 from a javascript: URI, and a
// verdict for its host that made-up paths answer 404 (so the soft-404
// check asks nothing).
func plantMoved(t *testing.T, dir string, live *liveConfig, dead string) {
	t.Helper()
	d := cache.New(dir, 0)
	planted := filter.FetcherFunc(func(_ context.Context, uri string) (*filter.Page, error) {
		if uri == dead {
			return &filter.Page{URI: "javascript:alert(document.cookie)//", Status: 200,
				Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<title>Sourdough</title><p>words</p>")}, nil
		}
		return &filter.Page{URI: uri, Status: 404}, nil
	})
	_, err := (&cache.Fetcher{Dir: d, Name: live.webName(), Fetcher: planted}).Fetch(context.Background(), dead)
	require.NoError(t, err)
	probe, _, err := filter.ProbeURIs(dead, "x")
	require.NoError(t, err)
	_, err = (&cache.Probes{Dir: d, Name: live.webName(), Fetcher: planted}).Fetch(context.Background(), probe)
	require.NoError(t, err)
}

// deadSite serves 404 for every path and counts the requests.
func deadSite(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// TestFixUnsafeCache: a -cache directory that another user can write
// (mode 0777, or another owner) is refused with one line that names it and
// says what to do, before any request; a record planted there would
// otherwise make fix answer moved to a javascript: URI with no request
// (issue 23, item 4).
func TestFixUnsafeCache(t *testing.T) {
	srv, requests := deadSite(t)
	dead := srv.URL + "/guides/sourdough-starter.html"
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string)
	}{
		{"world-writable", func(t *testing.T, dir string) { require.NoError(t, os.Chmod(dir, 0o777)) }},
		{"owned by another user", func(t *testing.T, dir string) {
			if os.Getuid() != 0 {
				t.Skip("only root can give a directory to another user")
			}
			require.NoError(t, os.Chown(dir, 65534, 65534))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "cache")
			require.NoError(t, os.Mkdir(dir, 0o700))
			plantMoved(t, dir, &liveConfig{allowPrivate: true}, dead)
			tc.setup(t, dir)
			before := requests.Load()
			r := runIn(t, dead+"\n", "fix", "-fetch", "web", "-allow-private", "-backlinks-from", "mediawiki",
				"-mediawiki-api", srv.URL+"/api.php", "-search", "google", "-key", "test-key", "-cx", "test-cx", "-search-url", srv.URL, "-df", "search", "-cache", dir)
			if r.code != exitFailure || !strings.Contains(r.stderr, dir) || !strings.Contains(r.stderr, "remove it") {
				t.Errorf("exit %d, stderr %q; want 1 and one line naming %s and what to do", r.code, r.stderr, dir)
			}
			checkOneLine(t, r.stderr)
			if strings.Contains(r.stdout, "javascript:") {
				t.Errorf("the planted answer was used: %s", r.stdout)
			}
			if n := requests.Load() - before; n != 0 {
				t.Errorf("%d requests sent, want none: the cache is refused first", n)
			}
		})
	}
}

// TestFixCachedMovedNotWeb: a record in a cache of one's own whose page
// came from a URI that is not http(s) is never used: the page is fetched
// again (issue 23, item 4).
func TestFixCachedMovedNotWeb(t *testing.T) {
	srv, requests := deadSite(t)
	dead := srv.URL + "/guides/sourdough-starter.html"
	dir := filepath.Join(t.TempDir(), "cache")
	require.NoError(t, os.Mkdir(dir, 0o700))
	plantMoved(t, dir, &liveConfig{allowPrivate: true}, dead)
	got, _ := fixResults(t, dead+"\n", "-fetch", "web", "-allow-private", "-backlinks-from", "mediawiki",
		"-mediawiki-api", srv.URL+"/api.php", "-search", "google", "-key", "test-key", "-cx", "test-cx", "-search-url", srv.URL, "-df", "search", "-cache", dir, "-rate", "inf")
	require.Len(t, got, 1)
	if got[0].Verdict == repair.Moved || got[0].Verdict == repair.Alive || strings.Contains(got[0].URI, "javascript:") {
		t.Errorf("result %+v, want no moved answer: the record is not the live page's", got[0])
	}
	if requests.Load() == 0 {
		t.Error("no request sent: the planted record was used")
	}
}

// TestFixCacheMax: on start, fix removes the cache's records older than
// -cache-age, then the oldest until the rest fit in -cache-max; a file
// that is no record stays.
func TestFixCacheMax(t *testing.T) {
	db := buildFixStore(t, "https://example.org/")
	dir := filepath.Join(t.TempDir(), "cache")
	d, err := cache.Open(dir, 0)
	require.NoError(t, err)
	value := make([]byte, 4000)
	var paths []string
	for i, age := range []time.Duration{100 * 24 * time.Hour, 3 * time.Hour, 2 * time.Hour, time.Hour} {
		key := "k" + string(rune('0'+i))
		require.NoError(t, d.Put("page", key, value))
		var path string
		filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() && !slices.Contains(paths, p) {
				path = p
			}
			return nil
		})
		when := time.Now().Add(-age)
		require.NoError(t, os.Chtimes(path, when, when))
		paths = append(paths, path)
	}
	mine := filepath.Join(dir, "README")
	require.NoError(t, os.WriteFile(mine, make([]byte, 50000), 0o600))
	fixResults(t, fixGone+"\n", "-store", db, "-cache", dir, "-cache-max", "9KB")
	for i, kept := range []bool{false, false, true, true} {
		if _, err := os.Stat(paths[i]); (err == nil) != kept {
			t.Errorf("record %d: kept %v, want %v", i, err == nil, kept)
		}
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("a file that is no record was removed: %v", err)
	}
	if r := runIn(t, "", "fix", "-store", db, "-cache-max", "2 lots"); r.code != exitUsage {
		t.Errorf("-cache-max \"2 lots\": exit %d, want %d (%s)", r.code, exitUsage, r.stderr)
	}
}

// TestByteSize parses -cache-max's values and prints them back.
func TestByteSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		out  string
		bad  bool
	}{
		{in: "2GiB", want: 2 << 30, out: "2GiB"},
		{in: "500MB", want: 500e6, out: "500MB"},
		{in: "1048576", want: 1 << 20, out: "1MiB"},
		{in: "7", want: 7, out: "7B"},
		{in: "0", want: 0, out: "0"},
		{in: "3 kib", want: 3 << 10, out: "3KiB"},
		{in: "-1", bad: true},
		{in: "2 lots", bad: true},
		{in: "GiB", bad: true},
		{in: "9999999999TiB", bad: true},
	} {
		var b byteSize
		err := b.Set(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("Set(%q) = %d, want an error", tc.in, b)
			}
			continue
		}
		if err != nil || int64(b) != tc.want || b.String() != tc.out {
			t.Errorf("Set(%q) = %d (%s), %v; want %d (%s)", tc.in, b, b.String(), err, tc.want, tc.out)
		}
	}
}

// accessFlags are the live flags that change what a run may fetch: a
// page or an archived copy fetched under one of them must never answer a
// run without it, so every name of the cache's records holds them
// (liveConfig.access). Each has a value that is not its default.
var accessFlags = map[string]string{
	"allow-private": "true",
	"ignore-robots": "true",
	"user-agent":    "another-agent/1.0",
	"proxy":         "http://127.0.0.1:3128",
	"ca":            "/etc/relink/proxy-ca.pem",
}

// notAccessFlags are the other live flags, and why none changes what may
// be fetched: the service's own flags are in its name already, and the
// rest choose what is asked or for how long it is kept.
var notAccessFlags = map[string]string{
	"search": "the engine: its name", "search-url": "the engine's address: its name",
	"key": "a key changes no answer", "cx": "Google's engine ID: not what may be fetched",
	"df": "where document frequencies come from", "df-table": "a file", "docs": "|D|: in the DF's source name",
	"df-cache": "a file", "archive": "the archive: its name", "archive-url": "the archive's address: its name",
	"archive-data-url": "the archive's data address: its name", "rate": "how fast, not what",
	"archive-rate": "how fast, not what", "fetch": "store or web: only the web is cached", "cache": "the cache itself", "cache-age": "how long",
	"cache-max": "how much", "no-cache": "no cache", "backlinks-from": "which providers ask",
	"mediawiki-api": "the wiki: its name", "mediawiki-article-path": "read from the wiki's answer",
}

// cacheNames returns every name c gives the cache's records.
func cacheNames(c *liveConfig) map[string]string {
	return map[string]string{
		"web": c.webName(), "archive": c.archiveName(), "search": c.searchName(), "wiki": c.wikiName(),
		"df": c.cacheName("google/|D|=1000"),
	}
}

// TestCacheNamesAccess: every flag that changes what a run may fetch is in
// the name of every record of the cache, so that an answer fetched with
// -allow-private (an archived copy of a private page, say) is never
// served to a run without it (issue 23, item 8); and every live flag is
// either such a flag or says why it is not.
func TestCacheNamesAccess(t *testing.T) {
	var c liveConfig
	fs := newFlagSet("test")
	c.register(fs)
	fs.VisitAll(func(f *flag.Flag) {
		_, access := accessFlags[f.Name]
		_, other := notAccessFlags[f.Name]
		if access == other {
			t.Errorf("-%s: say whether it changes what a run may fetch (accessFlags) or why not (notAccessFlags)", f.Name)
		}
	})
	base := []string{"-search", "brave", "-search-url", "http://127.0.0.1:1/", "-archive", "memento",
		"-archive-url", "http://127.0.0.1:2/", "-backlinks-from", "mediawiki", "-mediawiki-api", "http://127.0.0.1:3/api.php"}
	parsed := func(extra ...string) *liveConfig {
		var c liveConfig
		fs := newFlagSet("test")
		c.register(fs)
		require.NoError(t, fs.Parse(append(slices.Clone(base), extra...)))
		return &c
	}
	without := cacheNames(parsed())
	for name, value := range accessFlags {
		with := cacheNames(parsed("-" + name + "=" + value))
		for service, n := range with {
			if n == without[service] {
				t.Errorf("-%s: the %s records' name %q is the same without it", name, service, n)
			}
		}
	}
}

// fakeEngine is a Google-like search API on loopback that answers every
// query with results, and every hit count with 1000.
func fakeEngine(t *testing.T, results []outputCandidate) *httptest.Server {
	t.Helper()
	api := fakeAPIs["google"]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rs := results
		if !strings.Contains(r.URL.Query().Get(api.query), " ") {
			rs = nil
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(api.answer(r, 1000, rs))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestFixMovedSeenAlive: a search result titled as the backlinks' anchor
// text but answering 404 is never the answer: every moved answer is
// fetched and seen alive (2xx, no soft 404) first, and the request is
// counted; a dead first candidate gives way to the next one alive, and
// with none alive the page is gone (issue 23, item 6).
func TestFixMovedSeenAlive(t *testing.T) {
	clearEnv(t)
	srv, seen := liveFixSite(t)
	base := srv.URL + "/"
	const title = "Sourdough starter feeding guide" // the anchor text, and the page's title
	dead404 := base + "nowhere/sourdough-starter-feeding-guide.html"
	in := base + "blog/first-loaf.html\t" + base + "guides/sourdough-starter.html\n"
	var robots atomic.Int64
	forbidden := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		robots.Add(1)
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nDisallow: /\n"))
			return
		}
		w.Write([]byte("<title>" + title + "</title>"))
	}))
	t.Cleanup(forbidden.Close)
	for _, tc := range []struct {
		name    string
		results []outputCandidate
		verdict repair.Verdict
		uri     string
	}{
		// The second candidate's title is not the anchor text itself
		// ("Bakery" is its own word): its confidence is low, but an
		// answer at -threshold 0.01.
		{"the next candidate alive", []outputCandidate{
			{Rank: 1, URI: dead404, Title: title},
			{Rank: 2, URI: base + "care/starter-feeding.html", Title: title + " | Bakery"},
		}, repair.Moved, base + "care/starter-feeding.html"},
		{"none alive", []outputCandidate{{Rank: 1, URI: dead404, Title: title}}, repair.Gone, ""},
		// A candidate that gives no page at all (robots.txt forbids it
		// here; a network failure is alike) may be alive: the result is
		// unknown, for a rerun to look again.
		{"the only candidate not fetched", []outputCandidate{{Rank: 1, URI: forbidden.URL + "/starter.html", Title: title}}, repair.Unknown, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			engine := fakeEngine(t, tc.results)
			before, robotsBefore := seen(), robots.Load()
			// The engine's candidates alone: the site index would add the
			// site's pages.
			got, _ := fixResults(t, in, "-site-index=false", "-fetch", "web", "-allow-private", "-search", "google", "-key", "k", "-cx", "c",
				"-search-url", engine.URL, "-df", "search", "-rate", "inf", "-no-cache", "-threshold", "0.01")
			require.Len(t, got, 1)
			r := got[0]
			if r.Verdict != tc.verdict || r.URI != tc.uri {
				t.Errorf("%s %q (confidence %.2f), want %s %q; evidence %+v", r.Verdict, r.URI, r.Confidence, tc.verdict, tc.uri, r.Evidence)
			}
			after := seen()
			if tc.verdict != repair.Unknown && after["/nowhere/sourdough-starter-feeding-guide.html"] == before["/nowhere/sourdough-starter-feeding-guide.html"] {
				t.Error("the dead candidate was never fetched")
			}
			sent := int(robots.Load() - robotsBefore)
			for path, n := range after {
				sent += n - before[path]
			}
			if r.Calls.Fetch != sent {
				t.Errorf("calls %+v, the site saw %d requests", r.Calls, sent)
			}
		})
	}
}

// privateMemento is a Memento Time Travel service on loopback whose copy
// of fixMoved is on loopback too: a private address, which the archive's
// client fetches only with -allow-private. It counts the copy's requests.
func privateMemento(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	archived, err := os.ReadFile("testdata/archive/sourdough-starter-2019.html")
	require.NoError(t, err)
	var copies atomic.Int64
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/timemap/json/"+fixMoved: // MemGator's TimeMap
			w.Header().Set("Content-Type", "application/json")
			last := map[string]any{"datetime": "2019-05-01T08:30:00Z", "uri": srv.URL + "/web/" + goodCapture + "/" + fixMoved}
			json.NewEncoder(w).Encode(map[string]any{"original_uri": fixMoved, "mementos": map[string]any{"list": []any{last}, "last": last}})
		case r.URL.Path == "/web/"+goodCapture+"id_/"+fixMoved:
			copies.Add(1)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(archived)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &copies
}

// TestFixArchiveCacheAllowPrivate: an archived copy on a private address,
// read by a run with -allow-private and kept in the cache, is not served
// to a later run without the flag (issue 23, item 8).
func TestFixArchiveCacheAllowPrivate(t *testing.T) {
	db := buildFixStore(t, "https://example.org/")
	srv, copies := privateMemento(t)
	dir := filepath.Join(t.TempDir(), "cache")
	args := []string{"-store", db, "-archive", "memento", "-archive-url", srv.URL, "-rate", "inf", "-archive-rate", "inf", "-cache", dir}
	first, _ := fixResults(t, fixMoved+"\n", append(args, "-allow-private")...)
	if first[0].Archive == nil || copies.Load() != 1 {
		t.Fatalf("with -allow-private: archive %+v after %d requests for the copy, want the copy read once", first[0].Archive, copies.Load())
	}
	again, _ := fixResults(t, fixMoved+"\n", args...)
	if again[0].Archive != nil {
		t.Errorf("without -allow-private: archive %+v (calls %+v), want none: the copy is on a private address", again[0].Archive, again[0].Calls)
	}
	if copies.Load() != 1 {
		t.Errorf("the private copy was requested %d times, want once, by the run allowed to", copies.Load())
	}
}
