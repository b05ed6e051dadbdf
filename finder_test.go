package relink_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/linkrot/relink"
	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	"https://a.example/blog":     `<html><head><title>Bread notes — Example Kitchen</title></head><body>` + filler + `<p>Read the <a href="https://example.org/guides/sourdough-starter/">sourdough starter guide</a> first.</p></body></html>`,
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

// TestFinderBadProviders: a caller's mistake is an error, never a panic in
// a goroutine the caller cannot recover, and Find leaves no goroutine
// behind.
func TestFinderBadProviders(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name  string
		setup func(f *relink.Finder) *relink.Finder
		want  error // matched with errors.Is
	}{
		{"nil Finder", func(*relink.Finder) *relink.Finder { return nil }, relink.ErrProvider},
		{"zero Finder", func(*relink.Finder) *relink.Finder { return &relink.Finder{} }, relink.ErrProvider},
		{"nil Backlinks", func(f *relink.Finder) *relink.Finder { f.Backlinks = nil; return f }, relink.ErrProvider},
		{"nil Fetcher", func(f *relink.Finder) *relink.Finder { f.Fetcher = nil; return f }, relink.ErrProvider},
		{"nil DF", func(f *relink.Finder) *relink.Finder { f.DF = nil; return f }, relink.ErrProvider},
		{"nil Searcher", func(f *relink.Finder) *relink.Finder { f.Searcher = nil; return f }, relink.ErrProvider},
		{"backlinks fail", func(f *relink.Finder) *relink.Finder {
			f.Backlinks = backlink.ProviderFunc(func(context.Context, string, int) ([]backlink.Backlink, error) { return nil, boom })
			return f
		}, boom},
		{"search fails", func(f *relink.Finder) *relink.Finder {
			f.Searcher = lexsig.SearcherFunc(func(context.Context, lexsig.Query, int) ([]lexsig.Result, error) { return nil, boom })
			return f
		}, boom},
		{"DF fails", func(f *relink.Finder) *relink.Finder {
			f.DF = lexsig.DFFunc(func(context.Context, string) (int64, error) { return 0, boom }).WithDocs(10)
			return f
		}, boom},
		{"no backlinks", func(f *relink.Finder) *relink.Finder {
			f.Backlinks = backlink.ProviderFunc(func(context.Context, string, int) ([]backlink.Backlink, error) { return nil, nil })
			return f
		}, relink.ErrNoQuery},
		{"(nil, nil) pages", func(f *relink.Finder) *relink.Finder {
			f.Fetcher = filter.FetcherFunc(func(context.Context, string) (*filter.Page, error) { return nil, nil })
			return f
		}, relink.ErrNoQuery},
		{"ftp target", nil, relink.ErrScheme},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			f, _ := fakeFinder(t)
			uri := target
			if tt.setup != nil {
				f = tt.setup(f)
			} else {
				uri = "ftp://example.org/guides/sourdough-starter"
			}
			res, err := f.Find(context.Background(), uri)
			require.ErrorIs(t, err, tt.want)
			if errors.Is(err, relink.ErrNoQuery) {
				require.NotNil(t, res, "Find with ErrNoQuery returns the trail")
				for _, b := range res.Backlinks {
					assert.False(t, b.Kept, "%s kept", b.URI)
				}
			}
			requireNoLeak(t, before)
		})
	}
}

// requireNoLeak fails when goroutines started since before are still
// running once they have had a moment to end.
func requireNoLeak(t *testing.T, before int) {
	t.Helper()
	for range 100 {
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("%d goroutines running, %d before", runtime.NumGoroutine(), before)
}

// TestFinderCancelledNoLeak: a cancelled Find returns ctx's error and its
// workers end.
func TestFinderCancelledNoLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	f, _ := fakeFinder(t)
	ctx, cancel := context.WithCancel(context.Background())
	f.Fetcher = filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
		cancel()
		<-ctx.Done()
		return nil, ctx.Err()
	})
	_, err := f.Find(ctx, target)
	require.ErrorIs(t, err, context.Canceled)
	requireNoLeak(t, before)
}

// TestFinderLeavesOut: by default the missing URI and the backlink pages
// are not candidates; KeepMissing and KeepBacklinks keep them.
func TestFinderLeavesOut(t *testing.T) {
	answer := []lexsig.Result{
		{Rank: 1, URI: "https://example.org/guides/sourdough-starter/"}, // the missing URI, as an index still holds it
		{Rank: 2, URI: "https://a.example/blog"},                        // a backlink page
		{Rank: 3, URI: "https://example.org/baking/starter"},
	}
	for _, tt := range []struct {
		keepMissing, keepBacklinks bool
		want                       []string
	}{
		{false, false, []string{"https://example.org/baking/starter"}},
		{true, false, []string{"https://example.org/guides/sourdough-starter/", "https://example.org/baking/starter"}},
		{false, true, []string{"https://a.example/blog", "https://example.org/baking/starter"}},
		{true, true, []string{"https://example.org/guides/sourdough-starter/", "https://a.example/blog", "https://example.org/baking/starter"}},
	} {
		f, _ := fakeFinder(t)
		f.Searcher = lexsig.SearcherFunc(func(context.Context, lexsig.Query, int) ([]lexsig.Result, error) { return answer, nil })
		f.KeepMissing, f.KeepBacklinks = tt.keepMissing, tt.keepBacklinks
		res, err := f.Find(context.Background(), target)
		require.NoError(t, err)
		var got []string
		for i, c := range res.Candidates {
			assert.Equal(t, i+1, c.Rank, "candidates are ranked anew")
			got = append(got, c.URI)
		}
		assert.Equal(t, tt.want, got, "keep missing %t, backlinks %t", tt.keepMissing, tt.keepBacklinks)
	}
}

// TestFinderBothSchemes: backlinks that link to the http variant of an
// https target count.
func TestFinderBothSchemes(t *testing.T) {
	f, queries := fakeFinder(t)
	inner := f.Backlinks
	f.Backlinks = backlink.ProviderFunc(func(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
		if uri == "http://example.org/guides/sourdough-starter" {
			return inner.Backlinks(ctx, target, limit)
		}
		return nil, nil
	})
	res, err := f.Find(context.Background(), target)
	require.NoError(t, err)
	assert.Len(t, res.Backlinks, 6)
	assert.Equal(t, "sourdough starter feeding guide", (*queries)[0].String())
}

// TestFinderCutInTrail: a backlink page whose links to the target would
// draw many times its own words gives the first words only, and its trace
// says so (issue 12: a hostile page cannot take the machine's memory).
func TestFinderCutInTrail(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><body>` + filler)
	for range 20000 {
		b.WriteString(`<a href="https://example.org/guides/sourdough-starter">sourdough starter</a> `)
	}
	b.WriteString(`</body></html>`)
	hostile := b.String()
	f, _ := fakeFinder(t)
	inner := f.Fetcher
	f.Fetcher = filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
		if uri == "https://a.example/blog" {
			return &filter.Page{URI: uri, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte(hostile)}, nil
		}
		return inner.Fetch(ctx, uri)
	})
	f.Strategy = relink.Paper{Radius: 1000}
	res, err := f.Find(context.Background(), target)
	require.NoError(t, err)
	require.True(t, res.Backlinks[0].Kept)
	assert.Contains(t, res.Backlinks[0].Reason, relink.CutReason)
	assert.LessOrEqual(t, res.Backlinks[0].Words, backlink.MaxDrawn(40000+100))
	assert.NotContains(t, res.Backlinks[1].Reason, relink.CutReason, "an ordinary page")
}

// TestFinderArchivedBacklinks checks Needs.ArchivedBacklinks: a backlink
// page that is gone from the web (e.example answers 404) is read from the
// Finder's Archive by a strategy that asks for it, and kept with the
// archive's words, while the paper's method, which fetches live as the
// paper did, records it as gone.
func TestFinderArchivedBacklinks(t *testing.T) {
	const old = `<html><body>` + filler + `<p>The <a href="https://example.org/guides/sourdough-starter">levain maintenance handbook</a>.</p></body></html>`
	var archived atomic.Int32 // the Finder asks its Archive from several goroutines
	archive := filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
		archived.Add(1)
		if uri != "https://e.example/gone" {
			return &filter.Page{URI: uri, Status: http.StatusNotFound}, nil
		}
		return &filter.Page{URI: uri, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte(old)}, nil
	})
	trail := func(t *testing.T, s relink.Strategy) (relink.Trace, *relink.Result) {
		t.Helper()
		f, _ := fakeFinder(t)
		f.Archive, f.Strategy = archive, s
		f.DF.(*lexsig.MemDF).Set("levain", 3)
		f.Pages = relink.NewPageCache(0)
		res, err := f.Find(context.Background(), target)
		require.NoError(t, err)
		for _, b := range res.Backlinks {
			if b.URI == "https://e.example/gone" {
				return b, res
			}
		}
		t.Fatalf("%s: no trace of the gone page in %+v", s.Name(), res.Backlinks)
		return relink.Trace{}, nil
	}
	b, res := trail(t, relink.Paper{})
	assert.False(t, b.Kept || b.Archived, "paper: the gone page was kept: %+v", b)
	assert.Equal(t, filter.FilterStatus, b.Filter)
	assert.NotContains(t, res.Query.Terms, "levain")
	assert.Zero(t, archived.Load(), "paper: the archive was asked")

	b, res = trail(t, relink.Combined{Size: 7})
	assert.True(t, b.Kept && b.Archived, "combined: the gone page was not read from the archive: %+v", b)
	assert.Contains(t, b.Reason, "read from the archive")
	assert.Contains(t, res.Query.Terms, "levain")
	// d.example/nolink answers 200 without a link: its archived copy is
	// asked for, in case the link moved, but the archive has none.
	assert.EqualValues(t, 2, archived.Load(), "the archive was asked for other pages than the gone page and the one without a link")
}

// TestPaperTop checks that Paper.Top is the top Size terms of the whole
// signature, at every radius, links setting and size, whole pages (whose
// many words RankTop mostly leaves unlooked-up) included, and that its
// Query is the whole signature's.
func TestPaperTop(t *testing.T) {
	f, _ := fakeFinder(t)
	ctx := t.Context()
	clues, err := f.Clues(ctx, target, relink.Needs{})
	require.NoError(t, err)
	for _, radius := range []backlink.Radius{backlink.Anchor, backlink.Radius(5), backlink.Radius(10), backlink.Page} {
		for _, links := range []relink.Links{relink.AllLinks, relink.ContentLinks, relink.PreferContent} {
			for _, size := range []int{0, 1, 3, 7, 10, 1000} {
				p := relink.Paper{Radius: radius, Links: links, Size: size}
				sig, err := p.Signature(ctx, clues, f.DF)
				require.NoError(t, err)
				if len(sig) == 0 {
					t.Fatalf("%s: Signature is empty; the case tests nothing", p.Name())
				}
				top, err := p.Top(ctx, clues, f.DF)
				require.NoError(t, err)
				if diff := cmp.Diff(sig.Top(p.Terms()), top); diff != "" {
					t.Errorf("%s size %d: Top is not Signature.Top (-want +got):\n%s", p.Name(), size, diff)
				}
				if got, want := p.Query(top).String(), p.Query(sig).String(); got != want {
					t.Errorf("%s size %d: Query(Top) = %q, Query(Signature) = %q", p.Name(), size, got, want)
				}
			}
		}
	}
}

// TestPaperTopErrors checks that Top fails as Signature does.
func TestPaperTopErrors(t *testing.T) {
	f, _ := fakeFinder(t)
	clues, err := f.Clues(t.Context(), target, relink.Needs{})
	require.NoError(t, err)
	empty := lexsig.NewMemDF() // |D| = 0
	_, err = relink.Paper{}.Signature(t.Context(), clues, empty)
	require.ErrorIs(t, err, lexsig.ErrNoDocs)
	_, err = relink.Paper{}.Top(t.Context(), clues, empty)
	require.ErrorIs(t, err, lexsig.ErrNoDocs)
}
