package ingest

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/linkrot/relink/provider/commoncrawl"
	"github.com/linkrot/relink/provider/corpus"
)

// WATInputs returns the absolute paths of the named WAT files and their
// total size; a file that cannot be found is an error.
func WATInputs(paths []string) ([]string, corpus.Progress, error) {
	var total corpus.Progress
	abs := make([]string, len(paths))
	for i, p := range paths {
		var err error
		if abs[i], err = filepath.Abs(p); err != nil {
			return nil, total, fmt.Errorf("store: ingest WAT: %w", err)
		}
		fi, err := os.Stat(abs[i])
		if err != nil {
			return nil, total, fmt.Errorf("store: ingest WAT: %w", err)
		}
		total.TotalBytes += fi.Size()
	}
	return abs, total, nil
}

// WATItem is one record of a WAT file on its way to the writer: a Page or
// a Skip, or (End) the end of the File, when Record is the index of the
// first record not finished. At is the part of the file read after it,
// as a progress row records it ("N H": its size and SHA-256 digest).
type WATItem struct {
	File   string
	Record int
	Page   *commoncrawl.Page
	Skip   *commoncrawl.SkipError
	End    bool
	At     string
	// Retry says that an earlier ingest may have recorded the record as
	// malformed: the record replaces what it recorded.
	Retry bool
}

// After returns the index of the first record not finished once it is
// written: the next one, or it again when it could not be read (a
// download cut there may have been completed by the next ingest).
func (it *WATItem) After() int {
	if it.Skip != nil && it.Skip.Reason == commoncrawl.ReasonBadRecord {
		return it.Record
	}
	return it.Record + 1
}

// watResume says where to read the WAT file at path, of size bytes, given
// the progress row an earlier ingest recorded for it ("" for none): from
// is the first record to parse and records before retry may have been
// recorded as malformed. A row without a digest, from a store written
// before digests were recorded, is trusted as IngestWARC trusts such a
// file's records: the file is read on from its first record not finished.
func watResume(path string, size int64, row string) (state fileState, from, retry int, err error) {
	if row == "" {
		return fileNew, 0, 0, nil
	}
	state, rest, err := checkProgress(path, size, row)
	if err != nil {
		return 0, 0, 0, err
	}
	if state == fileNew {
		kind, n, _ := strings.Cut(row, " ")
		if kind != ProgressNext && kind != ProgressDone {
			n = "" // unknown
		}
		rest = n
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 0 {
		return 0, 0, 0, fmt.Errorf("%s: unknown progress %q", path, row)
	}
	if state == fileReplaced {
		return state, 0, n + 1, nil
	}
	return state, n, n + 1, nil
}

// ProduceWAT reads the files in order and sends their pages and skipped
// records, then an end item per file, counting in ps what it passes over
// and the files that changed. A file an earlier ingest finished and that
// is unchanged is passed over; one it began, or that grew since, is read
// from the first record it did not finish; one replaced since is read
// anew.
func ProduceWAT(ctx context.Context, paths []string, maxRecord int64, items chan<- WATItem, ps *State) error {
	send := func(it WATItem) bool {
		select {
		case items <- it:
			return true
		case <-ctx.Done():
			return false
		}
	}
	seen := map[string]bool{}
	for _, path := range paths {
		if seen[path] {
			continue
		}
		seen[path] = true
		fi, err := os.Stat(path)
		if err != nil {
			return fmt.Errorf("store: ingest WAT: %w", err)
		}
		state, from, retry, err := watResume(path, fi.Size(), ps.Prior[path])
		switch {
		case err != nil:
			return fmt.Errorf("store: ingest WAT: %w", err)
		case state == fileUnchanged:
			ps.Read.Add(fi.Size())
			ps.Resumed.Add(int64(from))
			continue
		case state == fileGrown || state == fileReplaced:
			ps.Changed.Add(1)
		}
		ps.Resumed.Add(int64(from))
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("store: ingest WAT: %w", err)
		}
		cr := &countingReader{r: f, n: &ps.Read, h: sha256.New()}
		stopped := false
		end := from // the first record not finished
		sendRecord := func(it WATItem) {
			it.File, it.At, it.Retry = path, cr.position(), it.Record < retry
			end = it.After()
			stopped = stopped || !send(it)
		}
		r, err := commoncrawl.NewReader(cr, &commoncrawl.Options{
			MaxRecordBytes: maxRecord,
			From:           from,
			OnSkip: func(se *commoncrawl.SkipError) {
				sendRecord(WATItem{Record: se.Record, Skip: se})
			},
		})
		if err != nil {
			f.Close()
			return fmt.Errorf("store: ingest WAT %s: %w", path, err)
		}
		var readErr error
		for !stopped {
			p, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				// A broken stream ends the file (OnSkip has sent it); an
				// error of the file itself ends the ingest.
				var se *commoncrawl.SkipError
				if !errors.As(err, &se) {
					readErr = fmt.Errorf("store: ingest WAT %s: %w", path, err)
				}
				break
			}
			sendRecord(WATItem{Record: p.Record, Page: p})
		}
		if !stopped && readErr == nil {
			if _, err := io.Copy(io.Discard, cr); err != nil { // the rest of the digest
				readErr = fmt.Errorf("store: ingest WAT %s: %w", path, err)
			}
		}
		f.Close()
		if stopped {
			return ctx.Err()
		}
		if readErr != nil {
			return readErr
		}
		if !send(WATItem{File: path, Record: end, End: true, At: cr.position()}) {
			return ctx.Err()
		}
	}
	return nil
}
