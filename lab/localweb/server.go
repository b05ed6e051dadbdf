package localweb

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/linkrot/relink/provider/store"
)

// DefaultArchiveTime is when the archive's captures were made, unless
// Options.ArchiveTime says otherwise.
var DefaultArchiveTime = time.Date(2020, time.January, 15, 12, 0, 0, 0, time.UTC)

// MaxHeaderBytes bounds a request's header, its URL included: a longer
// one is answered 431 by net/http.
const MaxHeaderBytes = 64 << 10

// Options configures a Server.
type Options struct {
	// Web is the store served as the current web; required.
	Web *store.Store
	// Archive is an older snapshot of the web, served by the archives
	// (Wayback CDX and replay, the Common Crawl index and its WARC files);
	// nil means no archive services.
	Archive *store.Store
	// ArchiveTime is the time of every capture of Archive; zero means
	// DefaultArchiveTime.
	ArchiveTime time.Time
	// CA issues the certificates of the https sites; nil means a new one
	// (NewCA).
	CA *CA
	// Relaxed turns every rate limit off.
	Relaxed bool
	// Limits are the services' rate limits; zero fields mean
	// DefaultLimits'.
	Limits Limits
	// WikiLag is the replication lag, in seconds, the MediaWiki API
	// reports to a request's maxlag parameter; 0 means none (a maxlag of
	// -1 still answers with the lag, as MediaWiki does).
	WikiLag int
	// ErrorLog receives the servers' errors (TLS handshakes that fail, a
	// store that fails); nil means they are dropped.
	ErrorLog *log.Logger
	// Now is the clock of the rate limits; nil means time.Now.
	Now func() time.Time
	// Sitemaps, when not nil, chooses the hosts that publish a sitemap:
	// /robots.txt with a Sitemap line, and /sitemap.xml listing the
	// current pages of the host (those the view does not count as
	// missing), a sitemap index of gzipped parts (/sitemap-N.xml.gz) past
	// SitemapPart URLs. Other hosts answer 404 there, as many real sites
	// do. Nil means none (ParseSitemaps reads the -sitemaps flag).
	Sitemaps Sitemaps
	// SitemapPart is how many URLs one sitemap file lists; zero means
	// DefaultSitemapPart (50,000, the protocol's limit).
	SitemapPart int
	// Served, when not nil, is told of every request the Server answers
	// (rate-limited ones included), before it is answered: the service
	// (an Endpoint.Name, or WebService for a page of the web) and the
	// URL asked for, absolute. It is called from many goroutines at
	// once. Tests and benchmarks count remote calls with it.
	Served func(service, uri string)
}

// WebService is the service name Options.Served gives the pages of the
// web (the proxy's answers from the store).
const WebService = "web"

// Endpoint is a service of a Server and where it answers.
type Endpoint struct {
	// Name is the service, as relink's flags name it: "brave", "google",
	// "mojeek", "marginalia", "searxng", "wayback", "wayback-available",
	// "commoncrawl-index", "commoncrawl-data", "mediawiki".
	Name string
	// Host is the real service's host, which the proxy answers for too.
	Host string
	// URL is the base URL a client of the service is given: for the search
	// engines the whole endpoint (relink find -search-url), for the
	// others the address its documented paths start from.
	URL string
}

// Server serves a store as the web on loopback: a forward proxy that
// answers for the pages' own URLs (http, and https through CONNECT with
// certificates of its CA), and the web services relink talks to, each on
// a port of its own and, through the proxy, at its real host name.
type Server struct {
	opts     Options
	ca       *CA
	web      *store.Store
	arch     *archive
	limits   limits
	services []*service
	byHost   map[string][]*service
	index    *wikiIndex
	sitemaps sitemapSet

	mu        sync.Mutex
	servers   []*http.Server
	tunnels   *connListener
	proxyAddr net.Addr
	endpoints []Endpoint
	closed    bool
}

// service is one web service of the Server.
type service struct {
	name    string
	host    string
	base    string   // the path appended to the service's address for Endpoint.URL
	paths   []string // path prefixes the service answers on its host through the proxy
	handler http.Handler
}

// owns reports whether the service answers path.
func (svc *service) owns(path string) bool {
	for _, p := range svc.paths {
		if path == p || strings.HasSuffix(p, "/") && strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// New returns a Server for o. It reads the archive's list of pages, if
// any, and makes a CA unless o names one; it listens nowhere until
// Start.
func New(o Options) (*Server, error) {
	if o.Web == nil {
		return nil, errors.New("localweb: Options.Web is required")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.ArchiveTime.IsZero() {
		o.ArchiveTime = DefaultArchiveTime
	}
	ca := o.CA
	if ca == nil {
		var err error
		if ca, err = NewCA(); err != nil {
			return nil, err
		}
	}
	s := &Server{opts: o, ca: ca, web: o.Web, byHost: make(map[string][]*service)}
	s.limits = newLimits(o.Limits.withDefaults(), o.Relaxed, o.Now)
	s.index = &wikiIndex{st: o.Web}
	if o.Archive != nil {
		a, err := newArchive(context.Background(), o.Archive, o.ArchiveTime)
		if err != nil {
			return nil, err
		}
		s.arch = a
	}
	s.addServices()
	return s, nil
}

// addServices registers the services.
func (s *Server) addServices() {
	add := func(svc *service) {
		s.services = append(s.services, svc)
		s.byHost[svc.host] = append(s.byHost[svc.host], svc)
	}
	add(&service{name: "brave", host: "api.search.brave.com", base: bravePath, paths: []string{bravePath}, handler: http.HandlerFunc(s.brave)})
	add(&service{name: "google", host: "www.googleapis.com", base: googlePath, paths: []string{googlePath}, handler: http.HandlerFunc(s.google)})
	add(&service{name: "mojeek", host: "api.mojeek.com", base: "/search", paths: []string{"/search"}, handler: http.HandlerFunc(s.mojeek)})
	add(&service{name: "marginalia", host: "api2.marginalia-search.com", base: "/search", paths: []string{"/search"}, handler: http.HandlerFunc(s.marginalia)})
	add(&service{name: "searxng", host: SearXNGHost, base: "", paths: []string{"/search"}, handler: http.HandlerFunc(s.searxng)})
	add(&service{name: "mediawiki", host: "en.wikipedia.org", base: wikiPath, paths: []string{wikiPath}, handler: http.HandlerFunc(s.mediawiki)})
	if s.arch != nil {
		add(&service{name: "wayback", host: "web.archive.org", base: "", paths: []string{"/cdx/search/cdx", "/web/"}, handler: http.HandlerFunc(s.wayback)})
		add(&service{name: "wayback-available", host: "archive.org", base: availablePath, paths: []string{availablePath}, handler: http.HandlerFunc(s.available)})
		add(&service{name: "commoncrawl-index", host: "index.commoncrawl.org", base: "", paths: []string{"/collinfo.json", "/" + s.arch.collection + "-index"}, handler: http.HandlerFunc(s.ccIndex)})
		add(&service{name: "commoncrawl-data", host: "data.commoncrawl.org", base: "", paths: []string{"/crawl-data/"}, handler: http.HandlerFunc(s.ccData)})
	}
}

// SearXNGHost is the host name the proxy answers for as the SearXNG
// instance, which has no name of its own.
const SearXNGHost = "searxng.localweb.test"

// CA returns the Server's certificate authority.
func (s *Server) CA() *CA { return s.ca }

// Start listens on addr ("127.0.0.1:0" for any free port) for the proxy,
// and on the same host, each on a free port, for the services, and serves
// them until Close or Shutdown. It returns once every listener is open. A
// Server starts once.
func (s *Server) Start(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("localweb: address %q: %w", addr, err)
	}
	pl, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("localweb: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.proxyAddr != nil {
		pl.Close()
		return errors.New("localweb: server closed or already started")
	}
	s.proxyAddr = pl.Addr()
	s.tunnels = newConnListener(pl.Addr())
	s.serve(pl, http.HandlerFunc(s.proxy))
	s.serve(s.tunnels, http.HandlerFunc(s.tunnel))
	for _, svc := range s.services {
		l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
		if err != nil {
			s.closeLocked()
			return fmt.Errorf("localweb: %s: %w", svc.name, err)
		}
		s.serve(l, s.direct(svc))
		s.endpoints = append(s.endpoints, Endpoint{Name: svc.name, Host: svc.host, URL: "http://" + l.Addr().String() + svc.base})
	}
	return nil
}

// serve serves h on l in a goroutine; s.mu is held.
func (s *Server) serve(l net.Listener, h http.Handler) {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          s.errorLog(),
	}
	s.servers = append(s.servers, srv)
	go srv.Serve(l)
}

// errorLog returns the logger of the servers' errors.
func (s *Server) errorLog() *log.Logger {
	if s.opts.ErrorLog != nil {
		return s.opts.ErrorLog
	}
	return log.New(io.Discard, "", 0)
}

// ProxyURL returns the proxy's URL, for web.Client.Proxy
// (http.ProxyURL), curl -x or HTTPS_PROXY; nil before Start.
func (s *Server) ProxyURL() *url.URL {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proxyAddr == nil {
		return nil
	}
	return &url.URL{Scheme: "http", Host: s.proxyAddr.String()}
}

// Endpoints returns the services and their base URLs, in a fixed order;
// none before Start.
func (s *Server) Endpoints() []Endpoint {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Endpoint(nil), s.endpoints...)
}

// URL returns the base URL of the service name (see Endpoint.Name), or ""
// when the Server has no such service or has not started.
func (s *Server) URL(name string) string {
	for _, e := range s.Endpoints() {
		if e.Name == name {
			return e.URL
		}
	}
	return ""
}

// Hosts returns the real host names the proxy answers for as services,
// sorted.
func (s *Server) Hosts() []string {
	var hs []string
	for h := range s.byHost {
		hs = append(hs, h)
	}
	sort.Strings(hs)
	return hs
}

// Close closes every listener and connection at once.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closeLocked()
}

// closeLocked is Close with s.mu held.
func (s *Server) closeLocked() error {
	s.closed = true
	var errs []error
	for _, srv := range s.servers {
		errs = append(errs, srv.Close())
	}
	return errors.Join(errs...)
}

// Shutdown stops the listeners and waits for the requests in flight to
// end, or for ctx; tunnels and idle connections are closed.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	servers := append([]*http.Server(nil), s.servers...)
	s.mu.Unlock()
	var errs []error
	for _, srv := range servers {
		errs = append(errs, srv.Shutdown(ctx))
	}
	return errors.Join(errs...)
}

// baseKey is the context key of the base URL ("scheme://host") a
// service's request was addressed to.
type baseKey struct{}

// baseURL returns the scheme and host r was addressed to.
func baseURL(r *http.Request) string {
	if b, ok := r.Context().Value(baseKey{}).(string); ok {
		return b
	}
	return "http://" + r.Host
}

// direct returns the handler of svc's own port.
func (s *Server) direct(svc *service) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !svc.owns(r.URL.Path) {
			http.NotFound(w, r)
			return
		}
		s.served(svc.name, "http://"+r.Host+r.URL.RequestURI())
		svc.handler.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), baseKey{}, "http://"+r.Host)))
	})
}

// proxy is the handler of the proxy's port: CONNECT tunnels, requests for
// absolute URIs, and a page naming the endpoints for anything else.
func (s *Server) proxy(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodConnect:
		s.connect(w, r)
	case r.URL.IsAbs():
		scheme := strings.ToLower(r.URL.Scheme)
		if scheme != "http" && scheme != "https" {
			http.Error(w, "localweb: only http and https URIs are served", http.StatusBadRequest)
			return
		}
		s.route(w, r, scheme, r.URL.Host)
	case r.URL.Path == "/":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintf(w, "relink localweb: a forward proxy for http and https (CONNECT to port 443).\n\n")
		for _, e := range s.Endpoints() {
			fmt.Fprintf(w, "%-18s %-28s %s\n", e.Name, e.Host, e.URL)
		}
	default:
		http.NotFound(w, r)
	}
}

// tunnel is the handler of the requests inside CONNECT tunnels.
func (s *Server) tunnel(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	if host == "" && r.TLS != nil {
		host = r.TLS.ServerName
	}
	s.route(w, r, "https", host)
}

// route answers a request for scheme://hostport: a service of the host
// when one owns the path, else the store.
func (s *Server) route(w http.ResponseWriter, r *http.Request, scheme, hostport string) {
	host, port := splitHostPort(hostport)
	if host == "" {
		http.Error(w, "localweb: no host", http.StatusBadRequest)
		return
	}
	if port == "" || scheme == "http" && port == "80" || scheme == "https" && port == "443" {
		for _, svc := range s.byHost[host] {
			if svc.owns(r.URL.Path) {
				s.served(svc.name, scheme+"://"+hostport+r.URL.RequestURI())
				svc.handler.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), baseKey{}, scheme+"://"+host)))
				return
			}
		}
	}
	s.served(WebService, scheme+"://"+hostport+r.URL.RequestURI())
	if s.serveSitemap(w, r, scheme, host, port) {
		return
	}
	s.serveWeb(w, r, scheme+"://"+hostport+r.URL.RequestURI())
}

// served tells Options.Served of a request.
func (s *Server) served(service, uri string) {
	if s.opts.Served != nil {
		s.opts.Served(service, uri)
	}
}

// splitHostPort returns hostport's host, lowercased and without brackets
// or a final dot, and its port, "" when it names none.
func splitHostPort(hostport string) (host, port string) {
	host = hostport
	if h, p, err := net.SplitHostPort(hostport); err == nil {
		host, port = h, p
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	return host, port
}

// connect answers a CONNECT: to port 443 only, then TLS with a
// certificate for the host, and HTTP inside served by tunnel.
func (s *Server) connect(w http.ResponseWriter, r *http.Request) {
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil || host == "" {
		http.Error(w, "localweb: CONNECT needs host:port", http.StatusBadRequest)
		return
	}
	if port != "443" {
		http.Error(w, "localweb: CONNECT is allowed to port 443 only", http.StatusForbidden)
		return
	}
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		http.Error(w, "localweb: cannot tunnel", http.StatusInternalServerError)
		return
	}
	if _, err := io.WriteString(conn, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		conn.Close()
		return
	}
	name := strings.ToLower(strings.Trim(host, "[]"))
	cfg := &tls.Config{
		MinVersion: tls.VersionTLS12,
		NextProtos: []string{"http/1.1"},
		GetCertificate: func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
			if hello.ServerName != "" {
				return s.ca.Leaf(hello.ServerName)
			}
			return s.ca.Leaf(name)
		},
	}
	var c net.Conn = conn
	if brw != nil && brw.Reader.Buffered() > 0 {
		c = &bufferedConn{Conn: conn, r: brw.Reader}
	}
	if !s.tunnels.push(tls.Server(c, cfg)) {
		conn.Close()
	}
}

// bufferedConn is a hijacked connection whose first bytes were already
// read into a buffer.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

// Read reads from the buffer, then the connection.
func (c *bufferedConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// connListener is a listener of the connections pushed to it: the TLS
// ends of the CONNECT tunnels.
type connListener struct {
	addr  net.Addr
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

// newConnListener returns a connListener that reports addr.
func newConnListener(addr net.Addr) *connListener {
	return &connListener{addr: addr, conns: make(chan net.Conn), done: make(chan struct{})}
}

// push hands c to Accept; false when the listener is closed.
func (l *connListener) push(c net.Conn) bool {
	select {
	case l.conns <- c:
		return true
	case <-l.done:
		return false
	}
}

// Accept returns the next connection pushed.
func (l *connListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close closes the listener.
func (l *connListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

// Addr returns the proxy's address.
func (l *connListener) Addr() net.Addr { return l.addr }
