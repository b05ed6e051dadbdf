package ingest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
)

// Resuming an ingest of WARC and WAT files goes by their content, not
// their names. A file's progress is recorded in the sources table under
// "warc:" or "wat:" and its path, with the part of the file it was read
// from: "next N H" while the records of the file's first N bytes, whose
// SHA-256 digest is H (hex), are being written, "done N H" once the whole
// file, N bytes, is. A WAT file's row adds the index of the first record
// not finished ("next N H R", "done N H R"); a WARC file's records have
// rows of their own ("warc:PATH#I"). Stores written before the digest was
// recorded hold "done" alone for a WARC file and "next R" or "done R" for
// a WAT file.
const (
	ProgressNext = "next"
	ProgressDone = "done"
)

// fileState is what an earlier ingest left of a WARC or WAT file.
type fileState int

const (
	fileNew       fileState = iota // no earlier ingest read it, or one that recorded no digest
	fileUnchanged                  // done, and the file is the same: pass it over
	fileSame                       // partly read, and that part is the same: resume
	fileGrown                      // done, and bytes were added since: resume
	fileReplaced                   // the part read before is not the same: read it all anew
)

// checkProgress compares the file at path, of size bytes, with the progress
// row an earlier ingest recorded for it ("" for none). rest is what the row
// holds after the digest: "" for a WARC file, the record index for a WAT
// file. A row without a digest is fileNew, its rest "".
func checkProgress(path string, size int64, row string) (state fileState, rest string, err error) {
	kind, row, _ := strings.Cut(row, " ")
	n, row, _ := strings.Cut(row, " ")
	digest, rest, _ := strings.Cut(row, " ")
	read, err := strconv.ParseInt(n, 10, 64)
	if err != nil || (kind != ProgressNext && kind != ProgressDone) || digest == "" {
		return fileNew, "", nil // none recorded, or none with a digest
	}
	if read > size {
		return fileReplaced, rest, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.CopyN(h, f, read); err != nil {
		return 0, "", fmt.Errorf("%s: %w", path, err)
	}
	switch {
	case hex.EncodeToString(h.Sum(nil)) != digest:
		return fileReplaced, rest, nil
	case kind == ProgressDone && read == size:
		return fileUnchanged, rest, nil
	case kind == ProgressDone:
		return fileGrown, rest, nil // a download completed
	}
	return fileSame, rest, nil
}

// countingReader counts the bytes read through it in n, and when h is not
// nil adds them to h and counts them in off too.
type countingReader struct {
	r   io.Reader
	n   *atomic.Int64
	h   hash.Hash
	off int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	if c.h != nil {
		c.h.Write(p[:n])
		c.off += int64(n)
	}
	return n, err
}

// position returns the part of the file read so far as a progress row
// records it: "N H", its size in bytes and the hex SHA-256 digest of its
// bytes. c.h must be a SHA-256 hash.
func (c *countingReader) position() string {
	return strconv.FormatInt(c.off, 10) + " " + hex.EncodeToString(c.h.Sum(nil))
}
