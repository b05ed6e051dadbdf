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
	"github.com/linkrot/relink/repair"
)

// journal is fix's -state file: a JSON Lines file of the results of the
// dead links done, one appended and synced to disk as each is done, so
// that a run killed at any moment can be run again and skip them. It is
// itself a results file (repair.ReadResults reads it). It is safe for
// concurrent use.
type journal struct {
	mu   sync.Mutex
	f    *os.File
	path string
}

// journalLineStart is how every line of a journal starts: a result's
// first field (repair.Result's JSON form).
const journalLineStart = `{"dead":`

// openJournal opens (or creates) the journal at path and returns the
// results it holds, by stateKey of their dead URL. A last line cut short
// (a run killed while writing it) is dropped from the file; any other line
// that is not a result makes the file no journal, an error, and leaves it
// as it was.
func openJournal(path string) (*journal, map[string]repair.Result, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("-state: %w", err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("-state %s: %w", path, err)
	}
	done := map[string]repair.Result{}
	whole := bytes.LastIndexByte(data, '\n') + 1
	for n, line := range bytes.Split(data[:whole], []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r repair.Result
		if err := json.Unmarshal(line, &r); err != nil || r.Dead == "" {
			f.Close()
			if err == nil {
				err = errors.New("no dead URL")
			}
			return nil, nil, fmt.Errorf("-state %s, line %d: not a relink fix journal: %v", path, n+1, err)
		}
		done[stateKey(r.Dead)] = r
	}
	if whole < len(data) {
		// Only what add writes is dropped: any other file is no journal,
		// and is left as it is.
		if !bytes.HasPrefix(data[whole:], []byte(journalLineStart)) && !bytes.HasPrefix([]byte(journalLineStart), data[whole:]) {
			f.Close()
			return nil, nil, fmt.Errorf("-state %s, line %d: not a relink fix journal", path, bytes.Count(data, []byte("\n"))+1)
		}
		if err := f.Truncate(int64(whole)); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("-state %s: %w", path, err)
		}
	}
	if _, err := f.Seek(int64(whole), io.SeekStart); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("-state %s: %w", path, err)
	}
	return &journal{f: f, path: path}, done, nil
}

// add appends r and syncs the file.
func (j *journal) add(r repair.Result) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if _, err := j.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("-state %s: %w", j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("-state %s: %w", j.path, err)
	}
	return nil
}

func (j *journal) close() error {
	if j == nil {
		return nil
	}
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
