package relink_test

import (
	"context"
	"math"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/linkrot/relink"
	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
)

// clues gathers the fake web's backlinks of target (finder_test.go): the
// blog's "sourdough starter guide" and the forum's "feeding a sourdough
// starter" are kept, the other pages are not.
func clues(t *testing.T) *relink.Clues {
	t.Helper()
	f, _ := fakeFinder(t)
	links, err := backlink.Neighborhood(context.Background(), f.Backlinks, target, 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := f.Gather(context.Background(), target, links, relink.Needs{})
	if err != nil {
		t.Fatal(err)
	}
	return &relink.Clues{URI: target, Evidence: ev}
}

// answers is a searcher with fixed answers by query (Query.String), which
// records the queries it is asked.
type answers struct {
	results map[string][]lexsig.Result
	asked   []string
}

func (a *answers) Search(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
	a.asked = append(a.asked, q.String())
	res := a.results[q.String()]
	return res[:min(len(res), limit)], nil
}

// result is a search result.
func result(uri, title string) lexsig.Result { return lexsig.Result{URI: uri, Title: title} }

func tools(a *answers) relink.Tools {
	df := lexsig.NewMemDF()
	df.SetDocs(1000)
	for term, n := range map[string]int64{"sourdough": 5, "starter": 40, "guide": 200, "feeding": 20, "guides": 300} {
		df.Set(term, n)
	}
	return relink.Tools{DF: df, Searcher: a, Results: 100}
}

func uris(rs []lexsig.Result) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.URI)
	}
	return out
}

func TestPhrases(t *testing.T) {
	got := clues(t).Phrases()
	// The forum's "feeding a sourdough starter" links to a part of the
	// page (#feed): the blog's link to the whole page names it.
	want := []relink.Phrase{
		{Words: []string{"sourdough", "starter", "guide"}, Pages: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Phrases (-want +got):\n%s", diff)
	}
}

func TestURLWords(t *testing.T) {
	tests := []struct {
		name, uri string
		want      []string
	}{
		{name: "path words", uri: "https://docs.example.com/en/3.2/releases/1.3.6.html", want: []string{"en", "3", "2", "releases", "1", "3", "6"}},
		{name: "index and extension dropped", uri: "http://example.com/guide/index.php?topic=bread", want: []string{"guide", "topic", "bread"}},
		{name: "stop words dropped", uri: "https://example.org/how-to-bake-the-bread", want: []string{"bake", "bread"}},
		{name: "host left out", uri: "https://sourdough.example/", want: nil},
		{name: "not a URI", uri: "http://[::1", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, relink.URLWords(tt.uri)); diff != "" {
				t.Errorf("URLWords(%q) (-want +got):\n%s", tt.uri, diff)
			}
		})
	}
}

// TestURLTermsHeld: a word of the URI that no document holds would make a
// conjunctive query find nothing; it is left out.
func TestURLTermsHeld(t *testing.T) {
	c := &relink.Clues{URI: "https://example.org/guides/zzqx-sourdough-starter.html"}
	for _, tt := range []struct {
		strategy relink.URLTerms
		want     string
	}{
		// zzqx has DF 0 in tools' DF: the rarest, yet no page holds it.
		{relink.URLTerms{Size: 2}, "sourdough starter"},
		{relink.URLTerms{Size: 3, Mode: lexsig.Disjunctive}, "sourdough OR starter OR guides"},
	} {
		a := &answers{}
		if _, err := tt.strategy.Find(context.Background(), c, tools(a)); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(a.asked, " | "); got != tt.want {
			t.Errorf("%s searched %q, want %q", tt.strategy.Name(), got, tt.want)
		}
	}
}

// TestURLPhrase: the last segment's words that name the page are searched
// as one phrase; a segment of one word, or of stop words alone, searches
// nothing.
func TestURLPhrase(t *testing.T) {
	for _, tt := range []struct {
		uri  string
		want []string
	}{
		{"https://example.org/guides/sourdough-starter.html", []string{`"sourdough starter"`}},
		{"https://example.org/guides/sourdough-starter/index.html", []string{`"sourdough starter"`}},
		{"https://example.org/guides/starter.html", nil},
		{"https://example.org/a/of-the.html", nil},
		{"https://example.org/", nil},
	} {
		a := &answers{}
		o, err := relink.URLPhrase{}.Find(context.Background(), &relink.Clues{URI: tt.uri}, tools(a))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, a.asked); diff != "" {
			t.Errorf("%s: searched (-want +got):\n%s", tt.uri, diff)
		}
		if len(o.Queries) != len(tt.want) {
			t.Errorf("%s: %d queries in the outcome, want %d", tt.uri, len(o.Queries), len(tt.want))
		}
	}
}

func TestSimpleStrategies(t *testing.T) {
	tests := []struct {
		name     string
		strategy relink.Strategy
		want     string // the query searched
	}{
		{name: "anchor phrase", strategy: relink.AnchorPhrase{}, want: `"sourdough starter guide"`},
		// TF-IDF: sourdough 2×ln(200), starter 2×ln(25), feeding ln(50),
		// guide ln(5) (finder_test.go's DF).
		{name: "paper signature", strategy: relink.Paper{Size: 3}, want: "sourdough starter feeding"},
		// The target's path words: sourdough ln(200), starter ln(25),
		// guides ln(1000/300).
		{name: "URL words", strategy: relink.URLTerms{Size: 2}, want: "sourdough starter"},
		{name: "anchor and URL words", strategy: relink.Combined{Size: 2}, want: "sourdough starter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &answers{results: map[string][]lexsig.Result{tt.want: {result("https://example.org/new", "")}}}
			o, err := tt.strategy.Find(context.Background(), clues(t), tools(a))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{tt.want}, a.asked); diff != "" {
				t.Errorf("%s searched (-want +got):\n%s", tt.strategy.Name(), diff)
			}
			if len(o.Candidates) != 1 || len(o.Queries) != 1 {
				t.Errorf("%s: %d candidates, %d queries, want 1 and 1", tt.strategy.Name(), len(o.Candidates), len(o.Queries))
			}
		})
	}
}

// fixed is a strategy with fixed candidates.
type fixed struct {
	name string
	uris []string
}

func (f fixed) Name() string        { return f.name }
func (f fixed) Terms() int          { return 1 }
func (f fixed) Needs() relink.Needs { return relink.Needs{} }
func (f fixed) Find(ctx context.Context, c *relink.Clues, t relink.Tools) (*relink.Outcome, error) {
	o := &relink.Outcome{Queries: []lexsig.Query{{Terms: []string{f.name}}}}
	for i, u := range f.uris {
		o.Candidates = append(o.Candidates, lexsig.Result{Rank: i + 1, URI: u, Title: strings.TrimPrefix(u, "https://example.org/")})
	}
	return o, nil
}

func TestCascade(t *testing.T) {
	// Titles are the URIs' paths: "sourdough/starter/guide" holds every
	// word of the top anchor phrase, "rye" none.
	tests := []struct {
		name     string
		steps    []relink.Strategy
		want     []string
		step     string
		searched int
	}{
		{name: "first step confident", steps: []relink.Strategy{fixed{"a", []string{"https://example.org/sourdough/starter/guide"}}, fixed{"b", []string{"https://example.org/rye"}}},
			want: []string{"https://example.org/sourdough/starter/guide"}, step: "a", searched: 1},
		{name: "falls back to a confident step", steps: []relink.Strategy{fixed{"a", []string{"https://example.org/rye"}}, fixed{"b", nil}, fixed{"c", []string{"https://example.org/feeding/sourdough/starter"}}},
			want: []string{"https://example.org/feeding/sourdough/starter"}, step: "c", searched: 3},
		{name: "none confident: the first answer", steps: []relink.Strategy{fixed{"a", nil}, fixed{"b", []string{"https://example.org/rye"}}, fixed{"c", []string{"https://example.org/spelt"}}},
			want: []string{"https://example.org/rye"}, step: "b", searched: 3},
		{name: "nothing found", steps: []relink.Strategy{fixed{"a", nil}}, want: []string{}, searched: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := relink.Cascade{Steps: tt.steps}.Find(context.Background(), clues(t), tools(&answers{}))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, uris(o.Candidates)); diff != "" {
				t.Errorf("Cascade candidates (-want +got):\n%s", diff)
			}
			if o.Step != tt.step || len(o.Queries) != tt.searched {
				t.Errorf("Cascade step %q after %d queries, want %q after %d", o.Step, len(o.Queries), tt.step, tt.searched)
			}
		})
	}
}

func TestFusion(t *testing.T) {
	// x is 1st and 3rd: 1/6 + 1/8 ≈ 0.292, just above y, 2nd twice:
	// 2/7 ≈ 0.286; w, first once, scores less than either.
	f := relink.Fusion{Members: []relink.Strategy{
		fixed{"a", []string{"https://example.org/x", "https://example.org/y", "https://example.org/z"}},
		fixed{"b", []string{"https://example.org/w", "https://example.org/y", "https://example.org/x"}},
	}}
	o, err := f.Find(context.Background(), clues(t), tools(&answers{}))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"https://example.org/x", "https://example.org/y", "https://example.org/w", "https://example.org/z"}
	if diff := cmp.Diff(want, uris(o.Candidates)); diff != "" {
		t.Errorf("Fusion candidates (-want +got):\n%s", diff)
	}
	for i, c := range o.Candidates {
		if c.Rank != i+1 {
			t.Errorf("candidate %d has rank %d", i, c.Rank)
		}
	}
	if len(o.Queries) != 2 {
		t.Errorf("Fusion queries = %v, want both members'", o.Queries)
	}
}

// TestFusionSameQuery: a member whose query an earlier member asked adds
// nothing, and scores are shares of the most a candidate can get.
func TestFusionSameQuery(t *testing.T) {
	x, y := "https://example.org/x", "https://example.org/y"
	f := relink.Fusion{Members: []relink.Strategy{
		fixed{"a", []string{x}},
		fixed{"a", []string{x}}, // the same query: not a second vote for x
		fixed{"b", []string{y}},
		fixed{"c", []string{y, x}},
	}}
	o, err := f.Find(context.Background(), clues(t), tools(&answers{}))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{y, x}, uris(o.Candidates)); diff != "" {
		t.Errorf("Fusion candidates (-want +got):\n%s", diff)
	}
	// y: first in two of three queries, 2/6 of 3/6; x: 1/6 + 1/7 of 3/6.
	want := []float64{2.0 / 3, (1.0/6 + 1.0/7) / 0.5}
	for i, c := range o.Candidates {
		if math.Abs(c.Score-want[i]) > 1e-9 {
			t.Errorf("candidate %s scores %v, want %v", c.URI, c.Score, want[i])
		}
	}
	if len(o.Queries) != 3 {
		t.Errorf("Fusion queries = %v, want a, b and c once each", o.Queries)
	}
}

func TestRerank(t *testing.T) {
	base := fixed{"base", []string{
		"https://a.example/blog",                        // a backlink page: last
		"https://other.example/sourdough/starter/guide", // whole phrase, other host
		"https://example.org/starter/sourdough/guide",   // every word, not in order
		"https://example.org/sourdough/starter/guide",   // whole phrase, same host
		"https://example.org/rye",                       // no word, same host
	}}
	c := clues(t)
	o, err := relink.Rerank{Base: base}.Find(context.Background(), c, tools(&answers{}))
	if err != nil {
		t.Fatal(err)
	}
	// The host's pages holding the phrase's words first, then the other
	// host's whole phrase before the host's page that holds no word.
	want := []string{
		"https://example.org/sourdough/starter/guide",
		"https://example.org/starter/sourdough/guide",
		"https://other.example/sourdough/starter/guide",
		"https://example.org/rye",
		"https://a.example/blog",
	}
	if diff := cmp.Diff(want, uris(o.Candidates)); diff != "" {
		t.Errorf("Rerank candidates (-want +got):\n%s", diff)
	}
	o, err = relink.Rerank{Base: base, Depth: 2}.Find(context.Background(), c, tools(&answers{}))
	if err != nil {
		t.Fatal(err)
	}
	if got := uris(o.Candidates)[:3]; !cmp.Equal(got, []string{base.uris[1], base.uris[0], base.uris[2]}) {
		t.Errorf("Rerank with Depth 2 = %v, want the first two swapped and the rest kept", got)
	}
}

// TestRerankDepth: Rerank's base asks for Depth results even when the
// caller wants fewer, and the caller gets the best of them.
func TestRerankDepth(t *testing.T) {
	a := &answers{results: map[string][]lexsig.Result{`"sourdough starter guide"`: {
		result("https://example.org/rye", "Rye bread"),
		result("https://example.org/spelt", "Spelt"),
		result("https://example.org/guide", "The sourdough starter guide"),
	}}}
	tl := tools(a)
	tl.Results = 1
	o, err := relink.Rerank{Base: relink.AnchorPhrase{}, Depth: 3}.Find(context.Background(), clues(t), tl)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"https://example.org/guide"}, uris(o.Candidates)); diff != "" {
		t.Errorf("Rerank of 3 for 1 result (-want +got):\n%s", diff)
	}
}

func TestRerankFetch(t *testing.T) {
	// Two candidates tie on their titles; the one whose text is like the
	// backlinks' words comes first, and both fetches are counted.
	pages := map[string]string{
		"https://example.org/x": "<title>Starter</title><p>Pine cones and forest walks in winter.</p>",
		"https://example.org/y": "<title>Starter</title><p>Read the sourdough starter guide; feeding a sourdough starter daily.</p>",
	}
	a := &answers{}
	tl := tools(a)
	tl.Fetcher = filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
		return &filter.Page{URI: uri, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte(pages[uri])}, nil
	})
	base := fixed{"base", []string{"https://example.org/x", "https://example.org/y"}}
	o, err := relink.Rerank{Base: base, Fetch: true}.Find(context.Background(), clues(t), tl)
	if err != nil {
		t.Fatal(err)
	}
	if got := uris(o.Candidates); !cmp.Equal(got, []string{"https://example.org/y", "https://example.org/x"}) || o.Fetches != 2 {
		t.Errorf("Rerank with Fetch = %v after %d fetches, want y first after 2", got, o.Fetches)
	}
}

func TestArchiveStrategies(t *testing.T) {
	page := &filter.Page{URI: target, Status: 200, Header: http.Header{"Content-Type": {"text/html"}},
		Body: []byte("<title>The Sourdough Starter Guide</title><p>starter starter starter sourdough feeding</p>")}
	tests := []struct {
		name     string
		strategy relink.Strategy
		archive  *filter.Page
		want     []string
	}{
		{name: "title", strategy: relink.ArchiveTitle{}, archive: page, want: []string{"sourdough starter guide"}},
		// starter 3×ln(25), sourdough 1×ln(200), feeding ln(50)...
		{name: "own signature", strategy: relink.ArchiveSignature{Size: 2}, archive: page, want: []string{"starter sourdough"}},
		{name: "no copy", strategy: relink.ArchiveTitle{}, want: nil},
		{name: "copy is an error page", strategy: relink.ArchiveSignature{Size: 2}, archive: &filter.Page{URI: target, Status: 404}, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := clues(t)
			c.Archive = tt.archive
			a := &answers{}
			if _, err := tt.strategy.Find(context.Background(), c, tools(a)); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, a.asked); diff != "" {
				t.Errorf("%s searched (-want +got):\n%s", tt.strategy.Name(), diff)
			}
			if !tt.strategy.Needs().Archive {
				t.Errorf("%s.Needs().Archive = false", tt.strategy.Name())
			}
		})
	}
}

func TestStrategyNames(t *testing.T) {
	var got []string
	for _, s := range relink.Strategies() {
		got = append(got, s.Name())
	}
	want := []string{"phrase", "url-phrase", "url-2", "url-4", "url-or-4", "1-anchor-10-prefer", "anchor+url-4", "cascade", "fusion", "rerank", "rerank-fetch", "moved-link+rerank", "moved-link+rerank+archive-check", "archive-title", "archive-ls5", "archive-ls7"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Strategies names (-want +got):\n%s", diff)
	}
	if relink.Best().Name() != "rerank" || relink.Best().Needs().Archive {
		t.Errorf("Best() = %s, want rerank, which needs no archive", relink.Best().Name())
	}
}

func TestFinderStrategy(t *testing.T) {
	f, queries := fakeFinder(t)
	f.Strategy = relink.AnchorPhrase{}
	res, err := f.Find(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	want := []lexsig.Query{{Terms: []string{"sourdough", "starter", "guide"}, Phrase: true}}
	if diff := cmp.Diff(want, *queries); diff != "" {
		t.Errorf("queries (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, res.Queries); diff != "" {
		t.Errorf("Result.Queries (-want +got):\n%s", diff)
	}
	if len(res.Candidates) != 1 || len(res.Backlinks) != 6 {
		t.Errorf("Find with a strategy: %d candidates, %d traces, want 1 and 6", len(res.Candidates), len(res.Backlinks))
	}
}

// TestFinderStrategyQueriesOnce: a query that two parts of a strategy
// share is sent to the searcher once.
func TestFinderStrategyQueriesOnce(t *testing.T) {
	f, queries := fakeFinder(t)
	f.Strategy = relink.Fusion{Members: []relink.Strategy{relink.AnchorPhrase{}, relink.AnchorPhrase{}}}
	res, err := f.Find(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	want := []lexsig.Query{{Terms: []string{"sourdough", "starter", "guide"}, Phrase: true}}
	if diff := cmp.Diff(want, *queries); diff != "" {
		t.Errorf("queries sent (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, res.Queries); diff != "" {
		t.Errorf("Result.Queries (-want +got):\n%s", diff)
	}
}

// TestFinderAnchors: a backlink known only from link records (its page
// cannot be fetched) gives the provider's anchor texts.
func TestFinderAnchors(t *testing.T) {
	f, queries := fakeFinder(t)
	f.Backlinks = backlink.ProviderFunc(func(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
		return []backlink.Backlink{
			{URI: "https://crawl.example/only-in-wat", Rank: 1, Level: 1, Anchors: []string{"Sourdough feeding"}},
			{URI: "https://e.example/gone", Rank: 2, Level: 1}, // 404, no anchors: rejected
		}, nil
	})
	res, err := f.Find(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Backlinks) != 2 || !res.Backlinks[0].Kept || res.Backlinks[0].Words != 2 || res.Backlinks[1].Kept {
		t.Errorf("traces = %+v, want the link record kept with 2 words and the gone page rejected", res.Backlinks)
	}
	want := []lexsig.Query{{Terms: []string{"sourdough", "feeding"}}}
	if diff := cmp.Diff(want, *queries); diff != "" {
		t.Errorf("queries (-want +got):\n%s", diff)
	}
}

// cluesFrom returns a function that gathers the clues for target from
// the given backlinks, whose pages are the fake web's and the given
// pages' bodies (each after filler, so that it passes the filters).
func cluesFrom(t *testing.T, pages map[string]string) func(links ...backlink.Backlink) *relink.Clues {
	f, _ := fakeFinder(t)
	fake := f.Fetcher
	f.Fetcher = filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
		if body, ok := pages[uri]; ok {
			html := `<html><body>` + filler + body + `</body></html>`
			return &filter.Page{URI: uri, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte(html)}, nil
		}
		return fake.Fetch(ctx, uri)
	})
	return func(links ...backlink.Backlink) *relink.Clues {
		t.Helper()
		ev, err := f.Gather(context.Background(), target, links, relink.Needs{})
		if err != nil {
			t.Fatal(err)
		}
		return &relink.Clues{URI: target, Evidence: ev}
	}
}

// TestPhrasesWholePage: the text of a link to a part of the page (a
// fragment) names that part; the page's own name comes first, however
// often the parts are named.
func TestPhrasesWholePage(t *testing.T) {
	const index, glossary = "https://g.example/index", "https://g.example/glossary"
	gather := cluesFrom(t, map[string]string{
		index:    `<p><a href="https://example.org/guides/sourdough-starter#feeding">Feeding</a> and <a href="https://example.org/guides/sourdough-starter">Sourdough starter</a></p>`,
		glossary: `<p><a href="https://example.org/guides/sourdough-starter#feeding">Feeding</a></p>`,
	})
	both := gather(backlink.Backlink{URI: index, Rank: 1, Level: 1}, backlink.Backlink{URI: glossary, Rank: 2, Level: 1})
	if diff := cmp.Diff([]relink.Phrase{{Words: []string{"sourdough", "starter"}, Pages: 1}}, both.Phrases()); diff != "" {
		t.Errorf("Phrases (-want +got):\n%s", diff)
	}
	parts := gather(backlink.Backlink{URI: glossary, Rank: 1, Level: 1})
	if diff := cmp.Diff([]relink.Phrase{{Words: []string{"feeding"}, Pages: 1}}, parts.Phrases()); diff != "" {
		t.Errorf("Phrases of links to a part alone (-want +got):\n%s", diff)
	}
}

// TestCluesAddresses: a link whose text is the missing page's own address
// gives no anchor phrase and no words to the signatures that leave such
// links out, whether it was read on a page or is an anchor text known only
// from the backlink provider; the paper's signature still counts it.
func TestCluesAddresses(t *testing.T) {
	const sitemapURI = "https://g.example/sitemap"
	gather := cluesFrom(t, map[string]string{
		sitemapURI: `<ul><li><a href="https://example.org/guides/sourdough-starter">example.org/guides/sourdough-starter</a></li></ul>`,
	})
	page := backlink.Backlink{URI: sitemapURI, Rank: 1, Level: 1}
	record := backlink.Backlink{URI: "https://crawl.example/only-in-wat", Rank: 2, Level: 1,
		Anchors: []string{"https://example.org/guides/sourdough-starter", "Starter feeding"}}

	queryOf := func(c *relink.Clues, s relink.Strategy) string {
		t.Helper()
		a := &answers{}
		if _, err := s.Find(context.Background(), c, tools(a)); err != nil {
			t.Fatal(err)
		}
		return strings.Join(a.asked, " | ")
	}
	both := gather(page, record)
	if diff := cmp.Diff([]relink.Phrase{{Words: []string{"starter", "feeding"}, Pages: 1}}, both.Phrases()); diff != "" {
		t.Errorf("Phrases (-want +got):\n%s", diff)
	}
	// tools' DF: starter ln(25), feeding ln(1000); the address's words
	// (example, org, guides, sourdough, starter) are left out.
	if got, want := queryOf(both, relink.Paper{Size: 3, Links: relink.PreferContent}), "feeding starter"; got != want {
		t.Errorf("content signature searched %q, want %q", got, want)
	}
	// Every link counts, the two addresses too: example and org (DF 0,
	// read as 1) 2×ln(1000) each, sourdough 2×ln(200), starter 3×ln(25).
	if got, want := queryOf(both, relink.Paper{Size: 4}), "example org sourdough starter"; got != want {
		t.Errorf("paper's signature searched %q, want %q (every link counts)", got, want)
	}

	only := gather(page)
	if got := only.Phrases(); len(got) != 0 {
		t.Errorf("Phrases of an address alone = %v, want none", got)
	}
	if got, want := queryOf(only, relink.Paper{Size: 3, Links: relink.PreferContent}), "example org sourdough"; got != want {
		t.Errorf("content signature of an address alone searched %q, want %q (its words, as no other link has any)", got, want)
	}
}

// TestRerankHeading: a first candidate whose title leaves Rerank unsure
// is fetched, and its heading counts when it spells the missing URI's
// name; a sibling's heading does not, and a sure title fetches nothing.
func TestRerankHeading(t *testing.T) {
	pages := map[string]string{
		"https://example.org/a":    "<title>Page</title><h1>Guides: sourdough-starter</h1>",
		"https://example.org/b":    "<title>Page</title><h1>Guides: rye-starter</h1>",
		"https://example.org/sure": "<title>Sourdough starter</title><h1>Guides: rye-starter</h1>",
	}
	fetched := 0
	tl := tools(&answers{})
	tl.Fetcher = filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
		fetched++
		return &filter.Page{URI: uri, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte(pages[uri])}, nil
	})
	c := clues(t)
	for _, tt := range []struct {
		uri, title   string
		wantFetches  int
		headingCount bool
	}{
		{"https://example.org/a", "Page", 1, true},
		{"https://example.org/b", "Page", 1, false},
		{"https://example.org/sure", "Sourdough starter", 0, false},
	} {
		fetched = 0
		base := titled{fixed{"base", []string{tt.uri}}, tt.title}
		o, err := relink.Rerank{Base: base}.Find(context.Background(), c, tl)
		if err != nil {
			t.Fatal(err)
		}
		got := relink.Signals(c, o.Candidates, o.Seen)[relink.SignalHeadingSpellsURI] == 1
		if got != tt.headingCount {
			t.Errorf("%s: heading spells the URI: %v, want %v", tt.uri, got, tt.headingCount)
		}
		if fetched != tt.wantFetches || o.Fetches != tt.wantFetches {
			t.Errorf("%s: %d fetches (%d counted), want %d", tt.uri, fetched, o.Fetches, tt.wantFetches)
		}
	}
}

// titled is a strategy whose candidates all have one title.
type titled struct {
	fixed
	title string
}

func (s titled) Find(ctx context.Context, c *relink.Clues, t relink.Tools) (*relink.Outcome, error) {
	o, err := s.fixed.Find(ctx, c, t)
	for i := range o.Candidates {
		o.Candidates[i].Title = s.title
	}
	return o, err
}

// given is a strategy with given candidates.
type given []lexsig.Result

func (g given) Name() string        { return "given" }
func (g given) Terms() int          { return 1 }
func (g given) Needs() relink.Needs { return relink.Needs{} }
func (g given) Find(ctx context.Context, c *relink.Clues, t relink.Tools) (*relink.Outcome, error) {
	return &relink.Outcome{Queries: []lexsig.Query{{Terms: []string{"given"}}}, Candidates: slices.Clone(g)}, nil
}

// TestRerankSibling: a candidate whose title names another page than the
// missing URI's (another dotted name, another version) goes after one
// that does not.
func TestRerankSibling(t *testing.T) {
	for _, tt := range []struct {
		uri         string
		first, want lexsig.Result
	}{
		{"https://docs.dask.org/en/latest/generated/dask.array.Array.min.html",
			result("https://docs.dask.org/x", "dask.array.min — Dask documentation"),
			result("https://docs.dask.org/y", "dask.array.Array.min — Dask documentation")},
		{"https://www.sqlite.org/releaselog/3_3_7.html",
			result("https://www.sqlite.org/x", "SQLite Release 3.7.0.1 On 2010-08-04"),
			result("https://www.sqlite.org/y", "SQLite Release 3.3.7 On 2006-08-12")},
	} {
		c := &relink.Clues{URI: tt.uri}
		o, err := relink.Rerank{Base: given{tt.first, tt.want}}.Find(context.Background(), c, tools(&answers{}))
		if err != nil {
			t.Fatal(err)
		}
		if got := uris(o.Candidates); !cmp.Equal(got, []string{tt.want.URI, tt.first.URI}) {
			t.Errorf("%s: Rerank = %v, want %s first", tt.uri, got, tt.want.URI)
		}
	}
}

// TestPhrasesCopies: Phrases finds the phrases once per Clues, and each
// call returns a copy that its caller may change (Confidence trims the
// phrases it is given).
func TestPhrasesCopies(t *testing.T) {
	c := clues(t)
	first := c.Phrases()
	want := []relink.Phrase{{Words: []string{"sourdough", "starter", "guide"}, Pages: 1}}
	first[0].Words[0], first[0].Pages = "changed", 7
	if diff := cmp.Diff(want, c.Phrases()); diff != "" {
		t.Errorf("Phrases after a caller changed the first answer (-want +got):\n%s", diff)
	}
}
