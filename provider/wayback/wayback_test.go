package wayback_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/wayback"
	"github.com/linkrot/relink/provider/web"
)

const page = "http://example.com/old/page.html"

// date returns a UTC time.
func date(y int, m time.Month, d, h, min, s int) time.Time {
	return time.Date(y, m, d, h, min, s, 0, time.UTC)
}

// TestCaptures checks a CDX query: the parameters sent and the captures
// parsed from the fixture (in the documented JSON format: a header row of
// field names, then one row of strings per capture).
func TestCaptures(t *testing.T) {
	a := &fakeArchive{cdx: map[string]string{page: "cdx-page.json"}}
	c, _ := newClient(t, a)
	tests := []struct {
		name   string
		q      *wayback.Query
		params url.Values
		want   []time.Time // capture times
	}{
		{
			name:   "all",
			params: url.Values{"url": {page}, "output": {"json"}, "limit": {"10000"}, "fl": {"urlkey,timestamp,original,mimetype,statuscode,digest,length"}},
			want: []time.Time{date(2005, 3, 12, 8, 15, 22), date(2007, 8, 6, 19, 30, 4), date(2008, 1, 15, 12, 0, 0),
				date(2008, 3, 1, 0, 0, 0), date(2009, 6, 1, 0, 0, 0), date(2010, 2, 20, 10, 10, 10), date(2010, 3, 5, 0, 0, 0), date(2011, 1, 1, 0, 0, 0)},
		},
		{
			name:   "time range",
			q:      &wayback.Query{From: date(2008, 1, 1, 0, 0, 0), To: date(2009, 12, 31, 23, 59, 59), Limit: 2},
			params: url.Values{"from": {"20080101000000"}, "to": {"20091231235959"}, "limit": {"2"}},
			// The fake archive ignores from and to; the first two.
			want: []time.Time{date(2005, 3, 12, 8, 15, 22), date(2007, 8, 6, 19, 30, 4)},
		},
		{
			name:   "filters, collapse and the last captures",
			q:      &wayback.Query{Filters: []string{"statuscode:3.."}, Collapse: []string{"digest"}, Limit: -5},
			params: url.Values{"filter": {"statuscode:3.."}, "collapse": {"digest"}, "limit": {"-5"}},
			want:   []time.Time{date(2010, 2, 20, 10, 10, 10), date(2011, 1, 1, 0, 0, 0)},
		},
		{
			name:   "negated filter",
			q:      &wayback.Query{Filters: []string{"!statuscode:[23].."}},
			params: url.Values{"filter": {"!statuscode:[23].."}},
			want:   []time.Time{date(2008, 1, 15, 12, 0, 0), date(2009, 6, 1, 0, 0, 0)},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			caps, err := c.Captures(context.Background(), page+"#section", tc.q)
			if err != nil {
				t.Fatalf("Captures: %v", err)
			}
			var got []time.Time
			for _, cp := range caps {
				got = append(got, cp.Time)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("capture times (-want +got):\n%s", diff)
			}
			reqs := a.seen()
			u, err := url.Parse(reqs[len(reqs)-1])
			if err != nil {
				t.Fatal(err)
			}
			for k, want := range tc.params {
				if diff := cmp.Diff(want, u.Query()[k]); diff != "" {
					t.Errorf("parameter %s (-want +got):\n%s", k, diff)
				}
			}
		})
	}
}

// TestCaptureFields checks every field of parsed captures, "-" included.
func TestCaptureFields(t *testing.T) {
	a := &fakeArchive{cdx: map[string]string{page: "cdx-page.json"}}
	c, _ := newClient(t, a)
	caps, err := c.Captures(context.Background(), page, &wayback.Query{Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := []wayback.Capture{
		{URLKey: "com,example)/old/page.html", Time: date(2005, 3, 12, 8, 15, 22), Original: "http://example.com:80/old/page.html",
			MIMEType: "text/html", Status: 200, Digest: "AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH", Length: 2310},
		{URLKey: "com,example)/old/page.html", Time: date(2007, 8, 6, 19, 30, 4), Original: page,
			MIMEType: "text/html", Status: 200, Digest: "IIIIJJJJKKKKLLLLMMMMNNNNOOOOPPPP", Length: 2412},
		{URLKey: "com,example)/old/page.html", Time: date(2008, 1, 15, 12, 0, 0), Original: page,
			MIMEType: "warc/revisit", Status: 0, Digest: "IIIIJJJJKKKKLLLLMMMMNNNNOOOOPPPP", Length: -1},
	}
	if diff := cmp.Diff(want, caps); diff != "" {
		t.Errorf("Captures (-want +got):\n%s", diff)
	}
	if got := c.ReplayURL(caps[0]); !strings.HasSuffix(got, "/web/20050312081522id_/http://example.com:80/old/page.html") {
		t.Errorf("ReplayURL = %q, want the id_ form", got)
	}
}

// TestCapturesEmpty checks a URI never captured: the CDX API answers [].
func TestCapturesEmpty(t *testing.T) {
	c, _ := newClient(t, &fakeArchive{cdx: map[string]string{page: "cdx-empty.json"}})
	caps, err := c.Captures(context.Background(), page, nil)
	if err != nil || caps == nil || len(caps) != 0 {
		t.Errorf("Captures of a URI never captured = %v, %v, want an empty slice", caps, err)
	}
}

// TestMalformed checks answers that are not in the documented format.
func TestMalformed(t *testing.T) {
	tests := []struct {
		name string
		body string
	}{
		{"HTML error page", "<html><body><h1>Wayback Machine is down</h1></body></html>"},
		{"object instead of array", `{"error": "nope"}`},
		{"numbers instead of strings", `[["urlkey","timestamp"],[1,2]]`},
		{"cut JSON", `[["urlkey","timestamp","original"],["com,example)/","2005`},
		{"binary", "\x1f\x8b\x08\x00\x00\x00\x00\x00\xff\xfe"},
		{"invalid UTF-8 timestamp", "[[\"timestamp\",\"original\"],[\"2005\xff\",\"http://example.com/\"]]"},
		{"no timestamp field", `[["urlkey","original"],["com,example)/","http://example.com/"]]`},
		{"short timestamp", `[["timestamp","original"],["2005","http://example.com/"]]`},
		{"impossible date", `[["timestamp","original"],["20051345000000","http://example.com/"]]`},
		{"ragged row", `[["timestamp","original","statuscode"],["20050101000000","http://example.com/"]]`},
		{"status not a number", `[["timestamp","original","statuscode"],["20050101000000","http://example.com/","OK"]]`},
		{"empty original", `[["timestamp","original"],["20050101000000",""]]`},
		{"null", `null`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := &fakeArchive{before: func(w http.ResponseWriter, r *http.Request) bool {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, tc.body)
				return true
			}}
			c, _ := newClient(t, a)
			_, err := c.Captures(context.Background(), page, nil)
			var e *wayback.Error
			if !errors.Is(err, wayback.ErrMalformed) || !errors.As(err, &e) || e.Op != "captures" || e.URI != page {
				t.Errorf("Captures of %q = %v, want an *Error of captures wrapping ErrMalformed", tc.body, err)
			}
		})
	}
}

// TestRetries checks the HTTP layer under the CDX query: a 429 answer is
// retried (after its Retry-After), 5xx answers on every attempt give a
// *StatusError, and a server that never answers times out.
func TestRetries(t *testing.T) {
	t.Run("429 then success", func(t *testing.T) {
		var n atomic.Int32
		a := &fakeArchive{cdx: map[string]string{page: "cdx-page.json"}, before: func(w http.ResponseWriter, r *http.Request) bool {
			if n.Add(1) == 1 {
				w.Header().Set("Retry-After", "0")
				http.Error(w, "slow down", http.StatusTooManyRequests)
				return true
			}
			return false
		}}
		c, _ := newClient(t, a)
		caps, err := c.Captures(context.Background(), page, &wayback.Query{Limit: 1})
		if err != nil || len(caps) != 1 {
			t.Fatalf("Captures after a 429 = %d captures, %v, want 1", len(caps), err)
		}
		if got := n.Load(); got != 2 {
			t.Errorf("%d requests, want 2", got)
		}
	})
	t.Run("429 every time", func(t *testing.T) {
		a := &fakeArchive{before: func(w http.ResponseWriter, r *http.Request) bool {
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return true
		}}
		c, _ := newClient(t, a)
		c.Attempts = 2
		_, err := c.Captures(context.Background(), page, nil)
		if !errors.Is(err, wayback.ErrRateLimited) {
			t.Errorf("Captures = %v, want ErrRateLimited", err)
		}
	})
	t.Run("5xx", func(t *testing.T) {
		a := &fakeArchive{before: func(w http.ResponseWriter, r *http.Request) bool {
			http.Error(w, "<html>backend error</html>", http.StatusServiceUnavailable)
			return true
		}}
		c, _ := newClient(t, a)
		c.Attempts = 3
		_, err := c.LastGood(context.Background(), page)
		var se *wayback.StatusError
		if !errors.As(err, &se) || se.Status != http.StatusServiceUnavailable {
			t.Fatalf("LastGood = %v, want a *StatusError of 503", err)
		}
		if got := len(a.seen()); got != 3 {
			t.Errorf("%d requests, want 3 attempts", got)
		}
		if _, err := c.Fetch(context.Background(), page); !errors.As(err, &se) {
			t.Errorf("Fetch = %v, want an error (no answer from the archive), not a Page", err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		release := make(chan struct{})
		a := &fakeArchive{before: func(w http.ResponseWriter, r *http.Request) bool {
			select {
			case <-r.Context().Done():
			case <-release:
			}
			return true
		}}
		c, _ := newClient(t, a)
		defer close(release)
		c.Timeout = 50 * time.Millisecond
		c.Attempts = 1
		_, err := c.Available(context.Background(), page, time.Time{})
		if !errors.Is(err, wayback.ErrTimeout) {
			t.Errorf("Available from a server that never answers = %v, want ErrTimeout", err)
		}
	})
	t.Run("context done", func(t *testing.T) {
		c, _ := newClient(t, &fakeArchive{})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := c.Captures(ctx, page, nil); !errors.Is(err, context.Canceled) {
			t.Errorf("Captures with a done context = %v, want context.Canceled", err)
		}
	})
}

// TestBadURI checks URIs that are not absolute http(s).
func TestBadURI(t *testing.T) {
	c, _ := newClient(t, &fakeArchive{})
	for _, uri := range []string{"", "example.com/page", "ftp://example.com/", "http://", "http://exa mple.com/\x00"} {
		if _, err := c.Captures(context.Background(), uri, nil); !errors.Is(err, wayback.ErrBadURI) {
			t.Errorf("Captures(%q) = %v, want ErrBadURI", uri, err)
		}
		if _, err := c.Fetch(context.Background(), uri); !errors.Is(err, wayback.ErrBadURI) {
			t.Errorf("Fetch(%q) = %v, want ErrBadURI", uri, err)
		}
	}
}

// TestBadBaseURL checks a Client whose BaseURL is not an http(s) URL.
func TestBadBaseURL(t *testing.T) {
	for _, base := range []string{"ftp://archive.example", "archive.example", "http://"} {
		c := &wayback.Client{BaseURL: base}
		_, err := c.Captures(context.Background(), page, nil)
		var e *wayback.Error
		if err == nil || !errors.As(err, &e) {
			t.Errorf("Captures with BaseURL %q = %v, want an *Error", base, err)
		}
		if _, err := c.Fetch(context.Background(), page); err == nil {
			t.Errorf("Fetch with BaseURL %q = nil error, want one", base)
		}
	}
}

// TestLastGood checks the last good capture: the latest 2xx HTML capture
// (not the later PDF, 404 and redirects), replayed raw, as a Page.
func TestLastGood(t *testing.T) {
	body := readFixture(t, "page-2007.html")
	a := &fakeArchive{
		cdx: map[string]string{page: "cdx-page.json"},
		replays: map[string]map[string]answer{page: {
			"20070806193004": {status: 200, header: html(), body: body},
		}},
	}
	c, base := newClient(t, a)
	p, err := c.LastGood(context.Background(), page)
	if err != nil {
		t.Fatalf("LastGood: %v", err)
	}
	want := &filter.Page{
		URI:    page,
		Status: 200,
		Header: http.Header{
			"Content-Type":     {"text/html"},
			"Memento-Datetime": {"Mon, 06 Aug 2007 19:30:04 GMT"},
			"Content-Location": {base + "/web/20070806193004id_/" + page},
		},
		Body: []byte(body),
	}
	opts := cmp.FilterPath(func(p cmp.Path) bool { // the server's own headers
		if m, ok := p.Last().(cmp.MapIndex); ok {
			k := m.Key().String()
			return k == "Date" || k == "Content-Length"
		}
		return false
	}, cmp.Ignore())
	if diff := cmp.Diff(want, p, opts); diff != "" {
		t.Errorf("LastGood (-want +got):\n%s", diff)
	}
	reqs := a.seen()
	q, err := url.ParseQuery(strings.SplitN(reqs[0], "?", 2)[1])
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{`statuscode:2..`, `mimetype:(text/html|application/xhtml\+xml)`}, q["filter"]); diff != "" {
		t.Errorf("CDX filters (-want +got):\n%s", diff)
	}
	if q.Get("limit") != "-1" {
		t.Errorf("CDX limit = %q, want -1 (the latest capture)", q.Get("limit"))
	}

	// The same capture as a filter.Fetcher.
	var f filter.Fetcher = c
	fp, err := f.Fetch(context.Background(), page)
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if diff := cmp.Diff(want, fp, opts); diff != "" {
		t.Errorf("Fetch (-want +got):\n%s", diff)
	}
}

// TestLastGoodReplay checks replays that are not a plain 200: a redirect
// to another capture of the same URI is followed, a replay the archive
// refuses is a Page with its status, and a body over MaxBody is cut and
// marked.
func TestLastGoodReplay(t *testing.T) {
	tests := []struct {
		name      string
		replays   map[string]answer
		maxBody   int64
		status    int
		body      string
		datetime  string
		location  string // suffix of Content-Location
		truncated bool
	}{
		{
			name:     "redirect to the closest capture",
			replays:  map[string]answer{"20070806193010": {status: 200, header: html(), body: "<p>ten seconds later</p>"}},
			status:   200,
			body:     "<p>ten seconds later</p>",
			datetime: "Mon, 06 Aug 2007 19:30:10 GMT",
			location: "/web/20070806193010id_/" + page,
		},
		{
			name:     "refused",
			replays:  map[string]answer{"20070806193004": {status: 403, header: html(), body: "excluded"}},
			status:   403,
			body:     "excluded",
			datetime: "Mon, 06 Aug 2007 19:30:04 GMT",
			location: "/web/20070806193004id_/" + page,
		},
		{
			name:      "cut",
			replays:   map[string]answer{"20070806193004": {status: 200, header: html(), body: strings.Repeat("<p>lexical</p>", 200)}},
			maxBody:   1400, // more than the CDX answer, less than the capture
			status:    200,
			body:      strings.Repeat("<p>lexical</p>", 100),
			datetime:  "Mon, 06 Aug 2007 19:30:04 GMT",
			location:  "/web/20070806193004id_/" + page,
			truncated: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := &fakeArchive{cdx: map[string]string{page: "cdx-page.json"}, replays: map[string]map[string]answer{page: tc.replays}}
			c, _ := newClient(t, a)
			c.MaxBody = tc.maxBody
			p, err := c.LastGood(context.Background(), page)
			if err != nil {
				t.Fatalf("LastGood: %v", err)
			}
			if p.Status != tc.status || string(p.Body) != tc.body {
				t.Errorf("LastGood = %d %q, want %d %q", p.Status, p.Body, tc.status, tc.body)
			}
			if got := p.Header.Get(wayback.MementoDatetimeHeader); got != tc.datetime {
				t.Errorf("Memento-Datetime = %q, want %q", got, tc.datetime)
			}
			if got := p.Header.Get(wayback.ContentLocationHeader); !strings.HasSuffix(got, tc.location) {
				t.Errorf("Content-Location = %q, want it to end in %q", got, tc.location)
			}
			if got := p.Header.Get(web.TruncatedHeader) == "true"; got != tc.truncated {
				t.Errorf("truncated = %v, want %v", got, tc.truncated)
			}
		})
	}
}

// TestNoGoodCapture checks a URI with captures but none good, and one
// never captured: LastGood fails with ErrNoCapture, Fetch answers 404.
func TestNoGoodCapture(t *testing.T) {
	a := &fakeArchive{cdx: map[string]string{"http://example.com/a": "cdx-loop.json"}}
	c, _ := newClient(t, a)
	for _, uri := range []string{"http://example.com/a", "http://example.com/never"} {
		_, err := c.LastGood(context.Background(), uri)
		var e *wayback.Error
		if !errors.Is(err, wayback.ErrNoCapture) || !errors.As(err, &e) || e.Op != "last good capture" {
			t.Errorf("LastGood(%q) = %v, want an *Error wrapping ErrNoCapture", uri, err)
		}
		p, err := c.Fetch(context.Background(), uri)
		if err != nil || p.Status != http.StatusNotFound || p.URI != uri || len(p.Body) != 0 {
			t.Errorf("Fetch(%q) = %+v, %v, want a 404 Page", uri, p, err)
		}
	}
}

// TestAvailable checks the availability API.
func TestAvailable(t *testing.T) {
	a := &fakeArchive{available: map[string]string{page: "available.json", "http://example.com/never": "available-none.json"}}
	c, _ := newClient(t, a)
	s, err := c.Available(context.Background(), page, date(2008, 1, 1, 0, 0, 0))
	if err != nil {
		t.Fatalf("Available: %v", err)
	}
	want := &wayback.Snapshot{URL: "http://web.archive.org/web/20070806193004/" + page, Time: date(2007, 8, 6, 19, 30, 4), Status: 200}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("Available (-want +got):\n%s", diff)
	}
	reqs := a.seen()
	if !strings.Contains(reqs[0], "timestamp=20080101000000") || !strings.Contains(reqs[0], "url="+url.QueryEscape(page)) {
		t.Errorf("request %q lacks the url or timestamp", reqs[0])
	}
	if _, err := c.Available(context.Background(), "http://example.com/never", time.Time{}); !errors.Is(err, wayback.ErrNoCapture) {
		t.Errorf("Available of a URI never captured = %v, want ErrNoCapture", err)
	}
	if reqs := a.seen(); strings.Contains(reqs[1], "timestamp=") {
		t.Errorf("request %q has a timestamp for a zero time", reqs[1])
	}
}

// TestRedirects checks historical redirects: the chain of each redirect
// capture, with Locations the archive rewrote into its replay URLs, kept in
// X-Archive-Orig-Location, or left relative; a loop; and a chain longer
// than MaxHops.
func TestRedirects(t *testing.T) {
	const (
		moved  = "http://example.com/new/page.html"
		moved2 = "https://www.example.com/new/page.html"
		other  = "http://example.org/elsewhere"
	)
	a := &fakeArchive{
		cdx: map[string]string{page: "cdx-page.json", "http://example.com/a": "cdx-loop.json"},
		replays: map[string]map[string]answer{
			page: {
				// The archive rewrote the captured Location into its own URL.
				"20100220101010": redirect(301, "/web/20100220101010/"+moved),
				// The archive kept the captured Location in its own header.
				"20110101000000": {status: 302, header: http.Header{"X-Archive-Orig-Location": {other}}},
			},
			moved: {
				// A Location outside the archive, as captured.
				"20100220101500": redirect(301, "https://www.example.com/new/page.html"),
			},
			moved2: {"20100220102000": {status: 200, header: html(), body: "<p>here</p>"}},
			// The loop: a -> b -> a, the first Location relative.
			"http://example.com/a": {"20120101000000": redirect(302, "/b")},
			"http://example.com/b": {"20120101000001": redirect(302, "http://example.com/a")},
		},
	}
	c, _ := newClient(t, a)
	got, err := c.Redirects(context.Background(), page)
	if err != nil {
		t.Fatalf("Redirects: %v", err)
	}
	want := []wayback.Redirect{
		{
			Capture: wayback.Capture{URLKey: "com,example)/old/page.html", Time: date(2010, 2, 20, 10, 10, 10), Original: page,
				MIMEType: "text/html", Status: 301, Digest: "YYYYZZZZ2222333344445555666677AA", Length: 480},
			Hops: []wayback.Hop{
				{From: page, Time: date(2010, 2, 20, 10, 10, 10), Status: 301, To: moved},
				{From: moved, Time: date(2010, 2, 20, 10, 15, 0), Status: 301, To: moved2},
			},
			Final: moved2,
		},
		{
			Capture: wayback.Capture{URLKey: "com,example)/old/page.html", Time: date(2011, 1, 1, 0, 0, 0), Original: page,
				MIMEType: "text/html", Status: 302, Digest: "BBBBZZZZ2222333344445555666677AA", Length: 455},
			Hops:  []wayback.Hop{{From: page, Time: date(2011, 1, 1, 0, 0, 0), Status: 302, To: other}},
			Final: other,
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Redirects(%q) (-want +got):\n%s", page, diff)
	}

	loop, err := c.Redirects(context.Background(), "http://example.com/a")
	if err != nil {
		t.Fatalf("Redirects of a loop: %v", err)
	}
	if len(loop) != 1 || !loop[0].Loop || loop[0].Final != "http://example.com/a" || len(loop[0].Hops) != 2 {
		t.Errorf("Redirects of a loop = %+v, want one chain a -> b -> a marked Loop", loop)
	}

	c2, _ := newClient(t, a)
	c2.MaxHops = 1
	cut, err := c2.Redirects(context.Background(), page)
	if err != nil {
		t.Fatalf("Redirects with MaxHops 1: %v", err)
	}
	if len(cut) != 2 || !cut[0].TooManyHops || len(cut[0].Hops) != 1 || cut[0].Final != moved || cut[1].TooManyHops {
		t.Errorf("Redirects with MaxHops 1 = %+v, want the first chain cut after one hop", cut)
	}

	none, err := c.Redirects(context.Background(), "http://example.com/never")
	if err != nil || none == nil || len(none) != 0 {
		t.Errorf("Redirects of a URI never captured = %v, %v, want an empty slice", none, err)
	}
}

// TestParseTimestamp checks timestamps.
func TestParseTimestamp(t *testing.T) {
	tests := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"20070806193004", date(2007, 8, 6, 19, 30, 4), true},
		{"19960101000000", date(1996, 1, 1, 0, 0, 0), true},
		{"2007080619300", time.Time{}, false},
		{"200708061930045", time.Time{}, false},
		{"2007-08-06T19:3", time.Time{}, false},
		{"20071306193004", time.Time{}, false},
		{"", time.Time{}, false},
	}
	for _, tc := range tests {
		got, err := wayback.ParseTimestamp(tc.in)
		if (err == nil) != tc.ok || !got.Equal(tc.want) {
			t.Errorf("ParseTimestamp(%q) = %v, %v, want %v (ok %v)", tc.in, got, err, tc.want, tc.ok)
		}
		if err != nil && !errors.Is(err, wayback.ErrMalformed) {
			t.Errorf("ParseTimestamp(%q) error %v does not wrap ErrMalformed", tc.in, err)
		}
		if tc.ok && wayback.Timestamp(got) != tc.in {
			t.Errorf("Timestamp(%v) = %q, want %q", got, wayback.Timestamp(got), tc.in)
		}
	}
}
