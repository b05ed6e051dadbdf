package relink_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/linkrot/relink"
	"github.com/linkrot/relink/filter"
)

// pageFetcher answers the pages of a map (a 404 for any other URI) and a
// redirect from each key of moves to its value, counting its fetches.
type pageFetcher struct {
	pages map[string]string
	moves map[string]string
	n     atomic.Int64
}

func (f *pageFetcher) Fetch(ctx context.Context, uri string) (*filter.Page, error) {
	f.n.Add(1)
	if to, ok := f.moves[uri]; ok {
		uri = to
	}
	body, ok := f.pages[uri]
	if !ok {
		return &filter.Page{URI: uri, Status: 404, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("gone")}, nil
	}
	return &filter.Page{URI: uri, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte(body)}, nil
}

func TestReadCandidate(t *testing.T) {
	f := &pageFetcher{
		pages: map[string]string{"https://example.org/a": "<title>A</title><h1>Sourdough starter</h1><p>Feed the starter.</p>"},
		moves: map[string]string{"https://example.org/old": "https://example.org/a"},
	}
	for _, tt := range []struct {
		uri, from, heading string
	}{
		{"https://example.org/a", "https://example.org/a", "Sourdough starter"},
		{"https://example.org/old", "https://example.org/a", "Sourdough starter"}, // a redirect: read from where it led
		{"https://example.org/none", "", ""},                                      // 404: not read
	} {
		p := relink.ReadCandidate(context.Background(), f, tt.uri)
		if p.URI != tt.uri || p.From != tt.from || p.Heading != tt.heading {
			t.Errorf("ReadCandidate(%q) = {URI %q, From %q, Heading %q}, want {%q, %q, %q}", tt.uri, p.URI, p.From, p.Heading, tt.uri, tt.from, tt.heading)
		}
	}
}

func TestMemoryCandidateCache(t *testing.T) {
	f := &pageFetcher{pages: map[string]string{
		"https://example.org/a": "<h1>A</h1><p>one two three</p>",
		"https://example.org/b": "<h1>B</h1><p>four five six</p>",
	}}
	ctx := context.Background()
	read := func(uri string) func(context.Context) *relink.CandidatePage {
		return func(ctx context.Context) *relink.CandidatePage { return relink.ReadCandidate(ctx, f, uri) }
	}

	// Many goroutines asking for one page read it once.
	c := relink.NewCandidateCache(0)
	var wg sync.WaitGroup
	got := make([]*relink.CandidatePage, 8)
	for i := range got {
		wg.Go(func() { got[i] = c.Candidate(ctx, "https://example.org/a", read("https://example.org/a")) })
	}
	wg.Wait()
	for i, p := range got {
		if p != got[0] || p.Heading != "A" {
			t.Errorf("goroutine %d got %+v, want the one reading of A", i, p)
		}
	}
	if f.n.Load() != 1 || c.Len() != 1 {
		t.Errorf("%d fetches, %d readings made, want 1 and 1", f.n.Load(), c.Len())
	}

	// A reading made while ctx ended is not kept.
	done, cancel := context.WithCancel(ctx)
	cancel()
	c.Candidate(done, "https://example.org/b", read("https://example.org/b"))
	c.Candidate(ctx, "https://example.org/b", read("https://example.org/b"))
	if f.n.Load() != 3 {
		t.Errorf("%d fetches, want b fetched again after a reading made with its context done", f.n.Load())
	}

	// A budget of one byte keeps only the last reading.
	small := relink.NewCandidateCache(1)
	small.Candidate(ctx, "https://example.org/a", read("https://example.org/a"))
	small.Candidate(ctx, "https://example.org/b", read("https://example.org/b"))
	if small.Dropped() != 1 || small.Bytes() <= 0 {
		t.Errorf("Dropped %d, Bytes %d, want 1 and the one kept", small.Dropped(), small.Bytes())
	}
	before := f.n.Load()
	small.Candidate(ctx, "https://example.org/a", read("https://example.org/a"))
	if f.n.Load() != before+1 {
		t.Errorf("a dropped reading was not read again")
	}
}

// TestRerankCandidates: Rerank reads its candidates through
// Tools.Candidates when there is one, with the same outcome as without,
// counting every fetch as before; a second Find reads nothing anew.
func TestRerankCandidates(t *testing.T) {
	pages := map[string]string{
		"https://example.org/x": "<title>Starter</title><h1>Pine cones</h1><p>Pine cones and forest walks in winter.</p>",
		"https://example.org/y": "<title>Starter</title><h1>Starters</h1><p>Read the sourdough starter guide; feeding a sourdough starter daily.</p>",
		"https://example.org/z": "<title>Page</title><h1>Guides: sourdough-starter</h1><p>feeding</p>",
	}
	c := clues(t)
	// The outcome, its confidence by the default model (with what the
	// strategy saw) and the pages fetched.
	run := func(cache relink.CandidateCache, s relink.Strategy) (*relink.Outcome, float64, int64) {
		t.Helper()
		f := &pageFetcher{pages: pages}
		tl := tools(&answers{})
		tl.Fetcher, tl.Candidates = f, cache
		o, err := s.Find(context.Background(), c, tl)
		if err != nil {
			t.Fatal(err)
		}
		conf, _ := relink.DefaultModel().Judge(c, o.Candidates, o.Seen)
		return o, conf, f.n.Load()
	}
	cache := relink.NewCandidateCache(0)
	for _, s := range []relink.Strategy{
		relink.Rerank{Base: fixed{"base", []string{"https://example.org/x", "https://example.org/y", "https://example.org/z"}}, Fetch: true},
		relink.Rerank{Base: titled{fixed{"base", []string{"https://example.org/z"}}, "Page"}},
	} {
		want, wantConf, wantFetched := run(nil, s)
		got, conf, fetched := run(cache, s)
		if diff := cmp.Diff(uris(want.Candidates), uris(got.Candidates)); diff != "" || conf != wantConf || got.Fetches != want.Fetches {
			t.Errorf("%s with a cache: %v, confidence %v, %d fetches counted; without: %v, %v, %d (%s)", s.Name(), uris(got.Candidates), conf, got.Fetches, uris(want.Candidates), wantConf, want.Fetches, diff)
		}
		if fetched > wantFetched {
			t.Errorf("%s with a cache fetched %d pages, without %d", s.Name(), fetched, wantFetched)
		}
		if again, _, n := run(cache, s); n != 0 || again.Fetches != want.Fetches {
			t.Errorf("%s again: %d pages fetched, %d counted; want none and %d", s.Name(), n, again.Fetches, want.Fetches)
		}
	}
}

// brokenCandidates is a CandidateCache that panics or answers nothing.
type brokenCandidates struct{ panics bool }

func (b brokenCandidates) Candidate(ctx context.Context, uri string, read func(context.Context) *relink.CandidatePage) *relink.CandidatePage {
	if b.panics {
		panic("broken")
	}
	return nil
}

// TestFinderCandidatesGuard: a Finder's CandidateCache that panics or
// answers no reading is passed by: the page is read without it.
func TestFinderCandidatesGuard(t *testing.T) {
	f := &pageFetcher{pages: map[string]string{"https://example.org/z": "<title>Page</title><h1>Guides: sourdough-starter</h1>"}}
	s := relink.Rerank{Base: titled{fixed{"base", []string{"https://example.org/z"}}, "Page"}}
	c := clues(t)
	for _, cache := range []brokenCandidates{{panics: true}, {}} {
		finder := relink.Finder{Fetcher: f, Candidates: cache}
		tl := finder.Tools()
		tl.DF, tl.Searcher = tools(nil).DF, &answers{}
		o, err := s.Find(context.Background(), c, tl)
		if err != nil {
			t.Fatal(err)
		}
		if s := relink.Signals(c, o.Candidates, o.Seen); s[relink.SignalHeadingSpellsURI] != 1 {
			t.Errorf("%+v: signals %v, want the heading read without the cache", cache, s)
		}
	}
}

func ExampleNewCandidateCache() {
	f := filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
		fmt.Println("fetch", uri)
		return &filter.Page{URI: uri, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<h1>Sourdough starter</h1>")}, nil
	})
	cache := relink.NewCandidateCache(64 << 20)
	read := func(ctx context.Context) *relink.CandidatePage {
		return relink.ReadCandidate(ctx, f, "https://example.org/starter")
	}
	for range 2 {
		p := cache.Candidate(context.Background(), "https://example.org/starter", read)
		fmt.Println(p.Heading)
	}
	// Output:
	// fetch https://example.org/starter
	// Sourdough starter
	// Sourdough starter
}
