package store_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/provider/warc"
)

// warcPages are the HTML bodies of the WARC fixture, by target URI.
var warcPages = map[string]string{
	"http://warc.example.com/":          `<html><head><title>Warc Home</title></head><body><p>Archived <a href="a.html">alpha page</a>, <a href="/b/">beta section</a>, <a href="http://warc.example.com/old">old alpha</a>.</p></body></html>`,
	"http://warc.example.com/a.html":    `<html><head><title>Alpha</title></head><body><p>Alpha zebra text.</p><p><a href="./">home</a></p></body></html>`,
	"http://warc.example.com/b/":        `<html><head><title>Beta</title></head><body><p>Beta <a href="../a.html">alpha again</a> and <a href="c.html">gamma</a>.</p></body></html>`,
	"http://warc.example.com/stub.html": `<html><head><meta http-equiv="refresh" content="0;url=a.html"></head><body>Moved.</body></html>`,
	"http://warc.example.com/latin":     "<html><head><title>Latin</title></head><body><p>Caf\xe9 cr\xe8me</p></body></html>",
	"http://warc.example.com/res.html":  `<html><head><title>Resource</title></head><body><p>Stored as a resource record.</p></body></html>`,
}

// writeWARC writes the WARC fixture: pages, a gzip-encoded page, HTTP and
// meta redirects, a stylesheet, a 404, a duplicate capture, a request and
// a warcinfo record, a resource record and a record with a bad URI.
func writeWARC(t *testing.T, path string) {
	t.Helper()
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, true)
	date := time.Date(2010, 3, 1, 12, 0, 0, 0, time.UTC)
	html := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.WriteRecord(warc.Header{{Name: "WARC-Type", Value: warc.TypeWarcinfo}, {Name: "Content-Type", Value: "application/warc-fields"}}, []byte("software: test\r\n")))
	must(w.WriteRecord(warc.Header{
		{Name: "WARC-Type", Value: warc.TypeRequest},
		{Name: "WARC-Target-URI", Value: "http://warc.example.com/"},
		{Name: "Content-Type", Value: "application/http; msgtype=request"},
	}, []byte("GET / HTTP/1.1\r\nHost: warc.example.com\r\n\r\n")))
	must(w.WriteResponse("http://warc.example.com/", date, 200, html, []byte(warcPages["http://warc.example.com/"])))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(warcPages["http://warc.example.com/a.html"]))
	must(zw.Close())
	must(w.WriteResponse("http://warc.example.com/a.html", date, 200,
		http.Header{"Content-Type": {"text/html"}, "Content-Encoding": {"gzip"}, "Server": {"fixture"}}, gz.Bytes()))
	must(w.WriteResponse("http://warc.example.com/b/", date, 200, html, []byte(warcPages["http://warc.example.com/b/"])))
	must(w.WriteResponse("http://warc.example.com/old", date, 301, http.Header{"Location": {"/a.html"}}, nil))
	must(w.WriteResponse("http://warc.example.com/style.css", date, 200, http.Header{"Content-Type": {"text/css"}}, []byte("p { color: red }")))
	must(w.WriteResponse("http://warc.example.com/gone", date, 404, html, []byte("<html><body>gone</body></html>")))
	must(w.WriteResponse("http://warc.example.com/", date, 200, html, []byte("<html><body>a later capture</body></html>")))
	must(w.WriteResponse("http://warc.example.com/stub.html", date, 200, html, []byte(warcPages["http://warc.example.com/stub.html"])))
	must(w.WriteResponse("http://warc.example.com/latin", date, 200,
		http.Header{"Content-Type": {"text/html; charset=iso-8859-1"}}, []byte(warcPages["http://warc.example.com/latin"])))
	must(w.WriteRecord(warc.Header{
		{Name: "WARC-Type", Value: warc.TypeResource},
		{Name: "WARC-Target-URI", Value: "http://warc.example.com/res.html"},
		{Name: "Content-Type", Value: "text/html"},
	}, []byte(warcPages["http://warc.example.com/res.html"])))
	must(w.WriteResponse("relative/uri", date, 200, html, []byte("<html></html>")))
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestIngestWARC checks WARC ingest and byte-for-byte replay.
func TestIngestWARC(t *testing.T) {
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "crawl.warc.gz"), filepath.Join(dir, "cut.warc")
	writeWARC(t, good)
	if err := os.WriteFile(bad, []byte("WARC/1.1\r\nWARC-Type: response\r\n"+
		"WARC-Target-URI: http://warc.example.com/cut\r\nContent-Type: application/http; msgtype=response\r\n"+
		"Content-Length: 9999\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html>cut short"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(filepath.Join(dir, "warc.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	st, err := s.IngestWARC(ctx, []string{good, bad}, store.IngestOptions{BatchSize: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := store.Stats{Pages: 5, Redirects: 2, Links: 6, NavLinks: 1, Skipped: map[string]int{
		store.ReasonNotHTML: 1, store.ReasonStatus: 1, store.ReasonDuplicate: 1, store.ReasonBadURI: 1, store.ReasonBadRecord: 1,
	}}
	if diff := cmp.Diff(want, st, ignoreTime); diff != "" {
		t.Errorf("IngestWARC stats (-want +got):\n%s", diff)
	}

	// Pages replay byte for byte, content coding undone, with their
	// recorded header, at the URI they were captured at.
	for uri, body := range warcPages {
		if uri == "http://warc.example.com/stub.html" {
			continue
		}
		p, err := s.Fetch(ctx, uri)
		if err != nil {
			t.Fatal(err)
		}
		if p.Status != 200 || p.URI != uri || !bytes.Equal(p.Body, []byte(body)) {
			t.Errorf("Fetch(%q) = %d %q %q, want 200, the URI and the captured body", uri, p.Status, p.URI, p.Body)
		}
	}
	p, err := s.Fetch(ctx, "http://warc.example.com/a.html")
	if err != nil {
		t.Fatal(err)
	}
	if p.Header.Get("Server") != "fixture" || p.Header.Get("Content-Encoding") != "" {
		t.Errorf("replayed header = %v, want Server kept and Content-Encoding dropped", p.Header)
	}
	tests := []struct {
		uri, final string
		status     int
	}{
		{"http://warc.example.com/old", "http://warc.example.com/a.html", 200},
		{"http://warc.example.com/stub.html", "http://warc.example.com/a.html", 200},
		{"http://warc.example.com/gone", "http://warc.example.com/gone", 404},
		{"http://warc.example.com/style.css", "http://warc.example.com/style.css", 404},
	}
	for _, tt := range tests {
		p, err := s.Fetch(ctx, tt.uri)
		if err != nil || p.Status != tt.status || p.URI != tt.final {
			t.Errorf("Fetch(%q) = %v, %v; want %d at %q", tt.uri, p, err, tt.status, tt.final)
		}
	}

	// Relative links resolve against the captured URI, trailing slash
	// included, in the store and for Extract on the replayed page.
	p, err = s.Fetch(ctx, "http://warc.example.com/b")
	if err != nil {
		t.Fatal(err)
	}
	got, err := backlink.Extract(p.Body, p.URI, "http://warc.example.com/b/c.html", backlink.Anchor)
	if err != nil || !slices.Equal(got, []string{"gamma"}) {
		t.Errorf("Extract(b, c.html) = %q, %v, want [gamma]", got, err)
	}
	bl, err := s.Backlinks(ctx, "http://warc.example.com/a.html", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(bl) != 2 || bl[0].URI != "http://warc.example.com" || bl[1].URI != "http://warc.example.com/b" {
		t.Errorf("Backlinks(a.html) = %v, want the home page, then b", bl)
	}
	res, err := s.Search(ctx, lexsig.Query{Terms: []string{"café"}}, 10)
	if err != nil || len(res) != 1 || res[0].URI != "http://warc.example.com/latin" {
		t.Errorf("Search(café) = %v, %v, want the ISO-8859-1 page", res, err)
	}

	again, err := s.IngestWARC(ctx, []string{good}, store.IngestOptions{})
	if err != nil || again.Pages != 0 {
		t.Errorf("second IngestWARC: %+v, %v, want nothing added", again, err)
	}
	if _, err := s.IngestWARC(ctx, []string{filepath.Join(dir, "absent.warc")}, store.IngestOptions{}); err == nil {
		t.Error("IngestWARC of a missing file: no error")
	}
}

// TestWARCResumeByContent is issue 12 item 8: resuming a WARC ingest goes
// by the file's content, not its name. A file ingested while its download
// was cut short, then completed, is read again from where it broke (it was
// skipped as done); a file replaced by another at the same path is read
// anew; an unchanged file is passed over. Stats says what was read again.
func TestWARCResumeByContent(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	full := filepath.Join(dir, "full.warc.gz")
	writeWARC(t, full)
	whole, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := store.Open(filepath.Join(dir, "ref.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	if _, err := ref.IngestWARC(ctx, []string{full}, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	want, err := ref.Totals(ctx)
	if err != nil {
		t.Fatal(err)
	}

	s, err := store.Open(filepath.Join(dir, "grown.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	path := filepath.Join(dir, "crawl.warc.gz")
	if err := os.WriteFile(path, whole[:len(whole)*6/10], 0o644); err != nil {
		t.Fatal(err)
	}
	cut, err := s.IngestWARC(ctx, []string{path}, store.IngestOptions{BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	if cut.Skipped[store.ReasonBadRecord] != 1 || cut.Pages == 0 || cut.Pages >= want.Pages {
		t.Fatalf("ingest of the cut file = %v; want some pages and the cut record bad", cut)
	}

	if err := os.WriteFile(path, whole, 0o644); err != nil { // the download completed
		t.Fatal(err)
	}
	grown, err := s.IngestWARC(ctx, []string{path}, store.IngestOptions{BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	if grown.Pages+cut.Pages != want.Pages || grown.Changed != 1 || grown.Resumed == 0 {
		t.Errorf("ingest of the completed file = %v; want the %d other pages, 1 changed file, the records done before resumed", grown, want.Pages-cut.Pages)
	}
	if !strings.Contains(grown.String(), "1 changed file read again") {
		t.Errorf("summary %q does not say a changed file was read again", grown)
	}
	got, err := s.Totals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Totals after the completed file (-one ingest of it +cut, then completed):\n%s", diff)
	}

	again, err := s.IngestWARC(ctx, []string{path}, store.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Pages != 0 || len(again.Skipped) != 0 || again.Changed != 0 {
		t.Errorf("ingest of the unchanged file = %v; want nothing read", again)
	}

	// Another crawl under the same name.
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, true)
	const other = "http://other.example.org/"
	if err := w.WriteResponse(other, time.Date(2011, 1, 1, 0, 0, 0, 0, time.UTC), 200,
		http.Header{"Content-Type": {"text/html"}}, []byte(`<html><head><title>Other</title></head><body><p>Another crawl.</p></body></html>`)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	replaced, err := s.IngestWARC(ctx, []string{path}, store.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if replaced.Pages != 1 || replaced.Changed != 1 || replaced.Resumed != 0 {
		t.Errorf("ingest of a replaced file = %v; want its page, 1 changed file, nothing resumed", replaced)
	}
	if p, err := s.Fetch(ctx, other); err != nil || p.Status != 200 {
		t.Errorf("Fetch(%q) after the replaced file = %v, %v; want 200", other, p, err)
	}
}
