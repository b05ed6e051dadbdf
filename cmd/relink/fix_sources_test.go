package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/repair"
)

// fakeWiki is a MediaWiki Action API whose article titled "first-loaf.html"
// cites the dead link (as http) of cites: list=exturlusage, formatversion=2.
// It counts its requests.
func fakeWiki(t *testing.T, cites string) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		q := r.URL.Query()
		if q.Get("list") != "exturlusage" || q.Get("format") != "json" || q.Get("maxlag") == "" {
			t.Errorf("wiki request %s", r.URL.RawQuery)
		}
		pages := []map[string]any{}
		scheme, rest, _ := strings.Cut(cites, "://")
		if q.Get("euprotocol") == scheme && strings.HasPrefix(rest, q.Get("euquery")) {
			pages = append(pages, map[string]any{"ns": 0, "title": "first-loaf.html", "url": cites})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"batchcomplete": true, "query": map[string]any{"exturlusage": pages}})
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// TestFixMediaWiki takes backlinks from a wiki alone (no store, no
// report sources): the article citing the dead link is read live, and
// the wiki's requests are counted as backlinks'.
func TestFixMediaWiki(t *testing.T) {
	clearEnv(t)
	srv, _ := liveFixSite(t)
	engine := newFakeSearch(t, "google")
	base := srv.URL + "/"
	dead := base + "guides/sourdough-starter.html"
	wiki, asked := fakeWiki(t, dead)
	got, stderr := fixResults(t, dead+"\n", "-fetch", "web", "-allow-private", "-search", "google", "-key", "k", "-cx", "c",
		"-search-url", engine.URL, "-df", "search", "-rate", "inf", "-no-cache",
		"-backlinks-from", "mediawiki", "-mediawiki-api", wiki.URL+"/w/api.php", "-mediawiki-article-path", base+"blog/$1")
	if len(got) != 1 {
		t.Fatalf("%d results, want 1 (stderr %q)", len(got), stderr)
	}
	r := got[0]
	if len(r.Backlinks) != 1 || r.Backlinks[0].URI != base+"blog/first-loaf.html" || !r.Backlinks[0].Kept {
		t.Errorf("backlinks %+v, want the wiki's article, kept", r.Backlinks)
	}
	if r.Calls.Backlinks != int(asked.Load()) || r.Calls.Backlinks != 2 {
		t.Errorf("calls %+v, the wiki saw %d requests; want 2 (http and https)", r.Calls, asked.Load())
	}
	if r.Verdict == repair.Unknown || len(r.Queries) == 0 {
		t.Errorf("result %+v, want queries from the article's anchor and a verdict", r)
	}
}

// TestSources merges the report's sources and providers without
// repeats, scheme aside, in order, up to the limit.
func TestSources(t *testing.T) {
	a := staticBacklinks("https://a.example/1", "http://b.example/2")
	b := staticBacklinks("http://a.example/1", "https://c.example/3", "https://d.example/4")
	k := knownBacklinks{p: sources{a, b}, target: "https://old.example/x", sources: []string{"https://b.example/2"}}
	got, err := k.Backlinks(t.Context(), "https://old.example/x", 3)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for i, l := range got {
		uris = append(uris, l.URI)
		if l.Rank != i+1 {
			t.Errorf("%s ranked %d, want %d", l.URI, l.Rank, i+1)
		}
	}
	want := []string{"https://b.example/2", "https://a.example/1", "https://c.example/3"}
	if diff := cmp.Diff(want, uris); diff != "" {
		t.Errorf("backlinks (-want +got):\n%s", diff)
	}
}

// staticBacklinks is a provider that lists uris for any URI.
func staticBacklinks(uris ...string) backlink.Provider {
	return backlink.ProviderFunc(func(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
		var out []backlink.Backlink
		for i, u := range uris[:min(limit, len(uris))] {
			out = append(out, backlink.Backlink{URI: u, Rank: i + 1, Level: 1})
		}
		return out, nil
	})
}
