package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/internal/filelock"
	"github.com/linkrot/relink/repair"
)

// journal is fix's -state file: a JSON Lines file of the results of the
// dead links done, one appended and synced to disk as each is done, so
// that a run killed at any moment can be run again and skip them. It is
// itself a results file (repair.ReadResults reads it). One run writes it
// at a time: the open file holds an exclusive lock (internal/filelock)
// until it is closed, and every write appends (O_APPEND), so that what
// another program added meanwhile is never overwritten. It is safe for
// concurrent use.
type journal struct {
	mu   sync.Mutex
	f    *os.File
	path string
	// newline is set while the file ends in a line not ended (a foreign
	// one): the first add ends it first.
	newline bool
}

// journalLineStart is how every line of a journal starts: a result's
// first field (repair.Result's JSON form).
const journalLineStart = `{"dead":`

// Errors of openJournal.
var (
	// errJournalLocked is the error of a journal another run holds.
	errJournalLocked = errors.New("another relink fix is writing this journal (one run a -state file at a time)")
	// errNotJournal is the error of a file that holds lines but no
	// result: not a journal, left as it is.
	errNotJournal = errors.New("not a relink fix journal")
)

// journalContents is what readJournal finds in a journal.
type journalContents struct {
	// done holds the results, by stateKey of their dead URL; a later line
	// of one dead URL replaces an earlier one.
	done map[string]repair.Result
	// skipped counts the lines that are not results: torn by a crash or
	// by another writer, or written by someone else; first is the number
	// of the first of them.
	skipped, first int
	// keep is how many bytes of the file to keep: all but a last line cut
	// short while a result was written (a run killed while writing it).
	keep int64
	// open is set when the kept bytes end in a line not ended (one that is
	// no cut result).
	open bool
}

// readJournal reads a journal's bytes. It never fails on a file that
// holds a result or nothing: the lines that are not results are counted
// and skipped. A file with lines but no result is errNotJournal.
func readJournal(data []byte) (journalContents, error) {
	c := journalContents{done: map[string]repair.Result{}, keep: int64(len(data))}
	whole := bytes.LastIndexByte(data, '\n') + 1
	if tail := data[whole:]; len(bytes.TrimSpace(tail)) > 0 {
		if bytes.HasPrefix(tail, []byte(journalLineStart)) || bytes.HasPrefix([]byte(journalLineStart), tail) {
			c.keep = int64(whole) // a result cut short: dropped
		} else {
			c.open = true
		}
	}
	lines := 0
	for n, line := range bytes.Split(data[:c.keep], []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		lines++
		var r repair.Result
		if err := json.Unmarshal(line, &r); err != nil || r.Dead == "" {
			if c.skipped == 0 {
				c.first = n + 1
			}
			c.skipped++
			continue
		}
		c.done[stateKey(r.Dead)] = r
	}
	if lines > 0 && len(c.done) == 0 {
		return c, errNotJournal
	}
	return c, nil
}

// openJournal opens (or creates) the journal at path, locks it, and
// returns the results it holds, by stateKey of their dead URL. A last line
// cut short (a run killed while writing it) is dropped from the file;
// other lines that are not results are skipped, and warn, when not nil,
// gets one line that says how many. A file that holds lines but no result
// is no journal: an error, and the file is left as it was; so is a journal
// another run holds (errJournalLocked), and anything but a regular file
// (a FIFO would block the run).
func openJournal(path string, warn io.Writer) (*journal, map[string]repair.Result, error) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("-state %s: not a regular file", path)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("-state: %w", err)
	}
	fail := func(err error) (*journal, map[string]repair.Result, error) {
		f.Close()
		return nil, nil, fmt.Errorf("-state %s: %w", path, err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		// Replaced by a FIFO since the Stat above: reading would block.
		return fail(errors.New("not a regular file"))
	}
	if err := filelock.TryLock(f); errors.Is(err, filelock.ErrHeld) {
		return fail(errJournalLocked)
	} else if err != nil {
		return fail(err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return fail(err)
	}
	c, err := readJournal(data)
	if err != nil {
		return fail(err)
	}
	if c.keep < int64(len(data)) {
		if err := f.Truncate(c.keep); err != nil {
			return fail(err)
		}
	}
	if c.skipped > 0 && warn != nil {
		fmt.Fprintf(warn, "relink fix: -state %s: skipped %d lines that are no result (torn or foreign; the first is line %d)\n", path, c.skipped, c.first)
	}
	return &journal{f: f, path: path, newline: c.open}, c.done, nil
}

// add appends r and syncs the file.
func (j *journal) add(r repair.Result) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.newline {
		b = append([]byte{'\n'}, b...)
	}
	// One write of the whole line: with O_APPEND it lands at the end of
	// the file as one piece.
	if _, err := j.f.Write(b); err != nil {
		return fmt.Errorf("-state %s: %w", j.path, err)
	}
	j.newline = false
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("-state %s: %w", j.path, err)
	}
	return nil
}

// close releases the lock and closes the file.
func (j *journal) close() error {
	if j == nil {
		return nil
	}
	filelock.Unlock(j.f)
	if err := j.f.Close(); err != nil {
		return fmt.Errorf("-state %s: %w", j.path, err)
	}
	return nil
}

// stateKey is the key of a dead URL in the journal: its canonical form,
// as repair.ReadInput merges spellings, or the URL itself.
func stateKey(dead string) string {
	if c, err := canon.Canonicalize(dead); err == nil {
		return c
	}
	return dead
}
