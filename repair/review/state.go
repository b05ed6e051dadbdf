package review

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/linkrot/relink/internal/atomicfile"
	"github.com/linkrot/relink/repair"
)

// state is the decisions of a review: for each dead URL of the results
// at most one, and the decisions of the state file about other dead URLs,
// kept as they were. It is not safe for concurrent use: Server holds its
// lock around it.
type state struct {
	path  string                     // the decisions file, or "" for none
	dead  []string                   // the results' dead URLs, in input order, once each
	by    map[string]repair.Decision // decisions about dead URLs of the results
	other []repair.Decision          // decisions about other dead URLs, in file order
}

// loadState reads the decisions file at path, if it exists, for the
// results: their decisions are taken (a later one about the same dead URL
// replaces an earlier one) and the others kept. An empty path keeps
// decisions in memory only.
func loadState(path string, results []repair.Result) (*state, error) {
	s := &state{path: path, by: map[string]repair.Decision{}}
	known := map[string]bool{}
	for _, r := range results {
		if !known[r.Dead] {
			known[r.Dead] = true
			s.dead = append(s.dead, r.Dead)
		}
	}
	if path == "" {
		return s, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("state %s: not a regular file", path)
	}
	d, err := repair.ReadDecisions(f)
	if err != nil {
		return nil, fmt.Errorf("state %s: %w", path, err)
	}
	for _, x := range d.Decisions {
		if known[x.Dead] {
			s.by[x.Dead] = x
			continue
		}
		s.other = append(s.other, x)
	}
	return s, nil
}

// decisions returns every decision, those of the results in their order
// first, then the others.
func (s *state) decisions() *repair.Decisions {
	d := &repair.Decisions{Decisions: []repair.Decision{}}
	for _, dead := range s.dead {
		if x, ok := s.by[dead]; ok {
			d.Decisions = append(d.Decisions, x)
		}
	}
	d.Decisions = append(d.Decisions, s.other...)
	return d
}

// set records x (or, when clear, removes the decision about dead) and
// writes the file. When the write fails the decision is undone and the
// error returned: what the page shows is what the file holds.
func (s *state) set(dead string, x repair.Decision, clear bool) error {
	old, had := s.by[dead]
	if clear {
		delete(s.by, dead)
	} else {
		s.by[dead] = x
	}
	if err := s.save(); err != nil {
		delete(s.by, dead)
		if had {
			s.by[dead] = old
		}
		return err
	}
	return nil
}

// save writes the decisions file whole (a temporary file renamed over
// it, keeping its mode, owner and group; through a symbolic link, its
// target), or nothing without a path.
func (s *state) save() error {
	if s.path == "" {
		return nil
	}
	d := s.decisions()
	return atomicfile.Write(s.path, 0o644, func(w io.Writer) error { return d.Write(w) })
}
