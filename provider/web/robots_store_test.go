package web

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
)

// memRobots is a RobotsStore in memory.
type memRobots struct {
	mu sync.Mutex
	m  map[string]robotsAnswer
}

type robotsAnswer struct {
	status int
	body   []byte
}

func (s *memRobots) LoadRobots(origin string) (int, []byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.m[origin]
	return a.status, a.body, ok
}

func (s *memRobots) StoreRobots(origin string, status int, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]robotsAnswer{}
	}
	s.m[origin] = robotsAnswer{status, body}
}

// TestRobotsStore: a robots.txt one Client fetched is kept in its Robots
// store, and a second Client with the same store obeys it without asking
// the host; a 5xx robots.txt is not kept.
func TestRobotsStore(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		kept   bool
	}{
		{"rules", http.StatusOK, true},
		{"none (404)", http.StatusNotFound, true},
		{"server error", http.StatusServiceUnavailable, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var n counter
			base := robotsServer(t, &n, tc.status, "User-agent: *\nDisallow: /private\n")
			store := &memRobots{}
			for i := range 2 {
				c := testClient(t)
				c.Attempts = 1
				c.Robots = store
				_, err := c.Fetch(context.Background(), base+"/private/page")
				if disallowed := errors.Is(err, ErrDisallowed); disallowed != (tc.status != http.StatusNotFound) {
					t.Errorf("client %d: Fetch error %v", i+1, err)
				}
			}
			want := 2
			if tc.kept {
				want = 1
			}
			if got := n.get("/robots.txt"); got != want {
				t.Errorf("robots.txt requests by two clients = %d, want %d", got, want)
			}
			if _, _, ok := store.LoadRobots(base); ok != tc.kept {
				t.Errorf("kept = %v, want %v", ok, tc.kept)
			}
		})
	}
}
