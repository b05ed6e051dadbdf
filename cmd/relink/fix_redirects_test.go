package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/repair"
)

// fakeRedirectWayback is a Wayback Machine whose CDX index holds, for dead
// alone, one capture with status (a 3xx) on 2021-03-04 and none other,
// and whose raw replay of it redirects to to, as the real one does: the
// captured status, Memento-Datetime, and the Location rewritten into a
// replay URL of the archive. The CDX answer has the JSON shape of the
// real API (a header row of field names, then one row per capture). It
// counts its requests.
func fakeRedirectWayback(t *testing.T, dead string, status int, to string) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if r.URL.Path == "/cdx/search/cdx" {
			q := r.URL.Query()
			rows := [][]string{{"urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length"}}
			if q.Get("url") == dead && slices.Contains(q["filter"], "statuscode:3..") {
				rows = append(rows, []string{"surt-key", redirectCapture, dead, "text/html", strconv.Itoa(status), "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", "512"})
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(rows)
			return
		}
		if r.URL.Path == "/web/"+redirectCapture+"id_/"+dead {
			w.Header().Set("Memento-Datetime", "Thu, 04 Mar 2021 12:00:00 GMT")
			w.Header().Set("Location", srv.URL+"/web/"+redirectCapture+"id_/"+to)
			w.WriteHeader(status)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// TestFixRedirect: an archived redirect of the dead URL to a live page
// answers moved there (a permanent one alone), raises the confidence of a
// first candidate it agrees with, and is no evidence when it leads to a
// site's home page or a page that is gone.
func TestFixRedirect(t *testing.T) {
	srv, _ := liveFixSite(t)
	base := srv.URL + "/"
	db := buildFixStore(t, base)
	rye, starter := base+"guides/rye-bread.html", base+"guides/sourdough-starter.html"
	tests := []struct {
		name, dead string
		status     int
		to         string
		verdict    repair.Verdict
		uri        string
		confidence float64 // at least
		evidence   string
	}{
		{"permanent, alone", rye, 301, base + "recipes/focaccia.html", repair.Moved, base + "recipes/focaccia.html", relink.DefaultModel().Priors[relink.SignalRedirectPermanent],
			"archived 301 on 2021-03-04 to " + base + "recipes/focaccia.html, which answers 200 and is no soft 404"},
		{"temporary, alone", rye, 302, base + "recipes/focaccia.html", repair.Gone, "", 0, "archived 302 on 2021-03-04"},
		{"to the home page", rye, 301, base, repair.Gone, "", 0, "a site's home page"},
		{"to a page gone", rye, 301, base + "guides/sourdough-starter.html", repair.Gone, "", 0, "which answers 404 now"},
		{"agreeing with the first candidate", starter, 301, base + "care/starter-feeding.html", repair.Moved, base + "care/starter-feeding.html", 0.95,
			"the first candidate is where the archived redirect leads"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wb, asked := fakeRedirectWayback(t, tc.dead, tc.status, tc.to)
			got, stderr := fixResults(t, tc.dead+"\n", "-store", db, "-fetch", "web", "-allow-private", "-rate", "inf", "-no-cache",
				"-archive", "wayback", "-archive-url", wb.URL, "-archive-rate", "inf")
			if len(got) != 1 {
				t.Fatalf("%d results (stderr %q)", len(got), stderr)
			}
			r := got[0]
			if r.Verdict != tc.verdict || r.URI != tc.uri || r.Confidence < tc.confidence {
				t.Errorf("%s %q confidence %.2f, want %s %q at least %.2f", r.Verdict, r.URI, r.Confidence, tc.verdict, tc.uri, tc.confidence)
			}
			found := false
			for _, e := range r.Evidence {
				found = found || e.Kind == "redirect" && strings.Contains(e.Detail, tc.evidence)
			}
			if !found {
				t.Errorf("evidence %+v, want a redirect saying %q", r.Evidence, tc.evidence)
			}
			if r.Calls.Archive != int(asked.Load()) || r.Calls.Archive == 0 {
				t.Errorf("calls %+v, the archive saw %d requests", r.Calls, asked.Load())
			}
		})
	}
}

// TestFixRedirectCCIndex reads the redirect from the Common Crawl index,
// whose CDX lines keep a redirect capture's Location ("redirect"): the
// newest crawl that captured the dead URL saw a 301 to a live page.
func TestFixRedirectCCIndex(t *testing.T) {
	srv, _ := liveFixSite(t)
	base := srv.URL + "/"
	db := buildFixStore(t, base)
	dead := base + "guides/rye-bread.html"
	var asked atomic.Int64
	cc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		switch {
		case r.URL.Path == "/collinfo.json":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`[{"id": "CC-MAIN-2026-43", "name": "October 2026 Index", "cdx-api": "https://index.commoncrawl.org/CC-MAIN-2026-43-index", "from": "2026-10-04T12:01:02", "to": "2026-10-17T23:59:58"}]`))
		case r.URL.Path == "/CC-MAIN-2026-43-index" && r.URL.Query().Get("url") == dead:
			w.Header().Set("Content-Type", "text/x-ndjson")
			w.Write([]byte(`{"urlkey": "1,0,0,127)/guides/rye-bread.html", "timestamp": "20261008101112", "url": "` + dead +
				`", "mime": "text/html", "mime-detected": "text/html", "status": "301", "digest": "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", "length": "612", "offset": "1024", "filename": "crawl-data/CC-MAIN-2026-43/segments/1/warc/x.warc.gz", "redirect": "/recipes/focaccia.html"}` + "\n"))
		default:
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"message": "No Captures found for: ` + r.URL.Query().Get("url") + `"}`))
		}
	}))
	t.Cleanup(cc.Close)
	got, stderr := fixResults(t, dead+"\n", "-store", db, "-fetch", "web", "-allow-private", "-rate", "inf", "-no-cache",
		"-archive", "ccindex", "-archive-url", cc.URL, "-archive-data-url", cc.URL, "-archive-rate", "inf")
	if len(got) != 1 {
		t.Fatalf("%d results (stderr %q)", len(got), stderr)
	}
	r := got[0]
	if r.Verdict != repair.Moved || r.URI != base+"recipes/focaccia.html" || r.Confidence < relink.DefaultModel().Priors[relink.SignalRedirectPermanent] {
		t.Errorf("%s %q %.2f, want moved to the focaccia page at %.2f", r.Verdict, r.URI, r.Confidence, relink.DefaultModel().Priors[relink.SignalRedirectPermanent])
	}
	if r.Calls.Archive != int(asked.Load()) {
		t.Errorf("calls %+v, the index saw %d requests", r.Calls, asked.Load())
	}
}
