package web

import (
	"context"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// testProxy is a forward proxy for tests: plain requests (absolute URIs)
// are answered by pages, keyed by URI; a CONNECT to port 443 is piped to
// origin, an httptest TLS server whose certificate names example.com.
type testProxy struct {
	t      *testing.T
	pages  map[string]string
	origin *httptest.Server

	mu   sync.Mutex
	seen []string // request lines received: "GET http://..." or "CONNECT host:443"
}

func (p *testProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	if r.Method == http.MethodConnect {
		p.seen = append(p.seen, "CONNECT "+r.Host)
	} else {
		p.seen = append(p.seen, r.Method+" "+r.URL.String())
	}
	p.mu.Unlock()
	if r.Method == http.MethodConnect {
		p.connect(w, r)
		return
	}
	body, ok := p.pages[r.URL.String()]
	if !ok {
		http.NotFound(w, r)
		return
	}
	io.WriteString(w, body)
}

// connect pipes the tunnel to the origin.
func (p *testProxy) connect(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.Host, ":443") {
		http.Error(w, "port not allowed", http.StatusForbidden)
		return
	}
	up, err := net.Dial("tcp", p.origin.Listener.Addr().String())
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		up.Close()
		return
	}
	io.WriteString(conn, "HTTP/1.1 200 Connection established\r\n\r\n")
	go func() { io.Copy(up, conn); up.Close() }()
	io.Copy(conn, up)
	conn.Close()
}

// requests returns the request lines the proxy received.
func (p *testProxy) requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.seen...)
}

// startProxy starts a testProxy answering pages, with an https origin
// answering every path with "secure " and the path.
func startProxy(t *testing.T, pages map[string]string) (*testProxy, *url.URL) {
	t.Helper()
	origin := httptest.NewTLSServer(noRobots(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "secure "+r.Host+r.URL.Path)
	})))
	t.Cleanup(origin.Close)
	p := &testProxy{t: t, pages: pages, origin: origin}
	srv := newServer(t, p)
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return p, u
}

// proxyClient returns a Client that sends every request through proxy,
// with the private-address guard on.
func proxyClient(t *testing.T, proxy *url.URL, roots *x509.CertPool) *Client {
	c := testClient(t)
	c.AllowPrivate = false
	c.Proxy = http.ProxyURL(proxy)
	c.RootCAs = roots
	c.Attempts = 1
	return c
}

// TestProxyHTTP fetches an http page through a proxy on loopback, which
// the guard lets through because the program chose it.
func TestProxyHTTP(t *testing.T) {
	p, proxy := startProxy(t, map[string]string{"http://docs.example.com/a.html": "page a"})
	c := proxyClient(t, proxy, nil)
	page, err := c.Fetch(context.Background(), "http://docs.example.com/a.html")
	if err != nil {
		t.Fatal(err)
	}
	if page.Status != http.StatusOK || string(page.Body) != "page a" {
		t.Errorf("Fetch = %d %q, want 200 \"page a\"", page.Status, page.Body)
	}
	want := []string{"GET http://docs.example.com/robots.txt", "GET http://docs.example.com/a.html"}
	if got := p.requests(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("proxy received %q, want %q", got, want)
	}
}

// TestProxyHTTPS fetches an https page through CONNECT, trusting the
// origin's certificate through RootCAs; without it the certificate does
// not verify.
func TestProxyHTTPS(t *testing.T) {
	p, proxy := startProxy(t, nil)
	roots := x509.NewCertPool()
	roots.AddCert(p.origin.Certificate())

	c := proxyClient(t, proxy, roots)
	page, err := c.Fetch(context.Background(), "https://example.com/b.html")
	if err != nil {
		t.Fatal(err)
	}
	if page.Status != http.StatusOK || string(page.Body) != "secure example.com/b.html" {
		t.Errorf("Fetch = %d %q, want 200 \"secure example.com/b.html\"", page.Status, page.Body)
	}
	if got := p.requests(); len(got) == 0 || got[0] != "CONNECT example.com:443" {
		t.Errorf("proxy received %q, want a CONNECT example.com:443 first", got)
	}

	untrusting := proxyClient(t, proxy, nil)
	if _, err := untrusting.Fetch(context.Background(), "https://example.com/b.html"); err == nil {
		t.Error("Fetch without the origin's CA in RootCAs succeeded, want a certificate error")
	}
}

// TestProxyRefusesPrivateHosts checks that the guard applies to the hosts
// of requests sent through a proxy: nothing reaches the proxy.
func TestProxyRefusesPrivateHosts(t *testing.T) {
	p, proxy := startProxy(t, nil)
	roots := x509.NewCertPool()
	roots.AddCert(p.origin.Certificate())
	c := proxyClient(t, proxy, roots)
	for _, uri := range []string{
		"http://127.0.0.1/",
		"http://localhost/admin",
		"http://LocalHost./",
		"http://printer.localhost/",
		"http://2130706433/",
		"http://0x7f.1/",
		"https://[::1]/",
		"http://169.254.169.254/latest/meta-data/",
		"http://10.0.0.1:8080/",
	} {
		_, err := c.Fetch(context.Background(), uri)
		if !errors.Is(err, ErrPrivateAddress) {
			t.Errorf("Fetch(%q) = %v, want ErrPrivateAddress", uri, err)
		}
	}
	if got := p.requests(); len(got) != 0 {
		t.Errorf("the proxy received %q, want nothing", got)
	}
}

// TestProxyAllowPrivate checks that AllowPrivate lets private hosts
// through the proxy too.
func TestProxyAllowPrivate(t *testing.T) {
	_, proxy := startProxy(t, map[string]string{"http://127.0.0.1/x": "x"})
	c := proxyClient(t, proxy, nil)
	c.AllowPrivate = true
	page, err := c.Fetch(context.Background(), "http://127.0.0.1/x")
	if err != nil || page.Status != http.StatusOK {
		t.Fatalf("Fetch = %v, %v; want 200", page, err)
	}
}

// TestProxyDirect checks that a request Proxy sends directly (a nil URL)
// is guarded at the dialer as without a proxy, and that the proxy's
// address is let through only for the requests sent to it.
func TestProxyDirect(t *testing.T) {
	origin := newServer(t, noRobots(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "direct") })))
	_, proxy := startProxy(t, nil)
	c := testClient(t)
	c.AllowPrivate = false
	c.Attempts = 1
	c.Proxy = func(r *http.Request) (*url.URL, error) {
		if r.URL.Hostname() == "via.example.com" {
			return proxy, nil
		}
		return nil, nil
	}
	if _, err := c.Fetch(context.Background(), "http://via.example.com/"); err != nil {
		t.Fatalf("Fetch through the proxy: %v", err)
	}
	// The origin listens on loopback: a direct request to it is refused,
	// even though the proxy, also on loopback, was let through.
	if _, err := c.Fetch(context.Background(), origin.URL+"/"); !errors.Is(err, ErrPrivateAddress) {
		t.Errorf("direct Fetch(%s) = %v, want ErrPrivateAddress", origin.URL, err)
	}
	// So is a request for the proxy's own address when it is not sent
	// through the proxy.
	if _, err := c.Fetch(context.Background(), proxy.String()+"/"); !errors.Is(err, ErrPrivateAddress) {
		t.Errorf("direct Fetch(%s) = %v, want ErrPrivateAddress", proxy, err)
	}
}

// TestProxyError checks that an error of Proxy ends the fetch with it.
func TestProxyError(t *testing.T) {
	boom := errors.New("no proxy for you")
	c := testClient(t)
	c.Attempts = 1
	c.Proxy = func(*http.Request) (*url.URL, error) { return nil, boom }
	if _, err := c.Fetch(context.Background(), "http://example.com/"); !errors.Is(err, boom) {
		t.Errorf("Fetch = %v, want the Proxy's error", err)
	}
}

func TestLiteralAddr(t *testing.T) {
	tests := []struct {
		host string
		want string // "" for not an address
	}{
		{"127.0.0.1", "127.0.0.1"},
		{"127.1", "127.0.0.1"},
		{"10.1.2", "10.1.0.2"},
		{"2130706433", "127.0.0.1"},
		{"0x7f.1", "127.0.0.1"},
		{"0177.0.0.1", "127.0.0.1"},
		{"0x7f000001", "127.0.0.1"},
		{"[::1]", "::1"},
		{"::ffff:10.0.0.1", "::ffff:10.0.0.1"},
		{"8.8.8.8", "8.8.8.8"},
		{"example.com", ""},
		{"1.2.3.4.5", ""},
		{"256.1.1.1", ""},
		{"1.2.3.256", ""},
		{"1.2.65536", ""},
		{"4294967296", ""},
		{"08.1.1.1", ""},
		{"1..1", ""},
		{"", ""},
		{"+1.2.3.4", ""},
	}
	for _, tt := range tests {
		a, ok := literalAddr(tt.host)
		got := ""
		if ok {
			got = a.String()
		}
		if got != tt.want {
			t.Errorf("literalAddr(%q) = %q, want %q", tt.host, got, tt.want)
		}
	}
}

func TestCheckHost(t *testing.T) {
	for host, refused := range map[string]bool{
		"docs.python.org": false,
		"93.184.215.14":   false,
		"localhost":       true,
		"a.b.localhost.":  true,
		"localhost.com":   false,
		"127.0.0.1":       true,
		"[fe80::1]":       true,
		"0":               true,
	} {
		err := checkHost(func(a netip.Addr) bool { return isPublic(a) }, host)
		if got := errors.Is(err, ErrPrivateAddress); got != refused {
			t.Errorf("checkHost(%q) = %v, want refused %v", host, err, refused)
		}
	}
}
