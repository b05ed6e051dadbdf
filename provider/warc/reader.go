package warc

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxHeaderBytes is the largest record header, version line and line ends
// included, that a Reader accepts: 1 MiB. Real headers are a few hundred
// bytes; a larger one means the input is not WARC.
const MaxHeaderBytes = 1 << 20

// bufSize is the size of the Reader's buffers.
const bufSize = 64 << 10

// ErrTruncated is wrapped in the *FormatError returned when the input ends
// inside a record: inside its header, before Content-Length bytes of block,
// or inside a gzip member.
var ErrTruncated = errors.New("warc: truncated record")

// ErrStaleBody is returned by a Record's Body once Next has been called
// again: the Reader has moved past that block.
var ErrStaleBody = errors.New("warc: body read after Next")

// FormatError reports input that is not a well-formed WARC record.
type FormatError struct {
	// Offset is the byte offset in the input of the record at fault; in a
	// gzip file, the offset of its gzip member.
	Offset int64
	// Msg says what is wrong.
	Msg string
	// Err is the underlying cause, or nil: ErrTruncated when the input ends
	// early, a compress/gzip or compress/flate error for bad gzip data.
	Err error
}

// Error returns "warc: record at offset <n>: <msg>[: <cause>]".
func (e *FormatError) Error() string {
	s := fmt.Sprintf("warc: record at offset %d: %s", e.Offset, e.Msg)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause, so that errors.Is(err, ErrTruncated) works.
func (e *FormatError) Unwrap() error { return e.Err }

// Record is one WARC record. Its Body is valid until the next call to
// Reader.Next.
type Record struct {
	// Version is the record's version line without its line end, for
	// example "WARC/1.1" or "WARC/1.0".
	Version string
	// Header holds the record's named fields in the order written.
	Header Header
	// Offset is the byte offset of the record in the input: where its
	// version line starts in a plain file, where its gzip member starts in a
	// gzip file. A reader started at Offset (io.NewSectionReader) reads this
	// record first, unless several records share one gzip member (a plain
	// WARC compressed whole); then they share the member's Offset and come
	// out in order.
	Offset int64
	// Length is the block's length as Content-Length gives it, or -1 when
	// the record does not say: no Content-Length, or -1 (pywb's live-web
	// recorder writes such records for answers that came chunked). Body
	// then reads to the end of the record's gzip member, or in a plain
	// file to the blank line before the next version line (a block that
	// holds such a line cannot be told from two records).
	Length int64
	// Body reads the record's block: exactly Content-Length bytes, then
	// io.EOF. If the input ends sooner, Body returns an error wrapping
	// ErrTruncated; if, in a gzip file, the block runs on into a gzip
	// member that starts another record (a Content-Length too long), a
	// *FormatError, so that no record is swallowed silently.
	Body io.Reader
}

// Reader reads WARC records (WARC/1.0 and WARC/1.1, ISO 28500) from a plain
// or gzip-compressed stream. A Reader is not safe for concurrent use.
type Reader struct {
	cnt     *counter
	src     *bufio.Reader // the input as given, compressed or not
	gz      *gzip.Reader  // nil for a plain input
	br      *bufio.Reader // the records' bytes: src, or the current gzip member
	member  int64         // offset of the current gzip member
	members int           // gzip members opened so far
	body    *block        // the block of the record returned last
	err     error         // sticky error
	atStart bool          // err left the input at the start of a record: Resync resumes there
}

// NewReader returns a Reader of the WARC records in r. It looks at the
// first two bytes: the gzip magic number means a gzip file (one or more
// members, WARC/1.1 Annex D), anything else a plain file. It returns an
// error only if r fails; an empty r gives a Reader whose Next returns io.EOF.
func NewReader(r io.Reader) (*Reader, error) {
	cnt := &counter{r: r}
	src := bufio.NewReaderSize(cnt, bufSize)
	rd := &Reader{cnt: cnt, src: src, br: src}
	magic, err := src.Peek(2)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("warc: read: %w", err)
	}
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		rd.gz = new(gzip.Reader)
		// The first fill finds this reader empty and opens the first member.
		rd.br = bufio.NewReaderSize(strings.NewReader(""), bufSize)
	}
	return rd, nil
}

// Next returns the next record, after discarding whatever the caller left
// unread of the previous record's Body. At the end of the input it returns
// io.EOF. Malformed input returns a *FormatError carrying the record's
// offset (wrapping ErrTruncated when the input ends inside a record); a
// failing input returns its error, wrapped. Errors are sticky: once Next has
// failed it returns the same error until Resync moves past the bad record
// (only a *FormatError can be moved past).
//
// Next is lenient in two ways real files need: line ends may be LF instead
// of CRLF, and the line ends between records may be missing or doubled.
// A record without Content-Length, or with -1 (pywb's live-web recorder
// writes such records), has a block of unknown length (Record.Length -1):
// it runs to the end of its gzip member, or to the next record of a plain
// file. A header larger than MaxHeaderBytes, another Content-Length that
// is not a decimal number, a field line without a colon and a version
// line other than WARC/<n>.<n> are errors.
func (r *Reader) Next() (*Record, error) {
	if r.err != nil {
		return nil, r.err
	}
	rec, err := r.next()
	if err != nil {
		r.err = err
		return nil, err
	}
	return rec, nil
}

// next does the work of Next.
func (r *Reader) next() (*Record, error) {
	if b := r.body; b != nil {
		if _, err := io.Copy(io.Discard, b); err != nil {
			return nil, err
		}
		b.stale = true
		r.body = nil
	}
	if err := r.skipLineEnds(); err != nil {
		return nil, err
	}
	off := r.pos()
	// Refuse what is not WARC at once, not after a megabyte of line.
	if p, _ := r.br.Peek(len("WARC/")); !strings.HasPrefix("WARC/", string(p)) {
		return nil, &FormatError{Offset: off, Msg: fmt.Sprintf("want a WARC/<n>.<n> version line, starting %q", p)}
	}
	budget := MaxHeaderBytes
	line, err := r.readLine(off, budget)
	if err != nil {
		return nil, err
	}
	budget -= len(line)
	version := trimEOL(line)
	if !validVersion(version) {
		return nil, &FormatError{Offset: off, Msg: fmt.Sprintf("want a WARC/<n>.<n> version line, found %q", clip(version))}
	}
	var (
		h    Header
		long [][]byte // values continued over several lines, by field
	)
	for {
		line, err := r.readLine(off, budget)
		if err != nil {
			return nil, err
		}
		budget -= len(line)
		s := trimEOL(line)
		if s == "" {
			break
		}
		if s[0] == ' ' || s[0] == '\t' {
			if len(h) == 0 {
				return nil, &FormatError{Offset: off, Msg: "continuation line before the first field"}
			}
			// Appending to a byte slice keeps a value of many
			// continuation lines linear in its length.
			i := len(h) - 1
			if v := strings.Trim(s, " \t"); v != "" {
				if long[i] == nil {
					long[i] = []byte(h[i].Value)
				}
				if len(long[i]) > 0 {
					long[i] = append(long[i], ' ')
				}
				long[i] = append(long[i], v...)
			}
			continue
		}
		name, value, ok := strings.Cut(s, ":")
		if !ok || !validName(name) {
			return nil, &FormatError{Offset: off, Msg: fmt.Sprintf("malformed field line %q", clip(s))}
		}
		h = append(h, Field{Name: name, Value: strings.Trim(value, " \t")})
		long = append(long, nil)
	}
	for i, v := range long {
		if v != nil {
			h[i].Value = string(v)
		}
	}
	n, err := h.ContentLength()
	unknown := false
	if v, ok := h.lookup("Content-Length"); !ok || strings.TrimSpace(v) == "-1" {
		// pywb's live-web loader (warcserver/resource/responseloader.py,
		// _set_content_len) writes no Content-Length when the live answer
		// had none (it came chunked), and -1 stands for that unknown
		// length in pywb and warcio: the block runs to the end of its
		// gzip member, or to the next record of a plain file.
		n, err, unknown = -1, nil, true
	}
	if err != nil {
		return nil, &FormatError{Offset: off, Msg: "bad Content-Length", Err: err}
	}
	r.body = &block{r: r, off: off, left: n, unknown: unknown, members: r.members}
	return &Record{Version: version, Header: h, Offset: off, Length: n, Body: r.body}, nil
}

// pos returns the offset of the next unread byte of the records' stream: in
// a gzip file, the offset of the member it belongs to.
func (r *Reader) pos() int64 {
	if r.gz != nil {
		return r.member
	}
	return r.cnt.n - int64(r.src.Buffered())
}

// fill makes sure at least one byte of the records' stream is buffered,
// opening the next gzip member when the current one is used up. It returns
// io.EOF at the end of the input.
func (r *Reader) fill() error {
	for {
		if r.br.Buffered() > 0 {
			return nil
		}
		_, err := r.br.Peek(1)
		if err == nil {
			return nil
		}
		if err != io.EOF {
			return r.streamErr(err)
		}
		if r.gz == nil {
			return io.EOF
		}
		if err := r.nextMember(); err != nil {
			return err
		}
	}
}

// nextMember opens the gzip member that starts at the current input
// position, or returns io.EOF when there is none.
func (r *Reader) nextMember() error {
	if _, err := r.src.Peek(1); err != nil {
		if err == io.EOF {
			return io.EOF
		}
		return fmt.Errorf("warc: read near offset %d: %w", r.member, err)
	}
	off := r.cnt.n - int64(r.src.Buffered())
	r.member = off
	if p, _ := r.src.Peek(2); len(p) < 2 || p[0] != 0x1f || p[1] != 0x8b {
		return &FormatError{Offset: off, Msg: "data after a gzip member is not gzip", Err: gzip.ErrHeader}
	}
	if err := r.gz.Reset(r.src); err != nil {
		return r.streamErr(err)
	}
	// Reset turns multistream reading back on; one member at a time keeps
	// the input positioned at each member's end, which gives the offsets.
	r.gz.Multistream(false)
	r.br.Reset(r.gz)
	r.members++
	return nil
}

// streamErr classifies an error of the records' stream.
func (r *Reader) streamErr(err error) error {
	if r.gz != nil {
		var corrupt flate.CorruptInputError
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF):
			return &FormatError{Offset: r.member, Msg: "gzip member ends early", Err: ErrTruncated}
		case errors.Is(err, gzip.ErrHeader), errors.Is(err, gzip.ErrChecksum), errors.As(err, &corrupt):
			return &FormatError{Offset: r.member, Msg: "bad gzip member", Err: err}
		}
	}
	return fmt.Errorf("warc: read near offset %d: %w", r.pos(), err)
}

// skipLineEnds discards CR and LF bytes before a record. It returns io.EOF
// when the input ends first.
func (r *Reader) skipLineEnds() error {
	for {
		if err := r.fill(); err != nil {
			return err
		}
		buf, _ := r.br.Peek(r.br.Buffered())
		n := 0
		for n < len(buf) && (buf[n] == '\r' || buf[n] == '\n') {
			n++
		}
		r.br.Discard(n)
		if n < len(buf) {
			return nil
		}
	}
}

// readLine reads one header line of the record at off, line end included,
// failing if it holds more than max bytes.
func (r *Reader) readLine(off int64, max int) ([]byte, error) {
	var line []byte
	for {
		if err := r.fill(); err != nil {
			if err == io.EOF {
				return nil, &FormatError{Offset: off, Msg: "input ends inside the header", Err: ErrTruncated}
			}
			return nil, err
		}
		frag, err := r.br.ReadSlice('\n')
		if len(line)+len(frag) > max {
			return nil, &FormatError{Offset: off, Msg: fmt.Sprintf("header longer than %d bytes", MaxHeaderBytes)}
		}
		line = append(line, frag...)
		switch err {
		case nil:
			return line, nil
		case bufio.ErrBufferFull, io.EOF:
			// Read on; at the end of a gzip member, fill opens the next.
		default:
			return nil, r.streamErr(err)
		}
	}
}

// block reads the block of one record.
type block struct {
	r       *Reader
	off     int64 // offset of the record
	left    int64 // bytes of the block not yet read; -1 when unknown
	unknown bool  // no Content-Length: the block ends where the record does
	members int   // gzip members opened when the record started
	done    bool  // an unknown block has ended
	stale   bool  // Next has moved past this record
}

// Read reads from the block, returning io.EOF after Content-Length bytes.
func (b *block) Read(p []byte) (int, error) {
	switch {
	case b.stale:
		return 0, ErrStaleBody
	case b.r.err != nil:
		return 0, b.r.err
	case b.left == 0 || b.done:
		return 0, io.EOF
	case len(p) == 0:
		return 0, nil
	case b.unknown:
		return b.readUnknown(p)
	}
	members := b.r.members
	if err := b.r.fill(); err != nil {
		if err == io.EOF {
			err = &FormatError{Offset: b.off, Msg: fmt.Sprintf("input ends %d bytes before the end of the block", b.left), Err: ErrTruncated}
		}
		b.r.err = err
		return 0, err
	}
	if b.r.members != members {
		// The block goes on in the next gzip member. A record may be
		// split over members, but a member that starts a record means
		// that this record's Content-Length is too long: reading on
		// would swallow the next record.
		if p, _ := b.r.br.Peek(len("WARC/")); string(p) == "WARC/" {
			err := &FormatError{Offset: b.off, Msg: fmt.Sprintf(
				"block runs into the record of the gzip member at offset %d, %d bytes short of its Content-Length", b.r.member, b.left)}
			b.r.err, b.r.atStart = err, true
			return 0, err
		}
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	// fill buffered at least one byte, so this Read copies from the buffer
	// and cannot fail.
	n, _ := b.r.br.Read(p)
	b.left -= int64(n)
	return n, nil
}

// recordEnd is what ends a record in a plain file before the next one:
// the two line ends after the block (WARC/1.1 §4), then a version line.
var recordEnd = []byte("\r\n\r\nWARC/")

// readUnknown reads from a block of unknown length: in a gzip file up to
// the end of the record's member, in a plain file up to the record end
// before the next version line, or the end of the input.
func (b *block) readUnknown(p []byte) (int, error) {
	r := b.r
	if r.gz != nil && r.members != b.members {
		b.done = true
		return 0, io.EOF
	}
	// The block ends at the first record end followed by a version line,
	// or where the input (in a gzip file, the record's member) ends. Until
	// then, what may start one (the record end and 64 bytes, as
	// isVersionLine reads) is kept back.
	buf, err := r.br.Peek(bufSize)
	atEOF := err == io.EOF
	if err != nil && !atEOF {
		r.err = r.streamErr(err)
		return 0, r.err
	}
	end, found := 0, false
	for from := 0; !found; {
		i := bytes.Index(buf[from:], recordEnd)
		if i < 0 {
			break
		}
		i += from
		end, found = i, isVersionLine(buf[i+len("\r\n\r\n"):])
		from = i + 1
	}
	switch {
	case found:
	case atEOF:
		end = len(bytes.TrimSuffix(buf, recordEnd[:4])) // the last record's end
	default: // a full buffer
		end = len(buf) - len(recordEnd) - 64
	}
	if end == 0 {
		b.done = true
		return 0, io.EOF
	}
	n := copy(p, buf[:end])
	r.br.Discard(n)
	return n, nil
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

// Read reads from the underlying reader and counts.
func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// validVersion reports whether s is a version line "WARC/<digits>.<digits>".
func validVersion(s string) bool {
	v, ok := strings.CutPrefix(s, "WARC/")
	if !ok {
		return false
	}
	major, minor, ok := strings.Cut(v, ".")
	return ok && isDigits(major) && isDigits(minor)
}

// isDigits reports whether s is one or more ASCII digits.
func isDigits(s string) bool {
	return s != "" && strings.TrimLeft(s, "0123456789") == ""
}

// trimEOL returns line without its trailing LF or CRLF.
func trimEOL(line []byte) string {
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	return string(line)
}

// clip shortens s for an error message.
func clip(s string) string {
	const max = 40
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}
