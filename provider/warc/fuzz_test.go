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
			if want, _ := rec.Header.ContentLength(); err == nil && n != want {
				t.Fatalf("Body gave %d bytes, Content-Length is %d", n, want)
			}
		}
	})
}
