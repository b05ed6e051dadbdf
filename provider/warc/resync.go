package warc

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
)

// Resync moves the Reader past a malformed record, so that one bad record
// or gzip member does not cost the records after it. Call it after Next
// failed with a *FormatError; the next Next then reads the record Resync
// found. It returns that record's offset (in a gzip file, its member's),
// or io.EOF when no record follows.
//
// In a gzip file Resync looks, from where decompression stopped, for the
// next gzip member whose data starts with "WARC/", as one member per record
// (WARC/1.1 Annex D) gives; when the failed record's block ran into such a
// member, reading resumes at that member. In a plain file it looks for the
// next line that is a WARC version line (WARC/<n>.<n>). A record found this
// way may be one held inside the bad record's block (a WARC file archived
// in a WARC file): a skipped stretch cannot be read more surely than that.
//
// The records between the failure and the offset returned are lost; the
// caller records the *FormatError (with its Offset) as their rejection.
// An error of the input itself, rather than a *FormatError, cannot be
// skipped: Resync returns it, and so does Next. Without a failure of
// Next, Resync does nothing and returns the offset of the next unread
// byte (of the current gzip member).
func (r *Reader) Resync() (int64, error) {
	var fe *FormatError
	switch {
	case r.err == nil:
		return r.pos(), nil
	case r.err == io.EOF:
		return 0, io.EOF
	case !errors.As(r.err, &fe):
		return 0, r.err
	}
	if r.body != nil {
		r.body.stale = true
		r.body = nil
	}
	if r.atStart {
		r.err, r.atStart = nil, false
		return r.member, nil
	}
	var err error
	if r.gz != nil {
		err = r.resyncGzip()
	} else {
		err = r.resyncPlain(fe.Offset)
	}
	if err != nil {
		if err != io.EOF {
			r.err = err
		}
		return 0, err
	}
	r.err = nil
	return r.pos(), nil
}

// resyncGzip positions the input at the next gzip member that starts with a
// record and opens it.
func (r *Reader) resyncGzip() error {
	if err := r.seek(gzipMagic, startsRecord); err != nil {
		return err
	}
	return r.nextMember()
}

// gzipMagic starts every gzip member WARC writers make: the magic number and
// the deflate method (RFC 1952 §2.3.1).
var gzipMagic = []byte{0x1f, 0x8b, 0x08}

// startsRecord reports whether p starts with a gzip member whose data
// starts with "WARC/".
func startsRecord(p []byte) bool {
	zr, err := gzip.NewReader(bytes.NewReader(p))
	if err != nil {
		return false
	}
	var head [len("WARC/")]byte
	_, err = io.ReadFull(zr, head[:])
	return err == nil && string(head[:]) == "WARC/"
}

// versionMark is what precedes a record in a plain file: the end of a line
// and the start of a version line.
var versionMark = []byte("\nWARC/")

// resyncPlain positions the input at the next WARC version line after the
// record at failed.
func (r *Reader) resyncPlain(failed int64) error {
	if p, _ := r.src.Peek(64); r.pos() > failed && isVersionLine(p) {
		return nil // the failure left the input at the next record
	}
	if _, err := r.src.Discard(1); err != nil {
		return err
	}
	if err := r.seek(versionMark, func(p []byte) bool { return isVersionLine(p[1:]) }); err != nil {
		return err
	}
	_, err := r.src.Discard(1) // the line end
	return err
}

// isVersionLine reports whether p starts with a WARC version line.
func isVersionLine(p []byte) bool {
	line, _, ok := bytes.Cut(p[:min(len(p), 64)], []byte("\n"))
	return ok && validVersion(string(bytes.TrimSuffix(line, []byte("\r"))))
}

// seek discards the input up to the next place that starts with mark and
// where ok, given the buffered input from there (up to bufSize bytes),
// reports that reading can go on. It returns io.EOF when there is none.
func (r *Reader) seek(mark []byte, ok func([]byte) bool) error {
	for {
		buf, err := r.src.Peek(bufSize)
		switch i := bytes.Index(buf, mark); {
		case i > 0:
			r.src.Discard(i) // the candidate to the front, with a full buffer after it
			continue
		case i == 0 && ok(buf):
			return nil
		case i == 0:
			r.src.Discard(1)
			continue
		}
		if err != nil {
			if err == io.EOF {
				r.src.Discard(len(buf))
			}
			return err
		}
		// Keep the bytes that may begin a mark cut by the buffer's end.
		r.src.Discard(len(buf) - len(mark) + 1)
	}
}
