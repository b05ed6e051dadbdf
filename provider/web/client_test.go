package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/time/rate"

	"github.com/linkrot/relink/filter"
)

func TestFetchPage(t *testing.T) {
	leakCheck(t)
	var rec recorder
	srv := newServer(t, noRobots(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.record(r)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("X-Test", "yes")
		io.WriteString(w, "<p>hello</p>")
	})))
	c := testClient(t)
	page, err := c.Fetch(context.Background(), srv.URL+"/page.html#section")
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	want := &filter.Page{URI: srv.URL + "/page.html", Status: 200, Body: []byte("<p>hello</p>")}
	got := &filter.Page{URI: page.URI, Status: page.Status, Body: page.Body}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Fetch page (-want +got):\n%s", diff)
	}
	if ct := page.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type = %q, want the server's", ct)
	}
	if page.Header.Get("X-Test") != "yes" || page.Header.Get(TruncatedHeader) != "" {
		t.Errorf("header = %v, want the server's header, not truncated", page.Header)
	}
	gotUA, gotAE := rec.last().Header.Get("User-Agent"), rec.last().Header.Get("Accept-Encoding")
	if gotUA != DefaultUserAgent {
		t.Errorf("User-Agent sent = %q, want %q", gotUA, DefaultUserAgent)
	}
	if gotAE != "gzip, deflate" {
		t.Errorf("Accept-Encoding sent = %q, want %q", gotAE, "gzip, deflate")
	}
}

func TestFetchUserAgent(t *testing.T) {
	leakCheck(t)
	var rec recorder
	srv := newServer(t, noRobots(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.record(r)
	})))
	c := testClient(t)
	c.UserAgent = "mybot/2.0 (+https://example.org/bot)"
	if _, err := c.Fetch(context.Background(), srv.URL); err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if got := rec.last().Header.Get("User-Agent"); got != c.UserAgent {
		t.Errorf("User-Agent sent = %q, want %q", got, c.UserAgent)
	}
}

// TestFetchStatus checks that every answer is a Page, and which are tried
// again: the paper made five attempts (§3.1 "HTTP Status Codes"); Fetch
// repeats only the answers that may change (408, 429, 5xx).
func TestFetchStatus(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		requests int
	}{
		{"200 once", 200, 1},
		{"204 once", 204, 1},
		{"404 is final", 404, 1},
		{"403 is final", 403, 1},
		{"410 is final", 410, 1},
		{"304 without Location is final", 304, 1},
		{"302 without Location is final", 302, 1},
		{"408 retried", 408, DefaultAttempts},
		{"429 retried", 429, DefaultAttempts},
		{"500 retried", 500, DefaultAttempts},
		{"503 retried", 503, DefaultAttempts},
		{"599 retried", 599, DefaultAttempts},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			leakCheck(t)
			var n counter
			srv := newServer(t, noRobots(counting(&n, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				fmt.Fprintf(w, "status %d", tt.status)
			}))))
			c := testClient(t)
			page, err := c.Fetch(context.Background(), srv.URL+"/x")
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			if page.Status != tt.status {
				t.Errorf("Status = %d, want %d", page.Status, tt.status)
			}
			if got := n.get("/x"); got != tt.requests {
				t.Errorf("requests = %d, want %d", got, tt.requests)
			}
		})
	}
}

func TestFetchAttempts(t *testing.T) {
	leakCheck(t)
	var n counter
	srv := newServer(t, noRobots(counting(&n, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))))
	c := testClient(t)
	c.Attempts = 2
	page, err := c.Fetch(context.Background(), srv.URL+"/x")
	if err != nil || page.Status != 503 {
		t.Fatalf("Fetch = %v, %v; want a 503 page", page, err)
	}
	if got := n.get("/x"); got != 2 {
		t.Errorf("requests with Attempts 2 = %d, want 2", got)
	}
}

// TestFetchRetrySucceeds is a server that fails twice with 503 and then
// answers: the third attempt's page is returned.
func TestFetchRetrySucceeds(t *testing.T) {
	leakCheck(t)
	var n counter
	srv := newServer(t, noRobots(counting(&n, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.get("/flaky") <= 2 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, "at last")
	}))))
	c := testClient(t)
	page, err := c.Fetch(context.Background(), srv.URL+"/flaky")
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if page.Status != 200 || string(page.Body) != "at last" {
		t.Errorf("Fetch = %d %q, want 200 %q", page.Status, page.Body, "at last")
	}
	if got := n.get("/flaky"); got != 3 {
		t.Errorf("requests = %d, want 3", got)
	}
}

// TestFetchRetryAfter checks that the wait after a 429 is the one its
// Retry-After header asks for, capped at MaxWait.
func TestFetchRetryAfter(t *testing.T) {
	tests := []struct {
		name       string
		retryAfter string
		maxWait    time.Duration
		least      time.Duration
		most       time.Duration
	}{
		{"seconds capped by MaxWait", "3", 80 * time.Millisecond, 80 * time.Millisecond, time.Second},
		{"date capped by MaxWait", time.Now().Add(time.Hour).UTC().Format(http.TimeFormat), 80 * time.Millisecond, 80 * time.Millisecond, time.Second},
		{"zero seconds", "0", time.Second, 0, 500 * time.Millisecond},
		{"date in the past", "Sun, 06 Nov 1994 08:49:37 GMT", time.Second, 0, 500 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			leakCheck(t)
			var rec recorder
			srv := newServer(t, noRobots(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if rec.record(r) == 1 {
					w.Header().Set("Retry-After", tt.retryAfter)
					w.WriteHeader(http.StatusTooManyRequests)
					return
				}
				io.WriteString(w, "ok")
			})))
			c := testClient(t)
			c.MaxWait = tt.maxWait
			page, err := c.Fetch(context.Background(), srv.URL)
			if err != nil || page.Status != 200 {
				t.Fatalf("Fetch = %v, %v; want 200", page, err)
			}
			times := rec.times()
			if len(times) != 2 {
				t.Fatalf("requests = %d, want 2", len(times))
			}
			if gap := times[1].Sub(times[0]); gap < tt.least || gap > tt.most {
				t.Errorf("wait after Retry-After %q = %v, want between %v and %v", tt.retryAfter, gap, tt.least, tt.most)
			}
		})
	}
}

func TestDelay(t *testing.T) {
	c := &Client{Backoff: 100 * time.Millisecond, MaxBackoff: time.Second, MaxWait: 5 * time.Second}
	tests := []struct {
		name      string
		attempt   int
		wait      time.Duration
		least     time.Duration
		most      time.Duration
		wantExact bool
	}{
		{"first backoff", 1, -1, 50 * time.Millisecond, 100 * time.Millisecond, false},
		{"second doubles", 2, -1, 100 * time.Millisecond, 200 * time.Millisecond, false},
		{"fourth", 4, -1, 400 * time.Millisecond, 800 * time.Millisecond, false},
		{"capped by MaxBackoff", 9, -1, 500 * time.Millisecond, time.Second, false},
		{"far attempts do not overflow", 200, -1, 500 * time.Millisecond, time.Second, false},
		{"Retry-After replaces backoff", 1, 3 * time.Second, 3 * time.Second, 3 * time.Second, true},
		{"Retry-After capped by MaxWait", 1, time.Hour, 5 * time.Second, 5 * time.Second, true},
		{"Retry-After zero", 3, 0, 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 50 {
				if d := c.delay(tt.attempt, tt.wait); d < tt.least || d > tt.most {
					t.Fatalf("delay(%d, %v) = %v, want in [%v, %v]", tt.attempt, tt.wait, d, tt.least, tt.most)
				}
			}
		})
	}
}

// TestFetchNoAnswer is a port nothing listens on: every attempt fails, and
// the error says so (the paper's "Connection Refused", §3.1 "HTTP Status
// Codes").
func TestFetchNoAnswer(t *testing.T) {
	leakCheck(t)
	c := testClient(t)
	c.IgnoreRobots = true
	uri := closedURL(t)
	page, err := c.Fetch(context.Background(), uri)
	if err == nil {
		t.Fatalf("Fetch(%q) = %v, want an error", uri, page)
	}
	var fe *Error
	if !errors.As(err, &fe) || fe.Attempts != DefaultAttempts || fe.URI != uri {
		t.Errorf("Fetch error = %#v, want an *Error for %q after %d attempts", err, uri, DefaultAttempts)
	}
	if !strings.Contains(err.Error(), "refused") {
		t.Errorf("Fetch error = %v, want it to say the connection was refused", err)
	}
}

// TestFetchKeepsLastAnswer: a 503 followed by attempts that get no answer
// returns the 503 page, since a server did answer.
func TestFetchKeepsLastAnswer(t *testing.T) {
	leakCheck(t)
	var n counter
	srv := newServer(t, noRobots(counting(&n, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.get("/x") == 1 {
			// A fresh connection for each request, so that net/http
			// does not replay a request on a reused one.
			w.Header().Set("Connection", "close")
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		// Then cut the connection without an answer.
		panic(http.ErrAbortHandler)
	}))))
	c := testClient(t)
	c.Attempts = 3
	page, err := c.Fetch(context.Background(), srv.URL+"/x")
	if err != nil || page.Status != http.StatusBadGateway {
		t.Fatalf("Fetch = %v, %v; want the 502 page", page, err)
	}
	if got := n.get("/x"); got != 3 {
		t.Errorf("requests = %d, want 3", got)
	}
}

func TestFetchUnsupportedURI(t *testing.T) {
	c := testClient(t)
	for _, uri := range []string{"", "/relative/path", "example.com/page", "ftp://example.com/file", "http://", "mailto:someone@example.com", "http://[::1", "file:///etc/passwd"} {
		page, err := c.Fetch(context.Background(), uri)
		var fe *Error
		if !errors.As(err, &fe) || fe.Attempts != 0 {
			t.Errorf("Fetch(%q) = %v, %v; want an *Error before any attempt", uri, page, err)
		}
		if uri != "http://[::1" && !errors.Is(err, ErrUnsupportedURI) {
			t.Errorf("Fetch(%q) error = %v, want ErrUnsupportedURI", uri, err)
		}
	}
}

func TestFetchRedirects(t *testing.T) {
	leakCheck(t)
	srv := newServer(t, noRobots(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/a":
			http.Redirect(w, r, "/b#frag", http.StatusMovedPermanently)
		case "/b":
			http.Redirect(w, r, "c?x=1", http.StatusFound)
		case "/c":
			http.Redirect(w, r, "/d", http.StatusPermanentRedirect)
		case "/d":
			io.WriteString(w, "end of the chain")
		case "/elsewhere":
			w.Header().Set("Location", "ftp://example.com/file")
			w.WriteHeader(http.StatusFound)
		}
	})))
	c := testClient(t)
	page, err := c.Fetch(context.Background(), srv.URL+"/a")
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if page.URI != srv.URL+"/d" || page.Status != 200 || string(page.Body) != "end of the chain" {
		t.Errorf("Fetch(/a) = %s %d %q, want %s 200 %q", page.URI, page.Status, page.Body, srv.URL+"/d", "end of the chain")
	}

	page, err = c.Fetch(context.Background(), srv.URL+"/elsewhere")
	if err != nil || page.Status != http.StatusFound || page.URI != srv.URL+"/elsewhere" {
		t.Errorf("Fetch(/elsewhere) = %v, %v; want its own 302 page: an ftp Location is not followed", page, err)
	}

	c2 := testClient(t)
	c2.MaxRedirects = -1
	page, err = c2.Fetch(context.Background(), srv.URL+"/a")
	if err != nil || page.Status != http.StatusMovedPermanently || page.URI != srv.URL+"/a" {
		t.Errorf("Fetch(/a) with MaxRedirects -1 = %v, %v; want the 301 page", page, err)
	}
	if got := page.Header.Get("Location"); got != "/b#frag" {
		t.Errorf("Location = %q, want %q", got, "/b#frag")
	}
}

// TestFetchRedirectLoop is a server that redirects forever: one attempt
// follows MaxRedirects redirects, then gives up for good.
func TestFetchRedirectLoop(t *testing.T) {
	tests := []struct {
		name         string
		maxRedirects int
		requests     int
	}{
		{"default", 0, DefaultMaxRedirects + 1},
		{"three", 3, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			leakCheck(t)
			var n counter
			srv := newServer(t, noRobots(counting(&n, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, fmt.Sprintf("/loop/%d", n.get("total")), http.StatusFound)
				n.add("total")
			}))))
			c := testClient(t)
			c.MaxRedirects = tt.maxRedirects
			page, err := c.Fetch(context.Background(), srv.URL+"/loop/start")
			if !errors.Is(err, ErrTooManyRedirects) {
				t.Fatalf("Fetch = %v, %v; want ErrTooManyRedirects", page, err)
			}
			if got := n.get("total"); got != tt.requests {
				t.Errorf("requests = %d, want %d (one attempt)", got, tt.requests)
			}
		})
	}
}

// TestFetchNeverAnswers is a server that accepts the request and never
// answers: each attempt ends at Timeout, and the error says it timed out.
func TestFetchNeverAnswers(t *testing.T) {
	tests := []struct {
		name   string
		client func(*Client)
	}{
		{"Timeout", func(c *Client) { c.Timeout = 100 * time.Millisecond }},
		{"HeaderTimeout", func(c *Client) { c.HeaderTimeout = 100 * time.Millisecond }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			leakCheck(t)
			stop := make(chan struct{})
			var n counter
			srv := newServer(t, noRobots(counting(&n, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-r.Context().Done():
				case <-stop:
				}
			}))))
			t.Cleanup(func() { close(stop) })
			c := testClient(t)
			c.Attempts = 2
			tt.client(c)
			// The server never answers: a Fetch that ignored its Timeout would hang
			// until the test binary's -timeout fails it.
			page, err := c.Fetch(context.Background(), srv.URL+"/hang")
			if !errors.Is(err, ErrTimeout) {
				t.Fatalf("Fetch = %v, %v; want ErrTimeout", page, err)
			}
			if errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Fetch error = %v, should not look like the caller's deadline", err)
			}
			if got := n.get("/hang"); got != 2 {
				t.Errorf("requests = %d, want 2", got)
			}
		})
	}
}

// TestFetchTrickle is a server that sends its body one byte at a time,
// forever: Timeout cuts it off.
func TestFetchTrickle(t *testing.T) {
	leakCheck(t)
	stop := make(chan struct{})
	srv := newServer(t, noRobots(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		for {
			if _, err := io.WriteString(w, "x"); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	})))
	t.Cleanup(func() { close(stop) })
	c := testClient(t)
	c.Attempts = 2
	c.Timeout = 150 * time.Millisecond
	// The body never ends: without the Timeout, Fetch hangs until -timeout.
	page, err := c.Fetch(context.Background(), srv.URL+"/slow")
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("Fetch = %v, %v; want ErrTimeout", page, err)
	}
}

// TestFetchCutBody is a server that promises more bytes than it sends and
// hangs up: an answer without its body is no answer, and is tried again.
func TestFetchCutBody(t *testing.T) {
	leakCheck(t)
	var n counter
	srv := newServer(t, noRobots(counting(&n, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		io.WriteString(w, "only a little")
	}))))
	c := testClient(t)
	c.Attempts = 3
	page, err := c.Fetch(context.Background(), srv.URL+"/cut")
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("Fetch = %v, %v; want io.ErrUnexpectedEOF", page, err)
	}
	if got := n.get("/cut"); got != 3 {
		t.Errorf("requests = %d, want 3", got)
	}
}

// TestFetchEndlessBody is a server whose body never ends: Fetch keeps
// MaxBody bytes and marks the page (§3.1 "File size": the paper met a
// 129.8 MB page).
func TestFetchEndlessBody(t *testing.T) {
	tests := []struct {
		name    string
		maxBody int64
		want    int64
	}{
		{"MaxBody", 64 << 10, 64 << 10},
		{"default", 0, DefaultMaxBody},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			leakCheck(t)
			srv := newServer(t, noRobots(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				chunk := bytes.Repeat([]byte("<p>more and more</p>\n"), 1000)
				for {
					if _, err := w.Write(chunk); err != nil {
						return
					}
				}
			})))
			c := testClient(t)
			c.MaxBody = tt.maxBody
			page, err := c.Fetch(context.Background(), srv.URL+"/endless")
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			if int64(len(page.Body)) != tt.want || page.Header.Get(TruncatedHeader) != "true" {
				t.Errorf("Fetch body = %d bytes, %s %q; want %d bytes, marked truncated", len(page.Body), TruncatedHeader, page.Header.Get(TruncatedHeader), tt.want)
			}
		})
	}
}

func TestFetchBodyAtCap(t *testing.T) {
	leakCheck(t)
	body := bytes.Repeat([]byte("a"), 1000)
	srv := newServer(t, noRobots(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(body)
	})))
	c := testClient(t)
	c.MaxBody = 1000
	page, err := c.Fetch(context.Background(), srv.URL)
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if !bytes.Equal(page.Body, body) || page.Header.Get(TruncatedHeader) != "" {
		t.Errorf("body of exactly MaxBody = %d bytes, %s %q; want all 1000, not marked", len(page.Body), TruncatedHeader, page.Header.Get(TruncatedHeader))
	}
}

// TestFetchCharsetBytes checks that the body keeps its bytes: decoding the
// charset is the renderer's job (package backlink), from the Content-Type
// that travels with the page.
func TestFetchCharsetBytes(t *testing.T) {
	leakCheck(t)
	latin1 := []byte("<p>caf\xe9 cr\xe8me br\xfbl\xe9e</p>")
	srv := newServer(t, noRobots(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
		w.Write(latin1)
	})))
	c := testClient(t)
	page, err := c.Fetch(context.Background(), srv.URL)
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if !bytes.Equal(page.Body, latin1) {
		t.Errorf("Body = %q, want the bytes sent %q", page.Body, latin1)
	}
	if ct := page.Header.Get("Content-Type"); ct != "text/html; charset=iso-8859-1" {
		t.Errorf("Content-Type = %q, want the server's", ct)
	}
}

func TestFetchPrivateAddress(t *testing.T) {
	leakCheck(t)
	var n counter
	srv := newServer(t, counting(&n, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})))
	port := srv.URL[strings.LastIndexByte(srv.URL, ':'):]
	for _, uri := range []string{srv.URL + "/", "http://localhost" + port + "/"} {
		c := &Client{} // the zero value refuses private addresses
		t.Cleanup(c.CloseIdleConnections)
		page, err := c.Fetch(context.Background(), uri)
		if !errors.Is(err, ErrPrivateAddress) {
			t.Errorf("Fetch(%q) = %v, %v; want ErrPrivateAddress", uri, page, err)
		}
	}
	if got := n.get("/") + n.get("/robots.txt"); got != 0 {
		t.Errorf("requests that reached the server = %d, want 0", got)
	}
}

// TestFetchRedirectToPrivate has a server (taken as public) redirect to a
// loopback address: the connection is refused as it is dialled.
func TestFetchRedirectToPrivate(t *testing.T) {
	leakCheck(t)
	srv := newServer(t, noRobots(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://127.0.0.2:1/admin", http.StatusFound)
	})))
	c := testClient(t)
	c.AllowPrivate = false
	c.public = func(a netip.Addr) bool { return a.String() == "127.0.0.1" }
	page, err := c.Fetch(context.Background(), srv.URL+"/go")
	if !errors.Is(err, ErrPrivateAddress) {
		t.Fatalf("Fetch = %v, %v; want ErrPrivateAddress", page, err)
	}
	var fe *Error
	if !errors.As(err, &fe) || fe.Attempts != 1 {
		t.Errorf("Fetch error = %v, want one attempt (a refusal is final)", err)
	}
}

// TestFetchCertificate: a certificate that does not verify is final, as
// the paper's "SSL Error" (§3.1 "HTTP Status Codes").
func TestFetchCertificate(t *testing.T) {
	leakCheck(t)
	var n counter
	srv := httptest.NewUnstartedServer(counting(&n, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake error is expected
	srv.StartTLS()
	t.Cleanup(srv.Close)
	c := testClient(t)
	c.IgnoreRobots = true
	// Room for a slow handshake on a loaded machine: only the failed
	// verification may end the attempt.
	c.Timeout, c.TLSTimeout = 30*time.Second, 20*time.Second
	page, err := c.Fetch(context.Background(), srv.URL)
	var fe *Error
	if !errors.As(err, &fe) || fe.Attempts != 1 {
		t.Errorf("Fetch = %v, %v; want an error after one attempt", page, err)
	}
}

// TestFetchCancel checks that a done ctx ends Fetch promptly wherever it
// waits, and leaves no goroutine behind.
func TestFetchCancel(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		client  func(*Client)
		warm    bool // fetch once before, so that the next one waits for the rate limit
	}{
		{
			name:    "during the backoff",
			handler: func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) },
			client:  func(c *Client) { c.Backoff, c.MaxBackoff = time.Minute, time.Minute },
		},
		{
			name: "during a Retry-After wait",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Retry-After", "60")
				w.WriteHeader(429)
			},
			client: func(c *Client) { c.MaxWait = time.Minute },
		},
		{
			name:    "during the rate limit wait",
			handler: func(w http.ResponseWriter, r *http.Request) {},
			client:  func(c *Client) { c.Rate, c.IgnoreRobots = 0.01, true },
			warm:    true,
		},
		{
			name: "during a request",
			handler: func(w http.ResponseWriter, r *http.Request) {
				<-r.Context().Done()
			},
			client: func(c *Client) {},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			leakCheck(t)
			srv := newServer(t, noRobots(tt.handler))
			c := testClient(t)
			tt.client(c)
			if tt.warm {
				if _, err := c.Fetch(context.Background(), srv.URL+"/warm"); err != nil {
					t.Fatalf("Fetch: %v", err)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			// The server holds the request until it ends: only ctx ends it.
			page, err := c.Fetch(ctx, srv.URL+"/x")
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Fetch = %v, %v; want context.DeadlineExceeded", page, err)
			}
		})
	}
}

// TestFetchPerHost checks the politeness: with the defaults of one
// request at a time per host, eight fetches to each of two hosts never
// overlap on one host, but the two hosts are fetched in parallel.
func TestFetchPerHost(t *testing.T) {
	leakCheck(t)
	var perHost [2]maxInFlight
	var all maxInFlight
	srv := newServer(t, noRobots(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := 0
		if strings.HasPrefix(r.Host, "localhost") {
			i = 1
		}
		perHost[i].enter()
		all.enter()
		time.Sleep(20 * time.Millisecond)
		all.leave()
		perHost[i].leave()
	})))
	port := srv.URL[strings.LastIndexByte(srv.URL, ':'):]
	c := testClient(t)
	errs := make(chan error, 16)
	for i := range 16 {
		host := "127.0.0.1"
		if i%2 == 1 {
			host = "localhost"
		}
		go func() {
			_, err := c.Fetch(context.Background(), fmt.Sprintf("http://%s%s/%d", host, port, i))
			errs <- err
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Errorf("Fetch: %v", err)
		}
	}
	for i := range perHost {
		if got := perHost[i].most.Load(); got != 1 {
			t.Errorf("host %d: most requests in flight = %d, want 1", i, got)
		}
	}
	if got := all.most.Load(); got != 2 {
		t.Errorf("most requests in flight over two hosts = %d, want 2", got)
	}
}

func TestFetchRate(t *testing.T) {
	leakCheck(t)
	var rec recorder
	srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.record(r)
	}))
	c := testClient(t)
	c.Rate = 20 // one request every 50ms
	c.IgnoreRobots = true
	// The limiter makes the second, third and fourth request each wait for
	// a token: at least 150ms in all, measured where the waiting happens.
	// (Gaps between arrivals at the server are not a bound: a late request
	// can arrive just before an on-time one on a loaded machine.)
	start := time.Now()
	for i := range 4 {
		if _, err := c.Fetch(context.Background(), fmt.Sprintf("%s/%d", srv.URL, i)); err != nil {
			t.Fatalf("Fetch: %v", err)
		}
	}
	elapsed := time.Since(start)
	if n := len(rec.times()); n != 4 {
		t.Fatalf("requests = %d, want 4", n)
	}
	if elapsed < 140*time.Millisecond {
		t.Errorf("4 requests at Rate 20 took %v, want at least 150ms", elapsed)
	}
}

// TestSweep checks that the per-host entries do not grow without bound:
// idle hosts whose limiter is full again are dropped once there are many,
// and a host in use is kept.
func TestSweep(t *testing.T) {
	c := &Client{Rate: rate.Inf}
	c.init()
	busy, err := c.acquire(context.Background(), "busy.example", 0)
	if err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	busyHost := c.hosts["busy.example"]
	c.mu.Unlock()
	for i := range 3 * minSweep {
		release, err := c.acquire(context.Background(), fmt.Sprintf("host%d.example", i), 0)
		if err != nil {
			t.Fatal(err)
		}
		release()
	}
	c.mu.Lock()
	n, h := len(c.hosts), c.hosts["busy.example"]
	c.mu.Unlock()
	busy()
	if n > minSweep {
		t.Errorf("host entries after %d idle hosts = %d, want at most %d", 3*minSweep, n, minSweep)
	}
	if h != busyHost {
		t.Errorf("the entry of a host in use was dropped")
	}
}
