package relink_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/lexsig"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConfidence: the first candidate's title against the backlinks'
// anchor phrases ("sourdough starter guide", "feeding a sourdough
// starter", from the fake web).
func TestConfidence(t *testing.T) {
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
	tests := []struct {
		name       string
		candidates []lexsig.Result
		want       float64
	}{
		{"no candidate", nil, 0},
		{"no title", titles(""), 0},
		{"the phrase whole", titles("The sourdough starter guide"), 1},
		{"the phrase whole and the site's name", titles("Sourdough starter guide — Example Kitchen 2"), 1},
		{"the phrase whole and words of its own", titles("Sourdough starter guide for rye"), relink.ForeignTitle},
		{"part of a phrase", titles("Sourdough recipes"), 0.8 * 0.9 / 2}, // half the URI's "sourdough starter"
		{"the URI's last segment whole", titles("Sourdough starter"), 1},
		{"words of its own that the site's titles share", titles("Sourdough starter guide for rye", "Focaccia for rye"), 1},
		{"words of its own on another host", []lexsig.Result{{URI: "https://other.example/1", Title: "Sourdough starter guide for rye"}, {URI: "https://other.example/2", Title: "Focaccia for rye"}}, relink.ForeignTitle},
		{"nothing in common", titles("Rye bread"), 0},
		{"two siblings alike", titles("Sourdough starter guide", "The sourdough starter guide"), 0.5},
		{"a sibling with words of its own", titles("Sourdough starter guide", "Sourdough starter guide (old)"), 1},
		{"a better first", titles("Sourdough starter guide", "Sourdough recipes"), 1},
	}
	for _, tt := range tests {
		assert.InDelta(t, tt.want, relink.Confidence(clues, tt.candidates), 1e-9, tt.name)
	}
	// Without anchor phrases the missing URI's words judge, at half weight.
	bare := &relink.Clues{URI: "https://example.org/guides/rye-bread"}
	assert.InDelta(t, 0.5, relink.Confidence(bare, titles("Guides: rye bread")), 1e-9, "URI words, whole")
	assert.InDelta(t, 0.4, relink.Confidence(bare, titles("Rye bread guides")), 1e-9, "URI words, out of order")
	// Siblings alike, unless the search scored the first clearly higher.
	alike := titles("Sourdough starter guide", "Sourdough starter guide")
	alike[0].Score, alike[1].Score = 3, 1
	assert.InDelta(t, 1, relink.Confidence(clues, alike), 1e-9, "the first scored 3 times the second")
	alike[1].Score = 2.5
	assert.InDelta(t, 0.5, relink.Confidence(clues, alike), 1e-9, "scored alike")
	// Siblings alike, unless the first is on the missing page's host and
	// the second is not.
	alike[1].URI = "https://mirror.example/guide"
	assert.InDelta(t, 1, relink.Confidence(clues, alike), 1e-9, "the second on another host")
	alike[0].URI, alike[1].URI = alike[1].URI, alike[0].URI
	assert.InDelta(t, 0.5, relink.Confidence(clues, alike), 1e-9, "the first on another host")
}

// TestFinderFound: Found is the confidence against the Finder's threshold.
func TestFinderFound(t *testing.T) {
	for _, tt := range []struct {
		title     string
		threshold float64
		found     bool
	}{
		{"Sourdough starter guide", 0, true},
		{"Sourdough recipes", 0, false},
		{"Sourdough recipes", 0.2, true},
		{"Rye bread", -1, true},
	} {
		f, _ := fakeFinder(t)
		f.Threshold = tt.threshold
		f.Searcher = lexsig.SearcherFunc(func(context.Context, lexsig.Query, int) ([]lexsig.Result, error) {
			return []lexsig.Result{{Rank: 1, URI: "https://example.org/new", Title: tt.title}}, nil
		})
		res, err := f.Find(context.Background(), target)
		require.NoError(t, err)
		assert.Equal(t, tt.found, res.Found, "%q at threshold %v (confidence %v)", tt.title, tt.threshold, res.Confidence)
	}
}

func ExampleConfidence() {
	// A page without anchor phrases is judged by the words of its URI.
	clues := &relink.Clues{URI: "https://example.org/annual-rainfall"}
	fmt.Println(relink.Confidence(clues, []lexsig.Result{{URI: "https://example.org/reports/rainfall", Title: "Annual rainfall"}}))
	fmt.Println(relink.Confidence(clues, []lexsig.Result{{URI: "https://example.org/weather", Title: "Weather"}}))
	// Output:
	// 0.5
	// 0
}

// TestRerankJudge: a reranked fusion's answer is as sure as its title
// says only when enough of the fusion's queries found it
// (relink.FusionSupport).
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
	assert.InDelta(t, (1.0/9)/(n/6)/relink.FusionSupport, res.Confidence, 1e-9)
	assert.False(t, res.Found)

	// Every query finding it first: the title's confidence.
	f.Searcher = lexsig.SearcherFunc(func(context.Context, lexsig.Query, int) ([]lexsig.Result, error) {
		return []lexsig.Result{page}, nil
	})
	res, err = f.Find(context.Background(), target)
	require.NoError(t, err)
	assert.InDelta(t, 1, res.Confidence, 1e-9)
	assert.True(t, res.Found)
}
