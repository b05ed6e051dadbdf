package relink_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/linkrot/relink"
	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
)

const target = "https://example.org/guides/sourdough-starter"

// filler is enough English prose for a page to pass the size (50 tokens) and
// language filters of §3.1.
const filler = `<p>Bread is one of the oldest prepared foods. Evidence from thirty
thousand years ago in Europe revealed starch residue on rocks used for pounding
plants. It is possible that during this time, starch extract from the roots of
plants, such as cattails and ferns, was spread on a flat rock, placed over a
fire and cooked into a primitive form of flatbread. Around ten thousand years
ago, with the dawn of agriculture, grains became the mainstay of making bread.</p>`

// web is a small fake web: backlink pages by URI.
var web = map[string]string{
	"https://a.example/blog":     `<html><body>` + filler + `<p>Read the <a href="https://example.org/guides/sourdough-starter/">sourdough starter guide</a> first.</p></body></html>`,
	"https://b.example/forum":    `<html><body>` + filler + `<p>See <a href="https://EXAMPLE.org/guides/sourdough-starter#feed">feeding a sourdough starter</a>.</p></body></html>`,
	"https://c.example/tiny":     `<html><body><a href="https://example.org/guides/sourdough-starter">starter</a></body></html>`,
	"https://d.example/nolink":   `<html><body>` + filler + `<p>No link here.</p></body></html>`,
	"https://e.example/gone":     "",
	"https://f.example/document": "%PDF-1.4 binary",
}

func fakeFinder(t *testing.T) (*relink.Finder, *[]lexsig.Query) {
	t.Helper()
	provider := backlink.ProviderFunc(func(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
		if uri != target {
			return nil, nil
		}
		var out []backlink.Backlink
		for i, u := range []string{"https://a.example/blog", "https://b.example/forum", "https://c.example/tiny", "https://d.example/nolink", "https://e.example/gone", "https://f.example/document"} {
			if i < limit {
				out = append(out, backlink.Backlink{URI: u, Rank: i + 1, Level: 1})
			}
		}
		return out, nil
	})
	fetcher := filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
		body, ok := web[uri]
		switch {
		case !ok || body == "":
			return &filter.Page{URI: uri, Status: http.StatusNotFound}, nil
		case strings.HasPrefix(body, "%PDF"):
			return &filter.Page{URI: uri, Status: 200, Header: http.Header{"Content-Type": {"application/pdf"}}, Body: []byte(body)}, nil
		}
		return &filter.Page{URI: uri, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte(body)}, nil
	})
	df := lexsig.NewMemDF()
	df.SetDocs(1000)
	for term, n := range map[string]int64{"sourdough": 5, "starter": 40, "guide": 200, "feeding": 20, "read": 500} {
		df.Set(term, n)
	}
	var queries []lexsig.Query
	searcher := lexsig.SearcherFunc(func(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
		queries = append(queries, q)
		return []lexsig.Result{{Rank: 1, URI: "https://example.org/baking/starter"}}, nil
	})
	return &relink.Finder{Backlinks: provider, Fetcher: fetcher, DF: df, Searcher: searcher, Strategy: relink.Paper{}}, &queries
}

func TestFinderFind(t *testing.T) {
	f, queries := fakeFinder(t)
	res, err := f.Find(context.Background(), "https://Example.org:443/guides/sourdough-starter/#top")
	if err != nil {
		t.Fatal(err)
	}
	if res.URI != target {
		t.Errorf("URI = %q, want %q", res.URI, target)
	}
	type row struct {
		URI    string
		Kept   bool
		Filter string
		Words  int
	}
	var got []row
	for _, b := range res.Backlinks {
		got = append(got, row{b.URI, b.Kept, b.Filter, b.Words})
	}
	// §3.1: every backlink is kept or rejected by the first filter that
	// catches it; a page without the link is rejected too.
	want := []row{
		{"https://a.example/blog", true, "", 3},
		{"https://b.example/forum", true, "", 4},
		{"https://c.example/tiny", false, filter.FilterSize, 0},
		{"https://d.example/nolink", false, relink.FilterLink, 0},
		{"https://e.example/gone", false, filter.FilterStatus, 0},
		{"https://f.example/document", false, filter.FilterFileType, 0},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("trail (-want +got):\n%s", diff)
	}
	// TF over the anchors: sourdough 2, starter 2, guide 1, feeding 1
	// (Equation 1); weights TF × ln(1000/DF) (Equations 2, 3).
	if gotQ, wantQ := res.Query.String(), "sourdough starter feeding guide"; gotQ != wantQ {
		t.Errorf("query = %q, want %q", gotQ, wantQ)
	}
	if len(*queries) != 1 || len(res.Candidates) != 1 {
		t.Errorf("searched %d times with %d candidates, want 1 and 1", len(*queries), len(res.Candidates))
	}
}

func TestFinderCancelled(t *testing.T) {
	f, _ := fakeFinder(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.Find(ctx, target); err == nil {
		t.Fatal("Find with a cancelled context: nil error")
	}
}

func TestFinderBadURI(t *testing.T) {
	f, _ := fakeFinder(t)
	if _, err := f.Find(context.Background(), "/relative/only"); err == nil {
		t.Fatal("Find of a relative URI: nil error")
	}
}

func ExampleFinder() {
	page := `<html><body><p>The <a href="https://example.org/old">annual rainfall report</a> moved.</p></body></html>`
	f := &relink.Finder{
		Backlinks: backlink.ProviderFunc(func(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
			return []backlink.Backlink{{URI: "https://news.example/story", Rank: 1, Level: 1}}, nil
		}),
		Fetcher: filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
			if uri != "https://news.example/story" {
				return &filter.Page{URI: uri, Status: 404}, nil // also the soft-404 probes
			}
			return &filter.Page{URI: uri, Status: 200, Body: []byte(page)}, nil
		}),
		DF: lexsig.DFFunc(func(ctx context.Context, term string) (int64, error) {
			return map[string]int64{"annual": 300, "rainfall": 20, "report": 900}[term], nil
		}).WithDocs(10000),
		Searcher: lexsig.SearcherFunc(func(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
			return []lexsig.Result{{Rank: 1, URI: "https://example.org/reports/rainfall"}}, nil
		}),
		// The example page is short: turn the size and language filters off.
		Filters: filter.Filters{Disabled: []string{filter.FilterSize, filter.FilterLanguage}},
	}
	res, err := f.Find(context.Background(), "https://example.org/old")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("query:", res.Query)
	for _, c := range res.Candidates {
		fmt.Println(c.Rank, c.URI)
	}
	// Output:
	// query: "annual rainfall report"
	// 1 https://example.org/reports/rainfall
}
