package warc

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// record writes one record and reads it back, so that its Body is a real
// block reader.
func record(t *testing.T, typ, contentType, block string) *Record {
	t.Helper()
	var buf bytes.Buffer
	h := Header{{Name: "WARC-Type", Value: typ}, {Name: "WARC-Target-URI", Value: "http://example.com/"}}
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	if err := NewWriter(&buf, false).WriteRecord(h, []byte(block)); err != nil {
		t.Fatal(err)
	}
	rd, err := NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := rd.Next()
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// compress applies the named coding (RFC 9110 §8.4.1) to s.
func compress(t *testing.T, coding string, s []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip":
		w = gzip.NewWriter(&buf)
	case "zlib":
		w = zlib.NewWriter(&buf)
	case "flate":
		w, _ = flate.NewWriter(&buf, flate.DefaultCompression)
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

// TestReadResponse parses HTTP responses in response records (WARC/1.1
// §6.3.2, RFC 9112).
func TestReadResponse(t *testing.T) {
	const msgResponse = "application/http; msgtype=response"
	gz := string(compress(t, "gzip", []byte("<p>zipped</p>")))
	tests := []struct {
		name        string
		typ         string
		contentType string
		block       string
		status      int
		header      http.Header
		body        string
	}{
		{
			name: "Content-Length", typ: TypeResponse, contentType: msgResponse,
			block:  "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\nhello, and bytes past the length",
			status: 200, header: http.Header{"Content-Type": {"text/html"}, "Content-Length": {"5"}}, body: "hello",
		},
		{
			name: "body to the end of the block", typ: TypeResponse, contentType: "application/http",
			block:  "HTTP/1.0 404 Not Found\r\nServer: test\r\n\r\nno such page\r\n",
			status: 404, header: http.Header{"Server": {"test"}}, body: "no such page\r\n",
		},
		{
			name: "chunked as recorded", typ: TypeResponse, contentType: msgResponse,
			block:  "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n",
			status: 200, header: http.Header{}, body: "hello world",
		},
		{
			name: "chunked header on a dechunked body", typ: TypeResponse, contentType: msgResponse,
			block:  "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n<html>hello</html>",
			status: 200, header: http.Header{}, body: "<html>hello</html>",
		},
		{
			name: "gzip Content-Encoding kept", typ: TypeResponse, contentType: msgResponse,
			block:  "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + gz,
			status: 200, header: http.Header{"Content-Encoding": {"gzip"}}, body: gz,
		},
		{
			name: "HTTP/2 status line", typ: TypeResponse, contentType: msgResponse,
			block:  "HTTP/2 200\r\ncontent-type: text/plain\r\n\r\nok",
			status: 200, header: http.Header{"Content-Type": {"text/plain"}}, body: "ok",
		},
		{
			name: "interim 100 Continue", typ: TypeResponse, contentType: msgResponse,
			block:  "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok",
			status: 201, header: http.Header{"Content-Length": {"2"}}, body: "ok",
		},
		{
			name: "304 has no body", typ: TypeResponse, contentType: msgResponse,
			block:  "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n",
			status: 304, header: http.Header{"Etag": {`"x"`}}, body: "",
		},
		{
			name: "redirect", typ: TypeResponse, contentType: msgResponse,
			block:  "HTTP/1.1 301 Moved Permanently\r\nLocation: /new\r\nContent-Length: 0\r\n\r\n",
			status: 301, header: http.Header{"Location": {"/new"}, "Content-Length": {"0"}}, body: "",
		},
		{
			// pywb's live-web recorder writes a length of -1 beside
			// chunked transfer coding; the block bounds the message.
			name: "Content-Length -1 and chunked", typ: TypeResponse, contentType: msgResponse,
			block:  "HTTP/1.1 200 OK\r\nContent-Length: -1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
			status: 200, header: http.Header{}, body: "hello",
		},
		{
			name: "Content-Length -1 and chunked on a dechunked body", typ: TypeResponse, contentType: msgResponse,
			block:  "HTTP/1.1 200 OK\r\nContent-Length: -1\r\nTransfer-Encoding: chunked\r\n\r\n<html>hello</html>",
			status: 200, header: http.Header{}, body: "<html>hello</html>",
		},
		{
			name: "Content-Length -1 alone", typ: TypeResponse, contentType: msgResponse,
			block:  "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\nContent-Length: -1\r\n\r\n<html>hello</html>",
			status: 200, header: http.Header{"Content-Type": {"text/html"}}, body: "<html>hello</html>",
		},
		{
			name: "two Content-Lengths that differ", typ: TypeResponse, contentType: msgResponse,
			block:  "HTTP/1.1 200 OK\r\nContent-Length: 5\r\ncontent-length: 7\r\n\r\nhello, world",
			status: 200, header: http.Header{}, body: "hello, world",
		},
		{
			name: "two Content-Lengths that agree", typ: TypeResponse, contentType: msgResponse,
			block:  "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello, world",
			status: 200, header: http.Header{"Content-Length": {"5"}}, body: "hello",
		},
		{
			name: "revisit with the headers alone", typ: TypeRevisit, contentType: msgResponse,
			block:  "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n",
			status: 200, header: http.Header{"Content-Type": {"text/html"}}, body: "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, header, body, err := ReadResponse(record(t, tt.typ, tt.contentType, tt.block))
			if err != nil {
				t.Fatalf("ReadResponse: %v", err)
			}
			b, err := io.ReadAll(body)
			if err != nil {
				t.Fatalf("reading the body: %v", err)
			}
			if status != tt.status {
				t.Errorf("status %d, want %d", status, tt.status)
			}
			if diff := cmp.Diff(tt.header, header); diff != "" {
				t.Errorf("header (-want +got):\n%s", diff)
			}
			if string(b) != tt.body {
				t.Errorf("body %q, want %q", b, tt.body)
			}
		})
	}
}

// TestReadResponseErrors checks the records ReadResponse refuses.
func TestReadResponseErrors(t *testing.T) {
	tests := []struct {
		name, typ, contentType, block string
		notHTTP, truncated            bool
	}{
		{name: "request record", typ: TypeRequest, contentType: "application/http; msgtype=request", block: "GET / HTTP/1.1\r\n\r\n", notHTTP: true},
		{name: "resource record", typ: TypeResource, contentType: "text/html", block: "<p>hi</p>", notHTTP: true},
		{name: "response of another content type", typ: TypeResponse, contentType: "text/dns", block: "example.com. A 1.2.3.4", notHTTP: true},
		{name: "response with msgtype=request", typ: TypeResponse, contentType: "application/http; msgtype=request", block: "GET / HTTP/1.1\r\n\r\n", notHTTP: true},
		{name: "response without content type", typ: TypeResponse, block: "HTTP/1.1 200 OK\r\n\r\n", notHTTP: true},
		{name: "garbage status line", typ: TypeResponse, contentType: "application/http", block: "garbage\r\n\r\n"},
		{name: "bad status code", typ: TypeResponse, contentType: "application/http", block: "HTTP/1.1 abc OK\r\n\r\n"},
		{name: "empty block", typ: TypeResponse, contentType: "application/http"},
		{name: "header without end", typ: TypeResponse, contentType: "application/http", block: "HTTP/1.1 200 OK\r\nServer: x"},
		{
			name: "header over MaxHeaderBytes", typ: TypeResponse, contentType: "application/http",
			block: "HTTP/1.1 200 OK\r\n" + strings.Repeat("X-Pad: 0123456789\r\n", MaxHeaderBytes/19+1) + "\r\nbody",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, _, err := ReadResponse(record(t, tt.typ, tt.contentType, tt.block))
			if err == nil {
				t.Fatal("no error, want one")
			}
			if got := errors.Is(err, ErrNotHTTP); got != tt.notHTTP {
				t.Errorf("error %v: errors.Is(ErrNotHTTP) = %v, want %v", err, got, tt.notHTTP)
			}
			if !tt.notHTTP && formatOffset(err) != 0 {
				t.Errorf("error %v is not a *FormatError at offset 0", err)
			}
		})
	}
}

// TestDecodeBody undoes content codings (RFC 9110 §8.4).
func TestDecodeBody(t *testing.T) {
	text := []byte(strings.Repeat("the quick brown fox ", 50))
	zeros := make([]byte, 1<<20)
	tests := []struct {
		name      string
		encodings []string
		body      []byte
		limit     int64
		want      []byte
		wantErr   error
	}{
		{name: "no coding", body: text, want: text},
		{name: "identity", encodings: []string{"identity"}, body: text, want: text},
		{name: "gzip", encodings: []string{"gzip"}, body: compress(t, "gzip", text), want: text},
		{name: "x-gzip in capitals", encodings: []string{"X-GZIP"}, body: compress(t, "gzip", text), want: text},
		{name: "deflate as zlib", encodings: []string{"deflate"}, body: compress(t, "zlib", text), want: text},
		{name: "deflate as raw deflate", encodings: []string{"deflate"}, body: compress(t, "flate", text), want: text},
		{
			name: "two codings in one field", encodings: []string{"deflate, gzip"},
			body: compress(t, "gzip", compress(t, "zlib", text)), want: text,
		},
		{
			name: "two codings in two fields", encodings: []string{"gzip", "gzip"},
			body: compress(t, "gzip", compress(t, "gzip", text)), want: text,
		},
		{name: "cut at the limit", encodings: []string{"gzip"}, body: compress(t, "gzip", zeros), limit: 1000, want: zeros[:1000]},
		{name: "limit without coding", body: text, limit: 10, want: text[:10]},
		{name: "br", encodings: []string{"br"}, body: text, wantErr: ErrUnsupportedEncoding},
		{name: "gzip then zstd", encodings: []string{"gzip, zstd"}, body: text, wantErr: ErrUnsupportedEncoding},
		{name: "five codings", encodings: []string{"gzip,gzip,gzip,gzip,gzip"}, body: text, wantErr: ErrUnsupportedEncoding},
		{name: "gzip header on plain bytes", encodings: []string{"gzip"}, body: text, wantErr: gzip.ErrHeader},
		{
			name: "gzip cut short", encodings: []string{"gzip"}, body: compress(t, "gzip", text)[:30],
			wantErr: io.ErrUnexpectedEOF,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			header := http.Header{"Content-Encoding": tt.encodings}
			got, err := DecodeBody(header, bytes.NewReader(tt.body), tt.limit)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("DecodeBody: error %v, want %v", err, tt.wantErr)
				}
				if !bytes.HasPrefix(text, got) {
					t.Errorf("DecodeBody returned %q with the error, want a prefix of the text", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("DecodeBody: %v", err)
			}
			if !bytes.Equal(got, tt.want) {
				t.Errorf("DecodeBody = %d bytes %.40q, want %d bytes %.40q", len(got), got, len(tt.want), tt.want)
			}
		})
	}
}

// TestDecodeBodyDefaultLimit checks that a limit of zero means
// DefaultMaxBody, so a small gzip body cannot expand without bound.
func TestDecodeBodyDefaultLimit(t *testing.T) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for range DefaultMaxBody/len(zeros) + 2 {
		zw.Write(zeros)
	}
	zw.Close()
	got, err := DecodeBody(http.Header{"Content-Encoding": {"gzip"}}, &buf, 0)
	if err != nil || len(got) != DefaultMaxBody {
		t.Errorf("DecodeBody of %d gzip bytes = %d bytes, %v; want %d bytes", buf.Len(), len(got), err, DefaultMaxBody)
	}
}
