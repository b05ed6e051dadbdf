package eval_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/linkrot/relink"
	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lab/eval"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/score"
)

// The fake web of the evaluation tests: two missing targets on a bakery's
// site and the pages that link to them, written for these tests.
const (
	sourdough = "https://bakery.example/guides/sourdough"
	rye       = "https://bakery.example/guides/rye"
)

// prose is enough English for a page to pass the size (50 words) and
// language filters of §3.1.
const prose = `<p>Our kitchen notebook collects what we learn while baking at home
every weekend. Some loaves rise well and some collapse in the oven, and each
attempt teaches us a little more about flour, water, salt and patience. We
write down the temperature of the room, the hydration of the dough and the
time it spent proofing, so that the next attempt can be compared with the
last one and the good results can be repeated.</p>`

// bakeryPages are the pages of the fake web, by URI, in the order the fake
// backlink provider ranks them.
var bakeryPages = []struct{ uri, html string }{
	{"https://diary.example/week-12", `<html><body>` + prose + `<p>Start with the <a href="https://bakery.example/guides/sourdough">sourdough starter</a> and later try the <a href="https://bakery.example/guides/rye/">dark rye loaf</a>.</p></body></html>`},
	{"https://forum.example/t/42", `<html><body>` + prose + `<p>Advice on <a href="https://Bakery.example/guides/sourdough#feeding">feeding a starter</a> helped.</p></body></html>`},
	{"https://menu.example/", `<html><body><nav><a href="https://bakery.example/guides/sourdough">recipes</a></nav>` + prose + `</body></html>`},
	{"https://tiny.example/", `<html><body><a href="https://bakery.example/guides/sourdough">sourdough</a></body></html>`},
	{"https://links.example/", `<html><body>` + prose + `<p>A friend keeps a <a href="https://diary.example/week-12">baking diary</a> online.</p><nav><a href="https://forum.example/t/42">forum</a></nav></body></html>`},
	{sourdough, `<html><body>` + prose + `<p>How to keep a starter alive.</p></body></html>`},
	{rye, `<html><body>` + prose + `<p>Rye flour and caraway.</p></body></html>`},
}

// Backlinks that the pages themselves do not show, as a search engine's
// stale backlink index lists them: a PDF, a page that is gone, and a page
// that no longer links to the target.
var staleBacklinks = map[string][]string{
	sourdough: {"https://papers.example/starter.pdf", "https://gone.example/", "https://stale.example/"},
}

var stalePages = map[string]*filter.Page{
	"https://papers.example/starter.pdf": {Status: 200, Header: http.Header{"Content-Type": {"application/pdf"}}, Body: []byte("%PDF-1.4 ...")},
	"https://stale.example/":             {Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte(`<html><body>` + prose + `</body></html>`)},
}

// fakeWeb serves bakeryPages and counts what the evaluation asks of it.
type fakeWeb struct {
	mu       sync.Mutex
	links    map[string][]edge // canonical target → pages linking to it, in rank order
	fetches  map[string]int
	searches map[string]int
	results  map[string][]string // query → result URIs
	df       *lexsig.MemDF
}

// edge is a link from page src; nav when every link of src to the target
// is navigation.
type edge struct {
	src string
	nav bool
}

func newFakeWeb(t *testing.T) *fakeWeb {
	t.Helper()
	w := &fakeWeb{links: map[string][]edge{}, fetches: map[string]int{}, searches: map[string]int{}, results: map[string][]string{}}
	for _, p := range bakeryPages {
		links, err := backlink.Outlinks([]byte(p.html), p.uri)
		if err != nil {
			t.Fatal(err)
		}
		navOnly := map[string]bool{}
		var order []string
		for _, l := range links {
			if _, seen := navOnly[l.URI]; !seen {
				order = append(order, l.URI)
				navOnly[l.URI] = true
			}
			navOnly[l.URI] = navOnly[l.URI] && l.Nav
		}
		for _, dst := range order {
			w.links[dst] = append(w.links[dst], edge{p.uri, navOnly[dst]})
		}
	}
	for dst, srcs := range staleBacklinks {
		for _, src := range srcs {
			w.links[dst] = append(w.links[dst], edge{src, false})
		}
	}
	// Document frequencies out of a collection of 1000 pages (Equation 2).
	w.df = lexsig.NewMemDF()
	w.df.SetDocs(1000)
	for term, n := range map[string]int64{"sourdough": 2, "starter": 5, "feeding": 7, "recipes": 40, "baking": 30, "diary": 30, "dark": 60, "rye": 4, "loaf": 9} {
		w.df.Set(term, n)
	}
	return w
}

// view returns the fake web with target missing.
func (w *fakeWeb) view(target string) eval.View {
	return eval.View{
		Backlinks: fakeLinks{w, target},
		Fetcher: filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
			w.mu.Lock()
			w.fetches[uri]++
			w.mu.Unlock()
			if uri == target {
				return &filter.Page{URI: uri, Status: http.StatusNotFound}, nil
			}
			if p, ok := stalePages[uri]; ok {
				q := *p
				q.URI = uri
				return &q, nil
			}
			for _, p := range bakeryPages {
				if p.uri == uri {
					return &filter.Page{URI: uri, Status: 200, Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}, Body: []byte(p.html)}, nil
				}
			}
			return &filter.Page{URI: uri, Status: http.StatusNotFound}, nil
		}),
	}
}

// fakeLinks lists the fake web's backlinks in a view where target is
// missing; it is a backlink.ContentProvider.
type fakeLinks struct {
	w      *fakeWeb
	target string
}

func (l fakeLinks) list(uri string, limit int, nav bool) []backlink.Backlink {
	out := []backlink.Backlink{}
	for _, e := range l.w.links[uri] {
		if e.src == l.target || (e.nav && !nav) || len(out) == limit {
			continue
		}
		out = append(out, backlink.Backlink{URI: e.src, Rank: len(out) + 1, Level: 1})
	}
	return out
}

func (l fakeLinks) Backlinks(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
	return l.list(uri, limit, true), nil
}

func (l fakeLinks) ContentBacklinks(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
	return l.list(uri, limit, false), nil
}

// search answers from w.results and counts the queries.
func (w *fakeWeb) search(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.searches[q.String()]++
	out := []lexsig.Result{}
	for i, u := range w.results[q.String()] {
		out = append(out, lexsig.Result{Rank: i + 1, URI: u})
	}
	return out, nil
}

// evaluation returns an Evaluation of targets on w.
func (w *fakeWeb) evaluation(grid eval.Grid, targets ...string) eval.Evaluation {
	return eval.Evaluation{
		Targets:  targets,
		Missing:  w.view,
		DF:       w.df,
		Searcher: lexsig.SearcherFunc(w.search),
		// The probes of the soft-404 filter answer 404 without being
		// counted as fetches of backlink pages.
		Filters: filter.Filters{Fetcher: filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
			return &filter.Page{URI: uri, Status: http.StatusNotFound}, nil
		})},
		Grid: grid,
	}
}

// TestEvaluateRanks checks signatures and ranks for the paper's best
// method and its variants (§3.2, §3.3 DCG*).
func TestEvaluateRanks(t *testing.T) {
	w := newFakeWeb(t)
	// Anchor words of level 1 (§3.2 "Radius"): "sourdough starter",
	// "feeding a starter" and, in a navigation bar, "recipes"; the tiny
	// page is caught by the size filter. TF-IDF (Equations 1-3):
	// starter 2×ln(200), sourdough ln(500), feeding ln(1000/7), recipes
	// ln(25).
	w.results["starter"] = []string{"https://bakery.example/guides/", "https://bakery.example/guides/sourdough/"}
	w.results["starter sourdough"] = []string{"https://BAKERY.example/guides/sourdough#top"}
	grid := eval.Grid{Depths: []int{1, 2}, Backlinks: []int{1, 10}, Radii: []backlink.Radius{backlink.Anchor}, Sizes: []int{1, 2, 3, 4}, Nav: []bool{true, false}}
	rep, err := eval.Evaluate(context.Background(), w.evaluation(grid, sourdough))
	if err != nil {
		t.Fatal(err)
	}
	got := rep.Targets[0].Methods
	// Costs: a kept page is fetched with one soft-404 probe (the probe
	// answers 404, so the second is not needed), a rejected page once; a
	// level-2 method looks up the backlinks of the target and of every
	// level-1 page, each twice when it answers fewer than the limit: the
	// Finder asks about both scheme variants (backlink.BothSchemes).
	want := map[string]eval.MethodReport{
		// The top backlink alone: the diary page.
		"1-anchor-1": {Backlinks: 1, Kept: 1, Terms: []string{"sourdough", "starter"}, Ranks: []int{0, 0, 0, 0}, Lookups: 1, Searches: 1, Fetches: 2},
		// Its own backlink, level 2, adds "baking diary" (its link to
		// the diary, not to the target): sourdough ln(500), starter
		// ln(200), baking and diary ln(1000/30).
		"2-anchor-1": {Backlinks: 2, Kept: 2, Terms: []string{"sourdough", "starter", "baking", "diary"}, Ranks: []int{0, 0, 0, 0}, Lookups: 2, Searches: 1, Fetches: 4},
		// Level 1: diary, forum, menu (nav), tiny (size), and the stale
		// index's PDF (file type), gone (status) and stale (no link).
		"1-anchor-10": {Backlinks: 7, Kept: 3, Terms: []string{"starter", "sourdough", "feeding", "recipes"}, Ranks: []int{2, 1, 0, 0}, Lookups: 2, Searches: 1, Fetches: 11},
		// Level 2 adds the links page once, where it is first found: as a
		// backlink of the diary ("baking diary"), not of the forum, which
		// it links to as well. The first two queries are those of level 1.
		"2-anchor-10": {Backlinks: 8, Kept: 4, Terms: []string{"starter", "sourdough", "feeding", "baking"}, Ranks: []int{2, 1, 0, 0}, Lookups: 16, Searches: 1, Fetches: 13},
		// Without navigation links the menu page is no backlink.
		"1-anchor-1-nonav":  {Backlinks: 1, Kept: 1, Terms: []string{"sourdough", "starter"}, Ranks: []int{0, 0, 0, 0}, Lookups: 1, Searches: 1, Fetches: 2},
		"2-anchor-1-nonav":  {Backlinks: 2, Kept: 2, Terms: []string{"sourdough", "starter", "baking", "diary"}, Ranks: []int{0, 0, 0, 0}, Lookups: 2, Searches: 1, Fetches: 4},
		"1-anchor-10-nonav": {Backlinks: 6, Kept: 2, Terms: []string{"starter", "sourdough", "feeding"}, Ranks: []int{2, 1, 0, 0}, Lookups: 2, Searches: 1, Fetches: 9},
		"2-anchor-10-nonav": {Backlinks: 7, Kept: 3, Terms: []string{"starter", "sourdough", "feeding", "baking"}, Ranks: []int{2, 1, 0, 0}, Lookups: 14, Searches: 1, Fetches: 11},
	}
	// The fake searcher gives no titles: every confidence is 0 (the
	// equivalence test compares confidences on a real corpus).
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(eval.MethodReport{}, "Confidences")); diff != "" {
		t.Errorf("Evaluate methods (-want +got):\n%s", diff)
	}
	// One target found at rank 2 with one term: DCG* = 1/log2(3).
	runs := rep.Table.Runs()
	i := slices.IndexFunc(runs, func(r score.Run) bool { return r.Method == "1-anchor-10" && r.Terms == 1 })
	if i < 0 {
		t.Fatalf("no run of 1-anchor-10 at 1 term in %v", runs)
	}
	if want := score.DCG(2); runs[i].MeanNDCG != want || runs[i].Buckets[score.BucketPage1] != 100 {
		t.Errorf("run %+v: want mean nDCG %v and all targets in bucket 2-10", runs[i], want)
	}
	if diff := cmp.Diff([]int{1, 2, 3, 4}, rep.Sizes); diff != "" {
		t.Errorf("Sizes (-want +got):\n%s", diff)
	}
}

// TestEvaluateReuse checks that the whole paper grid, with and without
// navigation links, over two targets fetches each backlink page once and
// sends each distinct query once.
func TestEvaluateReuse(t *testing.T) {
	w := newFakeWeb(t)
	w.results["starter"] = []string{sourdough}
	ev := w.evaluation(eval.Grid{Nav: []bool{true, false}}, sourdough, rye, sourdough)
	var progress []eval.Progress
	ev.Progress = func(p eval.Progress) { progress = append(progress, p) }
	rep, err := eval.Evaluate(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	for uri, n := range w.fetches {
		if n != 1 {
			t.Errorf("%s fetched %d times, want 1", uri, n)
		}
	}
	// The backlink pages of both targets and of their level-1 pages: all
	// but the targets themselves.
	if want := len(bakeryPages) - 2 + 3; len(w.fetches) != want {
		t.Errorf("fetched %d pages, want %d: %v", len(w.fetches), want, w.fetches)
	}
	for q, n := range w.searches {
		if n != 1 {
			t.Errorf("query %q searched %d times, want 1", q, n)
		}
	}
	if rep.Queries != len(w.searches) {
		t.Errorf("Report.Queries = %d, want %d", rep.Queries, len(w.searches))
	}
	// Each target has fewer than 10 backlinks, so the methods with 100
	// and 1000 gather the same neighborhood as those with 10 and take
	// their outcomes without searching: 3 targets × 16 methods × 8
	// sizes, every signature non-empty.
	if want := 3 * 16 * 8; rep.Searches != want {
		t.Errorf("Report.Searches = %d, want %d", rep.Searches, want)
	}
	if len(progress) != 3 || progress[2].Done != 3 || progress[2].Total != 3 || progress[2].Pages != len(w.fetches) {
		t.Errorf("progress = %+v", progress)
	}
	// The same target twice gives the same report.
	if diff := cmp.Diff(rep.Targets[0], rep.Targets[2], cmpopts.IgnoreFields(eval.TargetReport{}, "Cost")); diff != "" {
		t.Errorf("a target evaluated twice (-first +second):\n%s", diff)
	}
	if got, want := len(rep.Methods), 48; got != want {
		t.Errorf("%d methods, want %d", got, want)
	}
	for _, run := range rep.Table.Runs() {
		if run.Targets != 3 {
			t.Errorf("run %s at %d terms has %d targets, want 3", run.Method, run.Terms, run.Targets)
		}
	}
}

// TestEvaluatePreprocessing checks the counts of the paper's Table
// "Pre-Processing Results" (§3.1).
func TestEvaluatePreprocessing(t *testing.T) {
	w := newFakeWeb(t)
	grid := eval.Grid{Depths: []int{1, 2}, Backlinks: []int{10}, Radii: []backlink.Radius{backlink.Anchor}, Sizes: []int{1}, Nav: []bool{true}}
	rep, err := eval.Evaluate(context.Background(), w.evaluation(grid, sourdough))
	if err != nil {
		t.Fatal(err)
	}
	wantPages := map[string]int{
		relink.OutcomeKept:    5, // diary, forum, menu, stale (its missing link is counted per occurrence), links
		filter.FilterSize:     1,
		filter.FilterFileType: 1,
		filter.FilterStatus:   1,
	}
	if diff := cmp.Diff(wantPages, rep.Pages); diff != "" {
		t.Errorf("Pages (-want +got):\n%s", diff)
	}
	want := []eval.Preprocessing{
		{Nav: true, Level: 1,
			Pages:       map[string]int{relink.OutcomeKept: 4, filter.FilterSize: 1, filter.FilterFileType: 1, filter.FilterStatus: 1},
			Occurrences: map[string]int{relink.OutcomeKept: 3, relink.FilterLink: 1, filter.FilterSize: 1, filter.FilterFileType: 1, filter.FilterStatus: 1}},
		{Nav: true, Level: 2,
			Pages:       map[string]int{relink.OutcomeKept: 1},
			Occurrences: map[string]int{relink.OutcomeKept: 1}},
	}
	if diff := cmp.Diff(want, rep.Preprocessing); diff != "" {
		t.Errorf("Preprocessing (-want +got):\n%s", diff)
	}
}

// TestEvaluateRadius checks that wider radii draw the words around the
// link and the whole page (§3.2 "Radius").
func TestEvaluateRadius(t *testing.T) {
	w := newFakeWeb(t)
	grid := eval.Grid{Depths: []int{1}, Backlinks: []int{1}, Radii: []backlink.Radius{backlink.Page, 4, backlink.Anchor}, Sizes: []int{10}, Nav: []bool{true}}
	rep, err := eval.Evaluate(context.Background(), w.evaluation(grid, sourdough))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range rep.Methods {
		names = append(names, m.String())
	}
	if diff := cmp.Diff([]string{"1-anchor-1", "1-r4-1", "1-page-1"}, names); diff != "" {
		t.Errorf("methods (-want +got):\n%s", diff)
	}
	anchor := rep.Targets[0].Methods["1-anchor-1"].Terms
	r4 := rep.Targets[0].Methods["1-r4-1"].Terms
	page := rep.Targets[0].Methods["1-page-1"].Terms
	// "... can be repeated. Start with the sourdough starter and later
	// try the dark rye loaf": ±4 adds "repeated start" and "later try"
	// ("with", "the", "and" are stop words).
	for _, term := range []string{"repeated", "start", "later", "try"} {
		if slices.Contains(anchor, term) || !slices.Contains(r4, term) {
			t.Errorf("term %q: anchor %v, ±4 %v; want it only in ±4", term, anchor, r4)
		}
	}
	if !slices.Contains(page, "kitchen") || slices.Contains(r4, "kitchen") {
		t.Errorf("whole page %v, ±4 %v: want kitchen only in the whole page", page, r4)
	}
}

// TestEvaluateCancel checks that a cancelled evaluation returns ctx's
// error, before and during the run.
func TestEvaluateCancel(t *testing.T) {
	w := newFakeWeb(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := eval.Evaluate(ctx, w.evaluation(eval.Grid{}, sourdough)); !errors.Is(err, context.Canceled) {
		t.Errorf("Evaluate with a cancelled context: %v, want context.Canceled", err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	ev := w.evaluation(eval.Grid{}, sourdough, rye, sourdough, rye)
	searched := 0
	ev.Searcher = lexsig.SearcherFunc(func(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
		if searched++; searched == 3 {
			cancel()
			return nil, ctx.Err()
		}
		return nil, nil
	})
	ev.Workers = 1
	if _, err := eval.Evaluate(ctx, ev); !errors.Is(err, context.Canceled) {
		t.Errorf("Evaluate cancelled while searching: %v, want context.Canceled", err)
	}
	if searched != 3 {
		t.Errorf("searched %d times after cancelling at the third, want 3", searched)
	}
}

// TestEvaluateErrors checks the errors of bad input and failing providers.
func TestEvaluateErrors(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name   string
		change func(*eval.Evaluation)
		want   error // matched with errors.Is, or nil for any error
	}{
		{"search fails", func(ev *eval.Evaluation) {
			ev.Searcher = lexsig.SearcherFunc(func(context.Context, lexsig.Query, int) ([]lexsig.Result, error) { return nil, boom })
		}, boom},
		{"DF fails", func(ev *eval.Evaluation) {
			ev.DF = lexsig.DFFunc(func(context.Context, string) (int64, error) { return 0, boom }).WithDocs(10)
		}, boom},
		{"backlinks fail", func(ev *eval.Evaluation) {
			missing := ev.Missing
			ev.Missing = func(target string) eval.View {
				v := missing(target)
				v.Backlinks = backlink.ProviderFunc(func(context.Context, string, int) ([]backlink.Backlink, error) { return nil, boom })
				return v
			}
		}, boom},
		{"relative target", func(ev *eval.Evaluation) { ev.Targets = []string{"/guides/rye"} }, canon.ErrNotAbsolute},
		{"depth 0", func(ev *eval.Evaluation) { ev.Grid.Depths = []int{0, 1} }, eval.ErrGrid},
		{"size -1", func(ev *eval.Evaluation) { ev.Grid.Sizes = []int{-1} }, eval.ErrGrid},
		{"radius -2", func(ev *eval.Evaluation) { ev.Grid.Radii = []backlink.Radius{-2} }, eval.ErrGrid},
		{"no searcher", func(ev *eval.Evaluation) { ev.Searcher = nil }, nil},
		{"no DF", func(ev *eval.Evaluation) { ev.DF = nil }, nil},
		{"no views", func(ev *eval.Evaluation) { ev.Missing = nil }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newFakeWeb(t)
			ev := w.evaluation(eval.Grid{}, sourdough)
			tt.change(&ev)
			rep, err := eval.Evaluate(context.Background(), ev)
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Errorf("Evaluate = %v, %v; want an error matching %v", rep, err, tt.want)
			}
		})
	}
}

// TestMethodString checks the benchmark's method names (BENCHMARK.md,
// "summary.json").
func TestMethodString(t *testing.T) {
	tests := []struct {
		name string
		m    eval.Method
		want string
	}{
		{"paper's best", eval.Method{Depth: 1, Radius: backlink.Anchor, Backlinks: 10, Nav: true}, "1-anchor-10"},
		{"five", eval.Method{Depth: 1, Radius: 5, Backlinks: 100, Nav: true}, "1-five-100"},
		{"ten, level 2", eval.Method{Depth: 2, Radius: 10, Backlinks: 1000, Nav: true}, "2-ten-1000"},
		{"page", eval.Method{Depth: 2, Radius: backlink.Page, Backlinks: 10, Nav: true}, "2-page-10"},
		{"other radius", eval.Method{Depth: 1, Radius: 3, Backlinks: 10, Nav: true}, "1-r3-10"},
		{"without navigation", eval.Method{Depth: 1, Radius: backlink.Anchor, Backlinks: 10}, "1-anchor-10-nonav"},
	}
	for _, tt := range tests {
		if got := tt.m.String(); got != tt.want {
			t.Errorf("%s: %+v.String() = %q, want %q", tt.name, tt.m, got, tt.want)
		}
	}
}

// TestGridMethods checks the zero Grid (the paper's, §3.2) and the order
// of methods.
func TestGridMethods(t *testing.T) {
	tests := []struct {
		name  string
		grid  eval.Grid
		count int
		first []string
	}{
		{"paper", eval.Grid{}, 24, []string{"1-anchor-10", "1-five-10", "1-ten-10", "1-page-10", "2-anchor-10"}},
		{"both navigation settings", eval.Grid{Nav: []bool{true, false, true}}, 48, []string{"1-anchor-10", "1-five-10"}},
		{"unsorted, repeated", eval.Grid{Depths: []int{2, 1, 2}, Backlinks: []int{100, 10}, Radii: []backlink.Radius{backlink.Page, backlink.Anchor}, Nav: []bool{false}}, 8,
			[]string{"1-anchor-10-nonav", "1-page-10-nonav", "2-anchor-10-nonav", "2-page-10-nonav", "1-anchor-100-nonav"}},
		{"invalid", eval.Grid{Backlinks: []int{0}}, 0, nil},
	}
	for _, tt := range tests {
		ms := tt.grid.Methods()
		var names []string
		for _, m := range ms[:min(len(ms), len(tt.first))] {
			names = append(names, m.String())
		}
		if len(ms) != tt.count || !slices.Equal(names, tt.first) {
			t.Errorf("%s: Methods() = %d methods starting %v, want %d starting %v", tt.name, len(ms), names, tt.count, tt.first)
		}
	}
}

func ExampleEvaluate() {
	// A web of two news pages that link to a report which has gone.
	pages := map[string]string{
		"https://news.example/story":  `<p>The <a href="https://example.org/old/rainfall">annual rainfall report</a> is out.</p>`,
		"https://blog.example/floods": `<p>See the <a href="https://example.org/old/rainfall">rainfall figures</a>.</p>`,
	}
	ev := eval.Evaluation{
		Targets: []string{"https://example.org/old/rainfall"},
		Missing: func(target string) eval.View {
			return eval.View{
				Backlinks: backlink.ProviderFunc(func(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
					if uri != target {
						return nil, nil
					}
					return []backlink.Backlink{{URI: "https://news.example/story", Rank: 1, Level: 1}, {URI: "https://blog.example/floods", Rank: 2, Level: 1}}, nil
				}),
				Fetcher: filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
					if body, ok := pages[uri]; ok {
						return &filter.Page{URI: uri, Status: 200, Body: []byte(body)}, nil
					}
					return &filter.Page{URI: uri, Status: 404}, nil // the target, and the soft-404 probes
				}),
			}
		},
		DF: lexsig.DFFunc(func(ctx context.Context, term string) (int64, error) {
			return map[string]int64{"annual": 300, "rainfall": 20, "report": 900, "figures": 400}[term], nil
		}).WithDocs(10000),
		// The search engine still holds the page (§3.3).
		Searcher: lexsig.SearcherFunc(func(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
			switch q.String() {
			case "rainfall":
				return []lexsig.Result{{Rank: 1, URI: "https://example.org/weather"}, {Rank: 2, URI: "https://example.org/old/rainfall"}}, nil
			case "rainfall annual":
				return []lexsig.Result{{Rank: 1, URI: "https://example.org/old/rainfall"}}, nil
			}
			return nil, nil
		}),
		// The example pages are short: turn the size and language filters off.
		Filters: filter.Filters{Disabled: []string{filter.FilterSize, filter.FilterLanguage}},
		Grid:    eval.Grid{Depths: []int{1}, Backlinks: []int{10}, Radii: []backlink.Radius{backlink.Anchor}, Sizes: []int{1, 2, 3}},
	}
	rep, err := eval.Evaluate(context.Background(), ev)
	if err != nil {
		fmt.Println(err)
		return
	}
	m := rep.Targets[0].Methods["1-anchor-10"]
	fmt.Println("signature:", m.Terms)
	for _, run := range rep.Table.Runs() {
		fmt.Printf("%s, %d terms: rank %d, nDCG %.2f\n", run.Method, run.Terms, m.Ranks[slices.Index(rep.Sizes, run.Terms)], run.MeanNDCG)
	}
	// Output:
	// signature: [rainfall annual figures]
	// 1-anchor-10, 1 terms: rank 2, nDCG 0.63
	// 1-anchor-10, 2 terms: rank 1, nDCG 1.00
	// 1-anchor-10, 3 terms: rank 0, nDCG 0.00
}
