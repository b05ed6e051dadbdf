package localweb_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/lab/localweb"
	"github.com/linkrot/relink/provider/warc"
	"github.com/linkrot/relink/provider/wayback"
)

// waybackClient returns provider/wayback's client pointed at srv.
func waybackClient(t *testing.T, srv *localweb.Server) *wayback.Client {
	c := &wayback.Client{BaseURL: srv.URL("wayback"), AvailabilityURL: srv.URL("wayback-available"), Rate: rate.Inf, Attempts: 1}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// TestWayback runs provider/wayback's client against the archive: the
// captures, the last good one replayed raw, the availability API, and a
// page that is only in the archive.
func TestWayback(t *testing.T) {
	srv := start(t, localweb.Options{Relaxed: true})
	c := waybackClient(t, srv)
	ctx := context.Background()
	at := localweb.DefaultArchiveTime

	caps, err := c.Captures(ctx, pyBase+"library/removed.html", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(caps) != 1 || !caps[0].Time.Equal(at) || caps[0].Status != 200 || caps[0].MIMEType != "text/html" ||
		caps[0].URLKey != "org,python,docs)/3.11/library/removed.html" || caps[0].Length <= 0 || len(caps[0].Digest) != 32 {
		t.Fatalf("Captures(removed.html) = %+v", caps)
	}

	page, err := c.LastGood(ctx, pyBase+"library/removed.html")
	if err != nil {
		t.Fatal(err)
	}
	if page.Status != 200 || !bytes.Contains(page.Body, []byte("A module that was removed")) {
		t.Errorf("LastGood = %d %q", page.Status, page.Body)
	}
	if got := page.Header.Get(wayback.MementoDatetimeHeader); got != at.Format(http.TimeFormat) {
		t.Errorf("Memento-Datetime = %q, want %q", got, at.Format(http.TimeFormat))
	}

	snap, err := c.Available(ctx, pyBase+"library/removed.html", time.Time{})
	if err != nil || !snap.Time.Equal(at) || snap.Status != 200 {
		t.Errorf("Available = %+v, %v", snap, err)
	}

	if _, err := c.LastGood(ctx, pyBase+"library/never.html"); !errors.Is(err, wayback.ErrNoCapture) {
		t.Errorf("LastGood(never.html) = %v, want ErrNoCapture", err)
	}
	if _, err := c.Available(ctx, pyBase+"library/never.html", time.Time{}); !errors.Is(err, wayback.ErrNoCapture) {
		t.Errorf("Available(never.html) = %v, want ErrNoCapture", err)
	}

	// A redirect of the archive is a 3xx capture whose target the client
	// reads.
	reds, err := c.Redirects(ctx, pyBase+"library/old.html")
	if err != nil {
		t.Fatal(err)
	}
	if len(reds) != 1 || reds[0].Final != pyBase+"library/os.html" {
		t.Errorf("Redirects(old.html) = %+v, want one to os.html", reds)
	}
}

// get fetches url and returns the answer with its body read.
func get(t *testing.T, url string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// TestCDXQueries checks the CDX server's parameters.
func TestCDXQueries(t *testing.T) {
	srv := start(t, localweb.Options{Relaxed: true})
	cdx := srv.URL("wayback") + "/cdx/search/cdx?output=json&"
	count := func(query string) int {
		resp, b := get(t, cdx+query, nil)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", query, resp.StatusCode, b)
		}
		var rows [][]string
		if err := json.Unmarshal(b, &rows); err != nil {
			t.Fatalf("%s: %v: %s", query, err, b)
		}
		return max(0, len(rows)-1)
	}
	tests := []struct {
		query string
		want  int
	}{
		{"url=docs.python.org/3.11/library/os.html", 1},
		{"url=docs.python.org/3.11/library/&matchType=prefix", 3}, // json, os, removed (old.html is a redirect, not a page)
		{"url=docs.python.org/3.11/library/*", 3},
		{"url=docs.python.org&matchType=host", 5}, // and the index and the tutorial
		{"url=*.python.org", 5},
		{"url=docs.python.org/3.11/library/*&filter=!original:.*removed.*", 2},
		{"url=docs.python.org/3.11/library/*&filter=statuscode:200&limit=2", 2},
		{"url=docs.python.org/3.11/library/*&limit=-1", 1},
		{"url=docs.python.org/3.11/library/*&from=2021", 0},
		{"url=docs.python.org/3.11/library/*&to=2019", 0},
		{"url=docs.python.org/3.11/library/*&collapse=urlkey:10", 1},
		{"url=example.org/", 0},
	}
	for _, tt := range tests {
		if got := count(tt.query); got != tt.want {
			t.Errorf("%s: %d rows, want %d", tt.query, got, tt.want)
		}
	}
	resp, b := get(t, cdx+"url=docs.python.org/3.11/library/os.html&fl=timestamp,statuscode", nil)
	if want := "[[\"timestamp\",\"statuscode\"],[\"20200115120000\",\"200\"]]\n"; resp.StatusCode != 200 || string(b) != want {
		t.Errorf("fl=timestamp,statuscode: %d %s, want %s", resp.StatusCode, b, want)
	}
	for _, bad := range []string{"", "url=x&matchType=bogus", "url=x&filter=statuscode:(", "url=x&from=abc", "url=x&fl=nofield"} {
		if resp, _ := get(t, cdx+bad, nil); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%q: %d, want 400", bad, resp.StatusCode)
		}
	}
}

// TestCommonCrawl reads the collection list, an index query and the WARC
// record its row points at, by a range read.
func TestCommonCrawl(t *testing.T) {
	srv := start(t, localweb.Options{Relaxed: true})
	resp, b := get(t, srv.URL("commoncrawl-index")+"/collinfo.json", nil)
	var colls []map[string]string
	if err := json.Unmarshal(b, &colls); err != nil || resp.StatusCode != 200 || len(colls) != 1 {
		t.Fatalf("collinfo.json: %d %s (%v)", resp.StatusCode, b, err)
	}
	coll := colls[0]
	if coll["id"] != "CC-MAIN-2020-03" || coll["cdx-api"] != srv.URL("commoncrawl-index")+"/CC-MAIN-2020-03-index" {
		t.Errorf("collinfo.json = %v", coll)
	}

	resp, b = get(t, coll["cdx-api"]+"?url=https://docs.python.org/3.11/library/removed.html&output=json", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("index query: %d %s", resp.StatusCode, b)
	}
	var row map[string]string
	if err := json.Unmarshal(bytes.TrimSpace(b), &row); err != nil {
		t.Fatalf("index line %s: %v", b, err)
	}
	for _, f := range []string{"urlkey", "timestamp", "url", "mime", "mime-detected", "status", "digest", "length", "offset", "filename"} {
		if row[f] == "" {
			t.Errorf("index line lacks %s: %s", f, b)
		}
	}
	off, _ := strconv.ParseInt(row["offset"], 10, 64)
	length, _ := strconv.ParseInt(row["length"], 10, 64)
	resp, b = get(t, srv.URL("commoncrawl-data")+"/"+row["filename"], map[string]string{"Range": fmt.Sprintf("bytes=%d-%d", off, off+length-1)})
	if resp.StatusCode != http.StatusPartialContent || int64(len(b)) != length {
		t.Fatalf("range read: %d, %d bytes, want 206 and %d", resp.StatusCode, len(b), length)
	}
	r, err := warc.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if rec.Header.TargetURI() != pyBase+"library/removed.html" || rec.Header.Type() != warc.TypeResponse {
		t.Errorf("record %s %s", rec.Header.Type(), rec.Header.TargetURI())
	}
	status, _, body, err := warc.ReadResponse(rec)
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := io.ReadAll(body)
	if status != 200 || !bytes.Contains(payload, []byte("A module that was removed")) {
		t.Errorf("record's response: %d %q", status, payload)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after the one record: %v, want io.EOF", err)
	}

	// The whole file reads as WARC records, one a page of the archive.
	resp, b = get(t, srv.URL("commoncrawl-data")+"/"+row["filename"], nil)
	if resp.StatusCode != 200 {
		t.Fatalf("whole file: %d", resp.StatusCode)
	}
	r, _ = warc.NewReader(bytes.NewReader(b))
	n := 0
	for {
		if _, err := r.Next(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 7 {
		t.Errorf("the file holds %d records, want 7 (every page of the archive)", n)
	}

	// Errors as the services answer them.
	for _, tt := range []struct {
		url  string
		code int
		want string
	}{
		{coll["cdx-api"] + "?url=example.org/nothing&output=json", 404, `{"message":"No Captures found for: example.org/nothing"}`},
		{coll["cdx-api"] + "?url=example.org&matchType=bogus&output=json", 400, `{"message":"Invalid match_type: bogus"}`},
		{srv.URL("commoncrawl-data") + "/crawl-data/nothing.warc.gz", 404, "<Code>NoSuchKey</Code>"},
	} {
		resp, b := get(t, tt.url, nil)
		if resp.StatusCode != tt.code || !strings.Contains(string(b), tt.want) {
			t.Errorf("%s: %d %s, want %d %s", tt.url, resp.StatusCode, b, tt.code, tt.want)
		}
	}
	resp, _ = get(t, srv.URL("commoncrawl-data")+"/"+row["filename"], map[string]string{"Range": "bytes=999999999-"})
	if resp.StatusCode != http.StatusRequestedRangeNotSatisfiable {
		t.Errorf("range past the end: %d, want 416", resp.StatusCode)
	}

	// CDXJ lines without output=json.
	_, b = get(t, coll["cdx-api"]+"?url=docs.python.org/3.11/library/os.html", nil)
	line, _ := bufio.NewReader(bytes.NewReader(b)).ReadString('\n')
	if !strings.HasPrefix(line, "org,python,docs)/3.11/library/os.html 20200115120000 {") {
		t.Errorf("CDXJ line %q", line)
	}
}
