package relink

import (
	"context"
	"errors"
	"fmt"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/internal/par"
	"github.com/linkrot/relink/lexsig"
)

// Defaults of Config, from the paper's best-performing method (§4, Table 4:
// level-1 backlinks, anchor text, the top 10 backlinks, 4 terms).
const (
	DefaultDepth       = 1
	DefaultBacklinks   = 10
	DefaultTerms       = 4
	DefaultResults     = 10
	DefaultConcurrency = 8
)

// Reasons recorded in a Trace for backlinks that no filter rejected but that
// still gave no words.
const (
	// FilterFetch names a backlink page that could not be fetched at all.
	FilterFetch = "fetch"
	// FilterLink names a backlink page that holds no usable link to the URI
	// it was listed for (§3.1 "Backlink validation").
	FilterLink = "link"
)

// Config chooses the method. Its zero value is the paper's best method.
type Config struct {
	// Depth is 1 for level-1 backlinks only, 2 for levels 1 and 2 (§3.2
	// "Backlink Depth"). Zero means DefaultDepth.
	Depth int
	// Backlinks is how many backlinks are asked for, per queried page (§3.2
	// "Backlink Ranking": 10, 100 or 1000). Zero means DefaultBacklinks.
	Backlinks int
	// Radius is where words are drawn (§3.2 "Radius"); the zero value is
	// backlink.Anchor.
	Radius backlink.Radius
	// Terms is the signature size (§3.2 "Lexical Signature Size"). Zero means
	// DefaultTerms.
	Terms int
	// ExcludeNav leaves out the words of navigation links (sidebars, tables
	// of contents, next/previous). The paper counted every link.
	ExcludeNav bool
	// Mode combines the query's terms; the zero value is conjunctive, as a
	// web search engine does.
	Mode lexsig.Mode
	// Results is how many candidates are asked of the searcher. Zero means
	// DefaultResults.
	Results int
	// Concurrency bounds the backlink pages fetched and filtered at once.
	// Zero means DefaultConcurrency.
	Concurrency int
}

func (c Config) depth() int       { return orDefault(c.Depth, DefaultDepth) }
func (c Config) backlinks() int   { return orDefault(c.Backlinks, DefaultBacklinks) }
func (c Config) terms() int       { return orDefault(c.Terms, DefaultTerms) }
func (c Config) results() int     { return orDefault(c.Results, DefaultResults) }
func (c Config) concurrency() int { return orDefault(c.Concurrency, DefaultConcurrency) }

func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// Finder rediscovers missing pages. Its providers are plugged in by the
// caller; a Finder is safe for concurrent use when they are.
type Finder struct {
	// Backlinks lists the pages that link to a URI.
	Backlinks backlink.Provider
	// Fetcher retrieves backlink pages (and soft-404 probes).
	Fetcher filter.Fetcher
	// DF answers document frequencies for TF-IDF. Wrap a slow one in a
	// lexsig.Cache.
	DF lexsig.DF
	// Searcher runs the signature's query.
	Searcher lexsig.Searcher
	// Filters are the paper's five filters. Its Fetcher, when nil, is the
	// Finder's Fetcher.
	Filters filter.Filters
	// Config chooses the method.
	Config Config
	// Strategy, when not nil, replaces the paper's method: Find gathers
	// the first Config.Backlinks level-1 backlinks (Config.Depth, Radius,
	// Terms, ExcludeNav and Mode are then the Strategy's business) and
	// lets the Strategy search. Best returns the project's best.
	Strategy Strategy
	// Archive, when not nil, retrieves an archived copy of the missing
	// page for a Strategy that uses one (Clues.Archive): a filter.Fetcher
	// that answers a URI with its last good capture, such as
	// provider/wayback's. A failure or a non-2xx answer means no copy.
	Archive filter.Fetcher
}

// Trace is what happened to one backlink page.
type Trace struct {
	backlink.Backlink
	// Kept reports whether the page passed every filter and gave words.
	Kept bool
	// Filter names what caught the page when it was not kept: one of the
	// filter package's names, FilterFetch or FilterLink.
	Filter string
	// Reason says why, in words.
	Reason string
	// Words is how many words the page gave to the signature.
	Words int
}

// Result is the outcome of one rediscovery.
type Result struct {
	// URI is the canonical missing URI.
	URI string
	// Signature is every ranked term; Query uses its top Config.Terms.
	Signature lexsig.Signature
	// Query is the query sent to the searcher.
	Query lexsig.Query
	// Candidates are the searcher's answers, best first.
	Candidates []lexsig.Result
	// Backlinks is the audit trail: every backlink page, kept or not.
	Backlinks []Trace
	// Queries are every query sent to the searcher, in order: Query
	// alone for the paper's method, one or more for a Strategy.
	Queries []lexsig.Query
	// Step is the Strategy's Outcome.Step, if any.
	Step string
	// Fetches counts the candidate pages the Strategy fetched.
	Fetches int
}

// Evidence is a backlink page that was fetched, filtered and located once, so
// that signatures for any radius can be drawn from it without fetching or
// parsing it again.
type Evidence struct {
	Trace
	located *backlink.Located
	// anchors are the provider's anchor texts (Backlink.Anchors), used
	// when the page itself could not be had.
	anchors []string
}

// Draw returns the words the page gives for radius r, without navigation
// links' words when nav is false. Evidence kept from a provider's anchor
// texts alone (the page could not be fetched) gives its anchor words for
// every radius: nothing else of the page is known.
func (e *Evidence) Draw(r backlink.Radius, nav bool) []string {
	if nav {
		return e.drawOf(r, e.Via, nil)
	}
	return e.drawOf(r, e.Via, func(l backlink.Link) bool { return !l.Nav })
}

// Find treats uri as missing and looks for it again: the stages of Gather,
// Signature and Search in turn. Only a failure of a provider (or a cancelled
// ctx) is an error; a backlink page that cannot be used is recorded in the
// Result's trail.
func (f *Finder) Find(ctx context.Context, uri string) (*Result, error) {
	target, err := canon.Canonicalize(uri)
	if err != nil {
		return nil, err
	}
	if f.Strategy != nil {
		return f.findWith(ctx, target)
	}
	links, err := backlink.Neighborhood(ctx, f.Backlinks, target, f.Config.depth(), f.Config.backlinks())
	if err != nil {
		return nil, fmt.Errorf("relink: backlinks of %s: %w", target, err)
	}
	evidence, err := f.Gather(ctx, target, links)
	if err != nil {
		return nil, err
	}
	res := &Result{URI: target}
	res.Backlinks = traces(evidence, f.Config.Radius, !f.Config.ExcludeNav)
	res.Signature, err = f.Signature(ctx, evidence, f.Config.Radius, !f.Config.ExcludeNav)
	if err != nil {
		return nil, err
	}
	res.Query = res.Signature.Top(f.Config.terms()).Query(f.Config.Mode)
	if len(res.Query.Terms) == 0 {
		return res, nil
	}
	res.Queries = []lexsig.Query{res.Query}
	res.Candidates, err = f.Searcher.Search(ctx, res.Query, f.Config.results())
	if err != nil {
		return nil, fmt.Errorf("relink: search %q: %w", res.Query, err)
	}
	return res, nil
}

// findWith runs f.Strategy for the canonical target.
func (f *Finder) findWith(ctx context.Context, target string) (*Result, error) {
	links, err := backlink.Neighborhood(ctx, f.Backlinks, target, 1, f.Config.backlinks())
	if err != nil {
		return nil, fmt.Errorf("relink: backlinks of %s: %w", target, err)
	}
	evidence, err := f.Gather(ctx, target, links)
	if err != nil {
		return nil, err
	}
	clues := &Clues{URI: target, Evidence: evidence}
	if f.Archive != nil && f.Strategy.UsesArchive() {
		if p, err := f.Archive.Fetch(ctx, target); err == nil && p.Status/100 == 2 {
			clues.Archive = p
		} else if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	res := &Result{URI: target}
	res.Backlinks = traces(evidence, backlink.Anchor, true)
	// Strategies that combine several queries often share some (the
	// paper's signature and the content signature of a page that has only
	// content links): each is sent once.
	searcher := &memoSearcher{s: f.Searcher}
	o, err := f.Strategy.Find(ctx, clues, Tools{DF: f.DF, Searcher: searcher, Fetcher: f.Fetcher, Results: f.Config.results()})
	if err != nil {
		return nil, err
	}
	res.Candidates, res.Queries, res.Step, res.Fetches = o.Candidates, o.Queries, o.Step, o.Fetches
	if len(o.Queries) > 0 {
		res.Query = o.Queries[0]
	}
	return res, nil
}

// traces returns the audit trail of evidence, each kept page with the
// number of words it gives for radius r.
func traces(evidence []*Evidence, r backlink.Radius, nav bool) []Trace {
	out := make([]Trace, 0, len(evidence))
	for _, e := range evidence {
		if e.Kept {
			e.Words = len(e.Draw(r, nav))
		}
		out = append(out, e.Trace)
	}
	return out
}

// Gather fetches, filters and locates every backlink page concurrently (at
// most Config.Concurrency at once) and returns one Evidence per backlink, in
// the order given. Each page's link is looked for to its Backlink.Via, or to
// target when Via is empty. It returns early with ctx.Err() when ctx is done.
func (f *Finder) Gather(ctx context.Context, target string, links []backlink.Backlink) ([]*Evidence, error) {
	out := make([]*Evidence, len(links))
	filters := f.Filters
	if filters.Fetcher == nil {
		filters.Fetcher = f.Fetcher
	}
	err := par.Do(ctx, len(links), f.Config.concurrency(), func(ctx context.Context, i int) error {
		out[i] = f.gather(ctx, &filters, target, links[i])
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// gather fetches, filters and locates one backlink page.
func (f *Finder) gather(ctx context.Context, filters *filter.Filters, target string, l backlink.Backlink) *Evidence {
	e := &Evidence{Trace: Trace{Backlink: l}}
	page, err := f.Fetcher.Fetch(ctx, l.URI)
	if (err != nil || !filter.IsSuccess(page.Status)) && len(l.Anchors) > 0 && ctx.Err() == nil {
		// A link record without a copy of the page: its anchor texts are
		// all there is, and no filter can judge a page not seen.
		e.Kept, e.anchors = true, l.Anchors
		e.Reason = "page not fetched; anchor texts from the backlink provider"
		return e
	}
	if err != nil {
		e.Filter, e.Reason = FilterFetch, err.Error()
		return e
	}
	rej, err := filters.Check(ctx, page)
	if err != nil {
		e.Filter, e.Reason = FilterFetch, err.Error()
		return e
	}
	if rej != nil {
		e.Filter, e.Reason = rej.Filter, rej.Reason
		return e
	}
	via := l.Via
	if via == "" {
		via = target
	}
	loc, err := backlink.Locate(page.Body, page.URI, via)
	if err != nil {
		e.Filter, e.Reason = FilterLink, err.Error()
		if errors.Is(err, backlink.ErrNoLink) {
			e.Reason = "no link to " + via
		}
		return e
	}
	e.Kept, e.located = true, loc
	return e
}

// Signature ranks the words that the kept evidence gives for radius r (with
// or without navigation links) by TF-IDF against f.DF. It returns every
// ranked term; take the top k with Signature.Top.
func (f *Finder) Signature(ctx context.Context, evidence []*Evidence, r backlink.Radius, nav bool) (lexsig.Signature, error) {
	tf := make(map[string]int)
	for _, e := range evidence {
		if e != nil && e.Kept {
			lexsig.CountInto(tf, e.Draw(r, nav))
		}
	}
	terms, err := lexsig.Rank(ctx, tf, f.DF)
	if err != nil {
		return nil, fmt.Errorf("relink: rank terms: %w", err)
	}
	return lexsig.Signature(terms), nil
}
