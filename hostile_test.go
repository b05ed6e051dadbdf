package relink_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
)

// candidate is the page the hostile searcher offers first, and the page a
// hostile fetcher misbehaves on: the backlink pages stay readable, so that
// every strategy gets as far as reading its candidates.
const candidate = "https://example.org/baking/starter"

// hostile is one way a provider can break its contract.
type hostile struct {
	name string
	// set replaces one of f's providers with a hostile one.
	set func(f *relink.Finder)
}

// hostiles are the providers' broken contracts every strategy must survive:
// no panic, no hang, an error or a recorded rejection.
func hostiles() []hostile {
	web := honestWeb()
	fetchOr := func(bad func(ctx context.Context, uri string) (*filter.Page, error)) filter.Fetcher {
		return filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
			if strings.HasPrefix(uri, "https://example.org/") {
				return bad(ctx, uri)
			}
			return web.Fetch(ctx, uri)
		})
	}
	return []hostile{
		{"fetcher answers (nil, nil) for candidates", func(f *relink.Finder) {
			f.Fetcher = fetchOr(func(context.Context, string) (*filter.Page, error) { return nil, nil })
		}},
		{"fetcher panics on candidates", func(f *relink.Finder) {
			f.Fetcher = fetchOr(func(context.Context, string) (*filter.Page, error) { panic("fetcher bug") })
		}},
		{"fetcher answers an empty page", func(f *relink.Finder) {
			f.Fetcher = fetchOr(func(context.Context, string) (*filter.Page, error) { return &filter.Page{}, nil })
		}},
		{"fetcher answers 200 with no header or body", func(f *relink.Finder) {
			f.Fetcher = fetchOr(func(_ context.Context, uri string) (*filter.Page, error) {
				return &filter.Page{URI: uri, Status: 200}, nil
			})
		}},
		{"fetcher answers a page and an error", func(f *relink.Finder) {
			f.Fetcher = fetchOr(func(_ context.Context, uri string) (*filter.Page, error) {
				return &filter.Page{URI: uri, Status: 200}, errors.New("half an answer")
			})
		}},
		{"every fetch answers (nil, nil)", func(f *relink.Finder) {
			f.Fetcher = filter.FetcherFunc(func(context.Context, string) (*filter.Page, error) { return nil, nil })
		}},
		{"soft-404 probes panic", func(f *relink.Finder) {
			f.Filters.Fetcher = filter.FetcherFunc(func(context.Context, string) (*filter.Page, error) { panic("probe bug") })
		}},
		{"searcher panics", func(f *relink.Finder) {
			f.Searcher = lexsig.SearcherFunc(func(context.Context, lexsig.Query, int) ([]lexsig.Result, error) { panic("search bug") })
		}},
		{"searcher answers nonsense", func(f *relink.Finder) {
			f.Searcher = lexsig.SearcherFunc(func(_ context.Context, _ lexsig.Query, limit int) ([]lexsig.Result, error) {
				out := []lexsig.Result{
					{Rank: 0, URI: ""},
					{Rank: -3, URI: "javascript:alert(1)"},
					{Rank: 1, URI: "://broken", Title: strings.Repeat("\xff", 100)},
					{Rank: 1, URI: candidate},
					{Rank: 1, URI: candidate, Score: -1},
					{Rank: 9, URI: target},
				}
				for i := range limit + 5 {
					out = append(out, lexsig.Result{Rank: i, URI: fmt.Sprintf("https://example.org/%d", i)})
				}
				return out, nil
			})
		}},
		{"searcher answers (nil, nil)", func(f *relink.Finder) {
			f.Searcher = lexsig.SearcherFunc(func(context.Context, lexsig.Query, int) ([]lexsig.Result, error) { return nil, nil })
		}},
		{"a nil *MemDF", func(f *relink.Finder) {
			var df *lexsig.MemDF
			f.DF = df
		}},
		{"DF panics", func(f *relink.Finder) {
			f.DF = lexsig.DFFunc(func(context.Context, string) (int64, error) { panic("df bug") }).WithDocs(10)
		}},
		{"DF answers negative counts", func(f *relink.Finder) {
			f.DF = lexsig.DFFunc(func(context.Context, string) (int64, error) { return -7, nil }).WithDocs(-1)
		}},
		{"backlinks panic", func(f *relink.Finder) {
			f.Backlinks = backlink.ProviderFunc(func(context.Context, string, int) ([]backlink.Backlink, error) { panic("backlinks bug") })
		}},
		{"backlinks answer nonsense", func(f *relink.Finder) {
			f.Backlinks = backlink.ProviderFunc(func(_ context.Context, uri string, _ int) ([]backlink.Backlink, error) {
				return []backlink.Backlink{
					{URI: ""}, {URI: "javascript:void(0)", Level: -1, Rank: -1}, {URI: "https://a.example/blog"},
					{URI: "https://a.example/blog", Via: "::"}, {URI: uri, Level: 1, Rank: 1},
				}, nil
			})
		}},
		{"archive answers (nil, nil)", func(f *relink.Finder) {
			f.Archive = filter.FetcherFunc(func(context.Context, string) (*filter.Page, error) { return nil, nil })
		}},
		{"archive panics", func(f *relink.Finder) {
			f.Archive = filter.FetcherFunc(func(context.Context, string) (*filter.Page, error) { panic("archive bug") })
		}},
		{"page cache answers no inspection", func(f *relink.Finder) {
			f.Pages = nilPages{}
		}},
	}
}

// nilPages is a PageCache that answers every page with nil.
type nilPages struct{}

func (nilPages) Inspect(context.Context, string, func(context.Context) *relink.Inspection) *relink.Inspection {
	return nil
}

// honestWeb answers the backlink pages of the fake web, and a titled page for
// candidate.
func honestWeb() filter.Fetcher {
	return filter.FetcherFunc(func(_ context.Context, uri string) (*filter.Page, error) {
		body, ok := web[uri]
		if uri == candidate {
			body, ok = `<html><head><title>Starters</title></head><body><h1>Keeping a starter</h1>`+filler+`</body></html>`, true
		}
		if !ok || body == "" || strings.HasPrefix(body, "%PDF") {
			return &filter.Page{URI: uri, Status: http.StatusNotFound}, nil
		}
		return &filter.Page{URI: uri, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte(body)}, nil
	})
}

// hostileFinder is a Finder over the fake web whose providers keep their
// contracts and are safe for concurrent use.
func hostileFinder() *relink.Finder {
	df := lexsig.NewMemDF()
	df.SetDocs(1000)
	for term, n := range map[string]int64{"sourdough": 5, "starter": 40, "guide": 200, "feeding": 20, "read": 500} {
		df.Set(term, n)
	}
	return &relink.Finder{
		Backlinks: backlink.ProviderFunc(func(_ context.Context, uri string, limit int) ([]backlink.Backlink, error) {
			if uri != target {
				return nil, nil
			}
			var out []backlink.Backlink
			for i, u := range []string{"https://a.example/blog", "https://b.example/forum", "https://c.example/tiny"} {
				if i < limit {
					out = append(out, backlink.Backlink{URI: u, Rank: i + 1, Level: 1})
				}
			}
			return out, nil
		}),
		Fetcher: honestWeb(),
		DF:      df,
		Searcher: lexsig.SearcherFunc(func(context.Context, lexsig.Query, int) ([]lexsig.Result, error) {
			return []lexsig.Result{{Rank: 1, URI: candidate, Title: "Starters"}, {Rank: 2, URI: "https://example.org/baking/levain", Title: "Levain"}}, nil
		}),
		Archive: honestWeb(),
	}
}

// TestStrategiesHostileProviders runs every strategy of Strategies() against
// every hostile provider: Find must neither panic nor hang, and must answer
// with a well-formed Result or an error a caller can inspect.
func TestStrategiesHostileProviders(t *testing.T) {
	for _, h := range hostiles() {
		for _, s := range relink.Strategies() {
			t.Run(h.name+"/"+s.Name(), func(t *testing.T) {
				f := hostileFinder()
				f.Strategy = s
				h.set(f)
				res, err := findNoPanic(t, f, target)
				if err != nil {
					if !errors.Is(err, relink.ErrProviderFault) && !errors.Is(err, relink.ErrNoQuery) && !errors.Is(err, relink.ErrProvider) {
						t.Fatalf("Find: %v, want an error wrapping ErrProviderFault, ErrProvider or ErrNoQuery", err)
					}
					return
				}
				checkResult(t, res)
			})
		}
	}
}

// TestFinderProviderPanics checks that a provider's panic is an error
// wrapping ErrProviderFault that says which provider broke, or, for a
// backlink page, a rejection recorded in the trail.
func TestFinderProviderPanics(t *testing.T) {
	f := hostileFinder()
	f.Searcher = lexsig.SearcherFunc(func(context.Context, lexsig.Query, int) ([]lexsig.Result, error) { panic("search bug") })
	_, err := findNoPanic(t, f, target)
	if !errors.Is(err, relink.ErrProviderFault) || !strings.Contains(err.Error(), "search bug") {
		t.Fatalf("Find with a panicking Searcher: %v, want ErrProviderFault saying search bug", err)
	}

	f = hostileFinder()
	f.Archive = nil             // no archived copy to read the backlink pages from
	f.Strategy = relink.Paper{} // searches the backlink pages' words alone
	f.Fetcher = filter.FetcherFunc(func(context.Context, string) (*filter.Page, error) { panic("fetch bug") })
	res, err := findNoPanic(t, f, target)
	if !errors.Is(err, relink.ErrNoQuery) {
		t.Fatalf("Find with a panicking Fetcher: %v, want ErrNoQuery with the trail", err)
	}
	for _, b := range res.Backlinks {
		if b.Kept || b.Filter != relink.FilterFetch || !strings.Contains(b.Reason, "fetch bug") {
			t.Errorf("%s: kept %v, filter %q, reason %q; want a fetch rejection saying fetch bug", b.URI, b.Kept, b.Filter, b.Reason)
		}
	}
}

// TestFinderCancelledProviders checks that once the caller gives up, no
// provider is asked anything more, even by a stage that does not look at
// its context, and that a provider that ignores the cancellation does not
// make Find answer as if it had not been cancelled.
func TestFinderCancelledProviders(t *testing.T) {
	for _, s := range relink.Strategies() {
		t.Run(s.Name(), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			f := hostileFinder()
			f.Strategy = s
			var after atomic.Int64
			inner := f.Searcher
			f.Searcher = lexsig.SearcherFunc(func(_ context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
				if ctx.Err() != nil {
					after.Add(1)
				}
				cancel() // the caller gives up while the search runs, and it ignores that
				return inner.Search(context.Background(), q, limit)
			})
			fetch := f.Fetcher
			f.Fetcher = filter.FetcherFunc(func(_ context.Context, uri string) (*filter.Page, error) {
				if ctx.Err() != nil {
					after.Add(1)
				}
				return fetch.Fetch(context.Background(), uri)
			})
			_, err := f.Find(ctx, target)
			if !errors.Is(err, context.Canceled) && !errors.Is(err, relink.ErrNoQuery) {
				t.Fatalf("Find cancelled during a search: %v, want context.Canceled", err)
			}
			if n := after.Load(); n > 0 {
				t.Errorf("%d calls to providers after the cancellation", n)
			}
		})
	}
}

// findNoPanic runs f.Find, failing the test (rather than the test binary)
// when it panics in the calling goroutine.
func findNoPanic(t *testing.T, f *relink.Finder, uri string) (res *relink.Result, err error) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("Find panicked: %v", p)
		}
	}()
	return f.Find(context.Background(), uri)
}

// checkResult fails t unless res is well formed: a confidence in [0, 1],
// candidates ranked from 1, and an answer only when there is a candidate.
func checkResult(t *testing.T, res *relink.Result) {
	t.Helper()
	if res == nil {
		t.Fatal("Find returned neither a Result nor an error")
	}
	if res.Confidence < 0 || res.Confidence > 1 || res.Confidence != res.Confidence {
		t.Errorf("Confidence = %v, want a number in [0, 1]", res.Confidence)
	}
	if res.Found && len(res.Candidates) == 0 {
		t.Error("Found without a candidate")
	}
	for i, c := range res.Candidates {
		if c.Rank != i+1 {
			t.Errorf("candidate %d (%s) has rank %d", i, c.URI, c.Rank)
		}
	}
}

// nilOutcome is a caller's Strategy that answers neither an Outcome nor an
// error.
type nilOutcome struct{ relink.Paper }

func (nilOutcome) Find(context.Context, *relink.Clues, relink.Tools) (*relink.Outcome, error) {
	return nil, nil
}

// TestFinderNilOutcome: a caller's Strategy that answers no Outcome and no
// error is a fault of the strategy's, not a panic of Find's.
func TestFinderNilOutcome(t *testing.T) {
	f := hostileFinder()
	f.Strategy = nilOutcome{}
	_, err := findNoPanic(t, f, target)
	if !errors.Is(err, relink.ErrProviderFault) {
		t.Fatalf("Find with a Strategy answering (nil, nil): %v, want ErrProviderFault", err)
	}
}

// A provider that panics, or answers a fetch with neither a page nor an
// error, is reported as an error wrapping ErrProviderFault: a caller tells
// a broken provider from a page that could not be found.
func ExampleErrProviderFault() {
	f := hostileFinder()
	f.Searcher = lexsig.SearcherFunc(func(context.Context, lexsig.Query, int) ([]lexsig.Result, error) {
		panic("index file corrupt") // a bug of the provider's
	})
	_, err := f.Find(context.Background(), target)
	fmt.Println(errors.Is(err, relink.ErrProviderFault))
	fmt.Println(err)
	// Output:
	// true
	// relink: search "\"sourdough starter guide\"": relink: a provider broke its contract: Searcher panicked: index file corrupt
}
