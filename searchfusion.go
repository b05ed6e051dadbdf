package relink

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/linkrot/relink/lexsig"
)

// SearchFusion is a Searcher over several: it asks each of its Sources the
// same query, at once, and merges their lists by the reciprocal rank
// fusion Fusion merges its queries' lists by (the same sum of 1/(K+rank),
// the same order, DefaultFusionK when K is zero), so that a page two
// sources rank high comes first and a page one source alone finds keeps
// its place among the others. Ties in the fused score go to the better
// best rank, then to the smaller URI, as in Fusion.
//
// A source that fails is left out of the fusion: Search answers with the
// others' lists and no error, and fails only when every source fails.
// Fuse tells which sources held each result and which failed. A typical
// use is a site's own index (a store of its pages) fused with a web
// engine's answers, where a spent quota of the engine must not lose the
// site's answers. SearchFusion is safe for concurrent use when its
// sources are.
type SearchFusion struct {
	Sources []Source
	// K damps the weight of the first ranks; zero means DefaultFusionK.
	K float64
}

// Source is one list of a SearchFusion.
type Source struct {
	// Name names the source in FusedResult.Sources and SourceError.
	Name     string
	Searcher lexsig.Searcher
	// Limit is how many results the source is asked for; zero means
	// the limit Search or Fuse is given.
	Limit int
}

// FusedResult is a result of SearchFusion.Fuse: the result (as the first
// source that held it gave it, with the fused Rank and Score) and the
// names of the sources whose lists held it, in the order of
// SearchFusion.Sources.
type FusedResult struct {
	lexsig.Result
	Sources []string
}

// SourceError is the failure of one source of a SearchFusion.
type SourceError struct {
	Source string
	Err    error
}

// Error says which source failed and why.
func (e *SourceError) Error() string { return fmt.Sprintf("%s: %v", e.Source, e.Err) }

// Unwrap returns the source's error.
func (e *SourceError) Unwrap() error { return e.Err }

// Fuse asks every source query and returns at most limit results of
// their fusion, with the sources of each, and the failures of the
// sources that failed, each a *SourceError, joined (errors.Join). The
// results are nil when every source failed; with some failing, they are
// the fusion of the others'.
func (s SearchFusion) Fuse(ctx context.Context, query lexsig.Query, limit int) ([]FusedResult, error) {
	lists := make([][]lexsig.Result, len(s.Sources))
	errs := make([]error, len(s.Sources))
	var wg sync.WaitGroup
	for i, src := range s.Sources {
		n := limit
		if src.Limit > 0 {
			n = src.Limit
		}
		wg.Go(func() {
			rs, err := src.Searcher.Search(ctx, query, n)
			if err != nil {
				errs[i] = &SourceError{Source: src.Name, Err: err}
				return
			}
			lists[i] = rs
		})
	}
	wg.Wait()
	var (
		answered [][]lexsig.Result
		names    []string
	)
	for i, src := range s.Sources {
		if errs[i] == nil {
			answered = append(answered, lists[i])
			names = append(names, src.Name)
		}
	}
	err := errors.Join(errs...)
	if len(answered) == 0 && len(s.Sources) > 0 {
		return nil, err
	}
	fused := rankFusion(s.K, answered)
	fused = fused[:min(len(fused), max(limit, 0))]
	out := make([]FusedResult, 0, len(fused))
	for _, f := range fused {
		r := FusedResult{Result: f.Result}
		for _, l := range f.lists {
			r.Sources = append(r.Sources, names[l])
		}
		out = append(out, r)
	}
	return out, err
}

// Search returns the results of Fuse. It fails only when every source
// failed; a source that failed while another answered is left out
// silently (Fuse tells of it).
func (s SearchFusion) Search(ctx context.Context, query lexsig.Query, limit int) ([]lexsig.Result, error) {
	fused, err := s.Fuse(ctx, query, limit)
	if fused == nil && err != nil {
		return nil, err
	}
	out := make([]lexsig.Result, len(fused))
	for i, f := range fused {
		out[i] = f.Result
	}
	return out, nil
}

var _ lexsig.Searcher = SearchFusion{}
