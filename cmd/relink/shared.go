package main

import (
	"context"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/internal/retry"
	"github.com/linkrot/relink/provider/pgqueue"
	"github.com/linkrot/relink/provider/wayback"
	"github.com/linkrot/relink/provider/web"
)

// shared is what relink worker's services keep in the queue's database,
// shared by every worker on every machine: the live services' answers
// (pages, search answers, soft-404 verdicts, document frequencies, robots
// files; pgqueue.Records behind provider/cache's decorators) and the rate
// limits of the services and of each web host (pgqueue.Limiter).
type shared struct {
	queue  *pgqueue.Queue
	limits *pgqueue.Limiter
}

// defaultPause is how long a 429 answer without a Retry-After header
// pauses its service for every worker (as provider/wayback's
// DefaultRateLimitPause).
const defaultPause = time.Minute

// interval returns the time between two requests at -rate r, or at def
// when r is 0 (the service's default); zero for no limit (-rate inf).
func interval(r float64, def rate.Limit) time.Duration {
	if r == 0 {
		r = float64(def)
	}
	if math.IsInf(r, 1) || r <= 0 {
		return 0
	}
	return time.Duration(float64(time.Second) / r)
}

// serviceLimit returns the key of the shared rate limit that a request to
// a web service counts against, and the service's default rate: the
// Wayback Machine's CDX and availability APIs and its replay each have
// their own (provider/wayback's defaults); every other service (a search
// engine's API, an archive's index) one a host, at one request a second,
// the clients' default.
func serviceLimit(u *url.URL) (string, rate.Limit) {
	host := strings.ToLower(u.Host)
	switch p := u.Path; {
	case strings.HasPrefix(p, "/cdx/") || strings.HasPrefix(p, "/wayback/available"):
		return "service " + host + " cdx", wayback.DefaultRate
	case strings.HasPrefix(p, "/web/"):
		return "service " + host + " replay", wayback.DefaultReplayRate
	}
	return "service " + host, 1
}

// transport returns the wrapper of the web services' transport that keeps
// every worker's requests together within each service's rate at -rate r
// (0: the service's default) and pauses a service for every worker when
// it answers 429.
func (s *shared) transport(r float64) func(http.RoundTripper) http.RoundTripper {
	return func(base http.RoundTripper) http.RoundTripper {
		return limitedTransport{limits: s.limits, base: base, rate: r}
	}
}

// limitedTransport is a RoundTripper within the shared rate limits.
type limitedTransport struct {
	limits *pgqueue.Limiter
	base   http.RoundTripper
	rate   float64
}

func (t limitedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	key, def := serviceLimit(req.URL)
	if err := t.limits.Wait(req.Context(), key, interval(t.rate, def)); err != nil {
		return nil, err
	}
	resp, err := t.base.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusTooManyRequests {
		pauseFor(req.Context(), t.limits, key, resp.Header)
	}
	return resp, err
}

// pauseFor pauses key for every worker as long as header's Retry-After
// says, or defaultPause. A failure to record it is ignored: the worker's
// own client waits anyway.
func pauseFor(ctx context.Context, limits *pgqueue.Limiter, key string, header http.Header) {
	d, ok := retry.After(header.Get("Retry-After"), time.Now())
	if !ok || d <= 0 {
		d = defaultPause
	}
	_ = limits.Pause(ctx, key, d)
}

// pages returns the live web fetcher f within the shared per-host rate
// limit at -rate r (0: provider/web's default, one request a second): one
// reservation a Fetch, by the URI's host. Redirects, retries and
// robots.txt within one Fetch keep to the worker's own limit alone. A 429
// answer pauses the host for every worker.
func (s *shared) pages(f filter.Fetcher, r float64) filter.Fetcher {
	every := interval(r, web.DefaultRate)
	return filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
		u, err := url.Parse(uri)
		if err != nil || u.Hostname() == "" {
			return f.Fetch(ctx, uri)
		}
		key := "host " + strings.ToLower(u.Hostname())
		if err := s.limits.Wait(ctx, key, every); err != nil {
			return nil, err
		}
		p, err := f.Fetch(ctx, uri)
		if err == nil && p != nil && p.Status == http.StatusTooManyRequests {
			pauseFor(ctx, s.limits, key, p.Header)
		}
		return p, err
	})
}
