package apiclient_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/provider/internal/apiclient"
)

// TestFinal checks that an answer Final calls final is not tried again,
// while the same status without the mark is.
func TestFinal(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		tries int32
	}{
		{"marked final", "quota spent", 1},
		{"not marked", "slow down", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, n := sequence(answer{status: http.StatusTooManyRequests, body: tt.body})
			srv := httptest.NewServer(h)
			defer srv.Close()
			c := newClient()
			c.Final = func(resp *apiclient.Response) bool { return strings.Contains(string(resp.Body), "quota") }
			err := c.GetJSON(context.Background(), newRequest(t, srv.URL, "/"), new(payload))
			require.ErrorIs(t, err, apiclient.ErrRateLimited)
			if n.Load() != tt.tries {
				t.Errorf("requests = %d, want %d", n.Load(), tt.tries)
			}
		})
	}
}

// TestStop checks that an answer Stop names stops the Client: that request
// fails with it, later ones fail without being sent until the time Stop
// gave, and then go out again.
func TestStop(t *testing.T) {
	h, n := sequence(answer{status: http.StatusTooManyRequests, body: `{"code":"QUOTA_LIMITED"}`}, answer{status: http.StatusOK, body: goodBody})
	srv := httptest.NewServer(h)
	defer srv.Close()
	c := newClient()
	var until time.Time
	errQuota := errors.New("quota spent")
	c.Stop = func(resp *apiclient.Response, now time.Time) (time.Time, error) {
		until = now.Add(100 * time.Millisecond)
		if strings.Contains(string(resp.Body), "QUOTA_LIMITED") {
			return until, errQuota
		}
		return time.Time{}, nil
	}
	err := c.GetJSON(context.Background(), newRequest(t, srv.URL, "/"), new(payload))
	require.ErrorIs(t, err, apiclient.ErrStopped)
	require.ErrorIs(t, err, apiclient.ErrRateLimited)
	require.ErrorIs(t, err, errQuota)
	err = c.GetJSON(context.Background(), newRequest(t, srv.URL, "/"), new(payload))
	require.ErrorIs(t, err, apiclient.ErrStopped)
	require.ErrorIs(t, err, apiclient.ErrRateLimited)
	require.ErrorIs(t, err, errQuota)
	var e *apiclient.Error
	if !errors.As(err, &e) || e.Attempts != 0 || !strings.Contains(err.Error(), "no request until") {
		t.Errorf("second request = %v, want no attempt and the time of the stop", err)
	}
	if n.Load() != 1 {
		t.Fatalf("requests = %d, want 1 (the second refused unsent)", n.Load())
	}
	time.Sleep(time.Until(until) + 10*time.Millisecond)
	require.NoError(t, c.GetJSON(context.Background(), newRequest(t, srv.URL, "/"), new(payload)))
}

// TestRateLimitPause checks that a 429 pauses every request of the Client,
// not only the one that got it, and that StopAfter 429s in a row stop it
// for good: the Internet Archive blocks an address that keeps sending
// after its 429s (edgi-govdata-archiving/wayback issue 137).
func TestRateLimitPause(t *testing.T) {
	var mu sync.Mutex
	var times []time.Time
	h, _ := sequence(answer{status: http.StatusTooManyRequests}, answer{status: http.StatusOK, body: goodBody})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		times = append(times, time.Now())
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	const pause = 200 * time.Millisecond
	c := newClient()
	c.RateLimitPause = pause
	c.StopAfter = 2
	require.NoError(t, c.GetJSON(context.Background(), newRequest(t, srv.URL, "/"), new(payload)))
	mu.Lock()
	if len(times) != 2 || times[1].Sub(times[0]) < pause {
		t.Errorf("attempts at %v, want the second %v after the first", times, pause)
	}
	mu.Unlock()

	// Two 429s in a row stop the Client.
	h2, n := sequence(answer{status: http.StatusTooManyRequests})
	srv2 := httptest.NewServer(h2)
	defer srv2.Close()
	c2 := newClient()
	c2.RateLimitPause = 50 * time.Millisecond
	c2.StopAfter = 2
	err := c2.GetJSON(context.Background(), newRequest(t, srv2.URL, "/"), new(payload))
	require.ErrorIs(t, err, apiclient.ErrStopped)
	require.ErrorIs(t, err, apiclient.ErrRateLimited)
	err = c2.GetJSON(context.Background(), newRequest(t, srv2.URL, "/"), new(payload))
	require.ErrorIs(t, err, apiclient.ErrStopped)
	if n.Load() != 2 {
		t.Errorf("requests = %d, want 2 (then none)", n.Load())
	}
}

// TestPauseLongerThanMaxWait checks that a pause past MaxWait fails the
// other requests at once rather than blocking them.
func TestPauseLongerThanMaxWait(t *testing.T) {
	h, n := sequence(answer{status: http.StatusTooManyRequests, header: map[string]string{"Retry-After": "3600"}})
	srv := httptest.NewServer(h)
	defer srv.Close()
	c := newClient()
	c.RateLimitPause = time.Minute
	require.ErrorIs(t, c.GetJSON(context.Background(), newRequest(t, srv.URL, "/"), new(payload)), apiclient.ErrRateLimited)
	// A client that waited out the pause would send the request again a
	// minute later: one request only means it failed at once.
	require.ErrorIs(t, c.GetJSON(context.Background(), newRequest(t, srv.URL, "/"), new(payload)), apiclient.ErrRateLimited)
	if n.Load() != 1 {
		t.Errorf("%d requests were sent, want 1", n.Load())
	}
}
