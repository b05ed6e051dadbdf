package warc

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Records used by the reader tests. The syntax is WARC/1.1 §4: a version
// line, named fields, an empty line, Content-Length bytes of block, then
// two CRLFs.
const (
	recA = "WARC/1.1\r\n" +
		"WARC-Type: resource\r\n" +
		"WARC-Target-URI: http://example.com/a\r\n" +
		"Content-Length: 5\r\n" +
		"\r\n" +
		"hello\r\n\r\n"
	recB = "WARC/1.0\r\n" +
		"WARC-Type: metadata\r\n" +
		"Content-Length: 0\r\n" +
		"\r\n" +
		"\r\n\r\n"
)

var (
	headerA = Header{
		{Name: "WARC-Type", Value: "resource"},
		{Name: "WARC-Target-URI", Value: "http://example.com/a"},
		{Name: "Content-Length", Value: "5"},
	}
	headerB = Header{
		{Name: "WARC-Type", Value: "metadata"},
		{Name: "Content-Length", Value: "0"},
	}
)

// errKind classifies the error a test expects.
type errKind int

const (
	noErr       errKind = iota
	truncated           // a *FormatError wrapping ErrTruncated
	malformed           // a *FormatError not wrapping ErrTruncated
	missingLen          // a *FormatError wrapping ErrNoField
	headerLimit         // a *FormatError for a header over MaxHeaderBytes
)

// checkErr reports whether err is of kind k, at offset off.
func checkErr(t *testing.T, err error, k errKind, off int64) {
	t.Helper()
	if k == noErr {
		if err != nil {
			t.Fatalf("error %v, want none", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("no error, want one")
	}
	if got := formatOffset(err); got != off {
		t.Errorf("error %v: offset %d, want %d", err, got, off)
	}
	isTrunc := errors.Is(err, ErrTruncated)
	switch k {
	case truncated:
		if !isTrunc {
			t.Errorf("error %v does not wrap ErrTruncated", err)
		}
	case malformed:
		if isTrunc {
			t.Errorf("error %v wraps ErrTruncated, want a malformed-record error", err)
		}
	case missingLen:
		if !errors.Is(err, ErrNoField) {
			t.Errorf("error %v does not wrap ErrNoField", err)
		}
	case headerLimit:
		if isTrunc || !strings.Contains(err.Error(), "header longer than") {
			t.Errorf("error %v, want a header-size error", err)
		}
	}
}

// TestReaderPlain reads plain files, well-formed and not (WARC/1.1 §4 and
// the leniencies Next documents).
func TestReaderPlain(t *testing.T) {
	long := strings.Repeat("a", MaxHeaderBytes)
	tests := []struct {
		name    string
		in      string
		want    []rec
		err     errKind
		errOffs int64
	}{
		{name: "empty input", in: ""},
		{name: "only line ends", in: "\r\n\n\r\n"},
		{
			name: "one record",
			in:   recA,
			want: []rec{{Version: "WARC/1.1", Header: headerA, Body: "hello"}},
		},
		{
			name: "WARC/1.1 then WARC/1.0",
			in:   recA + recB,
			want: []rec{
				{Version: "WARC/1.1", Header: headerA, Body: "hello"},
				{Version: "WARC/1.0", Header: headerB, Offset: int64(len(recA))},
			},
		},
		{
			name: "line ends before, between and after records",
			in:   "\r\n" + recA + "\r\n\n" + recB + "\r\n",
			want: []rec{
				{Version: "WARC/1.1", Header: headerA, Offset: 2, Body: "hello"},
				{Version: "WARC/1.0", Header: headerB, Offset: int64(2 + len(recA) + 3)},
			},
		},
		{
			name: "no line ends after the blocks",
			in:   strings.TrimSuffix(recA, "\r\n\r\n") + strings.TrimSuffix(recB, "\r\n\r\n"),
			want: []rec{
				{Version: "WARC/1.1", Header: headerA, Body: "hello"},
				{Version: "WARC/1.0", Header: headerB, Offset: int64(len(recA) - 4)},
			},
		},
		{
			name: "LF line ends",
			in:   "WARC/1.1\nWARC-Type: resource\nContent-Length: 2\n\nhi\n\n",
			want: []rec{{Version: "WARC/1.1", Header: Header{
				{Name: "WARC-Type", Value: "resource"},
				{Name: "Content-Length", Value: "2"},
			}, Body: "hi"}},
		},
		{
			name: "continuation lines",
			in: "WARC/1.0\r\nWARC-Type: metadata\r\nX-Note: first\r\n  second\r\n\tthird \r\n" +
				"X-Empty:\r\n later\r\nContent-Length: 0\r\n\r\n\r\n\r\n",
			want: []rec{{Version: "WARC/1.0", Header: Header{
				{Name: "WARC-Type", Value: "metadata"},
				{Name: "X-Note", Value: "first second third"},
				{Name: "X-Empty", Value: "later"},
				{Name: "Content-Length", Value: "0"},
			}}},
		},
		{
			name: "repeated fields, colons in values, no space after the colon",
			in: "WARC/1.1\r\nWARC-Type:response\r\nWARC-Concurrent-To: <urn:uuid:1>\r\n" +
				"WARC-Concurrent-To: <urn:uuid:2>\r\nWARC-Target-URI: http://example.com:8080/x\r\nContent-Length: 0\r\n\r\n\r\n\r\n",
			want: []rec{{Version: "WARC/1.1", Header: Header{
				{Name: "WARC-Type", Value: "response"},
				{Name: "WARC-Concurrent-To", Value: "<urn:uuid:1>"},
				{Name: "WARC-Concurrent-To", Value: "<urn:uuid:2>"},
				{Name: "WARC-Target-URI", Value: "http://example.com:8080/x"},
				{Name: "Content-Length", Value: "0"},
			}}},
		},
		{
			name: "block that looks like records",
			in:   "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 18\r\n\r\n\r\n\r\nWARC/1.1\r\n\x00\xff\r\n\r\n",
			want: []rec{{Version: "WARC/1.1", Header: Header{
				{Name: "WARC-Type", Value: "resource"},
				{Name: "Content-Length", Value: "18"},
			}, Body: "\r\n\r\nWARC/1.1\r\n\x00\xff\r\n"}},
		},
		{
			name: "a later version",
			in:   "WARC/2.0\r\nContent-Length: 0\r\n\r\n",
			want: []rec{{Version: "WARC/2.0", Header: Header{{Name: "Content-Length", Value: "0"}}}},
		},
		{name: "text that is not WARC", in: "hello world\r\n\r\n", err: malformed},
		{name: "binary garbage", in: "\x00\xff\xfe\x01garbage", err: malformed},
		{name: "binary garbage with a line end", in: "\x00\xff\xfe\x01garbage\n", err: malformed},
		{name: "an HTTP message", in: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", err: malformed},
		{name: "bad version", in: "WARC/x.1\r\nContent-Length: 0\r\n\r\n", err: malformed},
		{name: "version without minor", in: "WARC/1\r\nContent-Length: 0\r\n\r\n", err: malformed},
		{
			name:    "garbage after a record",
			in:      recA + "junk\r\n",
			want:    []rec{{Version: "WARC/1.1", Header: headerA, Body: "hello"}},
			err:     malformed,
			errOffs: int64(len(recA)),
		},
		{name: "field line without colon", in: "WARC/1.1\r\nWARC-Type resource\r\nContent-Length: 0\r\n\r\n", err: malformed},
		{name: "field name with a space", in: "WARC/1.1\r\nWARC Type: resource\r\nContent-Length: 0\r\n\r\n", err: malformed},
		{name: "empty field name", in: "WARC/1.1\r\n: resource\r\nContent-Length: 0\r\n\r\n", err: malformed},
		{name: "continuation before the first field", in: "WARC/1.1\r\n more\r\nContent-Length: 0\r\n\r\n", err: malformed},
		// pywb's live-web loader writes no Content-Length for an answer
		// that came chunked: the block runs to the record's end.
		{name: "missing Content-Length", in: "WARC/1.1\r\nWARC-Type: resource\r\n\r\nhello\r\n\r\n",
			want: []rec{{Version: "WARC/1.1", Header: Header{{Name: "WARC-Type", Value: "resource"}}, Body: "hello"}}},
		{name: "negative Content-Length", in: "WARC/1.1\r\nContent-Length: -5\r\n\r\n", err: malformed},
		{name: "Content-Length with letters", in: "WARC/1.1\r\nContent-Length: 5x\r\n\r\nhello", err: malformed},
		{name: "empty Content-Length", in: "WARC/1.1\r\nContent-Length:\r\n\r\n", err: malformed},
		{name: "Content-Length over 63 bits", in: "WARC/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n", err: malformed},
		{name: "input ends in the version line", in: "WARC/1.", err: truncated},
		{name: "input ends in the header", in: "WARC/1.1\r\nWARC-Type: resource\r\n", err: truncated},
		{name: "input ends before the empty line", in: "WARC/1.1\r\nContent-Length: 0\r\n", err: truncated},
		{name: "input ends in the block", in: "WARC/1.1\r\nContent-Length: 100\r\n\r\nhello", err: truncated},
		{
			name:    "second record ends in the block",
			in:      recA + "WARC/1.1\r\nContent-Length: 10\r\n\r\nhello",
			want:    []rec{{Version: "WARC/1.1", Header: headerA, Body: "hello"}},
			err:     truncated,
			errOffs: int64(len(recA)),
		},
		{name: "huge Content-Length on a short input", in: "WARC/1.1\r\nContent-Length: 9223372036854775807\r\n\r\nhello", err: truncated},
		{name: "one header line over the limit", in: "WARC/1.1\r\nX-Long: " + long + "\r\nContent-Length: 0\r\n\r\n", err: headerLimit},
		{name: "version line over the limit", in: "WARC/" + long, err: headerLimit},
		{name: "many header lines over the limit", in: "WARC/1.1\r\n" + strings.Repeat("X-A: b\r\n", MaxHeaderBytes/8+1), err: headerLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readAll(t, []byte(tt.in))
			checkErr(t, err, tt.err, tt.errOffs)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReaderGzip reads gzip files (WARC/1.1 Annex D): Offset is the offset
// of the member in which a record starts.
func TestReaderGzip(t *testing.T) {
	mA, mB := gzipMember(t, recA), gzipMember(t, recB)
	empty := gzipMember(t, "")
	whole := gzipMember(t, recA+recB)
	splitA1, splitA2 := gzipMember(t, recA[:20]), gzipMember(t, recA[20:])
	badCRC := bytes.Clone(mB)
	badCRC[len(badCRC)-8] ^= 0xff
	cut := mB[:len(mB)-5]
	n := func(ms ...[]byte) int64 { return int64(len(bytes.Join(ms, nil))) }
	okA := rec{Version: "WARC/1.1", Header: headerA, Body: "hello"}
	okB := rec{Version: "WARC/1.0", Header: headerB}
	at := func(r rec, off int64) rec { r.Offset = off; return r }

	tests := []struct {
		name    string
		members [][]byte
		want    []rec
		err     errKind
		errOffs int64
		errIs   error
	}{
		{name: "one member per record", members: [][]byte{mA, mB}, want: []rec{okA, at(okB, n(mA))}},
		{name: "a plain WARC compressed whole", members: [][]byte{whole}, want: []rec{okA, okB}},
		{name: "record split over two members", members: [][]byte{splitA1, splitA2, mB}, want: []rec{okA, at(okB, n(splitA1, splitA2))}},
		{name: "empty members", members: [][]byte{empty, mA, empty}, want: []rec{at(okA, n(empty))}},
		{
			name: "garbage after the members", members: [][]byte{mA, []byte("junk")},
			want: []rec{okA}, err: malformed, errOffs: n(mA), errIs: gzip.ErrHeader,
		},
		{
			// The record comes out before the member's checksum is read.
			name: "bad checksum", members: [][]byte{mA, badCRC},
			want: []rec{okA, at(okB, n(mA))}, err: malformed, errOffs: n(mA), errIs: gzip.ErrChecksum,
		},
		{name: "member without its trailer", members: [][]byte{mA, cut}, want: []rec{okA, at(okB, n(mA))}, err: truncated, errOffs: n(mA)},
		{name: "member cut in the record", members: [][]byte{mA, mB[:20]}, want: []rec{okA}, err: truncated, errOffs: n(mA)},
		{name: "gzip magic then garbage", members: [][]byte{[]byte("\x1f\x8bjunk after the magic")}, err: malformed, errIs: gzip.ErrHeader},
		{name: "gzip then one stray byte", members: [][]byte{mA, []byte("\x1f")}, want: []rec{okA}, err: malformed, errOffs: n(mA), errIs: gzip.ErrHeader},
		{name: "gzip magic alone", members: [][]byte{[]byte("\x1f\x8b")}, err: truncated},
		{
			name: "record cut at a member end", members: [][]byte{mA, splitA1},
			want: []rec{okA}, err: truncated, errOffs: n(mA),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readAll(t, bytes.Join(tt.members, nil))
			checkErr(t, err, tt.err, tt.errOffs)
			if tt.errIs != nil && !errors.Is(err, tt.errIs) {
				t.Errorf("error %v does not wrap %v", err, tt.errIs)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNextDiscardsBody checks that Next skips what the caller left unread,
// that a stale Body fails, and that errors are sticky.
func TestNextDiscardsBody(t *testing.T) {
	in := recA + recB + "junk"
	for _, gz := range []bool{false, true} {
		data := []byte(in)
		if gz {
			data = bytes.Join([][]byte{gzipMember(t, recA), gzipMember(t, recB), []byte("junk")}, nil)
		}
		rd, err := NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		first, err := rd.Next()
		if err != nil {
			t.Fatalf("gzip=%v: Next = %v", gz, err)
		}
		buf := make([]byte, 2)
		if _, err := io.ReadFull(first.Body, buf); err != nil || string(buf) != "he" {
			t.Fatalf("gzip=%v: first two body bytes %q, %v; want \"he\"", gz, buf, err)
		}
		second, err := rd.Next()
		if err != nil {
			t.Fatalf("gzip=%v: second Next = %v", gz, err)
		}
		if second.Header.Type() != TypeMetadata {
			t.Errorf("gzip=%v: second record type %q, want %q", gz, second.Header.Type(), TypeMetadata)
		}
		if n, err := first.Body.Read(buf); n != 0 || !errors.Is(err, ErrStaleBody) {
			t.Errorf("gzip=%v: stale Body.Read = %d, %v; want 0, ErrStaleBody", gz, n, err)
		}
		_, err1 := rd.Next()
		_, err2 := rd.Next()
		if err1 == nil || err1 != err2 {
			t.Errorf("gzip=%v: Next after junk = %v, then %v; want the same error twice", gz, err1, err2)
		}
	}
}

// TestReaderLongContinuation reads a header of a megabyte of continuation
// lines, which must take linear, not quadratic, time.
func TestReaderLongContinuation(t *testing.T) {
	n := (MaxHeaderBytes - 100) / 4
	in := "WARC/1.1\r\nX-Long: a" + strings.Repeat("\r\n a", n) + "\r\nContent-Length: 0\r\n\r\n"
	// Quadratic reading of this header takes minutes and fails by -timeout;
	// BenchmarkReaderLongContinuation measures it.
	got, err := readAll(t, []byte(in))
	if err != nil || len(got) != 1 {
		t.Fatalf("read %d records, %v; want 1", len(got), err)
	}
	if v, want := got[0].Header.Get("X-Long"), strings.TrimSuffix(strings.Repeat("a ", n+1), " "); v != want {
		t.Errorf("X-Long has %d bytes, want %d", len(v), len(want))
	}
}

// errReader fails after its data.
type errReader struct {
	data []byte
	err  error
}

// Read returns the data, then err.
func (r *errReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// TestReaderIOError checks that an error of the input is returned, not
// taken for the end of the file.
func TestReaderIOError(t *testing.T) {
	errDisk := errors.New("disk on fire")
	if _, err := NewReader(&errReader{err: errDisk}); !errors.Is(err, errDisk) {
		t.Errorf("NewReader on a failing input = %v, want %v", err, errDisk)
	}
	for _, in := range [][]byte{[]byte(recA), gzipMember(t, recA)} {
		rd, err := NewReader(&errReader{data: in, err: errDisk})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rd.Next(); err != nil {
			t.Fatalf("first Next = %v", err)
		}
		if _, err := rd.Next(); !errors.Is(err, errDisk) {
			t.Errorf("Next at the failure = %v, want %v", err, errDisk)
		}
	}
}

// BenchmarkReaderLongContinuation reads TestReaderLongContinuation's
// header of a megabyte of continuation lines: linear reading takes
// milliseconds, quadratic minutes.
func BenchmarkReaderLongContinuation(b *testing.B) {
	n := (MaxHeaderBytes - 100) / 4
	in := []byte("WARC/1.1\r\nX-Long: a" + strings.Repeat("\r\n a", n) + "\r\nContent-Length: 0\r\n\r\n")
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		rd, err := NewReader(bytes.NewReader(in))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := rd.Next(); err != nil {
			b.Fatal(err)
		}
	}
}
