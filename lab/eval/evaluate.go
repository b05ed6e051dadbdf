// Package eval runs the paper's experiment (§3 "Methodology") with the
// library's own code: each target in turn is treated as missing, and every
// method of a Grid (the paper's, relink.Paper) and every further
// relink.Strategy is run on it through relink.Finder's stages, with caches
// around the providers so that the grid's thousands of methods cost what
// its distinct pages and queries cost. A test holds the ranks it records
// equal to those of Finder.Find with the same providers.
package eval

import (
	"cmp"
	"container/list"
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unique"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/score"
)

// ErrGrid is wrapped by the error Evaluate returns for a Grid that holds an
// impossible setting: a depth, backlink count or signature size below 1, or
// a radius below backlink.Page.
var ErrGrid = errors.New("eval: invalid grid")

// The paper's grid (§3.2 "Lexical Signature Calculation"; Table "Various
// Measures of Experimental Cost"): what a Grid's nil fields mean.
var (
	// PaperDepths are level 1 alone and levels 1 and 2 (§3.2 "Backlink
	// Depth").
	PaperDepths = []int{1, 2}
	// PaperBacklinks are the top 10, 100 and 1000 backlinks (§3.2
	// "Backlink Ranking").
	PaperBacklinks = []int{10, 100, 1000}
	// PaperRadii are the anchor text, ±5 and ±10 words, and the whole page
	// (§3.2 "Radius").
	PaperRadii = []backlink.Radius{backlink.Anchor, 5, 10, backlink.Page}
	// PaperSizes are the signature sizes queried (§3.2 "Lexical Signature
	// Size").
	PaperSizes = []int{1, 2, 3, 4, 5, 6, 7, 10}
)

// Grid is the set of methods an Evaluation compares: every combination of
// its depths, backlink counts, radii and navigation settings, each scored at
// every signature size. A nil field means the paper's values (PaperDepths,
// PaperBacklinks, PaperRadii, PaperSizes; Nav {true}), so the zero Grid is
// the paper's grid of 24 methods × 8 sizes. Values are used in ascending
// order without repeats, whatever order they are given in.
type Grid struct {
	// Depths are the backlink levels used: 1 for level-1 backlinks alone,
	// 2 for levels 1 and 2.
	Depths []int
	// Backlinks are how many backlinks are asked for per queried page:
	// level 1 is the first N of the target's backlinks, level 2 the first N
	// of each level-1 page's.
	Backlinks []int
	// Radii are where words are drawn on a backlink page.
	Radii []backlink.Radius
	// Sizes are the signature sizes, each a query of the top terms.
	Sizes []int
	// Nav lists the navigation settings: true counts every link, as the
	// paper did; false leaves navigation links out of both the backlink
	// lists and the words drawn (relink.ContentLinks), and adds
	// relink.NoNavSuffix to the method's name. Nil means the paper's
	// setting alone; empty, not nil, means no grid method at all (the
	// Strategies alone).
	Nav []bool
}

// Method is one method of a Grid: how the signature's words are drawn.
type Method struct {
	// Depth is 1 for level-1 backlinks, 2 for levels 1 and 2.
	Depth int
	// Radius is where words are drawn.
	Radius backlink.Radius
	// Backlinks is how many backlinks are asked for per queried page.
	Backlinks int
	// Nav is false when navigation links are left out.
	Nav bool
}

// String returns the method's name as the benchmark writes it,
// LEVELS-RADIUS-BACKLINKS ("1-anchor-10", "2-ten-1000"), followed by
// relink.NoNavSuffix when navigation links are left out: the name of its
// Paper strategy.
func (m Method) String() string { return m.Paper(0).Name() }

// Paper returns the library's strategy that the method is, at signature
// size size: every link counted when Nav, content links alone
// (relink.ContentLinks) otherwise.
func (m Method) Paper(size int) relink.Paper {
	links := relink.AllLinks
	if !m.Nav {
		links = relink.ContentLinks
	}
	return relink.Paper{Depth: m.Depth, Backlinks: m.Backlinks, Radius: m.Radius, Size: size, Links: links}
}

// Methods returns every method of g, ordered by navigation setting (as
// listed in Nav, true first by default), backlink count, depth and radius.
// An invalid grid gives nil.
func (g Grid) Methods() []Method {
	n, err := g.normalize()
	if err != nil {
		return nil
	}
	var out []Method
	for _, nav := range n.Nav {
		for _, k := range n.Backlinks {
			for _, d := range n.Depths {
				for _, r := range n.Radii {
					out = append(out, Method{Depth: d, Radius: r, Backlinks: k, Nav: nav})
				}
			}
		}
	}
	return out
}

// normalize fills in the paper's values, sorts and deduplicates, and checks
// the grid.
func (g Grid) normalize() (Grid, error) {
	n := Grid{
		Depths:    sortedSet(g.Depths, PaperDepths),
		Backlinks: sortedSet(g.Backlinks, PaperBacklinks),
		Sizes:     sortedSet(g.Sizes, PaperSizes),
		Radii:     sortedSet(g.Radii, PaperRadii),
		Nav:       []bool{true},
	}
	if g.Nav != nil {
		// Empty, not nil: a grid without navigation settings stays
		// without methods when it is normalized again.
		n.Nav = []bool{}
		for _, v := range g.Nav {
			if !slices.Contains(n.Nav, v) {
				n.Nav = append(n.Nav, v)
			}
		}
	}
	// The paper's order of radii: anchor, then wider windows, page last.
	slices.SortFunc(n.Radii, func(a, b backlink.Radius) int {
		return cmp.Compare(uint(a), uint(b)) // Page (-1) sorts last
	})
	switch {
	case n.Depths[0] < 1:
		return n, fmt.Errorf("%w: depth %d", ErrGrid, n.Depths[0])
	case n.Backlinks[0] < 1:
		return n, fmt.Errorf("%w: backlink count %d", ErrGrid, n.Backlinks[0])
	case n.Sizes[0] < 1:
		return n, fmt.Errorf("%w: signature size %d", ErrGrid, n.Sizes[0])
	case slices.Min(n.Radii) < backlink.Page:
		return n, fmt.Errorf("%w: radius %d", ErrGrid, slices.Min(n.Radii))
	}
	return n, nil
}

// sortedSet returns the values of s, or of def when s is empty, sorted
// and without repeats, in a new slice.
func sortedSet[T cmp.Ordered](s, def []T) []T {
	if len(s) == 0 {
		s = def
	}
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

// Progress is the state of an evaluation, reported after each target.
type Progress struct {
	// Done is the number of targets evaluated, Total the number to do.
	Done, Total int
	// Pages is the number of distinct backlink pages fetched and filtered.
	Pages int
	// Queries is the number of distinct queries sent to the Searcher.
	Queries int
}

// Report is the outcome of an evaluation.
type Report struct {
	// Table holds each target's rank for every method (Method.String) and
	// size, added in the order of Evaluation.Targets: its Runs are the
	// entries of the benchmark's summary.json.
	Table *score.Table
	// Methods are the grid's methods, in the order of Grid.Methods.
	Methods []Method
	// Sizes are the grid's signature sizes, ascending: the order of
	// MethodReport.Ranks.
	Sizes []int
	// Targets has one report per target, in the order of
	// Evaluation.Targets.
	Targets []TargetReport
	// Pages counts the distinct backlink pages of the evaluation by the
	// verdict of fetching and filtering them: OutcomeKept, FilterFetch or
	// the name of the filter that rejected the page (the paper's Table
	// "Pre-Processing Results"). A page that passed the filters counts as
	// kept even if it holds no usable link, which is looked for once per
	// page and target (see Preprocessing); FilterLink appears here only
	// for a page that cannot be read at all (a URI that is not absolute).
	Pages map[string]int
	// Preprocessing breaks the backlink pages down by navigation setting
	// and level, in the neighborhoods of the grid's largest backlink count.
	Preprocessing []Preprocessing
	// Costs holds, for each method (grid methods and Strategies), what
	// one target cost on average, as if it had been rediscovered alone.
	// A grid method's cost is that of one signature size: one search.
	Costs map[string]score.Cost
	// Queries is the number of distinct queries sent to the Searcher;
	// Searches the number of queries the methods looked up, repeats
	// included. A method whose neighborhood is the same as with a smaller
	// backlink count (the target has fewer backlinks than that count)
	// takes that method's outcome without looking anything up.
	Queries, Searches int
}

// Preprocessing counts what happened to the backlink pages at one level of
// the targets' neighborhoods, with one navigation setting, at the grid's
// largest backlink count: the paper's Table "Pre-Processing Results".
type Preprocessing struct {
	// Nav is false for the neighborhoods without navigation links.
	Nav bool `json:"nav"`
	// Level is the backlink level, 1 or 2.
	Level int `json:"level"`
	// Pages counts distinct pages by the verdict of fetching and filtering
	// them (OutcomeKept, FilterFetch, a filter's name), as Report.Pages.
	Pages map[string]int `json:"pages"`
	// Occurrences counts (target, page) pairs by outcome: a page is
	// counted once for each target whose neighborhood holds it, and one
	// that passed the filters but holds no usable link to the page it was
	// listed for counts as FilterLink.
	Occurrences map[string]int `json:"occurrences"`
}

// TargetReport is what one target's evaluation found.
type TargetReport struct {
	// URI is the canonical target.
	URI string `json:"uri"`
	// Methods maps each method's name (Method.String) to its outcome.
	Methods map[string]MethodReport `json:"methods"`
	// Cost is what evaluating the target cost. Unlike Methods it is not
	// the same from one run to the next: it holds times, and work shared
	// through the caches counts for whichever target did it first.
	Cost TargetCost `json:"cost"`
}

// MethodReport is one method's outcome for one target.
type MethodReport struct {
	// Backlinks is the number of backlink pages in the method's
	// neighborhood; Kept the number whose words were used (they passed
	// the filters and hold a link to the page they were listed for).
	Backlinks int `json:"backlinks"`
	Kept      int `json:"kept"`
	// Terms are the signature's top terms, as many as the largest size.
	Terms []string `json:"terms"`
	// Ranks are the target's rank for each size of Report.Sizes: 1 first,
	// 0 when not among the first score.MaxRank results or when there was
	// no term to search for. A strategy has one rank.
	Ranks []int `json:"ranks"`
	// Lookups, Searches and Fetches are what the method cost for this
	// target (see score.Cost); Searches is per size for a grid method.
	Lookups  int `json:"lookups"`
	Searches int `json:"searches"`
	Fetches  int `json:"fetches"`
	// Step is the strategy's Outcome.Step, if any.
	Step string `json:"step,omitempty"`
	// Confidences are the answer's confidence (relink.Result.Confidence)
	// for each rank of Ranks.
	Confidences []float64 `json:"confidences"`
	// First is a strategy's first candidate, "" when it had none (grid
	// methods leave it out).
	First string `json:"first,omitempty"`
	// Signals are what the judge saw of a strategy's first candidate
	// (relink.Result.Signals): with Ranks, the fit's input (lab/cmd/fit).
	// Grid methods leave them out.
	Signals map[string]float64 `json:"signals,omitempty"`
}

// View is the web as one evaluation target sees it: a web in which that
// target is missing. Its fetcher answers 404 (or nothing) for the target,
// and its backlink provider never lists it, since a missing page's links
// cannot be read; everything else is the same in every target's view.
// provider/store's WithMissing makes such views.
type View struct {
	// Backlinks lists the pages that link to a URI, every link counting.
	// For a Grid whose Nav holds false it should be a
	// backlink.ContentProvider (the store's views are); otherwise the
	// Finder tells navigation links apart on the pages themselves.
	Backlinks backlink.Provider
	// Fetcher retrieves backlink pages and the soft-404 probes.
	Fetcher filter.Fetcher
}

// Evaluation is an experiment: Targets, Missing, DF and Searcher are
// required.
type Evaluation struct {
	// Targets are the URIs to rediscover, evaluated one at a time as
	// missing. They are canonicalized (canon.Canonicalize); one that cannot
	// be is an error. A target is found when a candidate's URI
	// canonicalizes to it (or to its Answer).
	Targets []string
	// Missing returns the view in which target (canonical) is missing. It
	// is called once per target, from the worker goroutines, and must be
	// safe for concurrent use.
	Missing func(target string) View
	// DF answers document frequencies for TF-IDF. Evaluate looks terms up
	// through a lexsig.Cache (a DF that is already a *lexsig.Cache is used
	// as it is), so each term reaches DF once.
	DF lexsig.DF
	// Searcher runs the queries, asked for score.MaxRank (1000) results:
	// the paper checked the first 1000 (§3.3 "Scoring of Results"). Each
	// distinct query reaches it once.
	Searcher lexsig.Searcher
	// Filters are the paper's five filters. When its Fetcher is nil, the
	// soft-404 probes go through the view's Fetcher.
	Filters filter.Filters
	// Grid is the set of the paper's methods; its zero value is the
	// paper's grid.
	Grid Grid
	// Mode combines the grid's query terms; the zero value is
	// conjunctive, as a web search engine does.
	Mode lexsig.Mode
	// Strategies are further methods, each run for each target as
	// Finder.Find runs it.
	Strategies []relink.Strategy
	// LeaveOutMissing and LeaveOutBacklinks leave the missing URI and the
	// backlink pages out of the candidates, as a Finder does by default
	// (relink.Finder.KeepMissing, KeepBacklinks). The zero value keeps
	// both: the paper's setting, where the page kept its URI in the
	// engine and the paper counted whatever the engine answered.
	LeaveOutMissing, LeaveOutBacklinks bool
	// PageBudget bounds the bytes of parsed backlink pages kept for the
	// whole evaluation (relink.NewPageCache); zero or less keeps every
	// page. A page dropped is fetched, filtered and parsed again when a
	// later target needs it: the results are the same, the time longer.
	PageBudget int64
	// CandidateBudget bounds the bytes of the readings of candidate pages
	// (relink.ReadCandidate: Rerank's headings and word counts) kept for
	// the whole evaluation (relink.NewCandidateCache); zero or less keeps
	// every one. A page dropped is read again when a later target needs
	// it: the results are the same, the time longer.
	CandidateBudget int64
	// SearchBudget bounds the bytes of search answers kept for the whole
	// evaluation; zero or less keeps every answer. A query dropped is
	// searched again when a later method asks it: the results are the
	// same, the time longer.
	SearchBudget int64
	// Threshold is the confidence at or above which a method answers with
	// its first candidate, for Report's answers (score.Run.Answer); zero
	// means relink.DefaultThreshold.
	Threshold float64
	// Workers is how many targets are evaluated at once; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// Progress, when not nil, is called after each target, from one
	// goroutine at a time. It must return quickly.
	Progress func(Progress)
	// Answer, when not nil, returns the URI at which the page of target
	// is to be found (canonical, or canonicalized; one that cannot be
	// counts as never found): its new URI in the "moved" mode, where the
	// page was published anew elsewhere. Nil means the target itself.
	Answer func(target string) string
	// Archive, when not nil, returns an archived copy of the target's page
	// for the strategies that use one (relink.Needs.Archive); a nil Page
	// or an error means there is none.
	Archive func(ctx context.Context, target string) (*filter.Page, error)
}

// Evaluate runs ev: every target, every method of ev.Grid at every size,
// and every Strategy.
//
// Each target gets a relink.Finder over its view, whose Strategy runs as
// Finder.Find runs it: Finder.Clues gathers the neighborhood a method
// needs, the Strategy searches, and Finder.Answer makes the Result whose
// candidates are ranked. A grid method draws its signature once
// (relink.Paper.Signature) and queries it at every size (Paper.Query), as
// Paper.Find would at each size. Work is shared through caches around the
// providers, never by computing anything another way: each backlink page
// is inspected once for the whole evaluation, or once each time it comes
// back after the page budget dropped it (relink.NewPageCache: its verdict
// does not depend on which target is missing, since views differ only in
// the missing target), each URI's backlinks are asked once per
// target at the grid's largest count and cut for the smaller ones (a
// Provider answers its best first), each term's DF is looked up once, and
// each distinct query is searched once.
//
// Memory grows with the distinct backlink pages kept parsed (all of them
// unless PageBudget bounds them; the term counts of whole pages, for
// radius backlink.Page, come on top of Document.Size, a tenth to a sixth
// more), the distinct queries (each result list kept as small integers,
// with its scores, all of them unless SearchBudget bounds them), and,
// beyond any budget, the neighborhoods of the targets being evaluated,
// the reports (a few dozen KB per target, their terms interned), the
// document frequencies of the terms met (a few dozen bytes per term), the
// keys of the queries searched and the canonical forms of the candidate
// URIs ranked.
//
// Rejected backlink pages are outcomes, not errors, and so is a method
// that finds nothing to search (relink.ErrNoQuery: rank 0). An error of a
// provider (backlinks, DF, search) stops the evaluation and is returned;
// so is ctx.Err() when ctx is done.
func Evaluate(ctx context.Context, ev Evaluation) (*Report, error) {
	switch {
	case ev.Missing == nil:
		return nil, errors.New("eval: no Missing function")
	case ev.DF == nil:
		return nil, errors.New("eval: no DF")
	case ev.Searcher == nil:
		return nil, errors.New("eval: no Searcher")
	}
	grid, err := ev.Grid.normalize()
	if err != nil {
		return nil, err
	}
	targets := make([]string, len(ev.Targets))
	for i, t := range ev.Targets {
		if targets[i], err = canon.Canonicalize(t); err != nil {
			return nil, fmt.Errorf("eval: target %q: %w", t, err)
		}
	}
	df, ok := ev.DF.(*lexsig.Cache)
	if !ok {
		df = lexsig.NewCache(ev.DF)
	}
	r := &run{
		ev:      &ev,
		grid:    grid,
		df:      df,
		pages:   &recordedPages{c: relink.NewPageCache(ev.PageBudget), outcomes: map[string]string{}},
		reads:   relink.NewCandidateCache(ev.CandidateBudget),
		search:  newSearchCache(ev.Searcher, ev.SearchBudget),
		reports: make([]TargetReport, len(targets)),
		pre:     map[preKey]*preCounts{},
	}
	if err := r.all(ctx, targets); err != nil {
		return nil, err
	}
	return r.report(), nil
}

// run is the state of one Evaluate call, shared by its workers.
type run struct {
	ev     *Evaluation
	grid   Grid
	df     *lexsig.Cache
	pages  *recordedPages
	reads  *relink.MemoryCandidateCache
	search *searchCache

	mu      sync.Mutex // guards pre
	pre     map[preKey]*preCounts
	reports []TargetReport

	canonical canonicals // of the candidates ranked
}

// all evaluates the targets with the workers and stops at the first error.
func (r *run) all(ctx context.Context, targets []string) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	workers := r.ev.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	jobs := make(chan int)
	var (
		wg     sync.WaitGroup
		progMu sync.Mutex
		done   int
	)
	for range min(workers, max(len(targets), 1)) {
		wg.Go(func() {
			for i := range jobs {
				var rep TargetReport
				var err error
				// The label attributes the samples of a CPU profile to
				// the target, in every goroutine its stages start.
				pprof.Do(ctx, pprof.Labels("target", targets[i]), func(ctx context.Context) {
					rep, err = r.target(ctx, targets[i], workers == 1)
				})
				if err != nil {
					cancel(err)
					continue
				}
				r.reports[i] = rep
				if r.ev.Progress != nil {
					progMu.Lock()
					done++
					r.ev.Progress(Progress{Done: done, Total: len(targets), Pages: r.pages.Len(), Queries: r.search.distinct()})
					progMu.Unlock()
				}
			}
		})
	}
feed:
	for i := range targets {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return context.Cause(ctx)
}

// report assembles the Report once every target is done.
func (r *run) report() *Report {
	rep := &Report{
		Table:    score.NewTable(),
		Methods:  r.grid.Methods(),
		Sizes:    r.grid.Sizes,
		Targets:  r.reports,
		Pages:    map[string]int{},
		Queries:  r.search.distinct(),
		Searches: int(r.search.asked.Load()),
	}
	sums := map[string]*score.Cost{}
	addCost := func(name string, mr MethodReport) {
		c := sums[name]
		if c == nil {
			c = &score.Cost{}
			sums[name] = c
		}
		c.Lookups += float64(mr.Lookups)
		c.Searches += float64(mr.Searches)
		c.Fetches += float64(mr.Fetches)
	}
	threshold := cmp.Or(r.ev.Threshold, relink.DefaultThreshold)
	add := func(name string, size int, mr MethodReport, i int) {
		rep.Table.Add(name, size, mr.Ranks[i])
		answered := mr.Confidences[i] >= threshold
		rep.Table.AddAnswer(name, size, answered, answered && mr.Ranks[i] == 1)
	}
	for _, m := range rep.Methods {
		rep.Table.Describe(m.String(), score.MethodInfo{Threshold: threshold})
	}
	for _, st := range r.ev.Strategies {
		rep.Table.Describe(st.Name(), score.MethodInfo{Threshold: threshold, UsesArchive: st.Needs().Archive, Default: st.Name() == relink.Default().Name()})
	}
	for _, t := range r.reports {
		for _, m := range rep.Methods {
			name := m.String()
			for i, size := range r.grid.Sizes {
				add(name, size, t.Methods[name], i)
			}
			addCost(name, t.Methods[name])
		}
		for _, st := range r.ev.Strategies {
			mr := t.Methods[st.Name()]
			add(st.Name(), st.Terms(), mr, 0)
			addCost(st.Name(), mr)
		}
	}
	rep.Costs = map[string]score.Cost{}
	for name, c := range sums {
		n := float64(len(r.reports))
		rep.Costs[name] = score.Cost{Lookups: c.Lookups / n, Searches: c.Searches / n, Fetches: c.Fetches / n}
	}
	outcomes := r.pages.outcomes
	for _, o := range outcomes {
		rep.Pages[o]++
	}
	for _, nav := range r.grid.Nav {
		for level := 1; level <= slices.Max(r.grid.Depths); level++ {
			c := r.pre[preKey{nav, level}]
			p := Preprocessing{Nav: nav, Level: level, Pages: map[string]int{}, Occurrences: map[string]int{}}
			if c != nil {
				maps.Copy(p.Occurrences, c.occurrences)
				for uri, outcome := range c.pages {
					if o, ok := outcomes[uri]; ok {
						outcome = o
					}
					p.Pages[outcome]++
				}
			}
			rep.Preprocessing = append(rep.Preprocessing, p)
		}
	}
	return rep
}

// preKey and preCounts collect Preprocessing.
type preKey struct {
	nav   bool
	level int
}

type preCounts struct {
	pages       map[string]string // canonical URI → outcome in the trail
	occurrences map[string]int
}

// targetRun is the state of one target's evaluation.
type targetRun struct {
	*run
	target string
	answer string // the canonical URI at which the page is found
	finder *relink.Finder
	links  *prefixCache
	meter  *costMeter
	rep    TargetReport
	pre    map[preKey]*preCounts
	// same maps a neighborhood (its pages, levels and vias, and the
	// navigation setting) to the method that drew from it first: a
	// method whose neighborhood is the same has the same outcome.
	same map[string]Method
}

// target evaluates every method for one target; alone says whether it
// runs alone, so that the process's CPU time over it is its own.
func (r *run) target(ctx context.Context, target string, alone bool) (TargetReport, error) {
	meter := &costMeter{}
	meter.begin(alone)
	view := r.ev.Missing(target)
	if view.Fetcher == nil || view.Backlinks == nil {
		return TargetReport{}, fmt.Errorf("eval: %s: view without Fetcher or Backlinks", target)
	}
	answer := target
	if r.ev.Answer != nil {
		var err error
		if answer, err = canon.Canonicalize(r.ev.Answer(target)); err != nil {
			answer = "\x00never"
		}
	}
	links := &prefixCache{p: view.Backlinks, limit: slices.Max(r.grid.Backlinks), m: map[string][]backlink.Backlink{}}
	t := &targetRun{
		run:    r,
		target: target,
		answer: answer,
		links:  links,
		meter:  meter,
		finder: &relink.Finder{
			Backlinks:     links,
			Fetcher:       view.Fetcher,
			DF:            r.df,
			Searcher:      meteredSearcher{r.search, meter},
			Filters:       r.ev.Filters,
			Pages:         meteredPages{r.pages, meter},
			Candidates:    viewCandidates{r.reads, target, &r.canonical},
			Results:       score.MaxRank,
			KeepMissing:   !r.ev.LeaveOutMissing,
			KeepBacklinks: !r.ev.LeaveOutBacklinks,
		},
		rep:  TargetReport{URI: target, Methods: map[string]MethodReport{}},
		pre:  map[preKey]*preCounts{},
		same: map[string]Method{},
	}
	if r.ev.Archive != nil {
		t.finder.Archive = filter.FetcherFunc(r.ev.Archive)
	}
	for _, nav := range r.grid.Nav {
		for _, k := range r.grid.Backlinks {
			for _, d := range r.grid.Depths {
				if err := t.methods(ctx, Method{Depth: d, Backlinks: k, Nav: nav}); err != nil {
					return TargetReport{}, err
				}
			}
		}
	}
	for _, st := range r.ev.Strategies {
		if err := t.strategy(ctx, st); err != nil {
			return TargetReport{}, err
		}
	}
	meter.lookups = t.links.calls.Load()
	t.rep.Cost = meter.cost()
	r.mu.Lock()
	for key, c := range t.pre {
		all := r.pre[key]
		if all == nil {
			all = &preCounts{pages: map[string]string{}, occurrences: map[string]int{}}
			r.pre[key] = all
		}
		maps.Copy(all.pages, c.pages)
		for o, n := range c.occurrences {
			all.occurrences[o] += n
		}
	}
	r.mu.Unlock()
	return t.rep, nil
}

// methods gathers the clues of the grid's methods with m's depth, backlink
// count and navigation setting, and records every radius at every size.
func (t *targetRun) methods(ctx context.Context, m Method) error {
	lookups := t.links.calls.Load()
	var clues *relink.Clues
	var err error
	timed(&t.meter.clues, func() { clues, err = t.finder.Clues(ctx, t.target, m.Paper(0).Needs()) })
	if err != nil {
		return fmt.Errorf("eval: %s: %w", t.target, err)
	}
	t.meter.walked += len(clues.Evidence)
	lookups = t.links.calls.Load() - lookups
	if m.Backlinks == slices.Max(t.grid.Backlinks) && m.Depth == slices.Max(t.grid.Depths) {
		t.count(m.Nav, clues)
	}
	key := neighborhoodKey(m.Nav, clues)
	if prev, ok := t.same[key]; ok {
		// Fewer backlinks exist than the larger count allows: the
		// signatures, queries and candidates are those of prev.
		for _, r := range t.grid.Radii {
			prev.Radius, m.Radius = r, r
			mr := t.rep.Methods[prev.String()]
			mr.Lookups = int(lookups)
			t.rep.Methods[m.String()] = mr
		}
		return nil
	}
	t.same[key] = m
	fetches, kept := 0, 0
	for _, e := range clues.Evidence {
		fetches += e.Fetches
		if e.Kept {
			kept++
		}
	}
	for _, r := range t.grid.Radii {
		m.Radius = r
		// The top terms of the largest size alone (Paper.Top): every
		// size's query is a prefix of them.
		p := m.Paper(slices.Max(t.grid.Sizes))
		p.Mode = t.ev.Mode
		var sig lexsig.Signature
		timed(&t.meter.signatures, func() { sig, err = p.Top(ctx, clues, t.df) })
		if err != nil {
			return fmt.Errorf("eval: %s: %w", t.target, err)
		}
		mr := MethodReport{
			Backlinks:   len(clues.Evidence),
			Kept:        kept,
			Lookups:     int(lookups),
			Searches:    1,
			Fetches:     fetches,
			Terms:       own(sig.Terms()),
			Ranks:       make([]int, len(t.grid.Sizes)),
			Confidences: make([]float64, len(t.grid.Sizes)),
		}
		for i, size := range t.grid.Sizes {
			p.Size = size
			q := p.Query(sig)
			o := &relink.Outcome{}
			if len(q.Terms) > 0 {
				o.Queries = []lexsig.Query{q}
				if o.Candidates, err = t.finder.Searcher.Search(ctx, q, score.MaxRank); err != nil {
					return fmt.Errorf("eval: %s: search %q: %w", t.target, q, err)
				}
			}
			if mr.Ranks[i], mr.Confidences[i], err = t.rank(p, clues, o); err != nil {
				return err
			}
		}
		t.rep.Methods[m.String()] = mr
	}
	return nil
}

// neighborhoodKey identifies the backlink pages of clues, with the
// navigation setting they were gathered under.
func neighborhoodKey(nav bool, c *relink.Clues) string {
	var b strings.Builder
	fmt.Fprint(&b, nav)
	for _, e := range c.Evidence {
		fmt.Fprintf(&b, "\x00%s\x00%d\x00%s", e.URI, e.Level, e.Via)
	}
	return b.String()
}

// strategy runs st for the target as Finder.Find does, one stage after
// the other so that each is timed (Clues, the Strategy's Find, Answer), and
// records it.
func (t *targetRun) strategy(ctx context.Context, st relink.Strategy) error {
	lookups := t.links.calls.Load()
	res, err := t.find(ctx, st)
	if err != nil && !errors.Is(err, relink.ErrNoQuery) {
		return fmt.Errorf("eval: %s: %s: %w", t.target, st.Name(), err)
	}
	mr := MethodReport{
		Backlinks:   len(res.Backlinks),
		Ranks:       []int{t.rankIn(res.Candidates)},
		Confidences: []float64{res.Confidence},
		Lookups:     int(t.links.calls.Load() - lookups),
		Searches:    len(res.Queries),
		Fetches:     res.Fetches,
		Step:        res.Step,
	}
	for _, b := range res.Backlinks {
		mr.Fetches += b.Fetches
		if b.Kept {
			mr.Kept++
		}
	}
	if len(res.Queries) > 0 {
		mr.Terms = own(slices.Clone(res.Queries[0].Terms))
	}
	if len(res.Candidates) > 0 {
		mr.First = res.Candidates[0].URI
	}
	mr.Signals = res.Signals
	t.rep.Methods[st.Name()] = mr
	return nil
}

// find is Finder.Find of st for the target, its stages timed.
func (t *targetRun) find(ctx context.Context, st relink.Strategy) (*relink.Result, error) {
	var clues *relink.Clues
	var err error
	timed(&t.meter.clues, func() { clues, err = t.finder.Clues(ctx, t.target, st.Needs()) })
	if err != nil {
		return nil, err
	}
	t.meter.walked += len(clues.Evidence)
	var o *relink.Outcome
	searched := t.meter.search.Load()
	var took time.Duration
	timed(&took, func() { o, err = st.Find(ctx, clues, t.finder.Tools()) })
	// Searches the strategy ran at once may add up to more than it took.
	t.meter.signatures += max(took-time.Duration(t.meter.search.Load()-searched), 0)
	if err != nil {
		return nil, err
	}
	var res *relink.Result
	timed(&t.meter.judge, func() { res, err = t.finder.Answer(st, clues, o) })
	return res, err
}

// own returns terms, each in memory of its own (interned): a report is
// kept for the whole evaluation, and a term cut from the words drawn from
// a backlink page would keep all of those words alive with it.
func own(terms []string) []string {
	for i, t := range terms {
		terms[i] = unique.Make(t).Value()
	}
	return terms
}

// rank returns the rank of the target's page among the candidates that
// Finder.Answer makes of o, and the answer's confidence.
func (t *targetRun) rank(s relink.Strategy, c *relink.Clues, o *relink.Outcome) (int, float64, error) {
	var res *relink.Result
	var err error
	timed(&t.meter.judge, func() { res, err = t.finder.Answer(s, c, o) })
	if err != nil && !errors.Is(err, relink.ErrNoQuery) {
		return 0, 0, err
	}
	return t.rankIn(res.Candidates), res.Confidence, nil
}

// rankIn returns the rank of the target's page in candidates, 1 first, or 0.
func (t *targetRun) rankIn(candidates []lexsig.Result) int {
	for i, c := range candidates[:min(len(candidates), score.MaxRank)] {
		if u, ok := t.canonical.of(c.URI); ok && u == t.answer {
			return i + 1
		}
	}
	return 0
}

// canonicals keeps the canonical form of every candidate URI ranked
// (canon.Canonicalize), for the whole evaluation: the same few thousand
// URIs come back in the answers of most queries, each ranked once per
// signature size and method.
type canonicals struct {
	mu sync.Mutex
	m  map[string]canonical
}

type canonical struct {
	uri string
	ok  bool // the URI could be canonicalized
}

// of returns canon.Canonicalize(uri), and false when it fails.
func (c *canonicals) of(uri string) (string, bool) {
	c.mu.Lock()
	got, seen := c.m[uri]
	c.mu.Unlock()
	if !seen {
		u, err := canon.Canonicalize(uri)
		got = canonical{u, err == nil}
		c.mu.Lock()
		if c.m == nil {
			c.m = map[string]canonical{}
		}
		c.m[uri] = got
		c.mu.Unlock()
	}
	return got.uri, got.ok
}

// count adds the outcomes of the neighborhood's backlink pages to the
// preprocessing counts.
func (t *targetRun) count(nav bool, c *relink.Clues) {
	for _, e := range c.Evidence {
		key := preKey{nav, e.Level}
		pc := t.pre[key]
		if pc == nil {
			pc = &preCounts{pages: map[string]string{}, occurrences: map[string]int{}}
			t.pre[key] = pc
		}
		outcome := relink.OutcomeKept
		if !e.Kept {
			outcome = e.Filter
		}
		if uri, err := canon.Canonicalize(e.URI); err == nil {
			pc.pages[uri] = outcome
		}
		pc.occurrences[outcome]++
	}
}

// recordedPages is a relink.PageCache that records the outcome of every
// page inspected, by canonical URI, for Report.Pages and Preprocessing:
// the cache itself may drop pages.
type recordedPages struct {
	c        *relink.MemoryPageCache
	mu       sync.Mutex
	outcomes map[string]string
	seen     inspected
}

// Inspect implements relink.PageCache.
func (r *recordedPages) Inspect(ctx context.Context, uri string, inspect func(context.Context) *relink.Inspection) *relink.Inspection {
	in := r.c.Inspect(ctx, uri, inspect)
	if ctx.Err() == nil {
		if c, err := canon.Canonicalize(uri); err == nil {
			r.mu.Lock()
			r.outcomes[c] = in.Outcome()
			r.mu.Unlock()
		}
	}
	return in
}

// Len returns the number of distinct pages inspected.
func (r *recordedPages) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.outcomes)
}

// prefixCache is a backlink.Provider (and backlink.ContentProvider) that
// asks its provider about each URI once, for limit backlinks, and answers
// smaller limits with a prefix of that answer: a Provider answers its best
// backlinks first. It counts the calls made of it, as a Finder sees them.
type prefixCache struct {
	p     backlink.Provider
	limit int
	calls atomic.Int64
	mu    sync.Mutex
	m     map[string][]backlink.Backlink
}

// Backlinks implements backlink.Provider.
func (c *prefixCache) Backlinks(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
	return c.get(ctx, "all\x00"+uri, limit, func(n int) ([]backlink.Backlink, error) { return c.p.Backlinks(ctx, uri, n) })
}

// ContentBacklinks implements backlink.ContentProvider: the provider's
// content backlinks when it has them, all backlinks otherwise (the Finder
// then tells navigation links apart on the pages).
func (c *prefixCache) ContentBacklinks(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
	cp, ok := c.p.(backlink.ContentProvider)
	if !ok {
		return c.Backlinks(ctx, uri, limit)
	}
	return c.get(ctx, "content\x00"+uri, limit, func(n int) ([]backlink.Backlink, error) { return cp.ContentBacklinks(ctx, uri, n) })
}

// FoldsSchemes reports whether the provider does (backlink.SchemeFolder).
func (c *prefixCache) FoldsSchemes() bool { return backlink.FoldsSchemes(c.p) }

func (c *prefixCache) get(ctx context.Context, key string, limit int, ask func(int) ([]backlink.Backlink, error)) ([]backlink.Backlink, error) {
	c.calls.Add(1)
	c.mu.Lock()
	answer, ok := c.m[key]
	c.mu.Unlock()
	if !ok || limit > c.limit {
		var err error
		if answer, err = ask(max(limit, c.limit)); err != nil {
			return nil, err
		}
		if limit <= c.limit {
			c.mu.Lock()
			c.m[key] = answer
			c.mu.Unlock()
		}
	}
	return slices.Clone(answer[:min(len(answer), limit)]), nil
}

// searchCache is a lexsig.Searcher that searches each distinct query once
// for the whole evaluation, asking for score.MaxRank results, and keeps
// the answers as small integers (the URIs and titles once each) and their
// scores, which relink.Confidence reads. With a budget it keeps the
// answers of at most about max bytes, dropping the least recently used; a
// query dropped is searched again when it is asked again.
type searchCache struct {
	s     lexsig.Searcher
	asked atomic.Int64
	max   int64

	mu      sync.Mutex
	queries map[string]*queryEntry
	seen    map[string]bool  // every query searched, kept or dropped
	ids     map[string]int32 // result URI → id
	uris    []lexsig.Result  // id → URI and title
	lru     *list.List       // of *queryEntry kept, most recently used first
	bytes   int64
}

type queryEntry struct {
	mu     sync.Mutex
	key    string
	done   bool
	ids    []int32
	scores []float64
	elem   *list.Element
}

// entryOverhead is what an answer costs beyond its ids and scores.
const entryOverhead = 128

func newSearchCache(s lexsig.Searcher, maxBytes int64) *searchCache {
	return &searchCache{s: s, max: maxBytes, queries: map[string]*queryEntry{}, seen: map[string]bool{}, ids: map[string]int32{}, lru: list.New()}
}

// distinct returns the number of distinct queries searched.
func (c *searchCache) distinct() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.seen)
}

// Search implements lexsig.Searcher. A limit above score.MaxRank is read
// as score.MaxRank.
func (c *searchCache) Search(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
	res, _, err := c.search(ctx, q, limit)
	return res, err
}

// search is Search that also reports whether the query was sent to the
// Searcher (it was not kept).
func (c *searchCache) search(ctx context.Context, q lexsig.Query, limit int) (_ []lexsig.Result, searched bool, _ error) {
	c.asked.Add(1)
	key := relink.QueryKey(q)
	c.mu.Lock()
	e := c.queries[key]
	if e == nil {
		e = &queryEntry{key: key}
		c.queries[key] = e
	} else if e.elem != nil {
		c.lru.MoveToFront(e.elem)
	}
	c.mu.Unlock()
	e.mu.Lock()
	if !e.done {
		results, err := c.s.Search(ctx, q, score.MaxRank)
		if err != nil {
			e.mu.Unlock()
			return nil, false, err
		}
		searched = true
		results = results[:min(len(results), score.MaxRank)]
		e.ids = make([]int32, len(results))
		e.scores = make([]float64, len(results))
		c.mu.Lock()
		for i, res := range results {
			e.scores[i] = res.Score
			id, ok := c.ids[res.URI]
			if !ok {
				id = int32(len(c.uris))
				c.ids[res.URI] = id
				c.uris = append(c.uris, lexsig.Result{URI: res.URI, Title: res.Title})
			}
			e.ids[i] = id
		}
		e.done = true
		c.seen[key] = true
		if c.queries[key] == e {
			e.elem = c.lru.PushFront(e)
			c.bytes += e.size()
			for c.max > 0 && c.bytes > c.max && c.lru.Len() > 1 {
				last := c.lru.Remove(c.lru.Back()).(*queryEntry)
				delete(c.queries, last.key)
				c.bytes -= last.size()
			}
		}
		c.mu.Unlock()
	}
	ids, scores := e.ids, e.scores
	e.mu.Unlock()
	out := make([]lexsig.Result, min(len(ids), limit))
	c.mu.Lock()
	for i := range out {
		out[i] = c.uris[ids[i]]
		out[i].Rank, out[i].Score = i+1, scores[i]
	}
	c.mu.Unlock()
	return out, searched, nil
}

// size is about how many bytes the entry's answer holds.
func (e *queryEntry) size() int64 {
	return entryOverhead + int64(len(e.key)) + 4*int64(len(e.ids)) + 8*int64(len(e.scores))
}
