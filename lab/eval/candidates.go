package eval

import (
	"context"

	"github.com/linkrot/relink"
)

// viewCandidates is the CandidateCache of one target's Finder: the run's
// readings of candidate pages, shared by every target for the pages whose
// reading is the same in every view. Views differ only in the missing
// target, so a page read directly (no redirect) is the same in every view
// but the one where it is the target: there, and for a page reached
// through a redirect or not read at all (which may have met the missing
// target on the way), the reading is the view's own.
type viewCandidates struct {
	c      relink.CandidateCache
	target string
	canon  *canonicals
}

// Candidate implements relink.CandidateCache.
func (v viewCandidates) Candidate(ctx context.Context, uri string, read func(context.Context) *relink.CandidatePage) *relink.CandidatePage {
	u, ok := v.canon.of(uri)
	if !ok || u == v.target {
		return read(ctx)
	}
	mine := false
	p := v.c.Candidate(ctx, uri, func(ctx context.Context) *relink.CandidatePage {
		mine = true
		return read(ctx)
	})
	if mine || v.direct(u, p) {
		return p
	}
	return read(ctx)
}

// direct reports whether p was read from the page at the canonical URI u
// itself.
func (v viewCandidates) direct(u string, p *relink.CandidatePage) bool {
	if p.From == "" {
		return false
	}
	from, ok := v.canon.of(p.From)
	return ok && from == u
}
