package warc

import (
	"bufio"
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
	for {
		buf, err := r.src.Peek(bufSize)
		i := bytes.Index(buf, gzipMagic)
		switch {
		case i > 0:
			r.src.Discard(i) // bring the candidate to the front, with a full buffer after it
			continue
		case i == 0 && startsRecord(buf):
			return r.nextMember()
		case i == 0:
			r.src.Discard(1)
			continue
		}
		if err != nil && err != bufio.ErrBufferFull {
			if err == io.EOF {
				r.src.Discard(len(buf))
			}
			return err
		}
		// Keep the bytes that may begin a magic number cut by the buffer's end.
		r.src.Discard(len(buf) - len(gzipMagic) + 1)
	}
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

// resyncPlain positions the input at the next WARC version line after the
// record at failed.
func (r *Reader) resyncPlain(failed int64) error {
	if r.pos() > failed && r.atVersionLine() {
		return nil // the failure left the input at the next record
	}
	if _, err := r.src.Discard(1); err != nil {
		return err
	}
	const mark = "\nWARC/"
	for {
		buf, err := r.src.Peek(bufSize)
		i := bytes.Index(buf, []byte(mark))
		if i >= 0 {
			r.src.Discard(i + 1)
			if r.atVersionLine() {
				return nil
			}
			continue
		}
		if err != nil && err != bufio.ErrBufferFull {
			if err == io.EOF {
				r.src.Discard(len(buf))
			}
			return err
		}
		r.src.Discard(len(buf) - len(mark) + 1)
	}
}

// atVersionLine reports whether the input continues with a WARC version
// line.
func (r *Reader) atVersionLine() bool {
	p, _ := r.src.Peek(64)
	line, _, ok := bytes.Cut(p, []byte("\n"))
	return ok && validVersion(string(bytes.TrimSuffix(line, []byte("\r"))))
}
