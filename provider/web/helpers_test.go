package web

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

// leakCheck fails t if goroutines started during the test are still
// running when it ends. Call it first in a test: its cleanup then runs
// last, after the servers are closed and the idle connections dropped by
// the cleanups registered later. Tests that call it must not run in
// parallel with others.
func leakCheck(t *testing.T) {
	t.Helper()
	before := goroutineIDs()
	t.Cleanup(func() {
		if left := leftBehind(before, 3*time.Second); left != "" {
			t.Errorf("goroutines left behind:\n%s", left)
		}
	})
}

// leftBehind waits up to settle for the goroutines not in before to end,
// and returns the stacks of those still running, or "".
func leftBehind(before map[string]bool, settle time.Duration) string {
	deadline := time.Now().Add(settle)
	for {
		stacks := goroutineStacks()
		var left []string
		for id, stack := range stacks {
			if !before[id] {
				left = append(left, stack)
			}
		}
		if len(left) == 0 {
			return ""
		}
		if time.Now().After(deadline) {
			slices.Sort(left)
			return strings.Join(left, "\n\n")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// goroutineIDs returns the ids of the running goroutines.
func goroutineIDs() map[string]bool {
	ids := make(map[string]bool)
	for id := range goroutineStacks() {
		ids[id] = true
	}
	return ids
}

// goroutineStacks returns the stack of every running goroutine but the
// caller's, by goroutine id.
func goroutineStacks() map[string]string {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	stacks := make(map[string]string)
	for i, g := range bytes.Split(buf, []byte("\n\n")) {
		if i == 0 {
			continue // the caller
		}
		id, _, _ := strings.Cut(strings.TrimPrefix(string(g), "goroutine "), " ")
		if _, err := strconv.Atoi(id); err == nil {
			stacks[id] = string(g)
		}
	}
	return stacks
}

// testClient returns a Client for loopback servers, with waits short
// enough for tests, and closes its idle connections when t ends.
func testClient(t *testing.T) *Client {
	t.Helper()
	c := &Client{
		AllowPrivate: true,
		Rate:         rate.Inf,
		Backoff:      time.Millisecond,
		MaxBackoff:   4 * time.Millisecond,
		MaxWait:      50 * time.Millisecond,
		Timeout:      2 * time.Second,
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// newServer starts an httptest server that closes when t ends.
func newServer(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// counter counts requests by path.
type counter struct {
	mu sync.Mutex
	n  map[string]int
}

// add counts one request for path.
func (c *counter) add(path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = make(map[string]int)
	}
	c.n[path]++
}

// get returns the requests counted for path.
func (c *counter) get(path string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[path]
}

// counting wraps h, counting its requests in c.
func counting(c *counter, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.add(r.URL.Path)
		h.ServeHTTP(w, r)
	})
}

// noRobots answers robots.txt with 404, which allows everything, and
// passes other requests to h.
func noRobots(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// fixture reads testdata/name.
func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// closedURL returns an http URL on a loopback port nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/"
}

// recorder records the requests a server receives.
type recorder struct {
	mu   sync.Mutex
	reqs []*http.Request
	at   []time.Time
}

// record records r and returns the number of requests recorded so far.
func (rec *recorder) record(r *http.Request) int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.reqs = append(rec.reqs, r.Clone(context.Background()))
	rec.at = append(rec.at, time.Now())
	return len(rec.reqs)
}

// last returns the last request recorded.
func (rec *recorder) last() *http.Request {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.reqs[len(rec.reqs)-1]
}

// times returns when the requests came.
func (rec *recorder) times() []time.Time {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return slices.Clone(rec.at)
}

// maxInFlight tracks the most requests in flight at once.
type maxInFlight struct {
	now, most atomic.Int32
}

// enter counts a request in.
func (m *maxInFlight) enter() {
	n := m.now.Add(1)
	for {
		most := m.most.Load()
		if n <= most || m.most.CompareAndSwap(most, n) {
			return
		}
	}
}

// leave counts a request out.
func (m *maxInFlight) leave() { m.now.Add(-1) }

// TestLeftBehind checks the leak check itself: a goroutine blocked past the
// settling time is reported, and one that ends within it is not.
func TestLeftBehind(t *testing.T) {
	before := goroutineIDs()
	stop := make(chan struct{})
	go func() { <-stop }()
	if left := leftBehind(before, 20*time.Millisecond); !strings.Contains(left, "TestLeftBehind") {
		t.Errorf("leftBehind with a blocked goroutine = %q, want its stack", left)
	}
	close(stop)
	if left := leftBehind(before, time.Second); left != "" {
		t.Errorf("leftBehind after the goroutine ended = %q, want \"\"", left)
	}
}
