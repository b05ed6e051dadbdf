package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/internal/pgtest"
	"github.com/linkrot/relink/provider/pgqueue"
	"github.com/linkrot/relink/provider/postgres"
)

// TestInterval turns -rate and the services' defaults into the time
// between two requests.
func TestInterval(t *testing.T) {
	for _, c := range []struct {
		name string
		r    float64
		def  rate.Limit
		want time.Duration
	}{
		{"the default", 0, 1, time.Second},
		{"the Wayback Machine's CDX default", 0, 0.4, 2500 * time.Millisecond},
		{"-rate 4", 4, 1, 250 * time.Millisecond},
		{"-rate inf", inf, 1, 0},
	} {
		if got := interval(c.r, c.def); got != c.want {
			t.Errorf("%s: interval(%v, %v) = %v, want %v", c.name, c.r, c.def, got, c.want)
		}
	}
	for _, c := range []struct{ url, key string }{
		{"https://api.search.brave.com/res/v1/web/search?q=a", "service api.search.brave.com"},
		{"https://web.archive.org/cdx/search/cdx?url=a", "service web.archive.org cdx"},
		{"https://web.archive.org/web/2019id_/https://a.example/", "service web.archive.org replay"},
	} {
		u, _ := url.Parse(c.url)
		if key, _ := serviceLimit(u); key != c.key {
			t.Errorf("serviceLimit(%s) = %q, want %q", c.url, key, c.key)
		}
	}
}

var inf = float64(rate.Inf)

// TestSharedPause has one worker's service answer 429 with Retry-After:
// every worker's next request to it, and to a web host answering 429,
// waits that long; requests within the rate reserve one slot each.
func TestSharedPause(t *testing.T) {
	dsn := pgtest.Database(t)
	ctx := context.Background()
	q, err := pgqueue.Open(ctx, postgres.DSN(dsn))
	require.NoError(t, err)
	defer q.Close()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	sh := &shared{queue: q, limits: q.Limiter()}
	client := &http.Client{Transport: sh.transport(inf)(http.DefaultTransport)}
	resp, err := client.Get(srv.URL + "/search?q=a")
	require.NoError(t, err)
	resp.Body.Close()
	u, _ := url.Parse(srv.URL)
	key, _ := serviceLimit(u)
	// Another worker's limiter: the service is paused for it too.
	if d, err := q.Limiter().Reserve(ctx, key, time.Millisecond); err != nil || d < 100*time.Second {
		t.Errorf("after a 429 with Retry-After 120 another worker waits %v, %v; want about 2 minutes", d, err)
	}
	pages := sh.pages(filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
		return &filter.Page{URI: uri, Status: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"300"}}}, nil
	}), inf)
	_, err = pages.Fetch(ctx, "https://busy.example/a")
	require.NoError(t, err)
	if d, err := q.Limiter().Reserve(ctx, "host busy.example", time.Millisecond); err != nil || d < 200*time.Second {
		t.Errorf("after a page's 429 with Retry-After 300 another worker waits %v, %v; want about 5 minutes", d, err)
	}
	if hits.Load() != 1 {
		t.Errorf("the service got %d requests, want 1", hits.Load())
	}
}
