package ccindex_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/provider/ccindex"
	"github.com/linkrot/relink/provider/web"
)

// TestCollections reads collinfo.json, newest first.
func TestCollections(t *testing.T) {
	f := newFake(t)
	c := f.client()
	got, err := c.Collections(context.Background())
	require.NoError(t, err)
	want := []ccindex.Collection{
		{ID: newest, Name: "October 2026 Index", CDXAPI: "https://index.commoncrawl.org/CC-MAIN-2026-43-index", TimeGate: "https://index.commoncrawl.org/CC-MAIN-2026-43/",
			From: time.Date(2026, 10, 4, 12, 1, 2, 0, time.UTC), To: time.Date(2026, 10, 17, 23, 59, 58, 0, time.UTC)},
	}
	if diff := cmp.Diff(want, got[:1]); diff != "" {
		t.Errorf("Collections (-want +got):\n%s", diff)
	}
	assert.Equal(t, []string{newest, middle, oldest}, []string{got[0].ID, got[1].ID, got[2].ID})
	// Read once per Client.
	_, err = c.Collections(context.Background())
	require.NoError(t, err)
	assert.Len(t, f.seen(), 1)
}

// TestCaptures reads the CDX API's JSON lines, skipping one that cannot
// be a capture, and takes the server's 404 "No Captures found" for an
// empty answer.
func TestCaptures(t *testing.T) {
	f := newFake(t, record{url: page, at: day(2026, 9, 10), status: 200, mime: "text/html", body: "<title>Old page</title>"})
	f.lines[middle][page] = append(f.lines[middle][page], `{"urlkey": "com,example)/old/page.html", "timestamp": "20000012170449", "url": "https://example.com/old/page.html", "status": "200"}`, `not json`)
	var skipped []*ccindex.LineError
	c := f.client()
	c.OnSkip = func(e *ccindex.LineError) { skipped = append(skipped, e) }
	caps, err := c.Captures(context.Background(), middle, page)
	require.NoError(t, err)
	require.Len(t, caps, 1)
	cp := caps[0]
	assert.Equal(t, middle, cp.Collection)
	assert.Equal(t, "com,example)/old/page.html", cp.URLKey)
	assert.Equal(t, day(2026, 9, 10), cp.Time)
	assert.Equal(t, 200, cp.Status)
	assert.Equal(t, "text/html", cp.MIME)
	assert.Equal(t, warcRel, cp.Filename)
	assert.Equal(t, int64(0), cp.Offset)
	assert.Positive(t, cp.Length)
	assert.Equal(t, "eng", cp.Languages)
	require.Len(t, skipped, 2)
	assert.Equal(t, 2, skipped[0].Line)
	assert.ErrorIs(t, skipped[0], ccindex.ErrMalformed)

	none, err := c.Captures(context.Background(), newest, page)
	require.NoError(t, err)
	assert.NotNil(t, none)
	assert.Empty(t, none)

	_, err = c.Captures(context.Background(), "../collinfo.json?", page)
	require.ErrorIs(t, err, ccindex.ErrBadCollection)
	_, err = c.Captures(context.Background(), middle, "ftp://example.com/")
	require.ErrorIs(t, err, ccindex.ErrBadURI)
}

// TestLastGood checks the search: newest crawl first (it holds nothing),
// then the latest 2xx HTML capture of the next, read by one range request
// of exactly its record, which is replayed through package warc.
func TestLastGood(t *testing.T) {
	f := newFake(t,
		record{url: page, at: day(2026, 9, 8), status: 200, mime: "text/html", body: "<title>Old page</title><p>as it was"},
		record{url: page, at: day(2026, 9, 12), status: 404, mime: "text/html", body: "<title>Not found</title>"},
		record{url: page, at: day(2026, 9, 14), status: 200, mime: "application/pdf", body: "%PDF-1.4"},
	)
	c := f.client()
	p, err := c.LastGood(context.Background(), page)
	require.NoError(t, err)
	assert.Equal(t, page, p.URI)
	assert.Equal(t, http.StatusOK, p.Status)
	assert.Equal(t, "<title>Old page</title><p>as it was", string(p.Body))
	assert.Equal(t, "Tue, 08 Sep 2026 10:11:12 GMT", p.Header.Get(ccindex.MementoDatetimeHeader))
	assert.Equal(t, f.srv.URL+"/"+warcRel, p.Header.Get(ccindex.ContentLocationHeader))
	assert.Empty(t, p.Header.Get(web.TruncatedHeader))

	caps, err := c.Captures(context.Background(), middle, page)
	require.NoError(t, err)
	wantRange := "bytes=0-" + itoa(caps[0].Length-1)
	assert.Equal(t, wantRange, p.Header.Get(ccindex.WARCRangeHeader))
	seen := f.seen()
	assert.Equal(t, []string{"/collinfo.json", "/" + newest + "-index?output=json&url=" + queryEscape(page),
		"/" + middle + "-index?output=json&url=" + queryEscape(page), "/" + warcRel + " " + wantRange}, seen[:4])

	// Fetch: a URI no crawl holds is a 404 Page, as a server answers.
	const never = "https://example.com/never"
	np, err := c.Fetch(context.Background(), never)
	require.NoError(t, err)
	assert.Equal(t, http.StatusNotFound, np.Status)
	_, err = c.LastGood(context.Background(), never)
	require.ErrorIs(t, err, ccindex.ErrNoCapture)

	// Crawls and MaxCollections bound the search.
	c2 := f.client()
	c2.Crawls = []string{newest, oldest}
	_, err = c2.LastGood(context.Background(), page)
	require.ErrorIs(t, err, ccindex.ErrNoCapture)
	c3 := f.client()
	c3.MaxCollections = 1
	_, err = c3.LastGood(context.Background(), page)
	require.ErrorIs(t, err, ccindex.ErrNoCapture)
}

// TestRead checks answers that are not one WARC record of the capture.
func TestRead(t *testing.T) {
	f := newFake(t, record{url: page, at: day(2026, 9, 8), status: 200, mime: "text/html", body: "<title>Old page</title>"},
		record{url: "https://example.com/other", at: day(2026, 9, 9), status: 200, mime: "text/html", body: "<title>Other</title>"})
	c := f.client()
	caps, err := c.Captures(context.Background(), middle, page)
	require.NoError(t, err)
	good := caps[0]
	tests := []struct {
		name     string
		capture  func() ccindex.Capture
		before   func(w http.ResponseWriter, r *http.Request) bool
		want     error
		requests int
	}{
		{name: "range ignored", capture: func() ccindex.Capture { return good },
			before: func(w http.ResponseWriter, r *http.Request) bool {
				w.Write(f.warc) // 200 and the whole file
				return true
			}, want: ccindex.ErrMalformed, requests: 1},
		{name: "another capture's record", capture: func() ccindex.Capture {
			cp := good
			cp.URL = "https://example.com/other"
			return cp
		}, want: ccindex.ErrMalformed, requests: 1},
		{name: "range not a record", capture: func() ccindex.Capture {
			cp := good
			cp.Offset++
			return cp
		}, want: ccindex.ErrMalformed, requests: 1},
		{name: "filename leaving the data server", capture: func() ccindex.Capture {
			cp := good
			cp.Filename = "../../etc/passwd"
			return cp
		}, want: ccindex.ErrMalformed},
		{name: "filename naming a host", capture: func() ccindex.Capture {
			cp := good
			cp.Filename = "//evil.example/x.warc.gz"
			return cp
		}, want: ccindex.ErrMalformed},
		{name: "longer than MaxBody", capture: func() ccindex.Capture {
			cp := good
			cp.Length = 100 << 20
			return cp
		}, want: ccindex.ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(f.seen())
			f.before = tt.before
			defer func() { f.before = nil }()
			_, err := c.Read(context.Background(), tt.capture())
			require.ErrorIs(t, err, tt.want)
			assert.Len(t, f.seen()[before:], tt.requests)
		})
	}
}

// TestRateLimited checks Common Crawl's request to slow down: a 429
// pauses the Client, a second in a row stops it, and it sends nothing
// more.
func TestRateLimited(t *testing.T) {
	f := newFake(t)
	f.before = func(w http.ResponseWriter, r *http.Request) bool {
		http.Error(w, "Too Many Requests", http.StatusTooManyRequests)
		return true
	}
	c := f.client()
	_, err := c.LastGood(context.Background(), page)
	require.ErrorIs(t, err, ccindex.ErrRateLimited)
	require.ErrorIs(t, err, ccindex.ErrStopped)
	n := len(f.seen())
	assert.Equal(t, 2, n)
	_, err = c.Captures(context.Background(), middle, page)
	require.ErrorIs(t, err, ccindex.ErrStopped)
	assert.Len(t, f.seen(), n)
}

// TestOverloaded checks that the index's 503s are retried after a backoff
// and then reported.
func TestOverloaded(t *testing.T) {
	f := newFake(t)
	f.before = func(w http.ResponseWriter, r *http.Request) bool {
		http.Error(w, "<html><body>503 Service Unavailable</body></html>", http.StatusServiceUnavailable)
		return true
	}
	c := f.client()
	c.Attempts = 3
	_, err := c.Captures(context.Background(), middle, page)
	var se *ccindex.StatusError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, http.StatusServiceUnavailable, se.Status)
	assert.Len(t, f.seen(), 3)
	var e *ccindex.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "captures", e.Op)
	assert.True(t, strings.HasPrefix(err.Error(), "ccindex: captures "+page+": "), err.Error())
}

// TestMalformedCollinfo checks collinfo.json answers that are not a list
// of crawls.
func TestMalformedCollinfo(t *testing.T) {
	for _, body := range []string{"<html>down</html>", "{}", "[]", `[{"id": "../x"}]`} {
		f := newFake(t)
		f.before = func(w http.ResponseWriter, r *http.Request) bool {
			w.Write([]byte(body))
			return true
		}
		_, err := f.client().Collections(context.Background())
		if !errors.Is(err, ccindex.ErrMalformed) {
			t.Errorf("Collections of %q = %v, want ErrMalformed", body, err)
		}
	}
}
