package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/linkrot/relink/internal/atomicfile"

	"github.com/linkrot/relink/repair"
)

// readDecisions reads a -decisions file (repair.Decisions, which relink
// review writes) and returns its accepted repairs, dead URL to new URI:
// each accepted decision rewrites dead to uri, the URI chosen (the
// verdict's, or another candidate); a rejected one, and a dead link
// without a decision, is left alone. A later decision about the same dead
// URL replaces an earlier one. An accepted decision whose URLs are not
// web URLs makes the file unusable.
func readDecisions(path string) (map[string]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("-decisions: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("-decisions %s: not a decisions file (a regular file)", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("-decisions: %w", err)
	}
	defer f.Close()
	df, err := repair.ReadDecisions(f)
	if err != nil {
		return nil, fmt.Errorf("-decisions %s: not a decisions file: %w", path, err)
	}
	for i, d := range df.Decisions {
		if d.Decision != repair.Accept {
			continue
		}
		if _, err := webTarget("dead", d.Dead); err != nil {
			return nil, fmt.Errorf("-decisions %s: decision %d: %w", path, i+1, err)
		}
		if _, err := webTarget("uri", d.URI); err != nil {
			return nil, fmt.Errorf("-decisions %s: decision %d: %w", path, i+1, err)
		}
	}
	return df.Accepted(), nil
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
	sum := rep.Summary()
	did := "would replace"
	if c.write {
		did = "replaced"
	}
	fmt.Fprintf(e.stderr, "relink fix: -rewrite %s: %s %d links in %d of %d files (%d links left alone, to edit by hand)",
		c.rewrite, did, sum.Links, sum.Files, sum.Scanned, sum.LinksLeft)
	if n := len(sum.LeftAlone); n > 0 {
		fmt.Fprintf(e.stderr, "; %d files left alone:", n)
	}
	fmt.Fprintln(e.stderr)
	for _, f := range sum.LeftAlone {
		fmt.Fprintf(e.stderr, "relink fix: -rewrite %s: left alone %s: %s\n", c.rewrite, f.Path, f.Why)
	}
	if c.rewriteJSON != "" {
		write := func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(struct {
				Written bool `json:"written"`
				repair.Summary
			}{c.write, sum})
		}
		if err := atomicfile.Write(c.rewriteJSON, 0o644, write); err != nil {
			return fmt.Errorf("-rewrite-json %s: %w", c.rewriteJSON, err)
		}
	}
	if err := rep.Err(); err != nil {
		return fmt.Errorf("-rewrite %s: %w", c.rewrite, err)
	}
	return nil
}
