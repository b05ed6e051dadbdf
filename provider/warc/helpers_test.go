package warc

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"testing"
)

// rec is a record as the tests expect to read it back.
type rec struct {
	Version string
	Header  Header
	Offset  int64
	Body    string
}

// readAll reads every record of data, bodies included.
func readAll(t *testing.T, data []byte) ([]rec, error) {
	t.Helper()
	rd, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("NewReader: %v", err)
	}
	var got []rec
	for {
		r, err := rd.Next()
		if err == io.EOF {
			return got, nil
		}
		if err != nil {
			return got, err
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return got, err
		}
		got = append(got, rec{Version: r.Version, Header: r.Header, Offset: r.Offset, Body: string(body)})
	}
}

// gzipMember compresses s into one gzip member.
func gzipMember(t testing.TB, s string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// formatOffset returns the offset of err's *FormatError, or -1 when err is
// not one.
func formatOffset(err error) int64 {
	var fe *FormatError
	if errors.As(err, &fe) {
		return fe.Offset
	}
	return -1
}

// failWriter fails every write after the first n bytes.
type failWriter struct{ n int }

var errWrite = errors.New("disk full")

// Write accepts up to n bytes in total, then fails.
func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) <= w.n {
		w.n -= len(p)
		return len(p), nil
	}
	k := w.n
	w.n = 0
	return k, errWrite
}
