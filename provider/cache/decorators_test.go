package cache

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
)

// countingFetcher answers each URI with the page pages names (a 404 when
// none), or fails for "https://down.example/", and counts its calls.
type countingFetcher struct {
	pages map[string]*filter.Page
	calls atomic.Int64
}

func (f *countingFetcher) Fetch(ctx context.Context, uri string) (*filter.Page, error) {
	f.calls.Add(1)
	if strings.HasPrefix(uri, "https://down.example/") {
		return nil, errors.New("connection refused")
	}
	if p, ok := f.pages[uri]; ok {
		return p, nil
	}
	return &filter.Page{URI: uri, Status: http.StatusNotFound, Header: http.Header{}}, nil
}

func TestFetcher(t *testing.T) {
	ctx := context.Background()
	inner := &countingFetcher{pages: map[string]*filter.Page{
		"https://a.example/":    {URI: "https://a.example/home", Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<title>A</title>")},
		"https://busy.example/": {URI: "https://busy.example/", Status: 503},
		"https://big.example/":  {URI: "https://big.example/", Status: 200, Body: []byte(strings.Repeat("x", 100))},
	}}
	f := &Fetcher{Dir: New(t.TempDir(), 0), Fetcher: inner, MaxBody: 50}
	for _, tc := range []struct {
		uri   string
		calls int64 // of inner, over two fetches
	}{
		{"https://a.example/", 1},
		{"https://gone.example/", 1}, // a 404 is an answer, kept
		{"https://busy.example/", 2}, // a 503 is worth a retry
		{"https://big.example/", 2},  // above MaxBody
		{"https://down.example/", 2}, // errors are not kept
	} {
		inner.calls.Store(0)
		first, err1 := f.Fetch(ctx, tc.uri)
		second, err2 := f.Fetch(ctx, tc.uri)
		if got := inner.calls.Load(); got != tc.calls {
			t.Errorf("%s: %d calls, want %d", tc.uri, got, tc.calls)
		}
		if (err1 == nil) != (err2 == nil) {
			t.Errorf("%s: errors %v then %v", tc.uri, err1, err2)
		}
		if diff := cmp.Diff(first, second); diff != "" {
			t.Errorf("%s: the cached page differs (-first +second):\n%s", tc.uri, diff)
		}
	}
}

func TestFetcherNilDir(t *testing.T) {
	inner := &countingFetcher{}
	f := &Fetcher{Fetcher: inner}
	for range 2 {
		_, err := f.Fetch(context.Background(), "https://a.example/")
		require.NoError(t, err)
	}
	if got := inner.calls.Load(); got != 2 {
		t.Errorf("with no Dir, %d calls, want 2", got)
	}
}

func TestSearcher(t *testing.T) {
	var calls atomic.Int64
	engine := lexsig.SearcherFunc(func(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
		calls.Add(1)
		if q.Terms[0] == "fail" {
			return nil, errors.New("quota spent")
		}
		return []lexsig.Result{{Rank: 1, URI: "https://a.example/" + q.Terms[0], Title: "A"}}, nil
	})
	d := New(t.TempDir(), 0)
	brave := &Searcher{Dir: d, Name: "brave", Searcher: engine}
	mojeek := &Searcher{Dir: d, Name: "mojeek", Searcher: engine}
	ctx := context.Background()
	q := lexsig.NewQuery([]string{"lexical", "signature"}, lexsig.Conjunctive)
	for _, tc := range []struct {
		name  string
		s     *Searcher
		q     lexsig.Query
		limit int
		calls int64
	}{
		{"first", brave, q, 10, 1},
		{"again", brave, q, 10, 1},
		{"another limit", brave, q, 20, 2},
		{"another mode", brave, lexsig.NewQuery(q.Terms, lexsig.Disjunctive), 10, 3},
		{"another engine", mojeek, q, 10, 4},
		{"failed", brave, lexsig.NewQuery([]string{"fail"}, 0), 10, 5},
		{"failed again", brave, lexsig.NewQuery([]string{"fail"}, 0), 10, 6},
	} {
		rs, err := tc.s.Search(ctx, tc.q, tc.limit)
		if err == nil && (len(rs) != 1 || rs[0].URI != "https://a.example/"+tc.q.Terms[0]) {
			t.Errorf("%s: results %+v", tc.name, rs)
		}
		if got := calls.Load(); got != tc.calls {
			t.Errorf("%s: %d calls so far, want %d", tc.name, got, tc.calls)
		}
	}
}

func TestBacklinks(t *testing.T) {
	var calls atomic.Int64
	var p backlink.Provider = backlink.ProviderFunc(func(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
		calls.Add(1)
		return []backlink.Backlink{{URI: "https://wiki.example/wiki/A", Rank: 1, Level: 1}}, nil
	})
	b := &Backlinks{Dir: New(t.TempDir(), 0), Name: "wiki", Provider: p}
	for range 3 {
		got, err := b.Backlinks(context.Background(), "https://a.example/", 10)
		require.NoError(t, err)
		require.Len(t, got, 1)
	}
	if calls.Load() != 1 {
		t.Errorf("%d calls, want 1", calls.Load())
	}
	if b.FoldsSchemes() {
		t.Error("FoldsSchemes = true for a provider that does not fold")
	}
	if !(&Backlinks{Provider: backlink.BothSchemes(p)}).FoldsSchemes() {
		t.Error("FoldsSchemes = false for a provider that folds")
	}
}

func TestProbes(t *testing.T) {
	inner := &countingFetcher{pages: map[string]*filter.Page{
		"https://soft.example/xyzA": {URI: "https://soft.example/xyzA", Status: 200, Body: []byte("not here")},
		"https://soft.example/xyzB": {URI: "https://soft.example/xyzB", Status: 200, Body: []byte("not here")},
		"https://busy.example/xyzA": {URI: "https://busy.example/xyzA", Status: 503},
		"https://busy.example/xyzB": {URI: "https://busy.example/xyzB", Status: 503},
	}}
	p := &Probes{Dir: New(t.TempDir(), 0), Fetcher: inner}
	ctx := context.Background()
	for _, tc := range []struct {
		host   string
		calls  int64 // over two probes
		status int   // of the second
	}{
		{"https://hard.example", 1, 404}, // the host's 404 is remembered
		{"https://soft.example", 2, 200}, // a 2xx probe is asked each time
		{"https://busy.example", 2, 503}, // so is a 5xx
		{"https://down.example", 2, 0},   // and a failure
	} {
		inner.calls.Store(0)
		p.Fetch(ctx, tc.host+"/xyzA")
		page, err := p.Fetch(ctx, tc.host+"/xyzB")
		if got := inner.calls.Load(); got != tc.calls {
			t.Errorf("%s: %d calls, want %d", tc.host, got, tc.calls)
		}
		if tc.status == 0 {
			require.Error(t, err)
			continue
		}
		require.NoError(t, err)
		if page.Status != tc.status || page.URI != tc.host+"/xyzB" {
			t.Errorf("%s: second probe %s %d, want %s/xyzB %d", tc.host, page.URI, page.Status, tc.host, tc.status)
		}
	}
}

func TestRemember(t *testing.T) {
	d := New(t.TempDir(), 0)
	calls := 0
	ask := func() ([]string, error) {
		calls++
		if calls == 1 {
			return nil, errors.New("archive down")
		}
		return []string{"https://new.example/a"}, nil
	}
	for i, want := range []int{1, 2, 2} {
		got, err := Remember(d, "redirects", "https://old.example/a", ask)
		if calls != want {
			t.Errorf("call %d: asked %d times, want %d", i+1, calls, want)
		}
		if err == nil && (len(got) != 1 || got[0] != "https://new.example/a") {
			t.Errorf("call %d: %v", i+1, got)
		}
	}
}

func TestRobots(t *testing.T) {
	d := New(t.TempDir(), 0)
	r := &Robots{Dir: d, Name: "web"}
	if _, _, ok := r.LoadRobots("https://a.example"); ok {
		t.Fatal("LoadRobots found an answer in an empty Dir")
	}
	r.StoreRobots("https://a.example", 200, []byte("User-agent: *\nDisallow: /private\n"))
	status, body, ok := r.LoadRobots("https://a.example")
	if !ok || status != 200 || string(body) != "User-agent: *\nDisallow: /private\n" {
		t.Errorf("LoadRobots = %d, %q, %v", status, body, ok)
	}
	if _, _, ok := (&Robots{Dir: d, Name: "proxy"}).LoadRobots("https://a.example"); ok {
		t.Error("another Name found the answer")
	}
	var none Robots
	none.StoreRobots("https://a.example", 200, nil)
	if _, _, ok := none.LoadRobots("https://a.example"); ok {
		t.Error("a Robots without Dir kept an answer")
	}
}

// TestDF keeps a DF's answers: the second lookup of a term and of |D|
// asks nothing, and an error is not kept.
func TestDF(t *testing.T) {
	asked := 0
	fail := true
	df := lexsig.DFFunc(func(ctx context.Context, term string) (int64, error) {
		asked++
		if term == "flaky" && fail {
			return 0, errors.New("quota")
		}
		return int64(len(term)), nil
	}).WithDocs(1000)
	c := &DF{Dir: New(t.TempDir(), 0), Name: "engine/|D|=1000", DF: df}
	ctx := context.Background()
	for range 2 {
		n, err := c.DocFreq(ctx, "bread")
		if err != nil || n != 5 {
			t.Fatalf("DocFreq(bread) = %d, %v; want 5", n, err)
		}
	}
	if _, err := c.DocFreq(ctx, "flaky"); err == nil {
		t.Fatal("DocFreq(flaky): no error")
	}
	fail = false
	if n, err := c.DocFreq(ctx, "flaky"); err != nil || n != 5 {
		t.Fatalf("DocFreq(flaky) again = %d, %v; want 5", n, err)
	}
	if asked != 3 {
		t.Errorf("the DF was asked %d times, want 3 (bread once, flaky twice)", asked)
	}
}
