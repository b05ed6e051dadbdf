package relink

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/internal/par"
	"github.com/linkrot/relink/lexsig"
)

// Defaults of a Finder and of the paper's method, from the paper's
// best-performing setting (§4, Table 4: level-1 backlinks, anchor text, the
// top 10 backlinks, 4 terms).
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

// Errors of Find. Each is wrapped with its details; match them with
// errors.Is.
var (
	// ErrNoQuery is returned, with the Result and its audit trail, when
	// the clues gave nothing to search: no backlinks, none kept, or no
	// word left once stop words were dropped. The error says which.
	ErrNoQuery = errors.New("relink: no query could be formed")
	// ErrProvider is returned when a Finder lacks a provider Find needs
	// (Backlinks, Fetcher, DF or Searcher): a mistake of the caller's,
	// reported instead of a panic.
	ErrProvider = errors.New("relink: missing provider")
	// ErrScheme is returned for a URI that is not http or https: only web
	// pages have backlinks to rediscover them by.
	ErrScheme = errors.New("relink: not an http or https URI")
)

// Finder rediscovers missing pages. Its providers are plugged in by the
// caller; a Finder is safe for concurrent use when they are. Its zero value
// holds no provider, and Find then returns an error wrapping ErrProvider.
//
// Every method of a Finder reaches its providers through one guard: a
// provider that panics, answers a fetch with neither a page nor an error,
// or answers a negative count gives an error wrapping ErrProviderFault (for
// a backlink page, a FilterFetch rejection in the trail), never a panic;
// and once ctx is done no provider is asked anything more.
type Finder struct {
	// Backlinks lists the pages that link to a URI. Finder asks it about
	// both scheme variants of each URI (http and https; see
	// backlink.BothSchemes) unless it folds them itself, and for content
	// links alone through backlink.ContentProvider when it is one.
	Backlinks backlink.Provider
	// Fetcher retrieves backlink pages (and soft-404 probes).
	Fetcher filter.Fetcher
	// DF answers document frequencies for TF-IDF. Wrap a slow one in a
	// lexsig.Cache.
	DF lexsig.DF
	// Searcher runs the strategy's queries.
	Searcher lexsig.Searcher
	// Filters are the paper's five filters. Its Fetcher, when nil, is the
	// Finder's Fetcher.
	Filters filter.Filters
	// Strategy is the method; nil means Default(), the project's best.
	// Paper is the paper's method with its knobs.
	Strategy Strategy
	// Archive, when not nil, retrieves an archived copy of the missing
	// page for a Strategy that uses one (Needs.Archive): a filter.Fetcher
	// that answers a URI with its last good capture, such as
	// provider/wayback's. A failure or a non-2xx answer means no copy.
	Archive filter.Fetcher
	// Pages, when not nil, keeps inspected backlink pages (fetched,
	// filtered and parsed) across calls, so that a page shared by many
	// missing URIs is read once. NewPageCache makes one.
	Pages PageCache
	// Candidates, when not nil, keeps what strategies read of candidate
	// pages (ReadCandidate: Rerank's headings and word counts) across
	// calls, so that a page among the candidates of many missing URIs is
	// read once. NewCandidateCache makes one; see CandidateCache for a
	// cache shared by Finders whose Fetchers differ.
	Candidates CandidateCache
	// Results is how many candidates each query asks for and Find
	// returns at most. Zero means DefaultResults.
	Results int
	// Concurrency bounds the backlink pages inspected at once. Zero means
	// DefaultConcurrency.
	Concurrency int
	// KeepMissing keeps the missing URI among the candidates. By default
	// it is left out: an index that still holds the page would otherwise
	// offer the dead address as its own new home. The paper's experiment
	// counted it, since there the page kept its URI.
	KeepMissing bool
	// Threshold is the confidence at or above which Find answers with its
	// first candidate (Result.Found); below it the answer is "not found".
	// The confidence is calibrated: the threshold reads as the precision
	// wanted. Zero means the Model's Threshold (for the default model,
	// DefaultThreshold); a negative Threshold answers whenever there is a
	// candidate.
	Threshold float64
	// Model is the judge that turns the signals into the confidence; nil
	// means DefaultModel.
	Model *Model
	// KeepBacklinks keeps the level-1 backlink pages among the
	// candidates. By default they are left out: a page that links to the
	// missing page is not it, though it often shares its words. Level-2
	// pages stay: the missing page at its new home often links to the
	// pages that linked to it.
	KeepBacklinks bool

	// safe reports that the providers are behind the guard (guarded).
	safe bool
}

func (f *Finder) strategy() Strategy {
	if f.Strategy == nil {
		return Default()
	}
	return f.Strategy
}

func (f *Finder) results() int     { return orDefault(f.Results, DefaultResults) }
func (f *Finder) concurrency() int { return orDefault(f.Concurrency, DefaultConcurrency) }

func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// Trace is what happened to one backlink page.
type Trace struct {
	backlink.Backlink
	// Kept reports whether the page passed every filter and gave words.
	Kept bool
	// Filter names what caught the page when it was not kept: one of the
	// filter package's names, FilterFetch or FilterLink.
	Filter string
	// Reason says why, in words. A kept page may carry a note here too:
	// its words came from the provider's anchor texts, or were cut at the
	// bound backlink.MaxDrawn sets (cutReason).
	Reason string
	// Words is how many words the page gave to the signature, for the
	// paper's method (Paper); 0 for other strategies.
	Words int
	// Fetches counts the requests that inspecting the page made (see
	// Inspection.Fetches), whether this Find made them or a PageCache
	// kept their outcome.
	Fetches int
	// Archived reports that the page is gone from the web and its words
	// came from its archived copy (Needs.ArchivedBacklinks); Reason says
	// how it was gone.
	Archived bool
}

// Result is the outcome of one rediscovery.
type Result struct {
	// URI is the canonical missing URI.
	URI string
	// Method is the strategy's Name.
	Method string
	// Signature is every ranked term of the signature the strategy
	// searched, when it searched one (Outcome.Signature); its top terms
	// are Query's.
	Signature lexsig.Signature
	// Query is the first query sent, the signature's for the paper's
	// method.
	Query lexsig.Query
	// Queries are every query sent to the searcher, in order, each once.
	Queries []lexsig.Query
	// Candidates are the answers, best first, ranked anew from 1: the
	// missing URI and the backlink pages are left out unless the Finder
	// keeps them.
	Candidates []lexsig.Result
	// Backlinks is the audit trail: every backlink page, kept or not.
	Backlinks []Trace
	// Step is the Strategy's Outcome.Step, if any.
	Step string
	// Fetches counts the candidate pages the Strategy fetched.
	Fetches int
	// Archived reports whether an archived copy of the page was used.
	Archived bool
	// Confidence is how sure relink is that the first candidate is the
	// missing page, in [0, 1]: the judge's (Model) calibrated probability.
	Confidence float64
	// Signals are what the judge saw of the first candidate, by name
	// (the Signal constants), those that are not 0; nil without a
	// candidate. Model.Contributions says what each added.
	Signals map[string]float64
	// Found reports whether Confidence reached the Finder's Threshold: the
	// first candidate is the answer. When false the answer is "not found"
	// (the page is gone, or the evidence does not single it out), though
	// the candidates are still there to look at.
	Found bool
}

// Find treats uri as missing and looks for it again with the Finder's
// Strategy: it gathers the clues the Strategy needs (Clues), runs it, and
// assembles the Result (Answer). Only a failure of a provider (a provider
// that broke its contract: ErrProviderFault), a cancelled ctx, a Finder
// without the providers it needs (ErrProvider) or a URI that
// is not an absolute http or https URI (ErrScheme, or canon's error) is an
// error; a backlink page that cannot be used is recorded in the Result's
// trail. When the clues give nothing to search, Find returns the Result
// with its trail and an error wrapping ErrNoQuery that says why.
func (f *Finder) Find(ctx context.Context, uri string) (*Result, error) {
	if f == nil {
		return nil, fmt.Errorf("%w: nil Finder", ErrProvider)
	}
	if err := f.check(true); err != nil {
		return nil, err
	}
	f = f.guarded()
	s := f.strategy()
	clues, err := f.Clues(ctx, uri, s.Needs())
	if err != nil {
		return nil, err
	}
	o, err := s.Find(ctx, clues, f.Tools())
	switch {
	case err != nil:
		return nil, err
	case o == nil:
		return nil, fault("Strategy "+s.Name(), "answered no outcome and no error")
	}
	return f.Answer(s, clues, o)
}

// check returns an ErrProvider error when f lacks a provider Clues needs,
// or, with searcher, its Searcher.
func (f *Finder) check(searcher bool) error {
	var lack []string
	if f.Backlinks == nil {
		lack = append(lack, "Backlinks")
	}
	if f.Fetcher == nil {
		lack = append(lack, "Fetcher")
	}
	if f.DF == nil {
		lack = append(lack, "DF")
	}
	if searcher && f.Searcher == nil {
		lack = append(lack, "Searcher")
	}
	if len(lack) > 0 {
		return fmt.Errorf("%w: Finder has no %s", ErrProvider, strings.Join(lack, ", "))
	}
	return nil
}

// Tools returns the providers a Strategy calls: the Finder's DF, Fetcher
// and Results, and its Searcher behind a memory that sends each distinct
// query once per Tools value (strategies that combine several queries often
// share some).
func (f *Finder) Tools() Tools {
	f = f.guarded()
	return Tools{DF: f.DF, Searcher: &memoSearcher{s: f.Searcher}, Fetcher: f.Fetcher, Candidates: f.Candidates, Results: f.results()}
}

// Clues canonicalizes uri and gathers what a strategy with needs n uses:
// the backlink neighborhood (n.Depth levels, n.Backlinks per queried page;
// only pages whose link is not navigation when n.ContentLinks), each page
// inspected and located (Gather), and, when n.Archive and the Finder has
// an Archive, the page's archived copy.
func (f *Finder) Clues(ctx context.Context, uri string, n Needs) (*Clues, error) {
	if f == nil {
		return nil, fmt.Errorf("%w: nil Finder", ErrProvider)
	}
	if err := f.check(false); err != nil {
		return nil, err
	}
	f = f.guarded()
	target, err := canon.Canonicalize(uri)
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(target, "http://") && !strings.HasPrefix(target, "https://") {
		return nil, fmt.Errorf("%w: %s", ErrScheme, target)
	}
	p := f.Backlinks
	if n.ContentLinks {
		p = backlink.ContentOnly(p)
	}
	links, err := backlink.Neighborhood(ctx, backlink.BothSchemes(p), target, orDefault(n.Depth, DefaultDepth), orDefault(n.Backlinks, DefaultBacklinks))
	if err != nil {
		return nil, fmt.Errorf("relink: backlinks of %s: %w", target, err)
	}
	evidence, err := f.Gather(ctx, target, links, n)
	if err != nil {
		return nil, err
	}
	c := &Clues{URI: target, Evidence: evidence}
	if f.Archive != nil && n.Archive {
		p, err := f.Archive.Fetch(ctx, target)
		switch {
		case err == nil && p != nil && filter.IsSuccess(p.Status):
			c.Archive = p
		case ctx.Err() != nil:
			return nil, ctx.Err()
		}
	}
	return c, nil
}

// Answer assembles the Result of strategy s on clues c from its Outcome
// o, as Find does: the trail, the queries, and the candidates without the
// missing URI and the level-1 backlink pages (unless the Finder keeps
// them), cut to Results and ranked anew from 1, with their Confidence. When
// o holds no query it returns the Result with an error wrapping ErrNoQuery
// that says why.
func (f *Finder) Answer(s Strategy, c *Clues, o *Outcome) (*Result, error) {
	var words []int
	if p, ok := s.(Paper); ok {
		words = p.wordCounts(c)
	}
	res := &Result{URI: c.URI, Method: s.Name(), Backlinks: traces(c.Evidence), Step: o.Step, Fetches: o.Fetches}
	for i, n := range words {
		res.Backlinks[i].Words = n
	}
	res.Archived = c.Archive != nil && s.Needs().Archive
	res.Queries, res.Signature = o.Queries, o.Signature
	if len(o.Queries) > 0 {
		res.Query = o.Queries[0]
	}

	if len(o.Queries) == 0 {
		return res, fmt.Errorf("%w for %s: %s", ErrNoQuery, c.URI, c.why())
	}
	drop := map[string]bool{}
	if !f.KeepMissing {
		drop[c.URI] = true
	}
	if !f.KeepBacklinks {
		for _, e := range c.Evidence {
			if e.Level > 1 {
				// A page that links to a backlink page may well be the
				// missing page at its new home, linking to its old
				// neighbours.
				continue
			}
			if u, err := canon.Canonicalize(e.URI); err == nil {
				drop[u] = true
			}
		}
	}
	res.Candidates = make([]lexsig.Result, 0, min(len(o.Candidates), f.results()))
	for _, r := range o.Candidates {
		if len(res.Candidates) == f.results() {
			break
		}
		if len(drop) > 0 {
			if u, err := canon.Canonicalize(r.URI); err == nil && drop[u] {
				continue
			}
		}
		r.Rank = len(res.Candidates) + 1
		res.Candidates = append(res.Candidates, r)
	}
	m := f.model()
	res.Confidence, res.Signals = m.Judge(c, res.Candidates, o.Seen)
	threshold := f.Threshold
	if threshold == 0 {
		threshold = m.Threshold
	}
	res.Found = len(res.Candidates) > 0 && res.Confidence >= threshold
	return res, nil
}

// model returns the Finder's Model, or the default one.
func (f *Finder) model() *Model {
	if f.Model != nil {
		return f.Model
	}
	return defaultModel()
}

// cutReason is the note a kept page's Trace carries when the words drawn
// from it were cut at the bound backlink.MaxDrawn sets: a page that links
// to the missing page so often that its windows of words would hold many
// times its own words (a hostile page, or a radius far wider than the
// paper's) gives the first of them only.
const cutReason = "words cut at backlink.MaxDrawn: the page's links to the target would draw many times its own words"

// traces returns the audit trail of evidence.
func traces(evidence []*Evidence) []Trace {
	out := make([]Trace, 0, len(evidence))
	for _, e := range evidence {
		t := e.Trace
		if e.cut.Load() {
			t.Reason = strings.TrimPrefix(t.Reason+"; "+cutReason, "; ")
		}
		out = append(out, t)
	}
	return out
}

// Gather inspects every backlink page concurrently (at most Concurrency at
// once) and locates its links to the URI it was listed for (Backlink.Via,
// or target when Via is empty, which the Evidence's Via then says), as a
// strategy with needs n wants them. It returns one Evidence per backlink,
// in the order given. With n.ContentLinks, a page whose every such link is
// navigation is not kept (FilterLink). With n.ArchivedBacklinks and an
// Archive, a page that is gone (no answer, or an HTTP error status) is read
// from its archived copy (Trace.Archived). A page that cannot be had either
// way but whose provider gave its anchor texts (Backlink.Anchors) is kept
// with those. It returns early with ctx.Err() when ctx is done.
func (f *Finder) Gather(ctx context.Context, target string, links []backlink.Backlink, n Needs) ([]*Evidence, error) {
	if f.Fetcher == nil {
		return nil, fmt.Errorf("%w: Finder has no Fetcher", ErrProvider)
	}
	f = f.guarded()
	out := make([]*Evidence, len(links))
	err := par.Do(ctx, len(links), f.concurrency(), func(ctx context.Context, i int) error {
		out[i] = f.gather(ctx, target, links[i], n)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// gather inspects and locates one backlink page.
func (f *Finder) gather(ctx context.Context, target string, l backlink.Backlink, n Needs) *Evidence {
	if l.Via == "" {
		l.Via = target
	}
	e := &Evidence{Trace: Trace{Backlink: l}}
	in := f.Inspect(ctx, l.URI)
	e.Fetches = in.Fetches
	if gone(in) && n.ArchivedBacklinks && f.Archive != nil && ctx.Err() == nil {
		old := f.InspectArchived(ctx, l.URI)
		e.Fetches += old.Fetches
		if old.Kept {
			why := in.Reason
			in = old
			e.Archived, e.Reason = true, "gone from the web ("+why+"); read from the archive"
		}
	}
	if gone(in) {
		if len(l.Anchors) > 0 && ctx.Err() == nil {
			// A link record without a copy of the page: its anchor texts
			// are all there is, and no filter can judge a page not seen.
			e.Kept, e.anchors = true, l.Anchors
			e.Reason = "page not fetched; anchor texts from the backlink provider"
			return e
		}
	}
	if !in.Kept {
		e.Filter, e.Reason = in.Filter, in.Reason
		return e
	}
	loc, err := in.Doc.Locate(l.Via)
	if errors.Is(err, backlink.ErrNoLink) && !e.Archived && n.ArchivedBacklinks && f.Archive != nil && ctx.Err() == nil {
		// The page is still there but no longer links to the missing
		// page: its owner may have moved the link. Its archived copy
		// has the link, and the page as it is now says where it went.
		old := f.InspectArchived(ctx, l.URI)
		e.Fetches += old.Fetches
		if old.Kept {
			if oldLoc, oldErr := old.Doc.Locate(l.Via); oldErr == nil {
				e.current, in, loc, err = in, old, oldLoc, nil
				e.Archived, e.Reason = true, "no longer links to "+l.Via+"; read from the archive"
			}
		}
	}
	if err != nil {
		e.Filter, e.Reason = FilterLink, err.Error()
		if errors.Is(err, backlink.ErrNoLink) {
			e.Reason = "no link to " + l.Via
		}
		return e
	}
	if n.ContentLinks && !slices.ContainsFunc(loc.Links(), func(k backlink.Link) bool { return !k.Nav }) {
		e.Filter, e.Reason = FilterLink, "only navigation links to "+l.Via
		return e
	}
	e.Kept, e.located, e.page = true, loc, in
	return e
}

// gone reports whether an inspection found no page: no answer at all, or an
// HTTP error status.
func gone(in *Inspection) bool {
	return in.Filter == FilterFetch || in.Filter == filter.FilterStatus
}

// Evidence is a backlink page that was inspected and located once, so that
// words for any radius can be drawn from it without fetching or parsing it
// again.
type Evidence struct {
	Trace
	located *backlink.Located
	page    *Inspection
	cut     atomic.Bool // a draw of words was cut at backlink.MaxDrawn
	// anchors are the provider's anchor texts (Backlink.Anchors), used
	// when the page itself could not be had.
	anchors []string
	// current is the page as it is on the web now, when its words came
	// from its archived copy because it no longer links to the missing
	// page (MovedLink reads where the link went).
	current *Inspection
}

// Draw returns the words the page gives for radius r, around every link to
// the page it was listed for when nav is true, around its links that are
// not navigation otherwise. Evidence kept from a provider's anchor texts
// alone (the page could not be fetched) gives its anchor words for every
// radius: nothing else of the page is known.
func (e *Evidence) Draw(r backlink.Radius, nav bool) []string {
	if nav {
		return e.drawOf(r, e.Via, nil)
	}
	return e.drawOf(r, e.Via, func(l backlink.Link) bool { return !l.Nav })
}
