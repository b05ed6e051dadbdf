package relink

import (
	"cmp"
	"context"
	"slices"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
)

// MovedLink follows the backlinks' own links to where they point now. When
// a site reorganises, it moves its pages and updates its own links: an old
// page of the site that linked to the missing page is gone too, but its
// new version links to the missing page's new home, with the same anchor
// text at the same place. For each backlink page read from its archived
// copy (Needs.ArchivedBacklinks), MovedLink finds the page's new version
// (the archived copy's own lexical signature, searched, and the first
// results fetched: the one whose words are most like the copy's, with a
// Jaccard similarity of at least 0.7) and takes the link there that has the anchor text of the old
// link to the missing page, in the same order among the links with that
// text. A backlink page that is still on the web but no longer links to
// the missing page is its own new version. The links that agree are the
// candidates, the most agreed first; the first is fetched, to check it
// answers and to read its title. When no link moved, Else is searched
// instead.
type MovedLink struct {
	// Else is the strategy searched when no backlink's link moved; nil
	// means none (the Outcome then has no candidates).
	Else Strategy
	// Pages is how many backlink pages are looked for anew at most; zero
	// means DefaultMovedPages.
	Pages int
}

// DefaultMovedPages is how many archived backlink pages MovedLink looks for
// anew by default: it stops earlier when two agree.
const DefaultMovedPages = 3

// samePage is the Jaccard similarity of their sets of words at which
// MovedLink takes a search result for the new version of an archived page.
const samePage = 0.7

// movedResults is how many search results MovedLink fetches at most to
// find the new version of an archived page; it keeps the most similar,
// since sister sites share whole pages of text, and stops at one that is
// surely the same page (samePageSure).
const (
	movedResults = 3
	samePageSure = 0.95
)

// movedSignature is the size of the signature MovedLink searches for an
// archived page: long, since the page is known whole.
const movedSignature = 7

// Name returns "moved-link", followed by "+" and Else's name when it has
// one.
func (s MovedLink) Name() string {
	if s.Else == nil {
		return "moved-link"
	}
	return "moved-link+" + s.Else.Name()
}

// Terms returns Else's, or 0.
func (s MovedLink) Terms() int {
	if s.Else == nil {
		return 0
	}
	return s.Else.Terms()
}

// Needs returns Else's needs with the backlink pages that are gone read
// from their archived copies.
func (s MovedLink) Needs() Needs {
	n := Needs{ArchivedBacklinks: true}
	if s.Else != nil {
		n = n.union(s.Else.Needs())
	}
	return n
}

// Find follows the moved links, and searches Else when there are none.
func (s MovedLink) Find(ctx context.Context, c *Clues, t Tools) (*Outcome, error) {
	out := &Outcome{Step: "moved-link"}
	votes := map[string]int{}
	var order []string
	looked := 0
	for _, e := range c.Evidence {
		if looked == orDefault(s.Pages, DefaultMovedPages) || slices.ContainsFunc(order, func(u string) bool { return votes[u] >= 2 }) {
			break
		}
		if !e.Kept || e.page == nil || e.located == nil || (!e.Archived && e.current == nil) {
			continue
		}
		now := e.current
		if now == nil {
			looked++
			var err error
			if now, err = s.newVersion(ctx, e, t, out); err != nil {
				return nil, err
			}
			if now == nil {
				continue
			}
		}
		for _, u := range movedTargets(e, now.Doc, c.URI) {
			if votes[u] == 0 {
				order = append(order, u)
			}
			votes[u]++
		}
	}
	slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(votes[b], votes[a]) })
	for i, u := range order {
		r := lexsig.Result{URI: u, Rank: i + 1, Score: float64(votes[u])}
		if i == 0 {
			// The first candidate must answer: a link updated to another
			// dead address names no home.
			out.Fetches++
			p, err := t.Fetcher.Fetch(ctx, u)
			if err != nil && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if err != nil || p == nil || !filter.IsSuccess(p.Status) {
				break
			}
			if body, _, err := backlink.Decode(p.Body, p.Header.Get("Content-Type")); err == nil {
				r.Title = backlink.Title(body)
			}
		}
		out.Candidates = append(out.Candidates, r)
	}
	if len(out.Candidates) > 0 {
		out.Seen.MovedLinks = true
		if len(out.Queries) == 0 {
			// The backlinks' own links named the page: the query is their
			// anchor phrase, which no one needed to search.
			out.Queries = []lexsig.Query{{Terms: []string{"moved-link"}}}
		}
		return out, nil
	}
	if s.Else == nil {
		return out, nil
	}
	other, err := s.Else.Find(ctx, c, t)
	if err != nil {
		return nil, err
	}
	other.Queries = append(out.Queries, other.Queries...)
	other.Fetches += out.Fetches
	return other, nil
}

// newVersion finds the page of archived evidence e anew: it searches the
// archived copy's signature and fetches the first results, keeping the one
// whose words are most like the copy's. It returns nil when none is like
// enough.
func (s MovedLink) newVersion(ctx context.Context, e *Evidence, t Tools, out *Outcome) (*Inspection, error) {
	words := e.page.Doc.Words()
	terms, err := lexsig.Rank(ctx, lexsig.Count(words), t.DF)
	if err != nil {
		return nil, err
	}
	res, err := t.search(ctx, out, lexsig.Signature(terms).Held().Top(movedSignature).Query(lexsig.Conjunctive))
	if err != nil {
		return nil, err
	}
	old, _ := canon.Canonicalize(e.URI)
	var best *Inspection
	bestSim := samePage
	for _, r := range res[:min(len(res), movedResults)] {
		if u, err := canon.Canonicalize(r.URI); err != nil || u == old {
			continue
		}
		out.Fetches++
		p, err := t.Fetcher.Fetch(ctx, r.URI)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		if p == nil || !filter.IsSuccess(p.Status) {
			continue
		}
		body, _, err := backlink.Decode(p.Body, p.Header.Get("Content-Type"))
		if err != nil {
			continue
		}
		doc, err := backlink.Parse(body, p.URI)
		if err != nil {
			continue
		}
		if sim := filter.Jaccard(words, doc.Words()); sim >= bestSim {
			best, bestSim = &Inspection{URI: p.URI, Kept: true, Doc: doc}, sim
			if sim >= samePageSure {
				break
			}
		}
	}
	return best, nil
}

// movedTargets returns where the links of evidence e to the missing page
// (canonical target) point on the page's new version doc: for each old
// link, the link of doc with the same anchor text, in the same place among
// the links with that text, when it points elsewhere than the old target
// and the old page.
func movedTargets(e *Evidence, doc *backlink.Document, target string) []string {
	nth := func(links []backlink.Link, anchor string, i int) (backlink.Link, bool) {
		for _, l := range links {
			if l.Anchor != anchor || l.Area {
				continue
			}
			if i == 0 {
				return l, true
			}
			i--
		}
		return backlink.Link{}, false
	}
	before := e.page.Doc.Outlinks()
	after := doc.Outlinks()
	old, _ := canon.Canonicalize(e.URI)
	var out []string
	for _, l := range e.located.Links() {
		if l.Anchor == "" || l.Area {
			continue
		}
		// Its place among the old page's links with that text.
		i := 0
		for _, b := range before {
			if b.Start == l.Start && b.URI == l.URI {
				break
			}
			if b.Anchor == l.Anchor && !b.Area {
				i++
			}
		}
		n, ok := nth(after, l.Anchor, i)
		if !ok || n.URI == target || n.URI == old || slices.Contains(out, n.URI) {
			continue
		}
		out = append(out, n.URI)
	}
	return out
}
