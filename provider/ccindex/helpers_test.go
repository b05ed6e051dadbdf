package ccindex_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/provider/ccindex"
	"github.com/linkrot/relink/provider/warc"
)

// The fake Common Crawl: an index server and a data server on one httptest
// server, answering in the documented formats.
//
// collinfo.json is a JSON list of the crawls, newest first, each {"id",
// "name", "timegate", "cdx-api", "from", "to"} (the list as
// index.commoncrawl.org serves it; from and to as quoted in public
// repositories from 2024 on). The CDX API of a crawl (pywb's CDX server,
// API-compatible with pywb 0.33: commoncrawl/cc-index-server's README)
// answers url=...&output=json with JSON lines of strings in the order
// Common Crawl's own documentation shows them ({"urlkey", "timestamp",
// "url", "mime", "mime-detected", "status", "digest", "length", "offset",
// "filename", "languages", "encoding"}), and a URL it holds nothing of
// with 404 and {"message": "No Captures found for: <url>"}, as recorded
// from the server. The data server answers a Range request with 206 and
// the bytes asked for (http.ServeContent, as data.commoncrawl.org's
// CloudFront does), here of a .warc.gz file that provider/warc's Writer
// wrote one gzip member per record, as Common Crawl's files are.

const (
	page    = "https://example.com/old/page.html"
	newest  = "CC-MAIN-2026-43"
	middle  = "CC-MAIN-2026-39"
	oldest  = "CC-MAIN-2026-30"
	warcRel = "crawl-data/CC-MAIN-2026-39/segments/1758000000000.11/warc/CC-MAIN-20260915000000-20260915030000-00042.warc.gz"
)

// record is one capture in the fake's WARC file.
type record struct {
	url    string
	at     time.Time
	status int
	mime   string
	body   string
	// redirect is the Location of a redirect capture, as the index's
	// "redirect" field holds it.
	redirect string
}

// fake is the fake Common Crawl.
type fake struct {
	t    *testing.T
	srv  *httptest.Server
	warc []byte
	// lines maps crawl ID, then URL, to its CDX answer.
	lines map[string]map[string][]string
	// before, when not nil, may answer a request itself first.
	before func(w http.ResponseWriter, r *http.Request) bool

	mu       sync.Mutex
	requests []string // path?query, and the Range header of data requests
}

// newFake writes recs to a WARC file in crawl middle and indexes them
// there; the newest crawl holds nothing.
func newFake(t *testing.T, recs ...record) *fake {
	f := &fake{t: t, lines: map[string]map[string][]string{newest: {}, middle: {}, oldest: {}}}
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, true)
	for _, r := range recs {
		off := w.Offset()
		if err := w.WriteResponse(r.url, r.at, r.status, http.Header{"Content-Type": {r.mime}}, []byte(r.body)); err != nil {
			t.Fatal(err)
		}
		line := fmt.Sprintf(`{"urlkey": "com,example)/old/page.html", "timestamp": %q, "url": %q, "mime": %q, "mime-detected": %q, "status": "%d", "digest": "D4IRZZ6NS7QW37BB2ODQPCUGG7ISRFGV", "length": "%d", "offset": "%d", "filename": %q, "languages": "eng", "encoding": "UTF-8"}`,
			r.at.Format("20060102150405"), r.url, r.mime, r.mime, r.status, w.Offset()-off, off, warcRel)
		if r.redirect != "" {
			// Redirect captures carry "redirect" (and no languages).
			line = fmt.Sprintf(`{"urlkey": "com,example)/old/page.html", "timestamp": %q, "url": %q, "mime": "text/html", "mime-detected": "text/html", "status": "%d", "digest": "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", "length": "%d", "offset": "%d", "filename": %q, "redirect": %q}`,
				r.at.Format("20060102150405"), r.url, r.status, w.Offset()-off, off, warcRel, r.redirect)
		}
		f.lines[middle][r.url] = append(f.lines[middle][r.url], line)
	}
	f.warc = buf.Bytes()
	f.srv = httptest.NewServer(f)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.requests = append(f.requests, strings.TrimSpace(r.URL.RequestURI()+" "+r.Header.Get("Range")))
	f.mu.Unlock()
	if f.before != nil && f.before(w, r) {
		return
	}
	switch {
	case r.URL.Path == "/collinfo.json":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, collinfo)
	case strings.HasSuffix(r.URL.Path, "-index"):
		id := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/"), "-index")
		crawl, ok := f.lines[id]
		if !ok || r.URL.Query().Get("output") != "json" {
			http.NotFound(w, r)
			return
		}
		u := r.URL.Query().Get("url")
		lines, ok := crawl[u]
		w.Header().Set("Content-Type", "text/x-ndjson")
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"message": "No Captures found for: %s"}`, u)
			return
		}
		fmt.Fprint(w, strings.Join(lines, "\n")+"\n")
	case r.URL.Path == "/"+warcRel:
		w.Header().Set("Content-Type", "application/octet-stream")
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.warc))
	default:
		http.NotFound(w, r)
	}
}

// seen returns the requests received so far.
func (f *fake) seen() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.requests...)
}

// client returns a fast Client of the fake.
func (f *fake) client() *ccindex.Client {
	return &ccindex.Client{IndexURL: f.srv.URL, DataURL: f.srv.URL, Rate: rate.Inf, DataRate: rate.Inf,
		Backoff: time.Millisecond, RateLimitPause: 10 * time.Millisecond}
}

// collinfo is the fake's collinfo.json: newest first, and a cdx-api on
// another host, which a Client must not follow.
const collinfo = `[
  {"id": "CC-MAIN-2026-43", "name": "October 2026 Index", "timegate": "https://index.commoncrawl.org/CC-MAIN-2026-43/", "cdx-api": "https://index.commoncrawl.org/CC-MAIN-2026-43-index", "from": "2026-10-04T12:01:02", "to": "2026-10-17T23:59:58"},
  {"id": "CC-MAIN-2026-39", "name": "September 2026 Index", "timegate": "https://index.commoncrawl.org/CC-MAIN-2026-39/", "cdx-api": "https://index.commoncrawl.org/CC-MAIN-2026-39-index", "from": "2026-09-06T00:00:00", "to": "2026-09-20T00:00:00"},
  {"id": "CC-MAIN-2026-30", "name": "July 2026 Index", "timegate": "https://index.commoncrawl.org/CC-MAIN-2026-30/", "cdx-api": "https://index.commoncrawl.org/CC-MAIN-2026-30-index", "from": "2026-07-01T00:00:00", "to": "2026-07-15T00:00:00"}
]`

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 10, 11, 12, 0, time.UTC) }
