package fixbench

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/lab/draw"
	"github.com/linkrot/relink/provider/store"
)

// Target is one dead link of the benchmark.
type Target struct {
	// Dead is the URI that answers 404: the page's old URI.
	Dead string `json:"dead"`
	// Moved is the page's new URI in the moved mode, "" for a deleted page.
	Moved string `json:"moved,omitempty"`
	// Sources are the pages of the current web that link to Dead, in the
	// store's backlink rank.
	Sources []string `json:"sources"`
}

// Deleted reports whether the page was deleted (has no new home).
func (t Target) Deleted() bool { return t.Moved == "" }

// plan is the benchmark's dead links and the web they are dead on.
type plan struct {
	targets []Target
	// web is the path of the current web: a copy of the moved-mode store
	// with the deleted pages marked missing.
	web string
	// pages is the number of pages of the current web (|D| for -df
	// search).
	pages int64
	// orderMismatch counts the dead links whose first ten report sources
	// are not the store's first ten backlinks.
	orderMismatch int
	// noSources counts the drawn pages left out for want of a live page
	// that links to them.
	noSources int
}

// prepare draws the targets from before, checks that after publishes each
// at its moved URI, draws the deleted pages, copies after into dir with
// them marked missing, and lists every dead link's sources.
func prepare(ctx context.Context, cfg *Config, before *store.Store) (*plan, error) {
	moved, _, err := draw.Targets(ctx, before, cfg.Targets, cfg.Seed)
	if err != nil {
		return nil, err
	}
	after, err := store.Open(cfg.After, &store.Options{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("moved-mode store: %w", err)
	}
	isMoved := map[string]bool{}
	linksToMoved := map[string]bool{}
	for _, t := range moved {
		isMoved[t.URI] = true
		if _, err := after.PageInfo(ctx, draw.MovedURI(t.URI)); err != nil {
			after.Close()
			return nil, fmt.Errorf("the moved-mode store %s does not publish %s at %s (built with another seed or target count?): %w",
				cfg.After, t.URI, draw.MovedURI(t.URI), err)
		}
		bl, err := after.Backlinks(ctx, t.URI, 0)
		if err != nil {
			after.Close()
			return nil, err
		}
		for _, b := range bl {
			linksToMoved[canonOr(b.URI)] = true
		}
	}
	after.Close()
	// Deleted pages: as many again, from the pages that are no target
	// and no backlink page of one, so that the moved targets keep every
	// backlink page they had in the experiment.
	deleted, _, err := draw.TargetsOf(ctx, before, cfg.deleted(), cfg.Seed, func(p store.PageInfo) bool {
		return !isMoved[p.URI] && !linksToMoved[p.URI]
	})
	if err != nil && !errors.Is(err, draw.ErrNoCandidates) {
		return nil, err
	}
	web := filepath.Join(cfg.Dir, "web.db")
	if err := copyFile(cfg.After, web); err != nil {
		return nil, err
	}
	var gone []string
	for _, t := range deleted {
		gone = append(gone, t.URI)
	}
	if err := markMissing(ctx, web, gone); err != nil {
		return nil, err
	}
	ws, err := store.Open(web, &store.Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	p := &plan{web: web}
	if tot, err := ws.Totals(ctx); err == nil {
		p.pages = int64(tot.Pages)
	}
	add := func(uri, movedTo string) error {
		bl, err := ws.Backlinks(ctx, uri, 0)
		if err != nil {
			return err
		}
		t := Target{Dead: uri, Moved: movedTo}
		for _, b := range bl {
			t.Sources = append(t.Sources, b.URI)
		}
		if len(t.Sources) == 0 {
			p.noSources++
			return nil
		}
		p.targets = append(p.targets, t)
		return nil
	}
	for _, t := range moved {
		if err := add(t.URI, draw.MovedURI(t.URI)); err != nil {
			return nil, err
		}
	}
	for _, t := range deleted {
		if err := add(t.URI, ""); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// markMissing records uris as missing in the store at path (a copy).
func markMissing(ctx context.Context, path string, uris []string) error {
	s, err := store.Open(path, nil)
	if err != nil {
		return err
	}
	if err := s.MarkMissing(ctx, uris...); err != nil {
		s.Close()
		return err
	}
	return s.Close()
}

// copyFile copies the file src to dst, which it creates or truncates.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// canonOr returns the canonical form of u, or u when it has none.
func canonOr(u string) string {
	if c, err := canon.Canonicalize(u); err == nil {
		return c
	}
	return u
}

// lycheeEntry is one failed link of a lychee report (lychee 0.16's form).
type lycheeEntry struct {
	URL    string       `json:"url"`
	Status lycheeStatus `json:"status"`
}

type lycheeStatus struct {
	Text string `json:"text"`
	Code int    `json:"code"`
}

// writeReport writes the lychee JSON report of targets to path: fail_map
// from each source page to the dead URLs it links to. Sources are in the
// store's backlink rank (in-degree, then URI, read from rank), so that each
// dead link's sources, in document order, are its backlinks in rank
// order; it returns how many dead links' first ten differ from that
// (none, when the rank is the page-level key the store documents).
func writeReport(path string, targets []Target, rank func(string) int) (int, error) {
	bySource := map[string][]lycheeEntry{}
	for _, t := range targets {
		for _, s := range t.Sources {
			bySource[s] = append(bySource[s], lycheeEntry{URL: t.Dead, Status: lycheeStatus{Text: "Not Found", Code: 404}})
		}
	}
	sources := make([]string, 0, len(bySource))
	for s := range bySource {
		sources = append(sources, s)
	}
	order := func(a, b string) int { return cmp.Or(cmp.Compare(rank(b), rank(a)), cmp.Compare(a, b)) }
	slices.SortFunc(sources, order)
	mismatch := 0
	for _, t := range targets {
		sorted := slices.SortedFunc(slices.Values(t.Sources), order)
		if !slices.Equal(sorted[:min(10, len(sorted))], t.Sources[:min(10, len(t.Sources))]) {
			mismatch++
		}
	}
	// The map by hand: encoding/json would sort the sources by name.
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\"total\": %d, \"successful\": 0, \"errors\": %d, \"fail_map\": {", len(targets), len(targets))
	for i, s := range sources {
		k, _ := json.Marshal(s)
		v, _ := json.Marshal(bySource[s])
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(&b, "%s\n  %s: %s", sep, k, v)
	}
	b.WriteString("\n}}\n")
	return mismatch, os.WriteFile(path, b.Bytes(), 0o644)
}

// WriteReport writes the lychee report of the moved targets alone to
// path: the Targets pages drawn with Seed from the store at Before, each
// dead at its old URI in the store at After, with its backlink pages
// there as sources (in rank order). It returns the targets. It is the
// input of a repair run with the moved-mode store as the web (relink fix
// -store After), as lab/scripts/experiment.sh makes one.
func WriteReport(ctx context.Context, cfg Config, path string) ([]Target, error) {
	before, err := store.Open(cfg.Before, &store.Options{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("pre-move store: %w", err)
	}
	defer before.Close()
	drawn, _, err := draw.Targets(ctx, before, cfg.Targets, cfg.Seed)
	if err != nil {
		return nil, err
	}
	after, err := store.Open(cfg.After, &store.Options{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("moved-mode store: %w", err)
	}
	defer after.Close()
	var targets []Target
	for _, d := range drawn {
		t := Target{Dead: d.URI, Moved: draw.MovedURI(d.URI)}
		bl, err := after.Backlinks(ctx, d.URI, 0)
		if err != nil {
			return nil, err
		}
		for _, b := range bl {
			t.Sources = append(t.Sources, b.URI)
		}
		if len(t.Sources) > 0 {
			targets = append(targets, t)
		}
	}
	rank := func(u string) int {
		info, err := after.PageInfo(ctx, u)
		if err != nil {
			return 0
		}
		return info.Backlinks
	}
	_, err = writeReport(path, targets, rank)
	return targets, err
}
