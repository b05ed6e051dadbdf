package warc

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Versions a Writer can write.
const (
	Version10 = "WARC/1.0"
	Version11 = "WARC/1.1"
)

// Writer writes WARC records, plain or with one gzip member per record
// (WARC/1.1 Annex D), so that each record's offset is a place a Reader can
// start. A Writer is not safe for concurrent use.
type Writer struct {
	// Version is the version line of the records written: Version11 (the
	// value NewWriter sets) or Version10. It decides the precision of the
	// WARC-Date fields the Writer adds: seconds for WARC/1.0, nanoseconds
	// (trailing zeros dropped) for WARC/1.1 (§5.4).
	Version string

	cw  *countWriter
	gz  *gzip.Writer // nil for plain output
	err error        // sticky write error
}

// NewWriter returns a Writer of WARC/1.1 records to w, each in its own gzip
// member when gzip is true.
func NewWriter(w io.Writer, gzip bool) *Writer {
	wr := &Writer{Version: Version11, cw: &countWriter{w: w}}
	if gzip {
		wr.gz = newGzipWriter()
	}
	return wr
}

// newGzipWriter returns a gzip writer at the default level.
func newGzipWriter() *gzip.Writer {
	zw, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression) // a valid level cannot fail
	return zw
}

// Offset returns the number of bytes written so far, which is the offset at
// which the next record will start.
func (w *Writer) Offset() int64 { return w.cw.n }

// WriteRecord writes one record with header h and block body. h must have a
// WARC-Type field. WriteRecord sets Content-Length to len(body), replacing
// any given value, and adds a WARC-Record-ID (a fresh urn:uuid, see
// NewRecordID) and a WARC-Date (now) when h lacks them; it does not modify
// h. Every field name must be a token and no value may hold a CR, LF or
// other control character but tab; such a header returns an error and
// writes nothing. An error of the underlying writer is returned by this and
// every later call.
func (w *Writer) WriteRecord(h Header, body []byte) error {
	if w.err != nil {
		return w.err
	}
	if w.Version != Version10 && w.Version != Version11 {
		return fmt.Errorf("warc: cannot write version %q", w.Version)
	}
	if h.Get("WARC-Type") == "" {
		return fmt.Errorf("warc: write record: %w: WARC-Type", ErrNoField)
	}
	h = slices.Clone(h)
	if _, ok := h.lookup("WARC-Record-ID"); !ok {
		h.Set("WARC-Record-ID", NewRecordID())
	}
	if _, ok := h.lookup("WARC-Date"); !ok {
		h.Set("WARC-Date", w.formatDate(time.Now()))
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))

	var buf bytes.Buffer
	buf.Grow(len(body) + 512)
	buf.WriteString(w.Version + "\r\n")
	for _, f := range h {
		if !validName(f.Name) {
			return fmt.Errorf("warc: write record: invalid field name %q", f.Name)
		}
		if strings.ContainsFunc(f.Value, func(r rune) bool { return (r < ' ' && r != '\t') || r == 0x7f }) {
			return fmt.Errorf("warc: write record: control character in field %s", f.Name)
		}
		buf.WriteString(f.Name + ": " + f.Value + "\r\n")
	}
	buf.WriteString("\r\n")
	buf.Write(body)
	buf.WriteString("\r\n\r\n")

	if w.gz == nil {
		_, w.err = w.cw.Write(buf.Bytes())
		return w.err
	}
	w.gz.Reset(w.cw)
	if _, w.err = w.gz.Write(buf.Bytes()); w.err != nil {
		return w.err
	}
	w.err = w.gz.Close()
	return w.err
}

// WriteResponse writes a response record for targetURI captured at date
// (now when date is the zero time): its block is the HTTP/1.1 message with
// the given status, header (written in sorted order by http.Header.Write)
// and body, and its Content-Type is "application/http; msgtype=response".
// The body is written as given: with "Transfer-Encoding: chunked" in header
// the caller must pass a chunked body, with "Content-Encoding: gzip" a gzip
// body. status must be in 100..999.
func (w *Writer) WriteResponse(targetURI string, date time.Time, status int, header http.Header, body []byte) error {
	if status < 100 || status > 999 {
		return fmt.Errorf("warc: write response: invalid status %d", status)
	}
	if date.IsZero() {
		date = time.Now()
	}
	var block bytes.Buffer
	fmt.Fprintf(&block, "HTTP/1.1 %d %s\r\n", status, http.StatusText(status))
	if err := header.Write(&block); err != nil {
		return fmt.Errorf("warc: write response: %w", err)
	}
	block.WriteString("\r\n")
	block.Write(body)
	h := Header{
		{Name: "WARC-Type", Value: TypeResponse},
		{Name: "WARC-Record-ID", Value: NewRecordID()},
		{Name: "WARC-Date", Value: w.formatDate(date)},
		{Name: "WARC-Target-URI", Value: targetURI},
		{Name: "Content-Type", Value: "application/http; msgtype=response"},
	}
	return w.WriteRecord(h, block.Bytes())
}

// formatDate formats t in UTC as a WARC-Date for the Writer's version.
func (w *Writer) formatDate(t time.Time) string {
	if w.Version == Version10 {
		return t.UTC().Format("2006-01-02T15:04:05Z")
	}
	return t.UTC().Format("2006-01-02T15:04:05.999999999Z")
}

// NewRecordID returns a new WARC-Record-ID value: a random (version 4) UUID
// URN in angle brackets, for example
// "<urn:uuid:0b7c2f7e-8d4a-4f4e-9b1c-6f2d3a4b5c6d>", as WARC/1.1 §5.2 writes
// it.
func NewRecordID() string {
	var u [16]byte
	rand.Read(u[:]) // crypto/rand.Read never fails
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

// Write writes to the underlying writer and counts.
func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
