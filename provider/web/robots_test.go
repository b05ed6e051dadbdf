package web

import (
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"
)

// robotsServer serves robots as /robots.txt with the given status and
// "ok" for any other path, counting requests.
func robotsServer(t *testing.T, n *counter, status int, robots string) string {
	t.Helper()
	srv := newServer(t, counting(n, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.WriteHeader(status)
			io.WriteString(w, robots)
			return
		}
		io.WriteString(w, "ok")
	})))
	return srv.URL
}

// TestRobots checks robots.txt as RFC 9309 reads it: rules for the
// product token "relink" or "*", a 4xx robots.txt allowing all (§2.3.1.3)
// and a 5xx one disallowing all (§2.3.1.4).
func TestRobots(t *testing.T) {
	const rules = `# a comment
User-agent: *
Disallow: /private
Allow: /private/open

User-agent: otherbot
Disallow: /
`
	tests := []struct {
		name      string
		status    int
		robots    string
		userAgent string
		path      string
		allowed   bool
	}{
		{"public path", 200, rules, "", "/public/page.html", true},
		{"disallowed path", 200, rules, "", "/private/page.html", false},
		{"disallowed with query", 200, rules, "", "/private?id=3", false},
		{"longer allow wins", 200, rules, "", "/private/open/page.html", true},
		{"other agent's group", 200, rules, "otherbot/1.0", "/public/page.html", false},
		{"own group by product token", 200, "User-agent: *\nDisallow: /\n\nUser-agent: relink\nDisallow: /drafts\n", "", "/page.html", true},
		{"own group applies", 200, "User-agent: *\nDisallow: /\n\nUser-agent: relink\nDisallow: /drafts\n", "", "/drafts/x", false},
		{"disallow all", 200, "User-agent: *\nDisallow: /\n", "", "/anything", false},
		{"empty file", 200, "", "", "/anything", true},
		{"HTML instead of robots.txt", 200, "<html><body>Welcome</body></html>", "", "/anything", true},
		{"rule before any agent ignored", 200, "Disallow: /\nUser-agent: *\nDisallow: /private\n", "", "/public", true},
		{"rule before any agent, later rules kept", 200, "Disallow: /\nUser-agent: *\nDisallow: /private\n", "", "/private/x", false},
		{"bad crawl-delay ignored", 200, "User-agent: *\nCrawl-delay: soon\nDisallow: /private\n", "", "/private/x", false},
		{"404 allows all", 404, "User-agent: *\nDisallow: /\n", "", "/anything", true},
		{"403 allows all", 403, "", "", "/anything", true},
		{"410 allows all", 410, "", "", "/anything", true},
		{"500 disallows all", 500, "", "", "/anything", false},
		{"503 disallows all", 503, "", "", "/anything", false},
		{"429 disallows all", 429, "", "", "/anything", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			leakCheck(t)
			var n counter
			base := robotsServer(t, &n, tt.status, tt.robots)
			c := testClient(t)
			c.UserAgent = tt.userAgent
			page, err := c.Fetch(context.Background(), base+tt.path)
			if tt.allowed {
				if err != nil || page.Status != 200 {
					t.Errorf("Fetch(%s) = %v, %v; want it allowed", tt.path, page, err)
				}
				return
			}
			if !errors.Is(err, ErrDisallowed) {
				t.Errorf("Fetch(%s) = %v, %v; want ErrDisallowed", tt.path, page, err)
			}
			u, _ := url.Parse(tt.path)
			if got := n.get(u.Path); got != 0 {
				t.Errorf("requests for the disallowed %s = %d, want 0", u.Path, got)
			}
		})
	}
}

// TestRobotsOnce checks that a robots.txt is fetched once for many
// concurrent fetches on its origin, and again after RobotsTTL.
func TestRobotsOnce(t *testing.T) {
	leakCheck(t)
	var n counter
	base := robotsServer(t, &n, 200, "User-agent: *\nDisallow: /private\n")
	c := testClient(t)
	c.PerHost = 4
	c.RobotsTTL = 300 * time.Millisecond
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if _, err := c.Fetch(context.Background(), base+"/page"); err != nil {
				t.Errorf("Fetch: %v", err)
			}
		})
	}
	wg.Wait()
	if got := n.get("/robots.txt"); got != 1 {
		t.Errorf("robots.txt requests for 20 fetches = %d, want 1", got)
	}
	time.Sleep(350 * time.Millisecond)
	if _, err := c.Fetch(context.Background(), base+"/page"); err != nil {
		t.Errorf("Fetch: %v", err)
	}
	if got := n.get("/robots.txt"); got != 2 {
		t.Errorf("robots.txt requests after RobotsTTL = %d, want 2", got)
	}
}

// TestRobotsErrorRemembered checks that a robots.txt that answers 503 is
// tried Attempts times, then remembered for RobotsErrorTTL: the next fetch
// is refused without a request.
func TestRobotsErrorRemembered(t *testing.T) {
	leakCheck(t)
	var n counter
	base := robotsServer(t, &n, 503, "")
	c := testClient(t)
	for range 3 {
		if _, err := c.Fetch(context.Background(), base+"/page"); !errors.Is(err, ErrDisallowed) {
			t.Errorf("Fetch = %v, want ErrDisallowed", err)
		}
	}
	if got := n.get("/robots.txt"); got != DefaultAttempts {
		t.Errorf("robots.txt requests = %d, want %d (one fetch of %d attempts)", got, DefaultAttempts, DefaultAttempts)
	}
}

// TestRobotsUnreachable: a robots.txt that gets no answer disallows the
// site (RFC 9309 §2.3.1.4), and the error keeps the network cause.
func TestRobotsUnreachable(t *testing.T) {
	leakCheck(t)
	c := testClient(t)
	c.Attempts = 2
	_, err := c.Fetch(context.Background(), closedURL(t)+"page")
	if !errors.Is(err, ErrDisallowed) {
		t.Fatalf("Fetch = %v, want ErrDisallowed", err)
	}
	var fe *Error
	if !errors.As(err, &fe) || fe.Attempts != 1 {
		t.Errorf("Fetch error = %v, want a refusal on the first attempt", err)
	}
}

func TestRobotsIgnored(t *testing.T) {
	leakCheck(t)
	var n counter
	base := robotsServer(t, &n, 200, "User-agent: *\nDisallow: /\n")
	c := testClient(t)
	c.IgnoreRobots = true
	if page, err := c.Fetch(context.Background(), base+"/page"); err != nil || page.Status != 200 {
		t.Errorf("Fetch with IgnoreRobots = %v, %v; want the page", page, err)
	}
	if got := n.get("/robots.txt"); got != 0 {
		t.Errorf("robots.txt requests with IgnoreRobots = %d, want 0", got)
	}
}

// TestRobotsRedirectTarget: the target of a redirect is checked against
// robots.txt too.
func TestRobotsRedirectTarget(t *testing.T) {
	leakCheck(t)
	var n counter
	srv := newServer(t, counting(&n, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /private\n")
		case "/old":
			http.Redirect(w, r, "/private/new", http.StatusMovedPermanently)
		}
	})))
	c := testClient(t)
	if _, err := c.Fetch(context.Background(), srv.URL+"/old"); !errors.Is(err, ErrDisallowed) {
		t.Errorf("Fetch = %v, want ErrDisallowed", err)
	}
	if got := n.get("/private/new"); got != 0 {
		t.Errorf("requests for the disallowed target = %d, want 0", got)
	}
}

// TestRobotsCrawlDelay checks that a Crawl-delay slower than the Client's
// rate spaces the requests.
func TestRobotsCrawlDelay(t *testing.T) {
	leakCheck(t)
	var rec recorder
	srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.record(r)
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\nCrawl-delay: 0.06\n")
		}
	}))
	c := testClient(t)
	c.MaxWait = time.Second
	// The first page may go at once; each later one waits for the delay.
	// Arrival times at the server can bunch up when the machine is busy,
	// so the bound is on the client's own waiting: three pages take at
	// least two delays.
	start := time.Now()
	for range 3 {
		if _, err := c.Fetch(context.Background(), srv.URL+"/page"); err != nil {
			t.Fatalf("Fetch: %v", err)
		}
	}
	took := time.Since(start)
	if times := rec.times(); len(times) != 4 {
		t.Fatalf("requests = %d, want 4 (robots.txt and three pages)", len(times))
	}
	if took < 2*60*time.Millisecond {
		t.Errorf("three fetches took %v, want at least two Crawl-delays of 60ms", took)
	}
}

// TestRobotsWaiterCancel: a fetch waiting for a robots.txt another
// goroutine is fetching returns when its ctx is done; and when the fetching
// goroutine gives up, the next fetch asks again.
func TestRobotsWaiterCancel(t *testing.T) {
	leakCheck(t)
	release := make(chan struct{})
	var n counter
	srv := newServer(t, counting(&n, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" && n.get("/robots.txt") == 1 {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
	})))
	c := testClient(t)
	c.PerHost = 2
	firstCtx, cancelFirst := context.WithCancel(context.Background())
	firstDone := make(chan error, 1)
	go func() {
		_, err := c.Fetch(firstCtx, srv.URL+"/a")
		firstDone <- err
	}()
	for n.get("/robots.txt") == 0 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	// robots.txt never comes: only ctx ends the wait.
	if _, err := c.Fetch(ctx, srv.URL+"/b"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("waiting Fetch = %v, want context.DeadlineExceeded", err)
	}
	cancelFirst()
	if err := <-firstDone; !errors.Is(err, context.Canceled) {
		t.Errorf("fetching Fetch = %v, want context.Canceled", err)
	}
	close(release)
	if page, err := c.Fetch(context.Background(), srv.URL+"/c"); err != nil || page.Status != 200 {
		t.Errorf("Fetch after an abandoned robots.txt = %v, %v; want the page", page, err)
	}
	if got := n.get("/robots.txt"); got != 2 {
		t.Errorf("robots.txt requests = %d, want 2", got)
	}
}

func TestRobotsOrigin(t *testing.T) {
	tests := []struct{ uri, want string }{
		{"http://Example.COM/a/b", "http://example.com"},
		{"http://example.com:80/a", "http://example.com"},
		{"https://example.com:443/a", "https://example.com"},
		{"https://example.com:80/a", "https://example.com:80"},
		{"HTTP://example.com:8080/a", "http://example.com:8080"},
		{"http://[::1]:8080/", "http://[::1]:8080"},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.uri)
		if err != nil {
			t.Fatal(err)
		}
		if got := robotsOrigin(u); got != tt.want {
			t.Errorf("robotsOrigin(%q) = %q, want %q", tt.uri, got, tt.want)
		}
	}
}

func TestProductToken(t *testing.T) {
	tests := []struct{ ua, want string }{
		{DefaultUserAgent, "relink"},
		{"MyBot/2.0", "mybot"},
		{"MyBot", "mybot"},
		{"My Bot", "my"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := productToken(tt.ua); got != tt.want {
			t.Errorf("productToken(%q) = %q, want %q", tt.ua, got, tt.want)
		}
	}
}

// TestRobotsCrawlDelayOverflow checks the delay check gives for a
// Crawl-delay too long for time.Duration, which the parser turns negative:
// found by FuzzRobotsGroup. It is the longest wait (acquire caps it at
// MaxWait), never a negative one that would drop the site's request to
// slow down.
func TestRobotsCrawlDelayOverflow(t *testing.T) {
	tests := []struct {
		name string
		body string
		want time.Duration
	}{
		{"ordinary", "User-agent: *\nCrawl-delay: 2.5\n", 2500 * time.Millisecond},
		{"too long for a Duration", "User-agent: *\nCrawl-delay: 1e308\n", time.Duration(math.MaxInt64)},
		{"just too long", "User-agent: *\nCrawl-delay: 9300000000\n", time.Duration(math.MaxInt64)},
		{"none", "User-agent: *\nDisallow: /private\n", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := parseRobots([]byte(tc.body))
			if data == nil {
				t.Fatalf("parseRobots(%q) = nil", tc.body)
			}
			e := &robotsEntry{group: data.FindGroup("relink")}
			got, err := e.check(&url.URL{Scheme: "http", Host: "example.com", Path: "/"})
			if err != nil || got != tc.want {
				t.Errorf("check = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}
