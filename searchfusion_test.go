package relink_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/lexsig"
)

// list is a Searcher that answers every query with its URIs, in order,
// at most limit, and records the limits it was asked for.
type list struct {
	uris   []string
	limits *[]int
}

func (l list) Search(_ context.Context, _ lexsig.Query, limit int) ([]lexsig.Result, error) {
	if l.limits != nil {
		*l.limits = append(*l.limits, limit)
	}
	var out []lexsig.Result
	for i, u := range l.uris[:min(len(l.uris), limit)] {
		out = append(out, lexsig.Result{Rank: i + 1, URI: u, Title: "title of " + u})
	}
	return out, nil
}

// failing is a Searcher whose every query fails with err.
func failing(err error) lexsig.Searcher {
	return lexsig.SearcherFunc(func(context.Context, lexsig.Query, int) ([]lexsig.Result, error) {
		return nil, err
	})
}

func fusedURIs(rs []relink.FusedResult) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.URI)
	}
	return out
}

// TestSearchFusionOrder fuses a site's list with an engine's: a page
// both hold comes first, then the others by their ranks, a tie (the
// same rank on one list each) going to the smaller URI; each result
// names the sources that held it, and the scores are Fusion's shares.
func TestSearchFusionOrder(t *testing.T) {
	f := relink.SearchFusion{Sources: []relink.Source{
		{Name: "site", Searcher: list{uris: []string{"https://a.example/x", "https://a.example/both", "https://a.example/z"}}},
		{Name: "engine", Searcher: list{uris: []string{"https://b.example/w", "https://a.example/both"}}},
	}}
	got, err := f.Fuse(context.Background(), lexsig.Query{Terms: []string{"w"}}, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"https://a.example/both", "https://a.example/x", "https://b.example/w", "https://a.example/z"}
	if !slices.Equal(fusedURIs(got), want) {
		t.Fatalf("order %q, want %q", fusedURIs(got), want)
	}
	sources := [][]string{{"site", "engine"}, {"site"}, {"engine"}, {"site"}}
	for i, r := range got {
		if !slices.Equal(r.Sources, sources[i]) || r.Rank != i+1 {
			t.Errorf("%s: rank %d, sources %q; want %d, %q", r.URI, r.Rank, r.Sources, i+1, sources[i])
		}
	}
	// both: 1/(5+2) twice over the most, 2/(5+1).
	if s, want := got[0].Score, (2.0/7)/(2.0/6); s < want-1e-12 || s > want+1e-12 {
		t.Errorf("score of the page both hold %v, want %v", s, want)
	}
	if got[1].Score != got[2].Score || got[1].Title != "title of https://a.example/x" {
		t.Errorf("tied pages %+v and %+v: want the same score, the first's title", got[1], got[2])
	}
	short, err := f.Fuse(context.Background(), lexsig.Query{Terms: []string{"w"}}, 2)
	if err != nil || !slices.Equal(fusedURIs(short), want[:2]) {
		t.Errorf("limit 2: %q (%v), want %q", fusedURIs(short), err, want[:2])
	}
}

// TestSearchFusionLimits asks each source its own Limit, and the
// caller's limit of a source without one.
func TestSearchFusionLimits(t *testing.T) {
	var site, engine []int
	f := relink.SearchFusion{Sources: []relink.Source{
		{Name: "site", Searcher: list{uris: []string{"https://a.example/1"}, limits: &site}},
		{Name: "engine", Searcher: list{uris: []string{"https://b.example/1"}, limits: &engine}, Limit: 20},
	}}
	if _, err := f.Search(context.Background(), lexsig.Query{Terms: []string{"w"}}, 100); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(site, []int{100}) || !slices.Equal(engine, []int{20}) {
		t.Errorf("limits asked: site %v, engine %v; want 100 and 20", site, engine)
	}
}

// TestSearchFusionFailure: an engine that fails (a spent quota) loses
// none of the site's answers; Search says nothing, Fuse names the
// source and keeps its error; only every source failing fails Search.
func TestSearchFusionFailure(t *testing.T) {
	quota := errors.New("quota spent")
	site := list{uris: []string{"https://a.example/1", "https://a.example/2"}}
	f := relink.SearchFusion{Sources: []relink.Source{{Name: "site", Searcher: site}, {Name: "brave", Searcher: failing(quota)}}}
	ctx, q := context.Background(), lexsig.Query{Terms: []string{"w"}}
	got, err := f.Fuse(ctx, q, 10)
	var se *relink.SourceError
	if !errors.Is(err, quota) || !errors.As(err, &se) || se.Source != "brave" {
		t.Errorf("Fuse's error %v, want brave's quota", err)
	}
	if !slices.Equal(fusedURIs(got), site.uris) || got[0].Score != 1 || !slices.Equal(got[0].Sources, []string{"site"}) {
		t.Errorf("Fuse with the engine failing: %+v, want the site's list as it is", got)
	}
	rs, err := f.Search(ctx, q, 10)
	if err != nil || len(rs) != 2 || rs[0].URI != site.uris[0] {
		t.Errorf("Search with the engine failing: %+v, %v; want the site's list", rs, err)
	}
	none := relink.SearchFusion{Sources: []relink.Source{{Name: "site", Searcher: failing(errors.New("disk"))}, {Name: "brave", Searcher: failing(quota)}}}
	if rs, err := none.Search(ctx, q, 10); err == nil || !errors.Is(err, quota) || rs != nil {
		t.Errorf("every source failing: %+v, %v; want the failures", rs, err)
	}
	empty := relink.SearchFusion{Sources: []relink.Source{{Name: "site", Searcher: list{}}, {Name: "brave", Searcher: failing(quota)}}}
	if rs, err := empty.Search(ctx, q, 10); err != nil || len(rs) != 0 {
		t.Errorf("the site matching nothing, the engine failing: %+v, %v; want no result and no error", rs, err)
	}
}

// ExampleSearchFusion fuses a site's own index with a web engine's
// answers to one query: the page both rank comes first.
func ExampleSearchFusion() {
	site := lexsig.SearcherFunc(func(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
		return []lexsig.Result{
			{Rank: 1, URI: "https://bakery.example/recipes/baguette.html"},
			{Rank: 2, URI: "https://bakery.example/recipes/sourdough.html"},
		}, nil
	})
	engine := lexsig.SearcherFunc(func(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
		return []lexsig.Result{
			{Rank: 1, URI: "https://bakery.example/recipes/sourdough.html"},
			{Rank: 2, URI: "https://forum.example/t/starter"},
		}, nil
	})
	f := relink.SearchFusion{Sources: []relink.Source{{Name: "site", Searcher: site}, {Name: "engine", Searcher: engine, Limit: 20}}}
	rs, err := f.Fuse(context.Background(), lexsig.Query{Terms: []string{"sourdough", "starter"}}, 10)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rs {
		fmt.Printf("%d %s %v %.2f\n", r.Rank, r.URI, r.Sources, r.Score)
	}
	// Output:
	// 1 https://bakery.example/recipes/sourdough.html [site engine] 0.93
	// 2 https://bakery.example/recipes/baguette.html [site] 0.50
	// 3 https://forum.example/t/starter [engine] 0.43
}
