package warc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// recordIDPattern matches a WARC-Record-ID made by NewRecordID: a version 4
// UUID URN (RFC 9562 §5.4) in angle brackets (WARC/1.1 §5.2).
var recordIDPattern = regexp.MustCompile(`^<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}>$`)

// toWrite is a record for a Writer: either a header and body for
// WriteRecord or, when resp is set, the arguments of WriteResponse.
type toWrite struct {
	header Header
	body   []byte
	resp   *respArgs
}

// respArgs are the arguments of WriteResponse.
type respArgs struct {
	uri    string
	date   time.Time
	status int
	header http.Header
	body   []byte
}

// write writes r with w.
func (r toWrite) write(w *Writer) error {
	if r.resp != nil {
		a := r.resp
		return w.WriteResponse(a.uri, a.date, a.status, a.header, a.body)
	}
	return w.WriteRecord(r.header, r.body)
}

// sampleRecords returns one record of each common type, with fixed IDs
// and dates except for the response, whose ID the Writer makes.
func sampleRecords() []toWrite {
	date := time.Date(2009, 3, 1, 12, 30, 45, 0, time.UTC)
	binary := make([]byte, 256)
	for i := range binary {
		binary[i] = byte(i)
	}
	big := bytes.Repeat([]byte("0123456789abcdef"), 200<<10/16) // larger than the Reader's buffers
	return []toWrite{
		{header: Header{
			{Name: "WARC-Type", Value: TypeWarcinfo},
			{Name: "WARC-Record-ID", Value: "<urn:uuid:00000000-0000-4000-8000-000000000001>"},
			{Name: "WARC-Date", Value: "2009-03-01T12:30:45Z"},
			{Name: "WARC-Filename", Value: "sample.warc"},
			{Name: "Content-Type", Value: "application/warc-fields"},
		}, body: []byte("software: relink tests\r\nformat: WARC File Format 1.1\r\n")},
		{resp: &respArgs{
			uri: "http://example.com/", date: date, status: 200,
			header: http.Header{"Content-Type": {"text/html; charset=utf-8"}},
			body:   []byte("<html><body><a href=\"http://example.com/b\">the b page</a></body></html>"),
		}},
		{header: Header{
			{Name: "WARC-Type", Value: TypeRequest},
			{Name: "WARC-Record-ID", Value: "<urn:uuid:00000000-0000-4000-8000-000000000003>"},
			{Name: "WARC-Date", Value: "2009-03-01T12:30:45Z"},
			{Name: "WARC-Target-URI", Value: "http://example.com/"},
			{Name: "Content-Type", Value: "application/http; msgtype=request"},
		}, body: []byte("GET / HTTP/1.1\r\nHost: example.com\r\n\r\n")},
		{header: Header{
			{Name: "WARC-Type", Value: TypeResource},
			{Name: "WARC-Record-ID", Value: "<urn:uuid:00000000-0000-4000-8000-000000000004>"},
			{Name: "WARC-Date", Value: "2009-03-01T12:30:46Z"},
			{Name: "WARC-Target-URI", Value: "http://example.com/bytes.bin"},
			{Name: "Content-Type", Value: "application/octet-stream"},
		}, body: binary},
		{header: Header{
			{Name: "WARC-Type", Value: TypeRevisit},
			{Name: "WARC-Record-ID", Value: "<urn:uuid:00000000-0000-4000-8000-000000000005>"},
			{Name: "WARC-Date", Value: "2009-04-01T00:00:00Z"},
			{Name: "WARC-Target-URI", Value: "http://example.com/"},
			{Name: "WARC-Profile", Value: "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"},
			{Name: "WARC-Refers-To-Target-URI", Value: "http://example.com/"},
			{Name: "WARC-Refers-To-Date", Value: "2009-03-01T12:30:45Z"},
			{Name: "Content-Type", Value: "application/http; msgtype=response"},
		}, body: []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n")},
		{header: Header{
			{Name: "WARC-Type", Value: TypeMetadata},
			{Name: "WARC-Record-ID", Value: "<urn:uuid:00000000-0000-4000-8000-000000000006>"},
			{Name: "WARC-Date", Value: "2009-03-01T12:30:47Z"},
			{Name: "X-Empty-Block", Value: "yes"},
		}},
		{header: Header{
			{Name: "WARC-Type", Value: TypeResource},
			{Name: "WARC-Record-ID", Value: "<urn:uuid:00000000-0000-4000-8000-000000000007>"},
			{Name: "WARC-Date", Value: "2009-03-01T12:30:48Z"},
			{Name: "WARC-Target-URI", Value: "http://example.com/big.txt"},
			{Name: "Content-Type", Value: "text/plain"},
		}, body: big},
	}
}

// expected returns the records a Reader should give back for recs written
// at offsets offs by a Writer of version.
func expected(version string, recs []toWrite, offs []int64) []rec {
	var want []rec
	for i, r := range recs {
		if r.resp != nil {
			var block bytes.Buffer
			fmt.Fprintf(&block, "HTTP/1.1 %d %s\r\n", r.resp.status, http.StatusText(r.resp.status))
			r.resp.header.Write(&block)
			block.WriteString("\r\n")
			block.Write(r.resp.body)
			date := r.resp.date.Format("2006-01-02T15:04:05Z")
			want = append(want, rec{Version: version, Offset: offs[i], Body: block.String(), Header: Header{
				{Name: "WARC-Type", Value: TypeResponse},
				{Name: "WARC-Record-ID", Value: "ID"},
				{Name: "WARC-Date", Value: date},
				{Name: "WARC-Target-URI", Value: r.resp.uri},
				{Name: "Content-Type", Value: "application/http; msgtype=response"},
				{Name: "Content-Length", Value: fmt.Sprint(block.Len())},
			}})
			continue
		}
		h := append(r.header[:len(r.header):len(r.header)], Field{Name: "Content-Length", Value: fmt.Sprint(len(r.body))})
		want = append(want, rec{Version: version, Offset: offs[i], Header: h, Body: string(r.body)})
	}
	return want
}

// maskIDs replaces WARC-Record-IDs made by NewRecordID with "ID".
func maskIDs(recs []rec) {
	for _, r := range recs {
		for i, f := range r.Header {
			if f.Name == "WARC-Record-ID" && recordIDPattern.MatchString(f.Value) && !strings.Contains(f.Value, "00000000-0000") {
				r.Header[i].Value = "ID"
			}
		}
	}
}

// TestRoundTrip writes records with a Writer and reads them back: plain
// and gzip (WARC/1.1 Annex D), WARC/1.0 and WARC/1.1, with the offsets the
// Writer reported.
func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name    string
		version string
		gzip    bool
	}{
		{name: "WARC/1.1 plain", version: Version11},
		{name: "WARC/1.1 gzip", version: Version11, gzip: true},
		{name: "WARC/1.0 plain", version: Version10},
		{name: "WARC/1.0 gzip", version: Version10, gzip: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := NewWriter(&buf, tt.gzip)
			w.Version = tt.version
			recs := sampleRecords()
			var offs []int64
			for _, r := range recs {
				offs = append(offs, w.Offset())
				if err := r.write(w); err != nil {
					t.Fatalf("write: %v", err)
				}
			}
			if w.Offset() != int64(buf.Len()) {
				t.Errorf("Offset() = %d after writing %d bytes", w.Offset(), buf.Len())
			}
			data := buf.Bytes()
			if gz := bytes.HasPrefix(data, []byte{0x1f, 0x8b}); gz != tt.gzip {
				t.Errorf("output starts with the gzip magic: %v, want %v", gz, tt.gzip)
			}
			got, err := readAll(t, data)
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			maskIDs(got)
			if diff := cmp.Diff(expected(tt.version, recs, offs), got); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}

			// Each offset is a place to start reading that record.
			for i, off := range offs {
				rd, err := NewReader(bytes.NewReader(data[off:]))
				if err != nil {
					t.Fatal(err)
				}
				r, err := rd.Next()
				if err != nil {
					t.Fatalf("Next at offset %d: %v", off, err)
				}
				again := []rec{{Version: r.Version, Header: r.Header}}
				maskIDs(again)
				if r.Offset != 0 {
					t.Errorf("record read at offset %d has Offset %d, want 0", off, r.Offset)
				}
				if diff := cmp.Diff(got[i].Header, again[0].Header); diff != "" {
					t.Errorf("header of the record read at offset %d (-want +got):\n%s", off, diff)
				}
			}
		})
	}
}

// TestWriteRecordFields checks the fields WriteRecord adds and replaces
// (WARC/1.1 §5: WARC-Record-ID, WARC-Date and Content-Length are
// mandatory).
func TestWriteRecordFields(t *testing.T) {
	tests := []struct {
		name     string
		version  string
		header   Header
		body     string
		wantDate *regexp.Regexp // nil: the given date is kept
		wantID   string         // "": a new ID
		wantLen  string
	}{
		{
			name:     "WARC/1.1 adds ID, date with fraction and length",
			version:  Version11,
			header:   Header{{Name: "WARC-Type", Value: "resource"}},
			body:     "abc",
			wantDate: regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$`),
			wantLen:  "3",
		},
		{
			name:     "WARC/1.0 adds a date in seconds",
			version:  Version10,
			header:   Header{{Name: "WARC-Type", Value: "resource"}},
			wantDate: regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`),
			wantLen:  "0",
		},
		{
			name:    "keeps ID and date, replaces a wrong length",
			version: Version11,
			header: Header{
				{Name: "warc-type", Value: "resource"},
				{Name: "Content-Length", Value: "999"},
				{Name: "warc-record-id", Value: "<urn:x:1>"},
				{Name: "WARC-Date", Value: "2001-01-01T00:00:00Z"},
			},
			body:    "hello",
			wantID:  "urn:x:1",
			wantLen: "5",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := append(Header(nil), tt.header...)
			var buf bytes.Buffer
			w := NewWriter(&buf, false)
			w.Version = tt.version
			if err := w.WriteRecord(tt.header, []byte(tt.body)); err != nil {
				t.Fatalf("WriteRecord: %v", err)
			}
			if diff := cmp.Diff(before, tt.header); diff != "" {
				t.Errorf("WriteRecord changed its argument (-want +got):\n%s", diff)
			}
			got, err := readAll(t, buf.Bytes())
			if err != nil || len(got) != 1 {
				t.Fatalf("read back %d records, %v; want 1", len(got), err)
			}
			h := got[0].Header
			if got[0].Version != tt.version {
				t.Errorf("version %q, want %q", got[0].Version, tt.version)
			}
			if tt.wantID == "" {
				if id := h.Get("WARC-Record-ID"); !recordIDPattern.MatchString(id) {
					t.Errorf("WARC-Record-ID = %q, want a new urn:uuid", id)
				}
			} else if id := h.RecordID(); id != tt.wantID {
				t.Errorf("RecordID() = %q, want %q", id, tt.wantID)
			}
			if tt.wantDate != nil {
				d := h.Get("WARC-Date")
				if !tt.wantDate.MatchString(d) {
					t.Errorf("WARC-Date = %q, want a match of %v", d, tt.wantDate)
				}
				if when, err := h.Date(); err != nil || time.Since(when) > time.Minute || time.Since(when) < -time.Minute {
					t.Errorf("Date() = %v, %v; want about now", when, err)
				}
			} else if d := h.Get("WARC-Date"); d != tt.header.Get("WARC-Date") {
				t.Errorf("WARC-Date = %q, want %q", d, tt.header.Get("WARC-Date"))
			}
			if l := h.Values("Content-Length"); len(l) != 1 || l[0] != tt.wantLen {
				t.Errorf("Content-Length fields %q, want [%q]", l, tt.wantLen)
			}
		})
	}
}

// TestWriterErrors checks that bad input is refused without writing, and
// that a write error is sticky.
func TestWriterErrors(t *testing.T) {
	tests := []struct {
		name    string
		version string
		write   func(w *Writer) error
		is      error
	}{
		{
			name:  "no WARC-Type",
			write: func(w *Writer) error { return w.WriteRecord(Header{{Name: "X", Value: "y"}}, nil) },
			is:    ErrNoField,
		},
		{
			name: "field name with a space",
			write: func(w *Writer) error {
				return w.WriteRecord(Header{{Name: "WARC-Type", Value: "resource"}, {Name: "Bad Name", Value: "y"}}, nil)
			},
		},
		{
			name: "line end in a value",
			write: func(w *Writer) error {
				return w.WriteRecord(Header{{Name: "WARC-Type", Value: "resource\r\nContent-Length: 0"}}, nil)
			},
		},
		{
			name: "NUL in a value",
			write: func(w *Writer) error {
				return w.WriteRecord(Header{{Name: "WARC-Type", Value: "resource"}, {Name: "X", Value: "a\x00b"}}, nil)
			},
		},
		{
			name:    "unknown version",
			version: "WARC/0.17",
			write:   func(w *Writer) error { return w.WriteRecord(Header{{Name: "WARC-Type", Value: "resource"}}, nil) },
		},
		{
			name:  "status out of range",
			write: func(w *Writer) error { return w.WriteResponse("http://example.com/", time.Time{}, 42, nil, nil) },
		},
		{
			name: "line end in the target URI",
			write: func(w *Writer) error {
				return w.WriteResponse("http://example.com/\r\nX: y", time.Time{}, 200, nil, nil)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := NewWriter(&buf, false)
			if tt.version != "" {
				w.Version = tt.version
			}
			err := tt.write(w)
			if err == nil {
				t.Fatalf("no error, want one")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v does not wrap %v", err, tt.is)
			}
			if buf.Len() != 0 || w.Offset() != 0 {
				t.Errorf("wrote %d bytes (Offset %d) before failing, want 0", buf.Len(), w.Offset())
			}
		})
	}

	for _, gz := range []bool{false, true} {
		w := NewWriter(&failWriter{n: 10}, gz)
		h := Header{{Name: "WARC-Type", Value: "resource"}}
		if err := w.WriteRecord(h, []byte("body")); !errors.Is(err, errWrite) {
			t.Errorf("gzip=%v: WriteRecord to a failing writer = %v, want %v", gz, err, errWrite)
		}
		if err := w.WriteRecord(h, nil); !errors.Is(err, errWrite) {
			t.Errorf("gzip=%v: WriteRecord after a failure = %v, want %v", gz, err, errWrite)
		}
	}
}

// TestNewRecordID checks the form of record IDs and that they differ.
func TestNewRecordID(t *testing.T) {
	seen := make(map[string]bool)
	for range 1000 {
		id := NewRecordID()
		if !recordIDPattern.MatchString(id) {
			t.Fatalf("NewRecordID() = %q, want a match of %v", id, recordIDPattern)
		}
		if seen[id] {
			t.Fatalf("NewRecordID() = %q twice", id)
		}
		seen[id] = true
	}
}

// TestWriteResponseDefaultDate checks that the zero date means now.
func TestWriteResponseDefaultDate(t *testing.T) {
	var buf bytes.Buffer
	if err := NewWriter(&buf, false).WriteResponse("http://example.com/", time.Time{}, 204, nil, nil); err != nil {
		t.Fatal(err)
	}
	rd, err := NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	r, err := rd.Next()
	if err != nil {
		t.Fatal(err)
	}
	if d, err := r.Header.Date(); err != nil || time.Since(d) > time.Minute {
		t.Errorf("Date() = %v, %v; want about now", d, err)
	}
	block, _ := io.ReadAll(r.Body)
	if want := "HTTP/1.1 204 No Content\r\n\r\n"; string(block) != want {
		t.Errorf("block %q, want %q", block, want)
	}
}
