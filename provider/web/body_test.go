package web

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/linkrot/relink/filter"
)

// compress returns s compressed with the named coding.
func compress(t *testing.T, coding string, s []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip":
		w = gzip.NewWriter(&buf)
	case "zlib":
		w = zlib.NewWriter(&buf)
	case "raw deflate":
		fw, err := flate.NewWriter(&buf, flate.BestCompression)
		if err != nil {
			t.Fatal(err)
		}
		w = fw
	default:
		t.Fatalf("unknown coding %q", coding)
	}
	if _, err := w.Write(s); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestFetchContentEncoding checks that gzip and deflate bodies are
// decoded and their headers dropped, and other codings kept as sent.
func TestFetchContentEncoding(t *testing.T) {
	html := fixture(t, "article.html")
	tests := []struct {
		name     string
		encoding string
		body     []byte
		want     []byte
		wantCE   string
	}{
		{"gzip", "gzip", compress(t, "gzip", html), html, ""},
		{"x-gzip", "x-gzip", compress(t, "gzip", html), html, ""},
		{"deflate as zlib", "deflate", compress(t, "zlib", html), html, ""},
		{"deflate raw", "deflate", compress(t, "raw deflate", html), html, ""},
		{"identity", "identity", html, html, ""},
		{"brotli kept as sent", "br", []byte("\x1b\x03\x00brotli bytes"), []byte("\x1b\x03\x00brotli bytes"), "br"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			leakCheck(t)
			srv := newServer(t, noRobots(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Header().Set("Content-Encoding", tt.encoding)
				w.Write(tt.body)
			})))
			c := testClient(t)
			page, err := c.Fetch(context.Background(), srv.URL)
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			if !bytes.Equal(page.Body, tt.want) {
				t.Errorf("Body = %.60q…, want %.60q…", page.Body, tt.want)
			}
			if got := page.Header.Get("Content-Encoding"); got != tt.wantCE {
				t.Errorf("Content-Encoding = %q, want %q", got, tt.wantCE)
			}
			if tt.wantCE == "" && page.Header.Get("Content-Length") != "" {
				t.Errorf("Content-Length = %q after decoding, want none", page.Header.Get("Content-Length"))
			}
		})
	}
}

// TestFetchBadGzip is a server that says gzip and sends plain bytes: the
// body cannot be read, so the attempts fail.
func TestFetchBadGzip(t *testing.T) {
	leakCheck(t)
	srv := newServer(t, noRobots(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		io.WriteString(w, "<p>not compressed at all</p>")
	})))
	c := testClient(t)
	c.Attempts = 2
	page, err := c.Fetch(context.Background(), srv.URL)
	if !errors.Is(err, gzip.ErrHeader) {
		t.Errorf("Fetch = %v, %v; want gzip.ErrHeader", page, err)
	}
}

// gzipHeader is a gzip member header: deflate, no flags, no time, unknown
// OS (RFC 1952).
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}

// zeroBlocks returns non-final deflate blocks that expand to 1 MiB of
// zeros; repeated, they expand to as many MiB as repeats, since their back
// references only reach earlier zeros.
func zeroBlocks(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	fw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(make([]byte, 1<<20))
	if err := fw.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestFetchDecompressionBomb checks that a small compressed body that
// expands without bound is cut at MaxBody: a finite bomb (16 MiB of zeros
// in a few kilobytes) and a gzip stream that never ends.
func TestFetchDecompressionBomb(t *testing.T) {
	blocks := zeroBlocks(t)
	const finiteMiB = 16
	finite := slices.Concat(gzipHeader, bytes.Repeat(blocks, finiteMiB), []byte{3, 0})
	finite = binary.LittleEndian.AppendUint32(finite, crc32.ChecksumIEEE(make([]byte, finiteMiB<<20)))
	finite = binary.LittleEndian.AppendUint32(finite, finiteMiB<<20)
	// The finite bomb is a valid gzip member.
	if n, err := io.Copy(io.Discard, mustGzipReader(t, finite)); err != nil || n != finiteMiB<<20 {
		t.Fatalf("finite bomb decodes to %d bytes, %v; want %d", n, err, finiteMiB<<20)
	}
	tests := []struct {
		name  string
		serve func(w http.ResponseWriter)
	}{
		{"finite", func(w http.ResponseWriter) { w.Write(finite) }},
		{"endless", func(w http.ResponseWriter) {
			w.Write(gzipHeader)
			for {
				if _, err := w.Write(blocks); err != nil {
					return
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			leakCheck(t)
			srv := newServer(t, noRobots(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				w.Header().Set("Content-Encoding", "gzip")
				tt.serve(w)
			})))
			c := testClient(t)
			c.MaxBody = 1 << 20
			page, err := c.Fetch(context.Background(), srv.URL)
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			if len(page.Body) != 1<<20 || page.Header.Get(TruncatedHeader) != "true" {
				t.Errorf("Fetch body = %d bytes, %s %q; want %d, truncated", len(page.Body), TruncatedHeader, page.Header.Get(TruncatedHeader), 1<<20)
			}
		})
	}
}

// mustGzipReader returns a gzip reader of b.
func mustGzipReader(t *testing.T, b []byte) io.Reader {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return zr
}

// TestFetchLyingContentType is a server that labels a PDF text/html: the
// Fetcher returns the bytes as they are, and the file type filter rejects
// them (§3.1 "Filetypes").
func TestFetchLyingContentType(t *testing.T) {
	leakCheck(t)
	pdf := []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Length 44 >>\nstream\n\x00\x01\x02\x03\x9c\xff\x00\nendstream\nendobj\n")
	srv := newServer(t, noRobots(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(pdf)
	})))
	c := testClient(t)
	page, err := c.Fetch(context.Background(), srv.URL+"/report.html")
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if !bytes.Equal(page.Body, pdf) || page.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("Fetch = %q with Content-Type %q, want the bytes and header as sent", page.Body, page.Header.Get("Content-Type"))
	}
	rej, err := (&filter.Filters{}).Check(context.Background(), page)
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	if rej == nil || rej.Filter != filter.FilterFileType || !strings.HasPrefix(rej.Reason, "pdf") {
		t.Errorf("Check(PDF labelled text/html) = %v, want a filetype rejection as pdf", rej)
	}
}

// TestFetchSoft404 is a server that answers 200 "page not found" for any
// path: fetched through a Client, the soft 404 filter (§3.1 "Soft 404s")
// rejects its pages, and keeps the pages of a server that answers 404 for
// paths it does not have.
func TestFetchSoft404(t *testing.T) {
	article, notFound := fixture(t, "article.html"), fixture(t, "notfound.html")
	tests := []struct {
		name       string
		missing    int // the status for paths the site does not have
		wantFilter string
	}{
		{"soft 404 site", http.StatusOK, filter.FilterSoft404},
		{"hard 404 site", http.StatusNotFound, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			leakCheck(t)
			site := func(status int) http.Handler {
				return noRobots(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "text/html; charset=utf-8")
					if r.URL.Path == "/garden/winter.html" {
						w.Write(article)
						return
					}
					w.WriteHeader(status)
					w.Write(notFound)
				}))
			}
			srv := newServer(t, site(tt.missing))
			c := testClient(t)
			f := &filter.Filters{Fetcher: c}

			// The page the server has, and a page it has not.
			good, err := c.Fetch(context.Background(), srv.URL+"/garden/winter.html")
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			if rej, err := f.Check(context.Background(), good); err != nil || rej != nil {
				t.Errorf("Check(real page) = %v, %v; want kept", rej, err)
			}
			gone, err := c.Fetch(context.Background(), srv.URL+"/garden/summer.html")
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			rej, err := f.Check(context.Background(), gone)
			if err != nil {
				t.Fatalf("Check: %v", err)
			}
			switch {
			case tt.wantFilter == "" && (rej == nil || rej.Filter != filter.FilterStatus):
				t.Errorf("Check(missing page) = %v, want a status rejection", rej)
			case tt.wantFilter != "" && (rej == nil || rej.Filter != tt.wantFilter):
				t.Errorf("Check(missing page) = %v, want a %s rejection", rej, tt.wantFilter)
			}

			// IsSoft404 on the probes fetched by hand.
			first, last, err := filter.ProbeURIs(gone.URI, filter.RandomString(filter.ProbeLength))
			if err != nil {
				t.Fatal(err)
			}
			p1, err1 := c.Fetch(context.Background(), first)
			p2, err2 := c.Fetch(context.Background(), last)
			if err1 != nil || err2 != nil {
				t.Fatalf("Fetch probes: %v, %v", err1, err2)
			}
			if got, want := filter.IsSoft404(gone, p1, p2), tt.missing == http.StatusOK; got != want {
				t.Errorf("IsSoft404(missing page, probes %d and %d) = %v, want %v", p1.Status, p2.Status, got, want)
			}
		})
	}
}
