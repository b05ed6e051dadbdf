package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/linkrot/relink/repair"
)

// decisionsFile is the form of fix -decisions: the repairs a person
// reviewed (relink review writes it). Each accepted decision rewrites
// Dead to URI, the URI chosen (the verdict's, or another candidate);
// a rejected one, and a dead link without a decision, is left alone.
type decisionsFile struct {
	Decisions []decision `json:"decisions"`
}

type decision struct {
	Dead     string `json:"dead"`
	URI      string `json:"uri"`
	Decision string `json:"decision"` // accept or reject
}

// maxDecisionsFile bounds the size of a -decisions file.
const maxDecisionsFile = 64 << 20

// readDecisions reads a -decisions file and returns its accepted repairs,
// dead URL to new URI. A later decision about the same dead URL replaces
// an earlier one.
func readDecisions(path string) (map[string]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("-decisions: %w", err)
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxDecisionsFile {
		return nil, fmt.Errorf("-decisions %s: not a decisions file (a regular file of at most %d MB)", path, maxDecisionsFile>>20)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-decisions: %w", err)
	}
	var df decisionsFile
	if err := json.Unmarshal(data, &df); err != nil {
		return nil, fmt.Errorf("-decisions %s: not a decisions file: %w", path, err)
	}
	accepted := map[string]string{}
	for i, d := range df.Decisions {
		switch d.Decision {
		case "accept":
			if _, err := webTarget("dead", d.Dead); err != nil {
				return nil, fmt.Errorf("-decisions %s: decision %d: %w", path, i+1, err)
			}
			if _, err := webTarget("uri", d.URI); err != nil {
				return nil, fmt.Errorf("-decisions %s: decision %d: %w", path, i+1, err)
			}
			accepted[d.Dead] = d.URI
		case "reject":
			delete(accepted, d.Dead)
		default:
			return nil, fmt.Errorf("-decisions %s: decision %d: %q is neither accept nor reject", path, i+1, d.Decision)
		}
	}
	return accepted, nil
}

// rewrite replaces the dead links of the files under -rewrite: the moves
// of results at the threshold, or the accepted decisions when there are
// any. It writes a diff to stdout, or with -write the files, and a line
// on stderr that says what changed.
func rewrite(e *env, c *fixConfig, results []repair.Result, decisions map[string]string) error {
	moves := repair.Moves(results, c.threshold)
	if decisions != nil {
		moves = decisions
	}
	rw := &repair.Rewriter{Moves: moves, Base: c.base, Write: c.write}
	if !c.write {
		rw.Diff = e.stdout
	}
	rep, err := rw.Dir(c.rewrite)
	if err != nil {
		return fmt.Errorf("-rewrite %s: %w", c.rewrite, err)
	}
	files, skipped := 0, 0
	for _, f := range rep.Files {
		changed := false
		for _, ch := range f.Changes {
			if ch.Skip == "" {
				changed = true
			} else {
				skipped++
			}
		}
		if changed {
			files++
		}
	}
	did := "would replace"
	if c.write {
		did = "replaced"
	}
	fmt.Fprintf(e.stderr, "relink fix: -rewrite %s: %s %d links in %d of %d files (%d left alone, to edit by hand)\n",
		c.rewrite, did, rep.Changed(), files, rep.Scanned, skipped)
	if err := rep.Err(); err != nil {
		return fmt.Errorf("-rewrite %s: %w", c.rewrite, err)
	}
	return nil
}
