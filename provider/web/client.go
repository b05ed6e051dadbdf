package web

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/internal/retry"
	"github.com/linkrot/relink/internal/useragent"
)

// Defaults of the Client fields, and the limits and names a Client uses; a
// zero (or negative, where that has no meaning of its own) field means the
// default.
const (
	// DefaultAttempts is how many times Fetch tries a URI: "We made a total
	// of five attempts to download pages" (§3.1 "HTTP Status Codes").
	DefaultAttempts = 5
	// DefaultMaxBody caps the decoded bytes of a body, 10 MiB. The paper met
	// pages of hundreds of megabytes, the largest 129.8 MB (§3.1 "File
	// size"); a page is rarely more than a few hundred kilobytes of HTML.
	DefaultMaxBody int64 = 10 << 20
	// DefaultMaxRedirects is how many redirects Fetch follows in one
	// attempt, as many as net/http's own client.
	DefaultMaxRedirects = 10
	// DefaultRate is the number of requests per second a Client starts to
	// one host: one.
	DefaultRate rate.Limit = 1
	// DefaultBurst is how many requests to one host may start at once
	// before DefaultRate applies: one.
	DefaultBurst = 1
	// DefaultPerHost is how many requests to one host may be in flight at
	// once: one.
	DefaultPerHost = 1
	// DefaultConnectTimeout bounds setting up a TCP connection.
	DefaultConnectTimeout = 10 * time.Second
	// DefaultTLSTimeout bounds a TLS handshake.
	DefaultTLSTimeout = 10 * time.Second
	// DefaultHeaderTimeout bounds the wait for the response header once the
	// request is sent.
	DefaultHeaderTimeout = 20 * time.Second
	// DefaultTimeout bounds one request from its first byte sent to the
	// last byte of its body read, connecting included.
	DefaultTimeout = 30 * time.Second
	// DefaultBackoff is the wait before the second attempt; it doubles
	// before each later one, with jitter.
	DefaultBackoff = retry.DefaultFirst
	// DefaultMaxBackoff caps the wait between two attempts.
	DefaultMaxBackoff = retry.DefaultMax
	// DefaultMaxWait caps a wait a server asks for, with Retry-After or a
	// robots.txt Crawl-delay.
	DefaultMaxWait = time.Minute
	// DefaultRobotsTTL is how long a robots.txt is kept: a day, the longest
	// RFC 9309 §2.4 allows.
	DefaultRobotsTTL = 24 * time.Hour
	// DefaultRobotsErrorTTL is how long a robots.txt that could not be
	// fetched (so that the whole site is disallowed) is remembered before it
	// is asked for again.
	DefaultRobotsErrorTTL = 10 * time.Minute
	// RobotsMaxBody is how much of a robots.txt is read: 500 KiB, the least
	// RFC 9309 §2.5 lets a crawler parse.
	RobotsMaxBody int64 = 500 << 10
	// DefaultUserAgent is the User-Agent a Client sends: the product token
	// "relink", its version and where to read about it. It is relink's one
	// User-Agent, the one the search and archive clients send too.
	DefaultUserAgent = useragent.Default
	// Version is the relink version DefaultUserAgent names.
	Version = useragent.Version
)

// TruncatedHeader is the header Fetch adds, with the value "true", to a
// Page whose body was cut at Client.MaxBody. A cut page is still a Page:
// the filters judge what was read.
const TruncatedHeader = "X-Relink-Truncated"

// Client fetches web pages over HTTP and HTTPS, politely: it retries
// transient failures, keeps to a rate per host, obeys robots.txt and bounds
// every wait and every body. It implements filter.Fetcher.
//
// The zero value is ready to use with the defaults named in the field
// comments. It refuses to connect to private, loopback, link-local and
// unspecified addresses unless AllowPrivate is set, so a crawl steered by
// links found on the web cannot reach the machine's own network (tests
// against httptest servers set AllowPrivate).
//
// A Client is safe for concurrent use by many goroutines; many hosts are
// fetched in parallel, each within its own limits. Set the fields before
// the first Fetch and do not change or copy the Client afterwards. It
// holds idle connections and a small entry per host and robots.txt;
// CloseIdleConnections releases the connections.
type Client struct {
	// UserAgent is sent with every request and is the agent robots.txt
	// groups are matched against, by its product token (the part before
	// the first "/" or space, RFC 9309 §2.2.1). Empty means
	// DefaultUserAgent.
	UserAgent string

	// Attempts is how many times a URI is tried before Fetch gives up;
	// zero or less means DefaultAttempts (5), and 1 turns retries off.
	// A network error, a timeout, a cut body and the statuses 408, 429 and
	// 5xx (but 501 and 505) are tried again; any other answer is final. (The paper retried
	// every non-2xx answer; a 404 or 403 is as final on the fifth attempt
	// as on the first, so Fetch does not spend four more requests on it.)
	Attempts int
	// Backoff is the wait before the second attempt, doubled before each
	// later one up to MaxBackoff; each wait is drawn at random from its
	// upper half. Zero or less means DefaultBackoff (1 s).
	Backoff time.Duration
	// MaxBackoff caps the wait between attempts; zero or less means
	// DefaultMaxBackoff (30 s).
	MaxBackoff time.Duration
	// MaxWait caps a wait a server asks for: a Retry-After header on a 429
	// or 5xx answer (seconds or an HTTP date), which replaces the backoff,
	// and a robots.txt Crawl-delay, which slows the host's rate. A longer
	// request is shortened to MaxWait. Zero or less means DefaultMaxWait
	// (1 min).
	MaxWait time.Duration

	// MaxBody caps the decoded bytes of a body; a longer body is cut, and
	// the Page's header then has TruncatedHeader set. Zero or less means
	// DefaultMaxBody (10 MiB).
	MaxBody int64
	// MaxRedirects is how many redirects (301, 302, 303, 307, 308) one
	// attempt follows; one more is an error wrapping ErrTooManyRedirects.
	// Zero means DefaultMaxRedirects (10); a negative value follows none,
	// and the 3xx answer is the Page.
	MaxRedirects int

	// Rate is how many requests per second may start to one host (by host
	// name, whatever the port or scheme), Burst how many may start at once
	// after a quiet spell, and PerHost how many may be in flight at once.
	// Zero or less means DefaultRate (1/s), DefaultBurst (1) and
	// DefaultPerHost (1); rate.Inf turns the rate limit off. A robots.txt
	// Crawl-delay slower than Rate wins, up to MaxWait between requests.
	// Every request counts, redirects and robots.txt included.
	Rate    rate.Limit
	Burst   int
	PerHost int

	// ConnectTimeout bounds connecting, TLSTimeout the TLS handshake, and
	// HeaderTimeout the wait for the response header; Timeout bounds a
	// whole request, from connecting to the last byte of the body, so a
	// server that never answers or sends its body a byte at a time is cut
	// off; each redirect is a request of its own. Zero or less means
	// DefaultConnectTimeout (10 s), DefaultTLSTimeout (10 s),
	// DefaultHeaderTimeout (20 s) and DefaultTimeout (30 s). Waits for the
	// host's rate limit and between attempts are not part of Timeout: ctx
	// bounds those.
	ConnectTimeout time.Duration
	TLSTimeout     time.Duration
	HeaderTimeout  time.Duration
	Timeout        time.Duration

	// IgnoreRobots turns robots.txt off. By default every URI, and every
	// URI a redirect leads to, is checked against its origin's robots.txt
	// (RFC 9309) for UserAgent, and a disallowed one is an error wrapping
	// ErrDisallowed.
	IgnoreRobots bool
	// RobotsTTL is how long a fetched robots.txt is used; zero or less
	// means DefaultRobotsTTL (24 h). RobotsErrorTTL is how long a
	// robots.txt that could not be had (a 5xx or 429 answer, or none) is
	// remembered; zero or less means DefaultRobotsErrorTTL (10 min).
	RobotsTTL      time.Duration
	RobotsErrorTTL time.Duration
	// Robots, when not nil, keeps the robots.txt files the Client fetched
	// beyond its life (provider/cache's Robots keeps them on disk): the
	// Client asks it before fetching one, and gives it each answer that
	// is not a failure (2xx or 4xx; not 429, 5xx or no answer). Nil
	// means they are kept in memory alone, for RobotsTTL.
	Robots RobotsStore

	// AllowPrivate lets the Client connect to private (RFC 1918, RFC
	// 4193), loopback, link-local, unspecified, shared (RFC 6598),
	// multicast, documentation and reserved addresses, and to the IPv6
	// forms that can embed any IPv4 address (IPv4-mapped, NAT64 with a
	// non-public IPv4 address, 6to4, Teredo). By default every address a
	// host name resolves to is checked as the connection is made, so
	// neither a link, nor a redirect, nor a DNS answer that changes between
	// lookups can reach them; such a connection fails with an error
	// wrapping ErrPrivateAddress.
	AllowPrivate bool

	// Proxy, when not nil, chooses the proxy of each request, as
	// http.Transport.Proxy does (http.ProxyURL(u) sends every request
	// through u; a nil URL sends that request directly). Nil means no
	// proxy: the Client reads no proxy settings from the environment.
	// An http proxy receives plain requests for http URIs and a CONNECT
	// for https ones, through which the Client speaks TLS with the page's
	// server (or with whatever the proxy makes answer for it: see
	// RootCAs).
	//
	// The private-address guard (AllowPrivate) still applies to the
	// pages' hosts: with a Proxy, a request is refused, with an error
	// wrapping ErrPrivateAddress, when its URI's host is localhost or a
	// name below it, or an IP address (in any form a resolver reads,
	// "127.1" and "2130706433" included) that is not public. Names sent
	// through the proxy are resolved by the proxy, not checked by the
	// Client; those sent directly are checked as they are dialled.
	// The connection to the proxy itself is allowed wherever it is, a
	// loopback port included: the program chose it, a page did not.
	Proxy func(*http.Request) (*url.URL, error)
	// RootCAs, when not nil, is the set of certificate authorities the
	// Client trusts for https, instead of the system's: a test's own CA,
	// or that of an intercepting proxy the program trusts. Nil means the
	// system's roots.
	RootCAs *x509.CertPool

	// Transport, when not nil, carries the requests instead of the
	// Client's own http.Transport; ConnectTimeout, TLSTimeout,
	// HeaderTimeout, AllowPrivate, Proxy and RootCAs then have no effect,
	// and keeping private addresses out is the Transport's job. Retries,
	// rate limits, robots.txt, redirects, Timeout and the body cap still
	// apply. It must not follow redirects or decode bodies itself
	// (http.Transport does neither when the request names its own
	// Accept-Encoding, as Fetch's do). The Client's own Transport uses
	// the proxy Proxy chooses, and no other.
	Transport http.RoundTripper

	// public reports whether an address may be dialled when AllowPrivate
	// is false; nil means isPublic. Tests replace it.
	public func(netip.Addr) bool

	// proxies are the proxies Proxy has chosen, which the dialer lets
	// through.
	proxies proxies

	once   sync.Once
	client *http.Client

	mu     sync.Mutex
	hosts  map[string]*host
	robots map[string]*robotsEntry
	sweep  int // entries in hosts and robots at which to sweep them next
}

var _ filter.Fetcher = (*Client)(nil)

// Errors Fetch returns, wrapped in an *Error; match them with errors.Is.
var (
	// ErrDisallowed means robots.txt forbids the URI for the Client's
	// user agent, or the site's robots.txt could not be had, which RFC
	// 9309 §2.3.1.4 makes a complete disallow; the error then also wraps
	// the cause (an ErrTimeout, a refused connection, ...) or names the
	// status.
	ErrDisallowed = errors.New("web: disallowed by robots.txt")
	// ErrTooManyRedirects means an attempt met more redirects than
	// Client.MaxRedirects.
	ErrTooManyRedirects = errors.New("web: too many redirects")
	// ErrPrivateAddress means a host resolved to an address the Client
	// refuses (see Client.AllowPrivate).
	ErrPrivateAddress = errors.New("web: private address refused")
	// ErrTimeout means a request took longer than Client.Timeout or one of
	// the Client's narrower timeouts while ctx was not done.
	ErrTimeout = errors.New("web: request timed out")
	// ErrUnsupportedURI means the URI is not an absolute http or https URI
	// with a host.
	ErrUnsupportedURI = errors.New("web: not an http or https URI")
)

// Error is the error Fetch returns: the URI asked for, how many attempts
// were made, and why the last one got no usable answer.
type Error struct {
	// URI is the URI given to Fetch.
	URI string
	// Attempts is the number of attempts made; 0 when the URI itself
	// could not be used (ErrUnsupportedURI or a parse error).
	Attempts int
	// Err is the cause.
	Err error
}

// Error returns a message of the form "web: fetch URI: cause", naming the
// number of attempts when there were several.
func (e *Error) Error() string {
	if e.Attempts > 1 {
		return fmt.Sprintf("web: fetch %s (%d attempts): %v", e.URI, e.Attempts, e.Err)
	}
	return fmt.Sprintf("web: fetch %s: %v", e.URI, e.Err)
}

// Unwrap returns e.Err.
func (e *Error) Unwrap() error { return e.Err }

// Fetch fetches uri with GET and returns the final answer, after
// redirects, as a Page: its URI (without fragment), status, header and
// body. Any HTTP answer, whatever its status, is a Page and a nil error.
//
// Fetch makes up to Attempts attempts, waiting between them (see Backoff
// and MaxWait). When every attempt fails, the last answer with a status
// (a 5xx or 429, say) is returned as a Page; when there was none, an
// *Error wrapping the last cause. A refusal is final at once: robots.txt
// (ErrDisallowed), a private address (ErrPrivateAddress), too many
// redirects (ErrTooManyRedirects), a URI that is not http or https
// (ErrUnsupportedURI), a host name that does not exist or a certificate
// that does not verify.
//
// The body is as the server sent it apart from its Content-Encoding: gzip
// and deflate (the only codings Fetch asks for) are undone, and the
// Content-Encoding and Content-Length headers dropped; a body in a coding
// Fetch cannot undo is kept as received, with its header. The charset is
// not touched: the Content-Type header travels with the bytes, and package
// backlink decodes them when it renders the page. At most MaxBody decoded
// bytes are kept; a longer body, however it was compressed, is cut there
// and marked with TruncatedHeader.
//
// When ctx is done Fetch returns promptly, also from a wait for the
// host's rate limit, a robots.txt another goroutine is fetching, or the
// next attempt, with an error wrapping ctx.Err(); it leaves no goroutine
// behind.
func (c *Client) Fetch(ctx context.Context, uri string) (*filter.Page, error) {
	c.init()
	u, err := parseURI(uri)
	if err != nil {
		return nil, &Error{URI: uri, Err: err}
	}
	page, n, err := c.fetch(ctx, u, fetchOptions{
		limit:     c.maxBody(),
		redirects: c.maxRedirects(),
		robots:    !c.IgnoreRobots,
	})
	if err != nil {
		return nil, &Error{URI: uri, Attempts: n, Err: err}
	}
	return page, nil
}

// CloseIdleConnections closes the connections the Client keeps open for
// later requests; requests in flight are not affected.
func (c *Client) CloseIdleConnections() {
	c.init()
	c.client.CloseIdleConnections()
}

// parseURI parses uri and checks that it is an absolute http or https
// URI with a host. The fragment is dropped: it is never sent.
func parseURI(uri string) (*url.URL, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return nil, err
	}
	if !supported(u) {
		return nil, fmt.Errorf("%w: %q", ErrUnsupportedURI, uri)
	}
	u.Fragment, u.RawFragment = "", ""
	return u, nil
}

// supported reports whether u is an absolute http or https URI with a
// host.
func supported(u *url.URL) bool {
	s := strings.ToLower(u.Scheme)
	return (s == "http" || s == "https") && u.Hostname() != ""
}

// RobotsStore keeps robots.txt answers by origin ("https://example.org",
// as RFC 9309 §2.3 scopes them). Its methods must be safe for concurrent
// use; how long it keeps an answer is its own choice.
type RobotsStore interface {
	// LoadRobots returns origin's robots.txt answer, its status and body,
	// or ok false when it keeps none.
	LoadRobots(origin string) (status int, body []byte, ok bool)
	// StoreRobots keeps origin's robots.txt answer.
	StoreRobots(origin string, status int, body []byte)
}

// init builds the http.Client and the maps on first use.
func (c *Client) init() {
	c.once.Do(func() {
		rt := c.Transport
		if rt == nil {
			rt = c.newTransport()
		}
		c.client = &http.Client{
			Transport: rt,
			// Fetch follows redirects itself, checking each target
			// against robots.txt and the host's limits.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
		c.hosts = make(map[string]*host)
		c.robots = make(map[string]*robotsEntry)
		c.sweep = minSweep
	})
}

// newTransport returns the Client's own transport: the proxy Proxy
// chooses and no other, the trusted roots RootCAs names, the Client's
// timeouts, no transparent decompression (Fetch asks for and undoes gzip
// and deflate itself, with a bound), and, unless AllowPrivate, a check of
// every address dialled but a chosen proxy's, and of the host of every
// request sent through a proxy.
func (c *Client) newTransport() *http.Transport {
	d := &net.Dialer{Timeout: orDefault(c.ConnectTimeout, DefaultConnectTimeout), KeepAlive: 30 * time.Second}
	direct := *d
	if !c.AllowPrivate {
		public := c.public
		if public == nil {
			public = isPublic
		}
		d.ControlContext = func(_ context.Context, network, address string, _ syscall.RawConn) error {
			return checkAddress(public, network, address)
		}
	}
	var tlsConfig *tls.Config
	if c.RootCAs != nil {
		tlsConfig = &tls.Config{RootCAs: c.RootCAs}
	}
	return &http.Transport{
		Proxy:                  c.proxyFunc(),
		DialContext:            c.dialContext(d, &direct),
		TLSClientConfig:        tlsConfig,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    orDefault(c.TLSTimeout, DefaultTLSTimeout),
		ResponseHeaderTimeout:  orDefault(c.HeaderTimeout, DefaultHeaderTimeout),
		MaxIdleConns:           100,
		MaxIdleConnsPerHost:    max(c.perHost(), 2),
		IdleConnTimeout:        90 * time.Second,
		DisableCompression:     true,
		MaxResponseHeaderBytes: 1 << 20,
	}
}

// orDefault returns d when v is zero or less, else v.
func orDefault[T int | int64 | time.Duration | rate.Limit](v, d T) T {
	if v <= 0 {
		return d
	}
	return v
}

func (c *Client) userAgent() string {
	if c.UserAgent != "" {
		return c.UserAgent
	}
	return DefaultUserAgent
}

func (c *Client) attempts() int            { return orDefault(c.Attempts, DefaultAttempts) }
func (c *Client) maxBody() int64           { return orDefault(c.MaxBody, DefaultMaxBody) }
func (c *Client) rate() rate.Limit         { return orDefault(c.Rate, DefaultRate) }
func (c *Client) burst() int               { return orDefault(c.Burst, DefaultBurst) }
func (c *Client) perHost() int             { return orDefault(c.PerHost, DefaultPerHost) }
func (c *Client) timeout() time.Duration   { return orDefault(c.Timeout, DefaultTimeout) }
func (c *Client) maxWait() time.Duration   { return orDefault(c.MaxWait, DefaultMaxWait) }
func (c *Client) robotsTTL() time.Duration { return orDefault(c.RobotsTTL, DefaultRobotsTTL) }
func (c *Client) robotsErrorTTL() time.Duration {
	return orDefault(c.RobotsErrorTTL, DefaultRobotsErrorTTL)
}

// maxRedirects returns the redirects one attempt follows; -1 for none.
func (c *Client) maxRedirects() int {
	switch {
	case c.MaxRedirects == 0:
		return DefaultMaxRedirects
	case c.MaxRedirects < 0:
		return -1
	}
	return c.MaxRedirects
}
