package relink

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unique"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/score"
)

// OutcomeKept is the outcome of a backlink page that passed every filter
// and held a usable link, in Report.Pages and Preprocessing. Other outcomes
// are the filter package's names (filter.FilterStatus, ...), FilterFetch and
// FilterLink.
const OutcomeKept = "kept"

// NoNavSuffix ends the name of a method that leaves navigation links out,
// as in "1-anchor-10-nonav". The plain names mean what the paper did: every
// link counts, navigation included (BENCHMARK.md, "summary.json").
const NoNavSuffix = "-nonav"

// ErrGrid is wrapped by the error Evaluate returns for a Grid that holds an
// impossible setting: a depth, backlink count or signature size below 1, or
// a radius below backlink.Page.
var ErrGrid = errors.New("relink: invalid grid")

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
	// lists (View.ContentBacklinks) and the words drawn, and adds
	// NoNavSuffix to the method's name.
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
// NoNavSuffix when navigation links are left out.
func (m Method) String() string {
	s := strconv.Itoa(m.Depth) + "-" + RadiusName(m.Radius) + "-" + strconv.Itoa(m.Backlinks)
	if !m.Nav {
		s += NoNavSuffix
	}
	return s
}

// RadiusName names a radius as the paper's figures do: "anchor", "five",
// "ten" and "page" for its four settings, and "rN" (for example "r20") for
// any other radius of N words.
func RadiusName(r backlink.Radius) string {
	switch r {
	case backlink.Anchor:
		return "anchor"
	case 5:
		return "five"
	case 10:
		return "ten"
	case backlink.Page:
		return "page"
	}
	return "r" + strconv.Itoa(int(r))
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
		n.Nav = nil
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

// View is the web as one evaluation target sees it: a web in which that
// target is missing. Its fetcher answers 404 (or nothing) for the target,
// and its backlink providers never list it, since a missing page's links
// cannot be read; everything else is the same in every target's view.
// provider/store's WithMissing makes such views.
type View struct {
	// Backlinks lists the pages that link to a URI, every link counting,
	// navigation included (the paper's setting).
	Backlinks backlink.Provider
	// ContentBacklinks lists the pages that link to a URI with a link that
	// is not navigation. It is needed only when the Grid's Nav holds false.
	ContentBacklinks backlink.Provider
	// Fetcher retrieves backlink pages and the soft-404 probes.
	Fetcher filter.Fetcher
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

// Evaluation runs the paper's experiment (§3 "Methodology"): each target in
// turn is treated as missing, its backlink neighborhood is gathered, and
// every method of the Grid draws a signature whose queries are searched for
// the target. Targets, Missing, DF and Searcher are required.
type Evaluation struct {
	// Targets are the URIs to rediscover, evaluated one at a time as
	// missing. They are canonicalized (canon.Canonicalize); one that cannot
	// be is an error. A target is found when a result's URI canonicalizes
	// to it.
	Targets []string
	// Missing returns the view in which target (canonical) is missing. It
	// is called once per target, from the worker goroutines, and must be
	// safe for concurrent use.
	Missing func(target string) View
	// DF answers document frequencies for TF-IDF. Evaluate looks terms up
	// through a lexsig.Cache (a DF that is already a *lexsig.Cache is used
	// as it is), so each term reaches DF once.
	DF lexsig.DF
	// Searcher runs the signatures' queries, asking for score.MaxRank
	// (1000) results: the paper checked the first 1000 (§3.3 "Scoring of
	// Results").
	Searcher lexsig.Searcher
	// Filters are the paper's five filters. When its Fetcher is nil, the
	// soft-404 probes go through the view's Fetcher.
	Filters filter.Filters
	// Grid is the set of methods; its zero value is the paper's grid.
	Grid Grid
	// Mode combines the query's terms; the zero value is conjunctive, as a
	// web search engine does.
	Mode lexsig.Mode
	// Workers is how many targets are evaluated at once; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// Progress, when not nil, is called after each target, from one
	// goroutine at a time. It must return quickly.
	Progress func(Progress)
	// Strategies are further methods, run for each target on the clues
	// of its first StrategyBacklinks level-1 backlinks (navigation links
	// included, as the view's Backlinks lists them). Their queries ask
	// for score.MaxRank results.
	Strategies []Strategy
	// StrategyBacklinks is how many backlinks the Strategies' clues hold;
	// zero means DefaultBacklinks (10, the paper's best).
	StrategyBacklinks int
	// Answer, when not nil, returns the URI at which the page of target
	// is to be found (canonical, or canonicalized; one that cannot be
	// counts as never found): its new URI in the "moved" mode, where the
	// page was published anew elsewhere. Nil means the target itself.
	Answer func(target string) string
	// Archive, when not nil, returns an archived copy of the target's page
	// for the strategies that use one (Clues.Archive); a nil Page or an
	// error means there is none.
	Archive func(ctx context.Context, target string) (*filter.Page, error)
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
}

// Evaluate runs ev: every target, every method of ev.Grid, every size.
//
// Work is shared across the grid and the targets. Each distinct backlink
// page is fetched, filtered and parsed once for the whole evaluation: its
// verdict does not depend on which target is missing, since a missing
// target is never its own backlink (this assumes, as View says, that views
// differ only in the missing target). Each page's link to the URI it was
// listed for is located once per target and drawn for every radius; each
// distinct query is searched once. The neighborhoods are built as
// backlink.Neighborhood builds them, but each URI's backlinks are asked for
// once per target and navigation setting, at the largest backlink count,
// and cut for the smaller ones (level-1 lists are prefixes of one another).
// A level-2 page's words are drawn around its links to the level-1 page it
// was found through. Targets are evaluated by Workers goroutines.
//
// Memory grows with the distinct backlink pages (each kept parsed for the
// whole run) and the distinct queries (each result list kept as small
// integers). On the development corpus, 300 targets over the paper's grid
// with and without navigation links (4,456 pages, 30,615 queries) keep
// about 330 MB live, 820 MB resident at the peak.
//
// Rejected backlink pages are outcomes, not errors. An error of a provider
// (backlinks, DF, search) stops the evaluation and is returned; so is
// ctx.Err() when ctx is done.
func Evaluate(ctx context.Context, ev Evaluation) (*Report, error) {
	switch {
	case ev.Missing == nil:
		return nil, errors.New("relink: evaluate: no Missing function")
	case ev.DF == nil:
		return nil, errors.New("relink: evaluate: no DF")
	case ev.Searcher == nil:
		return nil, errors.New("relink: evaluate: no Searcher")
	}
	grid, err := ev.Grid.normalize()
	if err != nil {
		return nil, err
	}
	targets := make([]string, len(ev.Targets))
	for i, t := range ev.Targets {
		if targets[i], err = canon.Canonicalize(t); err != nil {
			return nil, fmt.Errorf("relink: evaluate: target %q: %w", t, err)
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
		pages:   map[string]*pageEntry{},
		queries: map[string]*queryEntry{},
		ids:     map[string]int32{},
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
	ev   *Evaluation
	grid Grid
	df   *lexsig.Cache

	mu      sync.Mutex // guards pages, queries, ids, pre
	pages   map[string]*pageEntry
	queries map[string]*queryEntry
	ids     map[string]int32 // canonical URI → small integer
	rawIDs  sync.Map         // result URI as the searcher wrote it → int32
	pre     map[preKey]*preCounts

	searches atomic.Int64 // queries asked for
	queried  atomic.Int64 // distinct queries searched
	fetched  atomic.Int64 // distinct pages fetched and filtered
	reports  []TargetReport
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
				rep, err := r.target(ctx, targets[i])
				if err != nil {
					cancel(err)
					continue
				}
				r.reports[i] = rep
				if r.ev.Progress != nil {
					progMu.Lock()
					done++
					r.ev.Progress(r.progress(done, len(targets)))
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
	if err := context.Cause(ctx); err != nil {
		return err
	}
	return nil
}

// progress returns the state after done targets.
func (r *run) progress(done, total int) Progress {
	return Progress{Done: done, Total: total, Pages: int(r.fetched.Load()), Queries: int(r.queried.Load())}
}

// report assembles the Report once every target is done.
func (r *run) report() *Report {
	rep := &Report{
		Table:    score.NewTable(),
		Methods:  r.grid.Methods(),
		Sizes:    r.grid.Sizes,
		Targets:  r.reports,
		Pages:    map[string]int{},
		Queries:  int(r.queried.Load()),
		Searches: int(r.searches.Load()),
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
	for _, t := range r.reports {
		for _, m := range rep.Methods {
			name := m.String()
			for i, size := range r.grid.Sizes {
				rep.Table.Add(name, size, t.Methods[name].Ranks[i])
			}
			addCost(name, t.Methods[name])
		}
		for _, st := range r.ev.Strategies {
			mr := t.Methods[st.Name()]
			rep.Table.Add(st.Name(), st.Terms(), mr.Ranks[0])
			if st.UsesArchive() {
				rep.Table.Describe(st.Name(), score.MethodInfo{UsesArchive: true})
			}
			addCost(st.Name(), mr)
		}
	}
	rep.Costs = map[string]score.Cost{}
	for name, c := range sums {
		n := float64(len(r.reports))
		rep.Costs[name] = score.Cost{Lookups: c.Lookups / n, Searches: c.Searches / n, Fetches: c.Fetches / n}
	}
	for _, p := range r.pages {
		if p.done {
			rep.Pages[p.outcome]++
		}
	}
	for _, nav := range r.grid.Nav {
		for level := 1; level <= slices.Max(r.grid.Depths); level++ {
			c := r.pre[preKey{nav, level}]
			p := Preprocessing{Nav: nav, Level: level, Pages: map[string]int{}, Occurrences: map[string]int{}}
			if c != nil {
				maps.Copy(p.Occurrences, c.occurrences)
				for uri := range c.pages {
					p.Pages[r.pages[uri].outcome]++
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
	pages       map[string]bool
	occurrences map[string]int
}

// pageEntry is one backlink page, fetched, filtered and parsed once for the
// whole evaluation.
type pageEntry struct {
	mu      sync.Mutex // held while the page is fetched and filtered
	done    bool
	outcome string // OutcomeKept, FilterFetch, FilterLink or a filter's name
	reason  string
	doc     *backlink.Document
	fetches int // requests its fetch and filters made

	tfOnce sync.Once
	tf     []termCount // the counted words of the whole page
}

// termCount is one term's frequency on a page.
type termCount struct {
	term string
	n    int
}

// page returns the entry of the backlink page uri (canonical key c),
// fetching and filtering it on first use. Only ctx's end is an error.
func (r *run) page(ctx context.Context, fetcher filter.Fetcher, filters *filter.Filters, uri, c string) (*pageEntry, error) {
	r.mu.Lock()
	e := r.pages[c]
	if e == nil {
		e = &pageEntry{}
		r.pages[c] = e
	}
	r.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.done {
		return e, nil
	}
	var n atomic.Int64
	counted := func(f filter.Fetcher) filter.Fetcher {
		return filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
			n.Add(1)
			return f.Fetch(ctx, uri)
		})
	}
	fs := *filters
	fs.Fetcher = counted(fs.Fetcher)
	outcome, reason, doc := check(ctx, counted(fetcher), &fs, uri)
	if err := ctx.Err(); err != nil {
		return nil, err // not cached: the next caller tries again
	}
	e.outcome, e.reason, e.doc, e.done = outcome, reason, doc, true
	e.fetches = int(n.Load())
	r.fetched.Add(1)
	return e, nil
}

// check fetches, filters and parses one backlink page, as Finder.Gather
// does.
func check(ctx context.Context, fetcher filter.Fetcher, filters *filter.Filters, uri string) (outcome, reason string, doc *backlink.Document) {
	page, err := fetcher.Fetch(ctx, uri)
	if err != nil {
		return FilterFetch, err.Error(), nil
	}
	rej, err := filters.Check(ctx, page)
	if err != nil {
		return FilterFetch, err.Error(), nil
	}
	if rej != nil {
		return rej.Filter, rej.Reason, nil
	}
	body, _, err := backlink.Decode(page.Body, page.Header.Get("Content-Type"))
	if err == nil {
		doc, err = backlink.Parse(body, page.URI)
	}
	if err != nil {
		return FilterLink, err.Error(), nil
	}
	return OutcomeKept, "", doc
}

// pageTF returns the counted words of the whole page, from loc, any of its
// located links.
func (e *pageEntry) pageTF(loc *backlink.Located) []termCount {
	e.tfOnce.Do(func() {
		tf := lexsig.Count(loc.Words(backlink.Page, true))
		e.tf = make([]termCount, 0, len(tf))
		for t, n := range tf {
			// Interned, so that the page's text is not kept alive by its
			// terms and each term is held once across pages.
			e.tf = append(e.tf, termCount{unique.Make(t).Value(), n})
		}
	})
	return e.tf
}

// queryEntry is one distinct query, searched once.
type queryEntry struct {
	mu   sync.Mutex
	done atomic.Bool // set, under mu, once ids are known
	ids  []int32     // the results' canonical URIs, as ids
}

// rank returns the rank of the target with id target in the results of q,
// 1 first, or 0.
func (r *run) rank(ctx context.Context, q lexsig.Query, target int32) (int, error) {
	r.searches.Add(1)
	key := queryKey(q)
	r.mu.Lock()
	e := r.queries[key]
	if e == nil {
		e = &queryEntry{}
		r.queries[key] = e
	}
	r.mu.Unlock()
	e.mu.Lock()
	if !e.done.Load() {
		results, err := r.ev.Searcher.Search(ctx, q, score.MaxRank)
		if err != nil {
			e.mu.Unlock()
			return 0, fmt.Errorf("relink: search %q: %w", q, err)
		}
		e.ids = make([]int32, 0, min(len(results), score.MaxRank))
		for _, res := range results[:min(len(results), score.MaxRank)] {
			e.ids = append(e.ids, r.resultID(res.URI))
		}
		e.done.Store(true)
		r.queried.Add(1)
	}
	e.mu.Unlock()
	if i := slices.Index(e.ids, target); i >= 0 {
		return i + 1, nil
	}
	return 0, nil
}

// resultID returns the id of the canonical form of a result's URI; a URI
// that cannot be canonicalized gets an id of its own, which matches no
// target.
func (r *run) resultID(raw string) int32 {
	if id, ok := r.rawIDs.Load(raw); ok {
		return id.(int32)
	}
	c, err := canon.Canonicalize(raw)
	if err != nil {
		c = "\x00" + raw
	}
	id := r.id(c)
	r.rawIDs.Store(raw, id)
	return id
}

// id returns the small integer standing for the canonical URI c.
func (r *run) id(c string) int32 {
	r.mu.Lock()
	defer r.mu.Unlock()
	id, ok := r.ids[c]
	if !ok {
		id = int32(len(r.ids))
		r.ids[c] = id
	}
	return id
}

// located is a backlink page's links to one URI, or why there are none.
type located struct {
	loc     *backlink.Located
	content bool // some link is not navigation
	reason  string
}

// locKey names a page's links to one URI.
type locKey struct{ page, via string }

// targetRun is the state of one target's evaluation.
type targetRun struct {
	*run
	target  string
	id      int32
	fetcher filter.Fetcher
	filters filter.Filters
	locs    map[locKey]*located
	rep     TargetReport
	pre     map[preKey]*preCounts
}

// target evaluates every method for one target.
func (r *run) target(ctx context.Context, target string) (TargetReport, error) {
	view := r.ev.Missing(target)
	if view.Fetcher == nil || view.Backlinks == nil {
		return TargetReport{}, fmt.Errorf("relink: evaluate %s: view without Fetcher or Backlinks", target)
	}
	answer := target
	if r.ev.Answer != nil {
		var err error
		if answer, err = canon.Canonicalize(r.ev.Answer(target)); err != nil {
			answer = "\x00never"
		}
	}
	t := &targetRun{
		run:     r,
		target:  target,
		id:      r.id(answer),
		fetcher: view.Fetcher,
		filters: r.ev.Filters,
		locs:    map[locKey]*located{},
		rep:     TargetReport{URI: target, Methods: map[string]MethodReport{}},
		pre:     map[preKey]*preCounts{},
	}
	if t.filters.Fetcher == nil {
		t.filters.Fetcher = view.Fetcher
	}
	for _, nav := range r.grid.Nav {
		p := view.Backlinks
		if !nav {
			if p = view.ContentBacklinks; p == nil {
				return TargetReport{}, fmt.Errorf("relink: evaluate %s: view without ContentBacklinks for a grid without navigation links", target)
			}
		}
		answers := map[string][]backlink.Backlink{}
		var prev []backlink.Backlink
		prevK := 0
		for _, k := range r.grid.Backlinks {
			links, err := t.neighborhood(ctx, p, answers, k)
			if err != nil {
				return TargetReport{}, err
			}
			if k == slices.Max(r.grid.Backlinks) {
				if err := t.count(ctx, nav, links); err != nil {
					return TargetReport{}, err
				}
			}
			if prev != nil && slices.EqualFunc(prev, links, sameBacklink) {
				// Fewer backlinks exist than the smaller count allowed:
				// the methods' outcomes are those of the smaller count.
				t.copyMethods(nav, prevK, k)
			} else if err := t.methods(ctx, nav, k, links); err != nil {
				return TargetReport{}, err
			}
			prev, prevK = links, k
		}
	}
	if len(r.ev.Strategies) > 0 {
		if err := t.strategies(ctx, view); err != nil {
			return TargetReport{}, err
		}
	}
	r.mu.Lock()
	for key, c := range t.pre {
		all := r.pre[key]
		if all == nil {
			all = &preCounts{pages: map[string]bool{}, occurrences: map[string]int{}}
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

// neighborhood returns the target's backlink neighborhood with backlink
// count k, as backlink.Neighborhood builds it (level 1 the first k
// backlinks of the target, level 2 the first k of each level-1 page's, and
// so on to the grid's largest depth; each page once, where it is first
// found; Rank renumbered within each level), with every Via set: the target
// for level 1, the page a deeper page was found through otherwise. Each
// URI's backlinks are asked of p once, at the grid's largest count, and
// kept in answers for the smaller counts, which take prefixes of them: a
// Provider answers its best backlinks first.
func (t *targetRun) neighborhood(ctx context.Context, p backlink.Provider, answers map[string][]backlink.Backlink, k int) ([]backlink.Backlink, error) {
	maxK, depth := slices.Max(t.grid.Backlinks), slices.Max(t.grid.Depths)
	seen := map[string]bool{t.target: true}
	out := []backlink.Backlink{}
	frontier := []string{t.target}
	for level := 1; level <= depth && len(frontier) > 0; level++ {
		var next []string
		rank := 0
		for _, via := range frontier {
			answer, ok := answers[via]
			if !ok {
				var err error
				if answer, err = p.Backlinks(ctx, via, maxK); err != nil {
					return nil, fmt.Errorf("relink: evaluate %s: backlinks of %s: %w", t.target, via, err)
				}
				answers[via] = answer
			}
			for _, b := range answer[:min(len(answer), k)] {
				c, err := canon.Canonicalize(b.URI)
				if err != nil || seen[c] {
					continue
				}
				seen[c] = true
				rank++
				out = append(out, backlink.Backlink{URI: b.URI, Rank: rank, Level: level, Via: via})
				next = append(next, c)
			}
		}
		frontier = next
	}
	return out, nil
}

// copyMethods records the outcomes of the methods with backlink count from
// as those of count to.
func (t *targetRun) copyMethods(nav bool, from, to int) {
	for _, d := range t.grid.Depths {
		for _, r := range t.grid.Radii {
			m := t.rep.Methods[Method{d, r, from, nav}.String()]
			t.rep.Methods[Method{d, r, to, nav}.String()] = m
		}
	}
}

// evidence is one backlink page of a neighborhood, ready to draw words from.
type evidence struct {
	page    *pageEntry
	loc     *located
	outcome string
}

// evidence returns what the backlink l gives.
func (t *targetRun) evidence(ctx context.Context, l backlink.Backlink, nav bool) (evidence, error) {
	c, err := canon.Canonicalize(l.URI)
	if err != nil {
		return evidence{outcome: FilterLink}, nil
	}
	p, err := t.page(ctx, t.fetcher, &t.filters, l.URI, c)
	if err != nil {
		return evidence{}, err
	}
	if p.outcome != OutcomeKept {
		return evidence{page: p, outcome: p.outcome}, nil
	}
	key := locKey{c, l.Via}
	loc := t.locs[key]
	if loc == nil {
		loc = &located{}
		found, err := p.doc.Locate(l.Via)
		if err != nil {
			loc.reason = err.Error()
		} else {
			loc.loc = found
			loc.content = slices.ContainsFunc(found.Links(), func(l backlink.Link) bool { return !l.Nav })
		}
		t.locs[key] = loc
	}
	if loc.loc == nil || (!nav && !loc.content) {
		return evidence{page: p, loc: loc, outcome: FilterLink}, nil
	}
	return evidence{page: p, loc: loc, outcome: OutcomeKept}, nil
}

// count adds the outcomes of the neighborhood links to the preprocessing
// counts.
func (t *targetRun) count(ctx context.Context, nav bool, links []backlink.Backlink) error {
	for _, l := range links {
		e, err := t.evidence(ctx, l, nav)
		if err != nil {
			return err
		}
		key := preKey{nav, l.Level}
		c := t.pre[key]
		if c == nil {
			c = &preCounts{pages: map[string]bool{}, occurrences: map[string]int{}}
			t.pre[key] = c
		}
		if uri, err := canon.Canonicalize(l.URI); err == nil {
			c.pages[uri] = true
		}
		c.occurrences[e.outcome]++
	}
	return nil
}

// methods draws the signatures of every depth and radius from the
// neighborhood links gathered with backlink count k, and searches them.
func (t *targetRun) methods(ctx context.Context, nav bool, k int, links []backlink.Backlink) error {
	radii := t.grid.Radii
	tfs := make([]map[string]int, len(radii))
	for i := range tfs {
		tfs[i] = map[string]int{}
	}
	var (
		pages, kept int
		fetches     int
		levelStart  int // pages at the levels before this one
		level       = 1
		sigs        = make([]lexsig.Signature, len(radii))
		sigKept     = -1
	)
	flush := func(depth int) error {
		if !slices.Contains(t.grid.Depths, depth) {
			return nil
		}
		for i, r := range radii {
			if kept != sigKept { // otherwise the words are the same
				terms, err := lexsig.Rank(ctx, tfs[i], t.df)
				if err != nil {
					return fmt.Errorf("relink: evaluate %s: %w", t.target, err)
				}
				sigs[i] = terms
			}
			// One backlink lookup for the target and one for each page
			// at the levels before the deepest.
			lookups := 1 + levelStart
			if err := t.record(ctx, Method{depth, r, k, nav}, sigs[i], pages, kept, lookups, fetches); err != nil {
				return err
			}
		}
		sigKept = kept
		return nil
	}
	for _, l := range links {
		for l.Level > level {
			if err := flush(level); err != nil {
				return err
			}
			level++
			levelStart = pages
		}
		pages++
		e, err := t.evidence(ctx, l, nav)
		if err != nil {
			return err
		}
		if e.page != nil {
			fetches += e.page.fetches
		}
		if e.outcome != OutcomeKept {
			continue
		}
		kept++
		for i, r := range radii {
			if r == backlink.Page {
				for _, tc := range e.page.pageTF(e.loc.loc) {
					tfs[i][tc.term] += tc.n
				}
				continue
			}
			lexsig.CountInto(tfs[i], e.loc.loc.Words(r, nav))
		}
	}
	for ; level <= slices.Max(t.grid.Depths); level++ {
		if err := flush(level); err != nil {
			return err
		}
	}
	return nil
}

// record searches the queries of sig at every size and records the
// method's outcome.
func (t *targetRun) record(ctx context.Context, m Method, sig lexsig.Signature, pages, kept, lookups, fetches int) error {
	sizes := t.grid.Sizes
	mr := MethodReport{
		Backlinks: pages,
		Kept:      kept,
		Lookups:   lookups,
		Searches:  1,
		Fetches:   fetches,
		Terms:     sig.Top(slices.Max(sizes)).Terms(),
		Ranks:     make([]int, len(sizes)),
	}
	for i, size := range sizes {
		q := sig.Top(size).Query(t.ev.Mode)
		if len(q.Terms) == 0 {
			continue
		}
		rank, err := t.rank(ctx, q, t.id)
		if err != nil {
			return fmt.Errorf("relink: evaluate %s: %w", t.target, err)
		}
		mr.Ranks[i] = rank
	}
	t.rep.Methods[m.String()] = mr
	return nil
}

// strategies runs the Evaluation's Strategies for the target.
func (t *targetRun) strategies(ctx context.Context, view View) error {
	k := orDefault(t.ev.StrategyBacklinks, DefaultBacklinks)
	links, err := view.Backlinks.Backlinks(ctx, t.target, k)
	if err != nil {
		return fmt.Errorf("relink: evaluate %s: backlinks: %w", t.target, err)
	}
	clues := &Clues{URI: t.target}
	fetches := 0
	for i, l := range links[:min(len(links), k)] {
		l = backlink.Backlink{URI: l.URI, Rank: i + 1, Level: 1, Via: t.target}
		e, err := t.evidence(ctx, l, true)
		if err != nil {
			return err
		}
		ev := &Evidence{Trace: Trace{Backlink: l, Kept: e.outcome == OutcomeKept, Filter: e.outcome}}
		if ev.Kept {
			ev.Filter, ev.located = "", e.loc.loc
		}
		if e.page != nil {
			fetches += e.page.fetches
		}
		clues.Evidence = append(clues.Evidence, ev)
	}
	if t.ev.Archive != nil && slices.ContainsFunc(t.ev.Strategies, Strategy.UsesArchive) {
		if p, err := t.ev.Archive(ctx, t.target); err == nil {
			clues.Archive = p
		} else if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	tools := Tools{DF: t.df, Searcher: &memoSearcher{s: t.ev.Searcher}, Fetcher: view.Fetcher, Results: score.MaxRank}
	for _, st := range t.ev.Strategies {
		o, err := st.Find(ctx, clues, tools)
		if err != nil {
			return fmt.Errorf("relink: evaluate %s: %s: %w", t.target, st.Name(), err)
		}
		t.searches.Add(int64(len(o.Queries)))
		mr := MethodReport{
			Backlinks: len(links),
			Ranks:     []int{0},
			Lookups:   1,
			Searches:  len(o.Queries),
			Fetches:   fetches + o.Fetches,
			Step:      o.Step,
		}
		for _, e := range clues.Evidence {
			if e.Kept {
				mr.Kept++
			}
		}
		if len(o.Queries) > 0 {
			mr.Terms = o.Queries[0].Terms
		}
		for i, c := range o.Candidates[:min(len(o.Candidates), score.MaxRank)] {
			if t.resultID(c.URI) == t.id {
				mr.Ranks[0] = i + 1
				break
			}
		}
		t.rep.Methods[st.Name()] = mr
	}
	return nil
}

// memoSearcher remembers the answers of one target's strategies, which
// share many of their queries.
type memoSearcher struct {
	s  lexsig.Searcher
	mu sync.Mutex
	m  map[string][]lexsig.Result
}

// Search answers a query asked before from memory.
func (m *memoSearcher) Search(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
	key := strconv.Itoa(limit) + "\x00" + queryKey(q)
	m.mu.Lock()
	defer m.mu.Unlock()
	if res, ok := m.m[key]; ok {
		return res, nil
	}
	res, err := m.s.Search(ctx, q, limit)
	if err != nil {
		return nil, err
	}
	if m.m == nil {
		m.m = map[string][]lexsig.Result{}
	}
	m.m[key] = res
	return res, nil
}

// queryKey identifies a query.
func queryKey(q lexsig.Query) string {
	return q.Mode.String() + "\x00" + strconv.FormatBool(q.Phrase) + "\x00" + strings.Join(q.Terms, "\x00")
}

// sameBacklink reports whether two neighborhood entries name the same page
// at the same place of the walk.
func sameBacklink(a, b backlink.Backlink) bool {
	return a.URI == b.URI && a.Rank == b.Rank && a.Level == b.Level && a.Via == b.Via
}
