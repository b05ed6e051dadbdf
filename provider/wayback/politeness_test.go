package wayback_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	"github.com/linkrot/relink/provider/wayback"
)

// TestDefaultRates pins the default pace to the Wayback Machine's
// limits as edgi-govdata-archiving/wayback v0.5.1 (2026-06-19) states
// them, at 80% as the Internet Archive asked of that client: CDX (and
// TimeMap) 30 requests a minute, mementos 600 a minute.
func TestDefaultRates(t *testing.T) {
	assert.InDelta(t, 24.0/60, float64(wayback.DefaultRate), 1e-9, "CDX requests per second")
	assert.InDelta(t, 480.0/60, float64(wayback.DefaultReplayRate), 1e-9, "replays per second")
	assert.Equal(t, time.Minute, wayback.DefaultRateLimitPause)
}

// TestRateLimitPause checks what the Internet Archive asks of a client
// that gets a 429 from the CDX server (its staff in
// edgi-govdata-archiving/wayback issue 137: "If 429s are ignored for more
// than a minute we block the IP at the firewall (no connection) for 1
// hour", doubled at each repeat; the server sends no Retry-After): every
// request of the Client, not only the refused one, waits the pause; a
// second 429 in a row stops the Client, which then sends nothing more.
func TestRateLimitPause(t *testing.T) {
	const pause = 150 * time.Millisecond
	var mu sync.Mutex
	var times []time.Time
	var refuse atomic.Int32
	refuse.Store(1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		times = append(times, time.Now())
		mu.Unlock()
		if refuse.Add(-1) >= 0 {
			http.Error(w, "<html><body><h1>429 Too Many Requests</h1></body></html>", http.StatusTooManyRequests)
			return
		}
		fmt.Fprintf(w, "[%s,\n%s]\n", cdxHeader, cdxRow("20070806193004", "200"))
	}))
	defer srv.Close()
	c := &wayback.Client{BaseURL: srv.URL, Rate: rate.Inf, Backoff: time.Millisecond, RateLimitPause: pause}

	// One 429, while another goroutine queries too: both wait the pause.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == 1 {
				time.Sleep(pause / 3) // after the 429
			}
			_, errs[i] = c.Captures(context.Background(), page, nil)
		}()
	}
	wg.Wait()
	require.NoError(t, errs[0])
	require.NoError(t, errs[1])
	mu.Lock()
	require.Len(t, times, 3)
	for _, at := range times[1:] {
		if d := at.Sub(times[0]); d < pause {
			t.Errorf("a request %v after the 429, want none before %v", d, pause)
		}
	}
	mu.Unlock()

	// Two 429s in a row: the Client stops.
	refuse.Store(100)
	_, err := c.Captures(context.Background(), page, nil)
	require.ErrorIs(t, err, wayback.ErrRateLimited)
	require.ErrorIs(t, err, wayback.ErrStopped)
	mu.Lock()
	sent := len(times)
	mu.Unlock()
	_, err = c.Captures(context.Background(), page, nil)
	require.ErrorIs(t, err, wayback.ErrStopped)
	mu.Lock()
	assert.Equal(t, sent, len(times), "requests after the stop")
	mu.Unlock()
}

// TestArchivedErrorNotRetried checks that a replay carrying
// Memento-Datetime, a capture of a page that answered 429 or 503, is
// returned at once as a Page, not retried as if the archive failed, while
// the archive's own 503 (no Memento-Datetime) is.
func TestArchivedErrorNotRetried(t *testing.T) {
	tests := []struct {
		name     string
		memento  bool
		status   int
		requests int
	}{
		{"archived 429", true, http.StatusTooManyRequests, 1},
		{"archived 503", true, http.StatusServiceUnavailable, 1},
		{"archive's own 503", false, http.StatusServiceUnavailable, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n atomic.Int32
			c := hostileArchive(t, func(w http.ResponseWriter, r *http.Request) {
				n.Add(1)
				if tt.memento {
					w.Header().Set("Memento-Datetime", "Mon, 06 Aug 2007 19:30:04 GMT")
				}
				w.WriteHeader(tt.status)
			})
			p, err := c.LastGood(context.Background(), page)
			if tt.memento {
				require.NoError(t, err)
				assert.Equal(t, tt.status, p.Status)
			} else {
				require.Error(t, err)
			}
			assert.Equal(t, int32(tt.requests), n.Load(), "replay requests")
			if tt.memento {
				// An archived 429 is no 429 of the archive: however many
				// in a row, it does not stop the Client.
				for range 3 {
					_, err := c.LastGood(context.Background(), page)
					require.NoError(t, err)
				}
			}
		})
	}
}

// TestArchiveRedirectOrCaptured checks that a replay's redirect is read
// by its Memento-Datetime header, as the Wayback Machine marks every
// capture (and as edgi-govdata-archiving/wayback reads it): with it, a
// captured redirect, returned and reported as a hop even when it leads to
// the same URI spelled otherwise; without it, the archive's own redirect
// to the capture nearest the timestamp, followed, even to another
// spelling of the same resource (https, www).
func TestArchiveRedirectOrCaptured(t *testing.T) {
	const upper = "http://EXAMPLE.com/old/page.html"
	const nearest = "https://www.example.com/old/page.html"
	t.Run("captured redirect to the same URI", func(t *testing.T) {
		var n atomic.Int32
		c := hostileArchive(t, func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			w.Header().Set("Memento-Datetime", "Mon, 06 Aug 2007 19:30:04 GMT")
			w.Header().Set("Location", "/web/20070806193004/"+upper)
			w.WriteHeader(http.StatusMovedPermanently)
		})
		p, err := c.LastGood(context.Background(), page)
		require.NoError(t, err)
		assert.Equal(t, http.StatusMovedPermanently, p.Status)
		assert.Equal(t, int32(1), n.Load(), "a captured redirect is not followed")
	})
	t.Run("archive's redirect to the nearest capture", func(t *testing.T) {
		var paths []string
		var mu sync.Mutex
		c := hostileArchive(t, func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			paths = append(paths, r.URL.Path)
			mu.Unlock()
			if strings.Contains(r.URL.Path, "20070806193004") {
				w.Header().Set("Location", "/web/20070807000000id_/"+nearest)
				w.WriteHeader(http.StatusFound)
				return
			}
			w.Header().Set("Memento-Datetime", "Tue, 07 Aug 2007 00:00:00 GMT")
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<title>Old page</title>")
		})
		p, err := c.LastGood(context.Background(), page)
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, p.Status)
		assert.Equal(t, "<title>Old page</title>", string(p.Body))
		assert.Equal(t, "Tue, 07 Aug 2007 00:00:00 GMT", p.Header.Get(wayback.MementoDatetimeHeader))
		assert.Len(t, paths, 2)
	})
	t.Run("archive's redirect is no hop of Redirects", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.URL.Path == "/cdx/search/cdx":
				fmt.Fprintf(w, "[%s,\n%s]\n", cdxHeader, cdxRow("20070806193004", "302"))
			default: // the archive's redirect to a capture of another URI, not followed
				w.Header().Set("Location", "/web/20070806193004id_/http://example.com/elsewhere.html")
				w.WriteHeader(http.StatusFound)
			}
		}))
		defer srv.Close()
		c := &wayback.Client{BaseURL: srv.URL, Rate: rate.Inf, ReplayRate: rate.Inf}
		rs, err := c.Redirects(context.Background(), page)
		require.NoError(t, err)
		assert.Empty(t, rs)
	})
}
