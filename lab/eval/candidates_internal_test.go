package eval

import (
	"context"
	"net/http"
	"testing"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/filter"
)

// TestViewCandidates: a candidate page read directly is read once for
// every view, but each view reads for itself the page that is its
// missing target, a page that redirects (here to the target of one view)
// and a page not read at all.
func TestViewCandidates(t *testing.T) {
	const (
		a      = "https://example.org/a"
		target = "https://example.org/t"
		moved  = "https://example.org/old-t" // redirects to target
	)
	fetches := map[string]int{}
	view := func(missing string) filter.Fetcher {
		return filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
			fetches[uri]++
			if uri == moved {
				uri = target
			}
			if uri == missing || (uri != a && uri != target) {
				return &filter.Page{URI: uri, Status: 404, Header: http.Header{"Content-Type": {"text/html"}}}, nil
			}
			return &filter.Page{URI: uri, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<h1>" + uri + "</h1>")}, nil
		})
	}
	run := &run{reads: relink.NewCandidateCache(0)}
	read := func(missing, uri string) *relink.CandidatePage {
		v := viewCandidates{run.reads, missing, &run.canonical}
		f := view(missing)
		return v.Candidate(context.Background(), uri, func(ctx context.Context) *relink.CandidatePage {
			return relink.ReadCandidate(ctx, f, uri)
		})
	}
	// The views of target and of another page, each twice, in turn.
	for range 2 {
		for _, missing := range []string{target, "https://example.org/other"} {
			for _, tt := range []struct{ uri, heading string }{
				{a, a},
				{target, map[bool]string{true: "", false: target}[missing == target]},
				{moved, map[bool]string{true: "", false: target}[missing == target]},
				{"https://example.org/none", ""},
			} {
				if got := read(missing, tt.uri).Heading; got != tt.heading {
					t.Errorf("with %s missing, %s read as %q, want %q", missing, tt.uri, got, tt.heading)
				}
			}
		}
	}
	want := map[string]int{a: 1, target: 3, moved: 4, "https://example.org/none": 4}
	for uri, n := range want {
		if fetches[uri] != n {
			t.Errorf("%s fetched %d times, want %d", uri, fetches[uri], n)
		}
	}
}
