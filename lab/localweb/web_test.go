package localweb_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/lab/localweb"
	"github.com/linkrot/relink/provider/web"
)

// webClient returns relink's live fetcher configured for srv: its proxy
// and CA, the private-address guard on, no waiting.
func webClient(t *testing.T, srv *localweb.Server) *web.Client {
	c := &web.Client{Proxy: http.ProxyURL(srv.ProxyURL()), RootCAs: srv.CA().Pool(), Rate: rate.Inf, Attempts: 1, Timeout: 10 * time.Second}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// TestProxyFetch runs provider/web, unchanged but for its proxy and
// trusted CA, through the proxy, over https (CONNECT) and http.
func TestProxyFetch(t *testing.T) {
	srv := start(t, localweb.Options{Relaxed: true})
	c := webClient(t, srv)
	ctx := context.Background()
	tests := []struct {
		name, uri string
		status    int
		finalURI  string
		titlePart string
	}{
		{"page over https", pyBase + "library/os.html", 200, pyBase + "library/os.html", "Miscellaneous operating system"},
		{"wiki page", wikiBase + "JSON.html", 200, wikiBase + "JSON.html", "JSON - Wikipedia"},
		{"redirect stub followed", pyBase + "library/old.html", 200, pyBase + "library/os.html", "Miscellaneous"},
		{"missing page", pyBase + "tutorial/index.html", 404, pyBase + "tutorial/index.html", ""},
		{"page the store lacks", pyBase + "library/nothere.html", 404, pyBase + "library/nothere.html", ""},
		{"http scheme the store does not hold", "http://docs.python.org/3.11/library/os.html", 404, "http://docs.python.org/3.11/library/os.html", ""},
		{"host the store does not hold", "https://example.org/", 404, "https://example.org/", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := c.Fetch(ctx, tt.uri)
			if err != nil {
				t.Fatal(err)
			}
			if p.Status != tt.status || p.URI != tt.finalURI {
				t.Errorf("Fetch(%q) = %d %s, want %d %s", tt.uri, p.Status, p.URI, tt.status, tt.finalURI)
			}
			if tt.titlePart != "" && !strings.Contains(backlink.Title(p.Body), tt.titlePart) {
				t.Errorf("Fetch(%q) title = %q, want it to hold %q", tt.uri, backlink.Title(p.Body), tt.titlePart)
			}
		})
	}
}

// TestProxyRedirects checks the answers themselves: a redirect stub is a
// 301 to its target.
func TestProxyRedirects(t *testing.T) {
	srv := start(t, localweb.Options{Relaxed: true})
	c := webClient(t, srv)
	c.MaxRedirects = -1
	p, err := c.Fetch(context.Background(), pyBase+"library/old.html")
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != http.StatusMovedPermanently || p.Header.Get("Location") != pyBase+"library/os.html" {
		t.Errorf("Fetch(old.html) = %d Location %q, want 301 to os.html", p.Status, p.Header.Get("Location"))
	}
}

// TestProxyGuard checks that the web client's private-address guard still
// refuses private hosts sent through the proxy.
func TestProxyGuard(t *testing.T) {
	srv := start(t, localweb.Options{Relaxed: true})
	c := webClient(t, srv)
	for _, uri := range []string{"http://127.0.0.1/", "https://localhost/", "http://10.1.2.3/"} {
		if _, err := c.Fetch(context.Background(), uri); !errors.Is(err, web.ErrPrivateAddress) {
			t.Errorf("Fetch(%q) = %v, want ErrPrivateAddress", uri, err)
		}
	}
}

// rawRequest sends raw to the proxy and returns the status line of its
// answer.
func rawRequest(t *testing.T, srv *localweb.Server, raw string) string {
	t.Helper()
	conn, err := net.Dial("tcp", srv.ProxyURL().Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(conn, raw); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the answer to %.40q: %v", raw, err)
	}
	return strings.TrimSpace(line)
}

// TestProxyBadRequests sends requests the proxy must refuse with an
// error, never a panic or a hang.
func TestProxyBadRequests(t *testing.T) {
	srv := start(t, localweb.Options{Relaxed: true})
	huge := strings.Repeat("a", 2*localweb.MaxHeaderBytes)
	tests := []struct {
		name, raw, want string
	}{
		{"CONNECT to port 80", "CONNECT docs.python.org:80 HTTP/1.1\r\nHost: docs.python.org:80\r\n\r\n", "HTTP/1.1 403"},
		{"CONNECT to port 22", "CONNECT example.org:22 HTTP/1.1\r\nHost: example.org:22\r\n\r\n", "HTTP/1.1 403"},
		{"CONNECT without a port", "CONNECT docs.python.org HTTP/1.1\r\nHost: docs.python.org\r\n\r\n", "HTTP/1.1 400"},
		{"ftp URI", "GET ftp://example.org/file HTTP/1.1\r\nHost: example.org\r\n\r\n", "HTTP/1.1 400"},
		{"POST through the proxy", "POST http://docs.python.org/3.11/ HTTP/1.1\r\nHost: docs.python.org\r\nContent-Length: 0\r\n\r\n", "HTTP/1.1 405"},
		{"malformed request line", "GARBAGE\r\n\r\n", "HTTP/1.1 400"},
		{"malformed URI", "GET http://%zz/ HTTP/1.1\r\nHost: x\r\n\r\n", "HTTP/1.1 400"},
		{"huge URI", "GET http://docs.python.org/" + huge + " HTTP/1.1\r\nHost: docs.python.org\r\n\r\n", "HTTP/1.1 431"},
		{"unknown path on the proxy", "GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n", "HTTP/1.1 404"},
		{"the proxy's own page", "GET / HTTP/1.1\r\nHost: x\r\n\r\n", "HTTP/1.1 200"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rawRequest(t, srv, tt.raw); !strings.HasPrefix(got, tt.want) {
				t.Errorf("answer %q, want %s", got, tt.want)
			}
		})
	}
}

// TestTunnelWithoutTLS checks that a tunnel whose client sends no TLS
// ends without harm.
func TestTunnelWithoutTLS(t *testing.T) {
	srv := start(t, localweb.Options{Relaxed: true})
	conn, err := net.Dial("tcp", srv.ProxyURL().Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(conn, "CONNECT docs.python.org:443 HTTP/1.1\r\nHost: docs.python.org:443\r\n\r\nGET / HTTP/1.1\r\nHost: docs.python.org\r\n\r\n")
	br := bufio.NewReader(conn)
	line, _ := br.ReadString('\n')
	if !strings.HasPrefix(line, "HTTP/1.1 200") {
		t.Fatalf("CONNECT answer %q, want 200", line)
	}
	// The server reads plain HTTP where TLS should be: it must close or
	// answer, not hang.
	io.Copy(io.Discard, br)
	// The server still serves.
	c := webClient(t, srv)
	if p, err := c.Fetch(context.Background(), pyBase+"library/os.html"); err != nil || p.Status != 200 {
		t.Fatalf("Fetch after a bad tunnel = %v, %v", p, err)
	}
}

// TestConcurrentFetches fetches through the proxy from many goroutines,
// over many hosts' certificates and tunnels at once.
func TestConcurrentFetches(t *testing.T) {
	srv := start(t, localweb.Options{Relaxed: true})
	c := webClient(t, srv)
	c.PerHost = 8
	uris := []string{pyBase + "library/os.html", pyBase + "library/json.html", wikiBase + "JSON.html", "https://a.example/", "https://b.example/", "http://c.example/"}
	errs := make(chan error, 40)
	for i := 0; i < 40; i++ {
		go func(uri string) {
			_, err := c.Fetch(context.Background(), uri)
			errs <- err
		}(uris[i%len(uris)])
	}
	for i := 0; i < 40; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	// The archive's WARC layout is built once, whoever asks first.
	wb := waybackClient(t, srv)
	for i := 0; i < 10; i++ {
		go func() {
			_, err := wb.Captures(context.Background(), pyBase+"library/*", nil)
			errs <- err
		}()
	}
	for i := 0; i < 10; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestStartTwice checks that a Server starts once, and not after Close.
func TestStartTwice(t *testing.T) {
	srv := start(t, localweb.Options{Relaxed: true})
	if err := srv.Start("127.0.0.1:0"); err == nil {
		t.Error("a second Start succeeded")
	}
	srv.Close()
	if err := srv.Start("127.0.0.1:0"); err == nil {
		t.Error("Start after Close succeeded")
	}
}

// TestServed checks that Options.Served is told of every request: pages
// through the proxy (https and http) with their absolute URL, and a
// service's requests by its name, at its own port or at its real host.
func TestServed(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := start(t, localweb.Options{Relaxed: true, Served: func(service, uri string) {
		mu.Lock()
		got = append(got, service+" "+uri)
		mu.Unlock()
	}})
	c := webClient(t, srv)
	c.IgnoreRobots = true
	ctx := context.Background()
	for _, u := range []string{pyBase + "library/os.html", "http://docs.python.org/3.11/library/os.html", "https://api.search.brave.com/res/v1/web/search?q=os"} {
		if _, err := c.Fetch(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	resp, err := http.Get(srv.URL("brave") + "?q=json")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	want := []string{
		localweb.WebService + " " + pyBase + "library/os.html",
		localweb.WebService + " http://docs.python.org/3.11/library/os.html",
		"brave https://api.search.brave.com/res/v1/web/search?q=os",
		"brave " + srv.URL("brave") + "?q=json",
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(got, want) {
		t.Errorf("served %q, want %q", got, want)
	}
}
