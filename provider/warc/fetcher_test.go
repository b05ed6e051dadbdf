package warc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
)

// day returns midnight UTC of the given day.
func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// warcBytes returns the WARC file that write makes.
func warcBytes(t *testing.T, gz bool, write func(w *Writer) error) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := write(NewWriter(&buf, gz)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// bigBody is the body of http://example.com/big.
var bigBody = bytes.Repeat([]byte("0123456789"), 10_000)

// crawl1 writes the first test crawl: pages, redirects, codings, and
// records the Archive must not index.
func crawl1(w *Writer) error {
	d := day(2009, 1, 1)
	html := http.Header{"Content-Type": {"text/html"}}
	loc := func(l string) http.Header { return http.Header{"Location": {l}} }
	var zipped bytes.Buffer
	zw := newGzipWriter()
	zw.Reset(&zipped)
	zw.Write([]byte("<p>unzipped</p>"))
	zw.Close()
	steps := []func() error{
		func() error { return w.WriteResponse("http://example.com/", d, 200, html, []byte("<p>home</p>")) },
		func() error {
			return w.WriteResponse("http://example.com/old", d, 301, loc("http://example.com/new"), nil)
		},
		func() error { return w.WriteResponse("http://example.com/new", d, 302, loc("final"), nil) },
		func() error { return w.WriteResponse("http://example.com/final", d, 200, html, []byte("final")) },
		func() error {
			return w.WriteResponse("http://example.com/outside", d, 301, loc("http://elsewhere.example/"), nil)
		},
		func() error { return w.WriteResponse("http://example.com/loop-a", d, 301, loc("/loop-b"), nil) },
		func() error { return w.WriteResponse("http://example.com/loop-b", d, 301, loc("/loop-a"), nil) },
		func() error {
			h := http.Header{"Content-Encoding": {"gzip"}, "Content-Length": {fmt.Sprint(zipped.Len())}, "Content-Type": {"text/html"}}
			return w.WriteResponse("http://example.com/gz", d, 200, h, zipped.Bytes())
		},
		func() error {
			return w.WriteResponse("http://example.com/br", d, 200, http.Header{"Content-Encoding": {"br"}}, []byte("\x0b\x02raw"))
		},
		func() error {
			h := http.Header{"Content-Encoding": {"gzip"}}
			return w.WriteResponse("http://example.com/liar", d, 200, h, []byte("<p>not zipped</p>"))
		},
		func() error {
			h := http.Header{"Transfer-Encoding": {"chunked"}}
			return w.WriteResponse("http://example.com/chunked", d, 200, h, []byte("4\r\nwiki\r\n5\r\npedia\r\n0\r\n\r\n"))
		},
		func() error {
			h := http.Header{"Transfer-Encoding": {"chunked"}}
			return w.WriteResponse("http://example.com/chunked-cut", d, 200, h, []byte("4\r\nwiki\r\n5\r\npe"))
		},
		func() error {
			h := http.Header{"Transfer-Encoding": {"chunked"}}
			return w.WriteResponse("http://example.com/chunked-bad", d, 200, h, []byte("4\r\nwiki\r\nzz\r\npedia\r\n0\r\n\r\n"))
		},
		func() error {
			bad := bytes.Clone(zipped.Bytes())
			bad[len(bad)-8] ^= 0xff // the CRC-32 of the gzip trailer
			return w.WriteResponse("http://example.com/gz-bad-crc", d, 200, http.Header{"Content-Encoding": {"gzip"}}, bad)
		},
		func() error { return w.WriteResponse("http://example.com/big", d, 200, nil, bigBody) },
		func() error { return w.WriteResponse("http://example.com/gone", d, 404, nil, []byte("not here")) },
		func() error {
			return w.WriteRecord(Header{
				{Name: "WARC-Type", Value: TypeResource},
				{Name: "WARC-Target-URI", Value: "http://example.com/notes.txt"},
				{Name: "WARC-Date", Value: "2009-01-01T00:00:00Z"},
				{Name: "Content-Type", Value: "text/plain"},
			}, []byte("notes"))
		},
		func() error {
			return w.WriteRecord(Header{
				{Name: "WARC-Type", Value: TypeRequest},
				{Name: "WARC-Target-URI", Value: "http://example.com/request-only"},
				{Name: "Content-Type", Value: "application/http; msgtype=request"},
			}, []byte("GET /request-only HTTP/1.1\r\nHost: example.com\r\n\r\n"))
		},
		func() error {
			return w.WriteRecord(Header{
				{Name: "WARC-Type", Value: TypeResponse},
				{Name: "WARC-Target-URI", Value: "dns:example.com"},
				{Name: "Content-Type", Value: "text/dns"},
			}, []byte("20090101000000\nexample.com. 300 IN A 192.0.2.1\n"))
		},
		func() error {
			return w.WriteRecord(Header{
				{Name: "WARC-Type", Value: TypeResponse},
				{Name: "WARC-Target-URI", Value: "http://example.com/text-response"},
				{Name: "Content-Type", Value: "text/html"},
			}, []byte("<p>not an HTTP message</p>"))
		},
		func() error { return w.WriteRecord(revisit("http://example.com/", "2010-01-01T00:00:00Z"), nil) },
		func() error {
			return w.WriteRecord(revisit("http://example.com/revisit-only", "2010-01-01T00:00:00Z"), nil)
		},
		func() error {
			return w.WriteResponse("http://example.com/dated", d, 200, nil, []byte("2009"))
		},
		func() error {
			return w.WriteResponse("http://example.com/same-date", day(2011, 1, 1), 200, nil, []byte("read first"))
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// revisit returns the header of an identical-payload-digest revisit
// record (WARC/1.1 §6.7.2).
func revisit(uri, date string) Header {
	return Header{
		{Name: "WARC-Type", Value: TypeRevisit},
		{Name: "WARC-Target-URI", Value: uri},
		{Name: "WARC-Date", Value: date},
		{Name: "WARC-Profile", Value: "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"},
		{Name: "Content-Type", Value: "application/http; msgtype=response"},
	}
}

// crawl2 writes the second test crawl: later and earlier captures.
func crawl2(w *Writer) error {
	for _, r := range []struct {
		uri  string
		date time.Time
		body string
	}{
		{"http://example.com/dated", day(2011, 1, 1), "2011"},
		{"http://example.com/dated", day(2010, 1, 1), "2010, read after 2011"},
		{"http://example.com/same-date", day(2011, 1, 1), "read last"},
		{"https://example.com/secure", day(2011, 1, 1), "secure"},
	} {
		if err := w.WriteResponse(r.uri, r.date, 200, nil, []byte(r.body)); err != nil {
			return err
		}
	}
	return nil
}

// testArchive writes the two crawls to files, the first gzip and the
// second plain, and opens them.
func testArchive(t *testing.T) (*Archive, []string) {
	t.Helper()
	dir := t.TempDir()
	paths := []string{filepath.Join(dir, "crawl1.warc.gz"), filepath.Join(dir, "crawl2.warc")}
	if err := os.WriteFile(paths[0], warcBytes(t, true, crawl1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(paths[1], warcBytes(t, false, crawl2), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := Open(context.Background(), paths...)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return a, paths
}

// TestArchiveFetch replays captures as a filter.Fetcher (DESIGN.md: a
// non-2xx answer is a Page, not an error).
func TestArchiveFetch(t *testing.T) {
	a, _ := testArchive(t)
	tests := []struct {
		name      string
		uri       string
		want      *filter.Page
		archived  bool
		maxBody   int64
		redirects int
	}{
		{
			name: "a page", uri: "http://example.com/", archived: true,
			want: &filter.Page{URI: "http://example.com/", Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<p>home</p>")},
		},
		{
			// §3.1: URIs compare after canonicalization.
			name: "another spelling of the page", uri: "HTTP://Example.COM:80/#top", archived: true,
			want: &filter.Page{URI: "HTTP://Example.COM:80/#top", Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<p>home</p>")},
		},
		{
			name: "redirects to a page, the second relative", uri: "http://example.com/old", archived: true,
			want: &filter.Page{URI: "http://example.com/final", Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("final")},
		},
		{
			name: "a redirect out of the archive", uri: "http://example.com/outside", archived: true,
			want: &filter.Page{URI: "http://example.com/outside", Status: 301, Header: http.Header{"Location": {"http://elsewhere.example/"}}, Body: []byte{}},
		},
		{
			name: "a redirect loop stops after ten redirects", uri: "http://example.com/loop-a", archived: true,
			want: &filter.Page{URI: "http://example.com/loop-a", Status: 301, Header: http.Header{"Location": {"/loop-b"}}, Body: []byte{}},
		},
		{
			name: "a redirect loop stops after three redirects", uri: "http://example.com/loop-a", archived: true, redirects: 3,
			want: &filter.Page{URI: "http://example.com/loop-b", Status: 301, Header: http.Header{"Location": {"/loop-a"}}, Body: []byte{}},
		},
		{
			name: "no redirects followed", uri: "http://example.com/old", archived: true, redirects: -1,
			want: &filter.Page{URI: "http://example.com/old", Status: 301, Header: http.Header{"Location": {"http://example.com/new"}}, Body: []byte{}},
		},
		{
			name: "gzip content coding undone", uri: "http://example.com/gz", archived: true,
			want: &filter.Page{URI: "http://example.com/gz", Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<p>unzipped</p>")},
		},
		{
			name: "gzip content coding cut at MaxBody", uri: "http://example.com/gz", archived: true, maxBody: 5,
			want: &filter.Page{URI: "http://example.com/gz", Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<p>un")},
		},
		{
			name: "br content coding kept", uri: "http://example.com/br", archived: true,
			want: &filter.Page{URI: "http://example.com/br", Status: 200, Header: http.Header{"Content-Encoding": {"br"}}, Body: []byte("\x0b\x02raw")},
		},
		{
			name: "gzip header on a plain body", uri: "http://example.com/liar", archived: true,
			want: &filter.Page{URI: "http://example.com/liar", Status: 200, Header: http.Header{"Content-Encoding": {"gzip"}}, Body: []byte("<p>not zipped</p>")},
		},
		{
			name: "chunked body", uri: "http://example.com/chunked", archived: true,
			want: &filter.Page{URI: "http://example.com/chunked", Status: 200, Header: http.Header{}, Body: []byte("wikipedia")},
		},
		{
			name: "chunked body cut in the capture", uri: "http://example.com/chunked-cut", archived: true,
			want: &filter.Page{URI: "http://example.com/chunked-cut", Status: 200, Header: http.Header{}, Body: []byte("wikipe")},
		},
		{
			name: "bad chunk in the capture", uri: "http://example.com/chunked-bad", archived: true,
			want: &filter.Page{URI: "http://example.com/chunked-bad", Status: 200, Header: http.Header{}, Body: []byte("wiki")},
		},
		{
			name: "bad gzip checksum in the capture", uri: "http://example.com/gz-bad-crc", archived: true,
			want: &filter.Page{URI: "http://example.com/gz-bad-crc", Status: 200, Header: http.Header{}, Body: []byte("<p>unzipped</p>")},
		},
		{
			name: "body cut at MaxBody", uri: "http://example.com/big", archived: true, maxBody: 1000,
			want: &filter.Page{URI: "http://example.com/big", Status: 200, Header: http.Header{}, Body: bigBody[:1000]},
		},
		{
			name: "whole body under the default MaxBody", uri: "http://example.com/big", archived: true,
			want: &filter.Page{URI: "http://example.com/big", Status: 200, Header: http.Header{}, Body: bigBody},
		},
		{
			name: "an archived 404", uri: "http://example.com/gone", archived: true,
			want: &filter.Page{URI: "http://example.com/gone", Status: 404, Header: http.Header{}, Body: []byte("not here")},
		},
		{
			name: "a resource record", uri: "http://example.com/notes.txt", archived: true,
			want: &filter.Page{URI: "http://example.com/notes.txt", Status: 200, Header: http.Header{"Content-Type": {"text/plain"}}, Body: []byte("notes")},
		},
		{
			name: "not in the archive", uri: "http://example.com/never",
			want: &filter.Page{URI: "http://example.com/never", Status: 404},
		},
		{
			name: "revisits are not indexed", uri: "http://example.com/revisit-only",
			want: &filter.Page{URI: "http://example.com/revisit-only", Status: 404},
		},
		{
			name: "request records are not indexed", uri: "http://example.com/request-only",
			want: &filter.Page{URI: "http://example.com/request-only", Status: 404},
		},
		{
			name: "responses that are not HTTP are not indexed", uri: "http://example.com/text-response",
			want: &filter.Page{URI: "http://example.com/text-response", Status: 404},
		},
		{
			name: "the latest capture wins, not the last read", uri: "http://example.com/dated", archived: true,
			want: &filter.Page{URI: "http://example.com/dated", Status: 200, Header: http.Header{}, Body: []byte("2011")},
		},
		{
			name: "on equal dates the last read wins", uri: "http://example.com/same-date", archived: true,
			want: &filter.Page{URI: "http://example.com/same-date", Status: 200, Header: http.Header{}, Body: []byte("read last")},
		},
		{
			name: "https", uri: "https://example.com:443/secure", archived: true,
			want: &filter.Page{URI: "https://example.com:443/secure", Status: 200, Header: http.Header{}, Body: []byte("secure")},
		},
		{
			name: "http and https differ", uri: "http://example.com/secure",
			want: &filter.Page{URI: "http://example.com/secure", Status: 404},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a.MaxBody, a.MaxRedirects = tt.maxBody, tt.redirects
			got, err := a.Fetch(context.Background(), tt.uri)
			if err != nil {
				t.Fatalf("Fetch(%q): %v", tt.uri, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Fetch(%q) (-want +got):\n%s", tt.uri, diff)
			}
			if has := a.Has(tt.uri); has != tt.archived {
				t.Errorf("Has(%q) = %v, want %v", tt.uri, has, tt.archived)
			}
		})
	}
	// The distinct URIs of crawl1 that are indexed (19) and the new one of
	// crawl2.
	if got, want := a.Len(), 20; got != want {
		t.Errorf("Len() = %d, want %d", got, want)
	}
}

// TestArchiveFetchErrors checks the failures that are errors, not Pages.
func TestArchiveFetchErrors(t *testing.T) {
	a, paths := testArchive(t)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := a.Fetch(cancelled, "http://example.com/"); !errors.Is(err, context.Canceled) {
		t.Errorf("Fetch with a cancelled context: error %v, want context.Canceled", err)
	}
	var ce *canon.Error
	if _, err := a.Fetch(context.Background(), "/relative/path"); !errors.As(err, &ce) {
		t.Errorf("Fetch of a relative URI: error %v, want a *canon.Error", err)
	}
	if a.Has("/relative/path") {
		t.Errorf("Has of a relative URI = true")
	}
	if err := os.Remove(paths[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Fetch(context.Background(), "http://example.com/"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Fetch after the file was removed: error %v, want os.ErrNotExist", err)
	}
	if err := os.WriteFile(paths[1], []byte("WARC/1.1\r\nContent-Length: 0\r\n\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Fetch(context.Background(), "https://example.com/secure"); err == nil {
		t.Errorf("Fetch after the file changed: no error")
	}
}

// TestOpenErrors checks that Open refuses what it cannot index whole.
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.warc")
	if err := os.WriteFile(good, warcBytes(t, false, crawl2), 0o644); err != nil {
		t.Fatal(err)
	}
	data := warcBytes(t, true, crawl1)
	cut := filepath.Join(dir, "cut.warc.gz")
	if err := os.WriteFile(cut, data[:len(data)-20], 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		ctx   context.Context
		paths []string
		is    error
	}{
		{name: "missing file", ctx: context.Background(), paths: []string{good, filepath.Join(dir, "none.warc")}, is: os.ErrNotExist},
		{name: "truncated file", ctx: context.Background(), paths: []string{good, cut}, is: ErrTruncated},
		{name: "cancelled context", ctx: func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}(), paths: []string{good}, is: context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Open(tt.ctx, tt.paths...)
			if a != nil || !errors.Is(err, tt.is) {
				t.Fatalf("Open = %v, %v; want nil, an error wrapping %v", a, err, tt.is)
			}
			if tt.is == ErrTruncated && !strings.Contains(err.Error(), "cut.warc.gz") {
				t.Errorf("error %v does not name the file", err)
			}
		})
	}
}

// TestNewArchiveSharedMember replays records from a plain WARC compressed
// whole, where every record shares offset 0 (WARC/1.1 Annex D allows one
// member for many records).
func TestNewArchiveSharedMember(t *testing.T) {
	plain := warcBytes(t, false, crawl2)
	a, err := NewArchive(context.Background(), bytes.NewReader(gzipMember(t, string(plain))))
	if err != nil {
		t.Fatalf("NewArchive: %v", err)
	}
	for uri, want := range map[string]string{
		"http://example.com/dated":     "2011",
		"http://example.com/same-date": "read last",
		"https://example.com/secure":   "secure",
	} {
		p, err := a.Fetch(context.Background(), uri)
		if err != nil || string(p.Body) != want {
			t.Errorf("Fetch(%q) = %v, %v; want body %q", uri, p, err, want)
		}
	}
}

// TestArchiveConcurrent fetches from many goroutines; run with -race.
func TestArchiveConcurrent(t *testing.T) {
	a, _ := testArchive(t)
	uris := []string{"http://example.com/", "http://example.com/old", "http://example.com/gz", "http://example.com/big", "http://example.com/dated", "http://example.com/never"}
	want := make(map[string]*filter.Page)
	for _, u := range uris {
		p, err := a.Fetch(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		want[u] = p
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 30 {
				u := uris[(g+i)%len(uris)]
				p, err := a.Fetch(context.Background(), u)
				if err != nil {
					errs <- err
					return
				}
				// cmp.Diff is slow on large bodies; compare the parts.
				w := want[u]
				if p.URI != w.URI || p.Status != w.Status || !bytes.Equal(p.Body, w.Body) || len(p.Header) != len(w.Header) {
					errs <- fmt.Errorf("Fetch(%q) = %s %d, %d bytes; want %s %d, %d bytes", u, p.URI, p.Status, len(p.Body), w.URI, w.Status, len(w.Body))
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestReplayReadsNoMore checks that a Fetch of a small page reads only
// around its record, not the whole file.
func TestReplayReadsNoMore(t *testing.T) {
	data := warcBytes(t, false, func(w *Writer) error {
		if err := w.WriteResponse("http://example.com/", day(2009, 1, 1), 200, nil, []byte("small")); err != nil {
			return err
		}
		return w.WriteResponse("http://example.com/big", day(2009, 1, 1), 200, nil, make([]byte, 4<<20))
	})
	ra := &countingReaderAt{r: bytes.NewReader(data)}
	a, err := NewArchive(context.Background(), ra)
	if err != nil {
		t.Fatal(err)
	}
	ra.n = 0
	if _, err := a.Fetch(context.Background(), "http://example.com/"); err != nil {
		t.Fatal(err)
	}
	if ra.n > 1<<20 {
		t.Errorf("Fetch of a small page read %d bytes of a %d-byte file", ra.n, len(data))
	}
}

// countingReaderAt counts the bytes read through it.
type countingReaderAt struct {
	r  io.ReaderAt
	mu sync.Mutex
	n  int64
}

// ReadAt reads from r and counts.
func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.mu.Lock()
	c.n += int64(n)
	c.mu.Unlock()
	return n, err
}

// BenchmarkArchiveFetch replays a 10 kB page from a gzip WARC file.
func BenchmarkArchiveFetch(b *testing.B) {
	body := bytes.Repeat([]byte("<p>a paragraph of text on a page</p>\n"), 270)
	var buf bytes.Buffer
	w := NewWriter(&buf, true)
	for i := range 1000 {
		if err := w.WriteResponse(fmt.Sprintf("http://example.com/%d", i), day(2009, 1, 1), 200, http.Header{"Content-Type": {"text/html"}}, body); err != nil {
			b.Fatal(err)
		}
	}
	path := filepath.Join(b.TempDir(), "bench.warc.gz")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	a, err := Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := a.Fetch(context.Background(), fmt.Sprintf("http://example.com/%d", i%1000)); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkReader reads a gzip WARC file of 1,000 10 kB responses.
func BenchmarkReader(b *testing.B) {
	body := bytes.Repeat([]byte("<p>a paragraph of text on a page</p>\n"), 270)
	var buf bytes.Buffer
	w := NewWriter(&buf, true)
	for i := range 1000 {
		if err := w.WriteResponse(fmt.Sprintf("http://example.com/%d", i), day(2009, 1, 1), 200, nil, body); err != nil {
			b.Fatal(err)
		}
	}
	data := buf.Bytes()
	b.SetBytes(int64(1000 * len(body)))
	b.ReportAllocs()
	for b.Loop() {
		rd, err := NewReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		for {
			rec, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.Copy(io.Discard, rec.Body); err != nil {
				b.Fatal(err)
			}
		}
	}
}
