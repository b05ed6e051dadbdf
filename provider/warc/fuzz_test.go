package warc

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzReader checks that any bytes give records or an error, never a panic
// or a hang: records come out at increasing offsets inside the input, each
// Body gives exactly Content-Length bytes or an error, a plain record read
// again at its Offset has the same header, and ReadResponse and DecodeBody
// (bounded to 1 MiB) survive whatever the blocks hold. Memory stays
// bounded because headers are capped at MaxHeaderBytes and blocks are
// streamed, never allocated from Content-Length.
func FuzzReader(f *testing.F) {
	f.Add([]byte(recA + recB))
	f.Add([]byte("WARC/1.1\r\nContent-Length: 9223372036854775807\r\n\r\nhello"))
	f.Add([]byte("WARC/1.0\nX: a\n  b\nContent-Length: 3\n\nabc"))
	// pywb's live-web records: no Content-Length, or -1.
	f.Add([]byte("WARC/1.0\r\nWARC-Type: response\r\nContent-Length: -1\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n\r\n\r\n" + recA))
	f.Add(gzipMember(f, "WARC/1.0\r\nWARC-Type: response\r\n\r\nHTTP/1.1 200 OK\r\n\r\nhi\r\n\r\n"))
	f.Add(bytes.Join([][]byte{gzipMember(f, recA), gzipMember(f, recB)}, nil))
	f.Add(gzipMember(f, recA+recB))
	for _, name := range []string{"sample-1.1.warc", "sample-1.0.warc.gz", "warcio-1.1.warc", "warcio-1.0.warc.gz"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	var buf bytes.Buffer
	w := NewWriter(&buf, false)
	w.WriteResponse("http://example.com/", day(2009, 1, 1), 200, http.Header{"Transfer-Encoding": {"chunked"}, "Content-Encoding": {"gzip"}},
		[]byte("a\r\n\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff\r\n0\r\n\r\n"))
	f.Add(buf.Bytes())

	f.Fuzz(func(t *testing.T, data []byte) {
		rd, err := NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("NewReader: %v", err)
		}
		gz := bytes.HasPrefix(data, []byte{0x1f, 0x8b})
		prev := int64(-1)
		for i := 0; ; i++ {
			rec, err := rd.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				var fe *FormatError
				if !errors.As(err, &fe) {
					t.Fatalf("Next: error %v is not a *FormatError", err)
				}
				if fe.Offset < 0 || fe.Offset > int64(len(data)) {
					t.Fatalf("Next: error offset %d outside the %d-byte input", fe.Offset, len(data))
				}
				return
			}
			if rec.Offset < prev || (!gz && rec.Offset == prev) || rec.Offset >= int64(len(data)) {
				t.Fatalf("record %d at offset %d after offset %d, in %d bytes", i, rec.Offset, prev, len(data))
			}
			prev = rec.Offset
			if !gz {
				again, err := NewReader(bytes.NewReader(data[rec.Offset:]))
				if err != nil {
					t.Fatal(err)
				}
				r2, err := again.Next()
				if err != nil {
					t.Fatalf("reading again at offset %d: %v", rec.Offset, err)
				}
				if diff := cmp.Diff(rec.Header, r2.Header); diff != "" {
					t.Fatalf("record read again at offset %d (-first +again):\n%s", rec.Offset, diff)
				}
			}
			if i%2 == 1 {
				if _, header, body, err := ReadResponse(rec); err == nil {
					DecodeBody(header, body, 1<<20)
				}
				continue
			}
			n, err := io.Copy(io.Discard, rec.Body)
			switch want := rec.Length; {
			case want >= 0 && err == nil && n != want:
				t.Fatalf("Body gave %d bytes, Content-Length is %d", n, want)
			case want < 0 && !gz && n > int64(len(data)):
				t.Fatalf("Body of unknown length gave %d bytes of a %d-byte input", n, len(data))
			}
		}
	})
}

// FuzzResync reads any bytes to their end, calling Resync after every
// *FormatError, and checks that it never panics or loops: every error of
// Next or of a Body is a *FormatError within the input, and every offset
// Resync resumes at is past the failure and inside the input, so that the
// walk ends. Memory stays bounded as for FuzzReader: Resync scans a buffer
// of fixed size.
func FuzzResync(f *testing.F) {
	a := resource("http://a.example/", "alpha", -1)
	b := resource("http://b.example/", "bravo", -1)
	ga, gb := gzipMember(f, a), gzipMember(f, b)
	corrupt := bytes.Clone(gb)
	for i := 12; i < len(corrupt)-8; i++ {
		corrupt[i] ^= 0x5a
	}
	f.Add(bytes.Join([][]byte{ga, corrupt, ga}, nil))
	f.Add(bytes.Join([][]byte{ga, []byte("junk \x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"), gb}, nil))
	f.Add(bytes.Join([][]byte{ga, gzipMember(f, resource("http://long.example/", "lima", 400)), gb}, nil))
	f.Add(bytes.Join([][]byte{ga, gb[:len(gb)/2]}, nil))
	f.Add([]byte(a + "WARC/1.1\r\nno colon\r\n" + b))
	f.Add([]byte(a + resource("http://s.example/", "sierra", 2) + b))
	f.Add([]byte(a + "WARC/x.y\r\n" + b + "\nWARC/1.1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("NewReader: %v", err)
		}
		failed := func(err error) int64 {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *FormatError", err)
			}
			if fe.Offset < 0 || fe.Offset > int64(len(data)) {
				t.Fatalf("error offset %d outside the %d-byte input", fe.Offset, len(data))
			}
			return fe.Offset
		}
		for steps := 0; ; steps++ {
			if steps > len(data)+2 {
				t.Fatalf("more than %d steps through %d bytes", steps, len(data))
			}
			rec, err := r.Next()
			if err == io.EOF {
				return
			}
			if err == nil {
				_, err = io.Copy(io.Discard, rec.Body)
				if err == nil {
					continue
				}
			}
			at := failed(err)
			off, err := r.Resync()
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Fatalf("Resync after an error at offset %d: %v", at, err)
			}
			if off <= at || off > int64(len(data)) {
				t.Fatalf("Resync after an error at offset %d resumed at %d, of %d bytes", at, off, len(data))
			}
		}
	})
}

// FuzzReadResponse checks that ReadResponse and DecodeBody never panic on
// the block of a response record, that the body never holds more than the
// block, and that DecodeBody keeps to its limit.
func FuzzReadResponse(f *testing.F) {
	for _, block := range []string{
		"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\nhello",
		"HTTP/1.1 200 OK\r\nContent-Length: -1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: -1\r\nTransfer-Encoding: chunked\r\n\r\n<html>dechunked</html>",
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok",
		"HTTP/2 301\r\nlocation: /new\r\n\r\n",
		"HTTP/1.0 200 OK\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello, world",
		"HTTP/1.1 200 OK\r\nContent-Encoding: gzip, deflate\r\n\r\n\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff",
		"HTTP/1.1 200 OK\r\nServer: x",
	} {
		f.Add([]byte(block))
	}
	f.Fuzz(func(t *testing.T, block []byte) {
		_, header, body, err := ReadResponse(record(t, TypeResponse, "application/http; msgtype=response", string(block)))
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("ReadResponse error %v is not a *FormatError", err)
			}
			return
		}
		raw, _ := io.ReadAll(body)
		if len(raw) > len(block) {
			t.Fatalf("a body of %d bytes from a block of %d", len(raw), len(block))
		}
		const limit = 1 << 16
		decoded, _ := DecodeBody(header, bytes.NewReader(raw), limit)
		if len(decoded) > limit {
			t.Fatalf("DecodeBody gave %d bytes, more than its limit %d", len(decoded), limit)
		}
	})
}
