package wayback_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/provider/wayback"
)

// answer is what the fake archive replays for one capture.
type answer struct {
	status int
	header http.Header
	body   string
}

// fakeArchive is a small Wayback Machine: a CDX API that serves fixture
// files and applies filter, collapse and limit to them as the real one
// does, an availability API that serves fixture files, and raw replays
// of captures, with a redirect to the closest capture for a timestamp
// that is not exactly one.
type fakeArchive struct {
	t *testing.T
	// cdx maps the url parameter to a fixture file in testdata.
	cdx map[string]string
	// available maps the url parameter to a fixture file in testdata.
	available map[string]string
	// replays maps original URI, then timestamp, to the raw capture.
	replays map[string]map[string]answer
	// before, when not nil, may answer a request itself first (to fail
	// it); it returns whether it did.
	before func(w http.ResponseWriter, r *http.Request) bool

	mu       sync.Mutex
	requests []string // paths and queries received
}

func (a *fakeArchive) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	a.requests = append(a.requests, r.URL.RequestURI())
	a.mu.Unlock()
	if a.before != nil && a.before(w, r) {
		return
	}
	switch {
	case r.URL.Path == "/cdx/search/cdx":
		a.serveCDX(w, r)
	case r.URL.Path == "/wayback/available":
		a.serveFile(w, a.available[r.URL.Query().Get("url")])
	case strings.HasPrefix(r.URL.Path, "/web/"):
		a.serveReplay(w, r)
	default:
		http.NotFound(w, r)
	}
}

// seen returns the requests received so far.
func (a *fakeArchive) seen() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.requests...)
}

// serveFile serves a JSON fixture, or an empty CDX answer when there is
// none.
func (a *fakeArchive) serveFile(w http.ResponseWriter, name string) {
	w.Header().Set("Content-Type", "application/json")
	if name == "" {
		fmt.Fprint(w, "[]")
		return
	}
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		a.t.Errorf("fixture: %v", err)
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Write(data)
}

// serveCDX answers a CDX query from a fixture, applying the query's
// filters, collapse and limit.
func (a *fakeArchive) serveCDX(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	name := a.cdx[q.Get("url")]
	if name == "" {
		a.serveFile(w, "")
		return
	}
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		a.t.Fatalf("fixture: %v", err)
	}
	var rows [][]string
	if err := json.Unmarshal(data, &rows); err != nil {
		a.t.Fatalf("fixture %s: %v", name, err)
	}
	if len(rows) == 0 {
		a.serveFile(w, name)
		return
	}
	col := map[string]int{}
	for i, f := range rows[0] {
		col[f] = i
	}
	kept := [][]string{}
	for _, row := range rows[1:] {
		ok := true
		for _, f := range q["filter"] {
			neg := strings.HasPrefix(f, "!")
			field, expr, _ := strings.Cut(strings.TrimPrefix(f, "!"), ":")
			if regexp.MustCompile("^(?:"+expr+")$").MatchString(row[col[field]]) == neg {
				ok = false
			}
		}
		if ok {
			kept = append(kept, row)
		}
	}
	for _, c := range q["collapse"] {
		var out [][]string
		for i, row := range kept {
			if i == 0 || row[col[c]] != kept[i-1][col[c]] {
				out = append(out, row)
			}
		}
		kept = out
	}
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			http.Error(w, "bad limit", http.StatusBadRequest)
			return
		}
		switch {
		case n > 0 && n < len(kept):
			kept = kept[:n]
		case n < 0 && -n < len(kept):
			kept = kept[len(kept)+n:]
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(append([][]string{rows[0]}, kept...))
}

// serveReplay answers /web/<timestamp>id_/<original>.
func (a *fakeArchive) serveReplay(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.RequestURI(), "/web/")
	ts, original, ok := strings.Cut(rest, "id_/")
	if !ok {
		a.t.Errorf("replay request %q is not in the id_ form", r.URL.RequestURI())
		http.NotFound(w, r)
		return
	}
	caps := a.replays[original]
	if ans, ok := caps[ts]; ok {
		for k, vs := range ans.header {
			w.Header()[k] = vs
		}
		w.Header().Set("Memento-Datetime", "from the fake archive")
		w.WriteHeader(ans.status)
		fmt.Fprint(w, ans.body)
		return
	}
	if len(caps) == 0 {
		http.NotFound(w, r)
		return
	}
	// Redirect to the closest capture, as the Wayback Machine does.
	var tss []string
	for t := range caps {
		tss = append(tss, t)
	}
	sort.Strings(tss)
	want, _ := time.Parse("20060102150405", ts)
	best := tss[0]
	for _, t := range tss {
		got, _ := time.Parse("20060102150405", t)
		bestT, _ := time.Parse("20060102150405", best)
		if got.Sub(want).Abs() < bestT.Sub(want).Abs() {
			best = t
		}
	}
	http.Redirect(w, r, "/web/"+best+"id_/"+original, http.StatusFound)
}

// newClient returns a Client of the fake archive a, fast and without a rate
// limit, and the server's URL.
func newClient(t *testing.T, a *fakeArchive) (*wayback.Client, string) {
	a.t = t
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)
	return &wayback.Client{
		BaseURL:         srv.URL,
		AvailabilityURL: srv.URL + "/wayback/available",
		Rate:            rate.Inf,
		ReplayRate:      rate.Inf,
		Backoff:         time.Millisecond,
		RateLimitPause:  10 * time.Millisecond,
	}, srv.URL
}

// html is the header of an HTML capture.
func html() http.Header { return http.Header{"Content-Type": {"text/html"}} }

// redirect is the raw replay of a redirect capture whose Location the
// archive rewrote into its own replay URL.
func redirect(status int, location string) answer {
	return answer{status: status, header: http.Header{"Location": {location}}}
}

// readFixture returns a testdata file.
func readFixture(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
