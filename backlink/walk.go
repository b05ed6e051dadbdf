package backlink

import (
	"context"
	"fmt"

	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/internal/par"
)

// MaxConcurrentQueries is how many Provider queries Neighborhood runs at
// once for the pages of one level.
const MaxConcurrentQueries = 4

// Neighborhood returns the backlink neighborhood of target up to depth
// levels (the paper, §3.2 "Backlink Depth"): level 1 is
// p.Backlinks(ctx, target, limit) in the provider's order; level 2 is, for
// each level-1 page in order, its own backlinks (at most limit each),
// appended after all level-1 pages; and so on for deeper levels, each built
// from the one before. The paper stops at depth 2 and found level 2 harmful;
// deeper walks are allowed and cost up to limit^depth pages. depth below 1
// is read as 1; limit below 1 returns no backlinks without asking p.
//
// Pages are deduplicated by their canonical URI (canon.Canonicalize): the
// first occurrence wins, so a page found at level 1 is not repeated at
// level 2, and the target itself never appears. URIs are returned as the
// provider gave them; a URI that cannot be canonicalized is skipped, and a
// provider answer longer than limit is cut to limit. Level and Via (the
// canonical URI the page was listed for: the target at level 1, a level-1
// page at level 2) are set, and Rank is renumbered from 1 within each level
// in walk order, so it counts only the pages kept.
//
// The queries of one level run concurrently, at most MaxConcurrentQueries
// at a time, but the result order is deterministic. A provider error stops
// the walk and is returned wrapped with the URI it was asked about. When ctx
// is cancelled Neighborhood returns ctx.Err() at once, without waiting for
// queries in flight. A target that is not absolute returns an error wrapping
// ErrBadURI.
func Neighborhood(ctx context.Context, p Provider, target string, depth, limit int) ([]Backlink, error) {
	t, err := canon.Canonicalize(target)
	if err != nil {
		return nil, fmt.Errorf("%w: target: %w", ErrBadURI, err)
	}
	if depth < 1 {
		depth = 1
	}
	if limit < 1 {
		return []Backlink{}, nil
	}
	seen := map[string]bool{t: true}
	out := []Backlink{}
	frontier := []string{t}
	for level := 1; level <= depth && len(frontier) > 0; level++ {
		answers, err := queryAll(ctx, p, frontier, limit)
		if err != nil {
			return nil, err
		}
		asked := frontier
		frontier = nil
		rank := 0
		for i, answer := range answers {
			for _, b := range answer[:min(len(answer), limit)] {
				c, err := canon.Canonicalize(b.URI)
				if err != nil || seen[c] {
					continue
				}
				seen[c] = true
				rank++
				out = append(out, Backlink{URI: b.URI, Rank: rank, Level: level, Via: asked[i], Anchors: b.Anchors})
				frontier = append(frontier, c)
			}
		}
	}
	return out, nil
}

// queryAll asks p for the backlinks of each of uris, at most
// MaxConcurrentQueries at a time, and returns the answers in the order of
// uris.
func queryAll(ctx context.Context, p Provider, uris []string, limit int) ([][]Backlink, error) {
	answers := make([][]Backlink, len(uris))
	err := par.Do(ctx, len(uris), MaxConcurrentQueries, func(ctx context.Context, i int) error {
		a, err := p.Backlinks(ctx, uris[i], limit)
		if err != nil {
			return fmt.Errorf("backlink: backlinks of %q: %w", uris[i], err)
		}
		answers[i] = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	return answers, nil
}
