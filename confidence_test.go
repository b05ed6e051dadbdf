package relink_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/lexsig"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSignals: what the judge sees of the first candidate's title against
// the backlinks' anchor phrases ("sourdough starter guide", "feeding a
// sourdough starter", from the fake web).
func TestSignals(t *testing.T) {
	f, _ := fakeFinder(t)
	clues, err := f.Clues(context.Background(), target, relink.Needs{})
	require.NoError(t, err)
	titles := func(ts ...string) []lexsig.Result {
		out := make([]lexsig.Result, len(ts))
		for i, s := range ts {
			out[i] = lexsig.Result{Rank: i + 1, URI: fmt.Sprintf("https://example.org/%d", i), Title: s}
		}
		return out
	}
	const (
		whole    = relink.SignalPhraseInTitle
		own      = relink.SignalTitleOwnWords
		pattern  = relink.SignalSitePattern
		share    = relink.SignalPhraseShare
		shareOwn = relink.SignalShareOwnWords
		alike    = relink.SignalSecondAlike
		unsure   = relink.SignalSecondUnresolved
		urlOnly  = relink.SignalURLWordsOnly
		noTitle  = relink.SignalNoTitle
	)
	// judged returns the signals of the titles' kind that the judge saw,
	// with their values.
	judged := func(c *relink.Clues, cands []lexsig.Result) map[string]float64 {
		out := map[string]float64{}
		for name, v := range relink.Signals(c, cands, relink.Seen{}) {
			switch name {
			case whole, own, pattern, share, shareOwn, alike, unsure, urlOnly, noTitle, relink.SignalSibling, relink.SignalTitleSpellsURI:
				out[name] = v
			}
		}
		return out
	}
	tests := []struct {
		name       string
		candidates []lexsig.Result
		want       map[string]float64
	}{
		{"no title", titles(""), map[string]float64{noTitle: 1}},
		{"the phrase whole", titles("The sourdough starter guide"), map[string]float64{whole: 1}},
		{"the phrase whole and the site's name", titles("Sourdough starter guide — Example Kitchen 2"), map[string]float64{whole: 1}},
		{"the phrase whole and words of its own", titles("Sourdough starter guide for rye"), map[string]float64{own: 1}},
		{"part of a phrase", titles("Sourdough recipes"), map[string]float64{share: 0.5, shareOwn: 1}}, // half the URI's "sourdough starter"
		{"the URI's last segment whole", titles("Sourdough starter"), map[string]float64{whole: 1}},
		{"words of its own that the site's titles share", titles("Sourdough starter guide for rye", "Focaccia for rye"), map[string]float64{pattern: 1}},
		{"words of its own on another host", []lexsig.Result{{URI: "https://other.example/1", Title: "Sourdough starter guide for rye"}, {URI: "https://other.example/2", Title: "Focaccia for rye"}}, map[string]float64{own: 1}},
		{"nothing in common", titles("Rye bread"), map[string]float64{}},
		{"two siblings alike", titles("Sourdough starter guide", "The sourdough starter guide"), map[string]float64{whole: 1, alike: 1, unsure: 1}},
		{"a sibling with words of its own", titles("Sourdough starter guide", "Sourdough starter guide (old)"), map[string]float64{whole: 1}},
		{"a better first", titles("Sourdough starter guide", "Sourdough recipes"), map[string]float64{whole: 1}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, judged(clues, tt.candidates), tt.name)
	}
	assert.Nil(t, relink.Signals(clues, nil, relink.Seen{}), "no candidate")
	// Without anchor phrases the missing URI's words judge.
	bare := &relink.Clues{URI: "https://example.org/guides/rye-bread"}
	assert.Equal(t, map[string]float64{whole: 1, urlOnly: 1}, judged(bare, titles("Guides: rye bread")), "URI words, whole")
	assert.Equal(t, map[string]float64{share: 1, urlOnly: 1}, judged(bare, titles("Rye bread guides")), "URI words, out of order")
	// Siblings alike, unless the search scored the first clearly higher.
	two := titles("Sourdough starter guide", "Sourdough starter guide")
	two[0].Score, two[1].Score = 3, 1
	assert.Equal(t, map[string]float64{whole: 1, alike: 1}, judged(clues, two), "the first scored 3 times the second")
	assert.InDelta(t, math.Log2(3)/4, relink.Signals(clues, two, relink.Seen{})[relink.SignalScoreMargin], 1e-9)
	two[1].Score = 2.5
	assert.Equal(t, map[string]float64{whole: 1, alike: 1, unsure: 1}, judged(clues, two), "scored alike")
	// Siblings alike, unless the first is on the missing page's host and
	// the second is not.
	two[1].URI = "https://mirror.example/guide"
	assert.Equal(t, map[string]float64{whole: 1, alike: 1}, judged(clues, two), "the second on another host")
	two[0].URI, two[1].URI = two[1].URI, two[0].URI
	assert.Equal(t, map[string]float64{whole: 1, alike: 1, unsure: 1}, judged(clues, two), "the first on another host")
}

// TestFinderFound: Found is the confidence against the Finder's threshold,
// by default the model's.
func TestFinderFound(t *testing.T) {
	model := &relink.Model{Bias: -2, Weights: map[string]float64{relink.SignalPhraseInTitle: 4}, Threshold: 0.5}
	for _, tt := range []struct {
		title     string
		threshold float64
		found     bool
	}{
		{"Sourdough starter guide", 0, true}, // 0.88
		{"Sourdough recipes", 0, false},      // 0.12
		{"Sourdough recipes", 0.1, true},
		{"Rye bread", -1, true},
	} {
		f, _ := fakeFinder(t)
		f.Threshold, f.Model = tt.threshold, model
		f.Searcher = lexsig.SearcherFunc(func(context.Context, lexsig.Query, int) ([]lexsig.Result, error) {
			return []lexsig.Result{{Rank: 1, URI: "https://example.org/new", Title: tt.title}}, nil
		})
		res, err := f.Find(context.Background(), target)
		require.NoError(t, err)
		assert.Equal(t, tt.found, res.Found, "%q at threshold %v (confidence %v)", tt.title, tt.threshold, res.Confidence)
		assert.InDelta(t, model.Confidence(res.Signals), res.Confidence, 1e-12, "the confidence is the model's of the signals")
	}
}

func ExampleSignals() {
	// A page without anchor phrases is judged by the words of its URI.
	clues := &relink.Clues{URI: "https://example.org/annual-rainfall"}
	for _, title := range []string{"Annual rainfall", "Rainfall by month"} {
		s := relink.Signals(clues, []lexsig.Result{{URI: "https://example.org/reports/rainfall", Title: title}}, relink.Seen{})
		fmt.Println(title+":", s[relink.SignalPhraseInTitle], s[relink.SignalPhraseShare], s[relink.SignalURLWordsOnly])
	}
	// Output:
	// Annual rainfall: 1 0 1
	// Rainfall by month: 0 0.5 1
}

// TestRerankJudge: a reranked fusion's support is the share of the
// fusion's queries that found its first candidate (fusionSupport).
func TestRerankJudge(t *testing.T) {
	f, _ := fakeFinder(t)
	page := lexsig.Result{URI: "https://example.org/new", Title: "Sourdough starter guide"}
	other := lexsig.Result{URI: "https://example.org/rye", Title: "Rye"}
	rye2 := lexsig.Result{URI: "https://example.org/rye-2", Title: "Rye 2"}
	rye3 := lexsig.Result{URI: "https://example.org/rye-3", Title: "Rye 3"}
	f.Searcher = lexsig.SearcherFunc(func(_ context.Context, q lexsig.Query, _ int) ([]lexsig.Result, error) {
		if q.Phrase {
			return []lexsig.Result{other, rye2, rye3, page}, nil
		}
		return []lexsig.Result{other}, nil
	})
	members := []relink.Strategy{relink.AnchorPhrase{}, relink.Paper{}, relink.Paper{Size: 1}, relink.Paper{Size: 2}, relink.Paper{Size: 3}, relink.Paper{Mode: lexsig.Disjunctive}}
	f.Strategy = relink.Rerank{Base: relink.Fusion{Members: members}}
	res, err := f.Find(context.Background(), target)
	require.NoError(t, err)
	// Fourth in one query of six or more: (1/9) / (n/6) of the most,
	// below the support, though the title names the page.
	require.Equal(t, page.URI, res.Candidates[0].URI)
	n := float64(len(res.Queries))
	require.GreaterOrEqual(t, n, 6.0, "distinct queries: %v", res.Queries)
	assert.InDelta(t, (1.0/9)/(n/6)/relink.FusionSupport, res.Signals[relink.SignalFusionSupport], 1e-9)
	assert.Equal(t, 1.0, res.Signals[relink.SignalPhraseInTitle])

	// Every query finding it first: full support.
	f.Searcher = lexsig.SearcherFunc(func(context.Context, lexsig.Query, int) ([]lexsig.Result, error) {
		return []lexsig.Result{page}, nil
	})
	res, err = f.Find(context.Background(), target)
	require.NoError(t, err)
	assert.InDelta(t, 1, res.Signals[relink.SignalFusionSupport], 1e-9)
	assert.Greater(t, res.Confidence, relink.DefaultThreshold, "a title that names the page, every query agreeing")
}
