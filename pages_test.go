package relink_test

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/filter"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPageCacheOnce: many goroutines asking for one page inspect it once.
func TestPageCacheOnce(t *testing.T) {
	c := relink.NewPageCache(0)
	var made atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			in := c.Inspect(context.Background(), "https://a.example/", func(context.Context) *relink.Inspection {
				made.Add(1)
				return &relink.Inspection{URI: "https://a.example/", Filter: relink.FilterFetch}
			})
			assert.Equal(t, "https://a.example/", in.URI)
		})
	}
	wg.Wait()
	assert.EqualValues(t, 1, made.Load())
	assert.Equal(t, 1, c.Len())
}

// TestPageCacheBudget: beyond its byte budget the cache drops the least
// recently used pages, which are inspected again when asked for; a
// cancelled inspection is not kept.
func TestPageCacheBudget(t *testing.T) {
	f, _ := fakeFinder(t)
	var fetches atomic.Int64
	inner := f.Fetcher
	f.Fetcher = filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
		fetches.Add(1)
		return inner.Fetch(ctx, uri)
	})
	cache := relink.NewPageCache(1) // every kept page is over the budget
	f.Pages = cache
	ctx := context.Background()
	a := f.Inspect(ctx, "https://a.example/blog")
	require.True(t, a.Kept, a.Reason)
	f.Inspect(ctx, "https://b.example/forum") // drops a
	before := fetches.Load()
	f.Inspect(ctx, "https://a.example/blog")
	assert.Greater(t, fetches.Load(), before, "a dropped page is fetched again")
	assert.GreaterOrEqual(t, cache.Dropped(), 1)
	assert.Positive(t, cache.Bytes())

	all := relink.NewPageCache(0)
	f.Pages = all
	f.Inspect(ctx, "https://a.example/blog")
	before = fetches.Load()
	f.Inspect(ctx, "https://a.example/blog")
	assert.Equal(t, before, fetches.Load(), "a kept page is not fetched again")

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	all.Inspect(cancelled, "https://c.example/", func(context.Context) *relink.Inspection {
		return &relink.Inspection{URI: "https://c.example/", Filter: relink.FilterFetch, Reason: "cancelled"}
	})
	in := all.Inspect(ctx, "https://c.example/", func(context.Context) *relink.Inspection {
		return &relink.Inspection{URI: "https://c.example/", Filter: filter.FilterStatus, Reason: http.StatusText(404)}
	})
	assert.Equal(t, filter.FilterStatus, in.Filter, "the cancelled inspection was not kept")
}
