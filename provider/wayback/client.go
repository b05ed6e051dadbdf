package wayback

import (
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/internal/apiclient"
)

// Defaults of the Client fields.
const (
	// DefaultBaseURL is the Wayback Machine: its CDX API is at
	// BaseURL/cdx/search/cdx and its captures at BaseURL/web/.
	DefaultBaseURL = "https://web.archive.org"
	// DefaultAvailabilityURL is the Wayback Availability JSON API.
	DefaultAvailabilityURL = "https://archive.org/wayback/available"
	// DefaultRate is how many CDX and availability requests per second a
	// Client starts: 0.4, 24 a minute. The Wayback Machine's CDX server
	// allows an address 30 requests a minute (its hard limit since 2026,
	// which the TimeMap API shares; the Python client
	// edgi-govdata-archiving/wayback, in touch with the Internet Archive,
	// defaults to 80% of it, v0.5.1), and answers 429 beyond.
	DefaultRate rate.Limit = 0.8 * 30 / 60
	// DefaultReplayRate is how many replays of captures per second a
	// Client starts: 8, 80% of the 600 a minute the Wayback Machine
	// allows an address for mementos (the same source).
	DefaultReplayRate rate.Limit = 0.8 * 600 / 60
	// DefaultRateLimitPause is how long every request of a Client waits
	// after a 429 answer that names no longer wait (the Wayback Machine
	// sends no Retry-After): a minute. The Internet Archive blocks an
	// address at its firewall for an hour, doubled at each repeat, when
	// it goes on sending for more than a minute after its 429s (its staff,
	// quoted in edgi-govdata-archiving/wayback issue 137); so a Client
	// pauses, and stops for good at a second 429 in a row.
	DefaultRateLimitPause = time.Minute
	// DefaultLimit is how many captures Captures asks for when its Query
	// sets no Limit: far fewer than the CDX server's own cap (150,000),
	// and about 1.5 MB of JSON.
	DefaultLimit = 10_000
	// DefaultMaxHops is how many redirects Redirects follows from a
	// redirect capture, and how many redirects within the archive a replay
	// follows.
	DefaultMaxHops = 5
	// DefaultMaxRedirectCaptures is how many of a URI's latest redirect
	// captures Redirects examines.
	DefaultMaxRedirectCaptures = 10
)

// Errors of the archive's answers, the same values relink's other web API
// clients return, so that one errors.Is check covers them all.
var (
	// ErrRateLimited means the archive answered 429 Too Many Requests on
	// every attempt.
	ErrRateLimited = apiclient.ErrRateLimited
	// ErrMalformed means an answer that is not what the API documents:
	// not JSON (an HTML error page, binary bytes, a cut body), or JSON of
	// another shape (a CDX answer without a timestamp field, a timestamp
	// that is not 14 digits, a status that is not a number).
	ErrMalformed = apiclient.ErrMalformed
	// ErrTimeout means a request took longer than Client.Timeout.
	ErrTimeout = apiclient.ErrTimeout
	// ErrTooLarge means an API answer longer than Client.MaxBody.
	ErrTooLarge = apiclient.ErrTooLarge
	// ErrStopped means the Client sent nothing: it got a 429 answer,
	// paused for Client.RateLimitPause, and got another, so it stopped
	// for good rather than risk the Internet Archive blocking the address
	// (see DefaultRateLimitPause). The error also matches ErrRateLimited.
	// Wait an hour and make a new Client at a lower Rate.
	ErrStopped = apiclient.ErrStopped
)

// StatusError is the cause of an error when the archive's final answer to
// an API request was not 2xx: it carries the status, any Retry-After wait,
// and a snippet of the body. Match it with errors.As.
type StatusError = apiclient.StatusError

// Errors of the archive, the same values provider/memento and
// provider/ccindex return, so that one errors.Is check covers every
// archive.
var (
	// ErrNoCapture means the archive holds no capture of the URI that
	// fits: none at all, no 2xx HTML capture (LastGood), or none the
	// availability API reports. It is memento.ErrNoMemento and
	// ccindex.ErrNoCapture too.
	ErrNoCapture = apiclient.ErrNoCapture
	// ErrBadURI means the URI asked about is not an absolute http or https
	// URI.
	ErrBadURI = apiclient.ErrBadURI
)

// Error is the error every method returns, the type provider/memento and
// provider/ccindex return too (match it with errors.As): the Archive
// ("wayback"), the Op ("captures", "available", "last good capture",
// "fetch" or "redirects"), the URI asked about, and the cause Err, which
// errors.Is and errors.As see through it: ErrNoCapture, ErrBadURI, an
// error wrapping ErrMalformed, or the error of a request (which wraps
// ErrRateLimited, ErrTimeout, a *StatusError, a network error or the
// context's error). Its message is "wayback: OP URI: CAUSE".
type Error = apiclient.ArchiveError

// opError returns the *Error of the operation op on uri.
func opError(op, uri string, err error) error {
	return &Error{Archive: "wayback", Op: op, URI: uri, Err: err}
}

// Client talks to the Wayback Machine: its CDX API (Captures, LastGood,
// Redirects), its availability API (Available), and its replay of raw
// captures (LastGood, Fetch, Redirects). The zero value is ready to use with
// the defaults named in the field comments.
//
// A Client is safe for concurrent use by many goroutines, which then share
// its rate limit. Set the fields before the first request and do not change
// or copy the Client afterwards.
type Client struct {
	// BaseURL is the Wayback Machine's address, without a trailing slash:
	// the CDX API is BaseURL/cdx/search/cdx and captures are replayed from
	// BaseURL/web/. Empty means DefaultBaseURL. Tests point it at an
	// httptest server; another deployment of the open-source Wayback with
	// its CDX server at the same path works too.
	BaseURL string
	// AvailabilityURL is the availability API's address. Empty means
	// DefaultAvailabilityURL.
	AvailabilityURL string

	// HTTP carries the requests; nil means a client of the Client's own
	// that uses no proxy. Its CheckRedirect is replaced: the Client
	// follows redirects itself.
	HTTP *http.Client
	// UserAgent is sent with every request; empty means relink's (that of
	// provider/web).
	UserAgent string
	// Rate is how many CDX and availability requests per second may
	// start, ReplayRate how many replays of captures, and Burst how many
	// of each at once after a quiet spell. Zero or less means DefaultRate
	// (0.4/s), DefaultReplayRate (8/s) and a burst of 1; rate.Inf turns
	// a limit off.
	Rate       rate.Limit
	ReplayRate rate.Limit
	Burst      int
	// Attempts is how many times a request is tried after network errors,
	// timeouts, 429 and 5xx answers; zero or less means five, and 1 turns
	// retries off. Backoff is the wait before the second attempt, doubled
	// before each later one (zero or less means one second); a Retry-After
	// header replaces it, up to a minute. A replay that carries
	// Memento-Datetime is a capture, whatever its status, and is never
	// tried again.
	Attempts int
	Backoff  time.Duration
	// RateLimitPause is how long every request of the Client (CDX and
	// availability, or replays: each has its own) waits after a 429
	// answer, or longer when its Retry-After asks; a second 429 in a row
	// stops them for good (ErrStopped). Zero or less means
	// DefaultRateLimitPause (a minute).
	RateLimitPause time.Duration
	// Timeout bounds one attempt, from connecting to the last byte of the
	// body; zero or less means 30 seconds.
	Timeout time.Duration
	// MaxBody caps the bytes read of an answer; zero or less means 10 MiB.
	// An API answer that is longer is an error wrapping ErrTooLarge; a
	// capture that is longer is cut, and its Page is marked with the header
	// web.TruncatedHeader.
	MaxBody int64
	// MaxHops is how many redirects Redirects follows from each redirect
	// capture, and how many redirects within the archive a replay follows.
	// Zero or less means DefaultMaxHops.
	MaxHops int
	// MaxRedirectCaptures is how many of a URI's latest redirect captures
	// Redirects examines. Zero or less means DefaultMaxRedirectCaptures.
	MaxRedirectCaptures int

	once    sync.Once
	api     *apiclient.Client // CDX and availability
	replays *apiclient.Client
}

var _ filter.Fetcher = (*Client)(nil)

// client returns the HTTP layer of the CDX and availability APIs, built
// from c's fields on first use, with the replays'. Neither follows
// redirects: a redirect capture is an answer to read, and replay
// redirects are followed by the Client itself, within the archive.
func (c *Client) client() *apiclient.Client {
	c.once.Do(func() {
		var hc *http.Client
		if c.HTTP != nil {
			h := *c.HTTP
			h.CheckRedirect = nil
			hc = &h
		}
		pause := c.RateLimitPause
		if pause <= 0 {
			pause = DefaultRateLimitPause
		}
		build := func(r, def rate.Limit) *apiclient.Client {
			if r <= 0 {
				r = def
			}
			return &apiclient.Client{
				Service: "wayback",
				Transport: apiclient.Transport{
					HTTP:      hc,
					UserAgent: c.UserAgent,
					Rate:      r,
					Burst:     c.Burst,
					Attempts:  c.Attempts,
					Backoff:   c.Backoff,
					Timeout:   c.Timeout,
					MaxWait:   max(pause, apiclient.DefaultMaxWait),
				},
				MaxBody:        c.MaxBody,
				MaxRedirects:   -1,
				RateLimitPause: pause,
				StopAfter:      2,
			}
		}
		c.api = build(c.Rate, DefaultRate)
		c.replays = build(c.ReplayRate, DefaultReplayRate)
		// A memento is the archive's answer, whatever its status: an
		// archived 429 or 503 page is not the archive failing (the Python
		// client edgi-govdata-archiving/wayback returns any answer with
		// Memento-Datetime at once).
		c.replays.Final = isMemento
	})
	return c.api
}

// replayClient returns the HTTP layer of replays.
func (c *Client) replayClient() *apiclient.Client {
	c.client()
	return c.replays
}

// isMemento reports whether resp is a memento, a capture replayed: the
// Wayback Machine sends Memento-Datetime (RFC 7089 §2.1.1) with every
// replay of a capture, and with none of its own answers (its errors, its
// redirects to the capture nearest a timestamp).
func isMemento(resp *apiclient.Response) bool {
	return resp.Header.Get(MementoDatetimeHeader) != ""
}

// CloseIdleConnections closes the connections kept open for later requests.
func (c *Client) CloseIdleConnections() {
	c.client().CloseIdleConnections()
	c.replays.CloseIdleConnections()
}

// base returns BaseURL without a trailing slash, or DefaultBaseURL.
func (c *Client) base() string {
	if c.BaseURL == "" {
		return DefaultBaseURL
	}
	return strings.TrimRight(c.BaseURL, "/")
}

// check returns the HTTP layer after checking that BaseURL and
// AvailabilityURL are absolute http(s) URLs.
func (c *Client) check() (*apiclient.Client, error) {
	if _, err := apiclient.ParseBaseURL("wayback", c.BaseURL, DefaultBaseURL); err != nil {
		return nil, err
	}
	if _, err := apiclient.ParseBaseURL("wayback", c.AvailabilityURL, DefaultAvailabilityURL); err != nil {
		return nil, err
	}
	return c.client(), nil
}

// availabilityURL returns the availability API's address.
func (c *Client) availabilityURL() string {
	if c.AvailabilityURL == "" {
		return DefaultAvailabilityURL
	}
	return c.AvailabilityURL
}

// maxHops returns MaxHops or its default.
func (c *Client) maxHops() int {
	if c.MaxHops <= 0 {
		return DefaultMaxHops
	}
	return c.MaxHops
}

// maxRedirectCaptures returns MaxRedirectCaptures or its default.
func (c *Client) maxRedirectCaptures() int {
	if c.MaxRedirectCaptures <= 0 {
		return DefaultMaxRedirectCaptures
	}
	return c.MaxRedirectCaptures
}

// checkURI returns uri without its fragment when it is an absolute http or
// https URI, and an error wrapping ErrBadURI otherwise.
func checkURI(uri string) (string, error) { return apiclient.WebURI(uri) }
