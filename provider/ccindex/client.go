package ccindex

import (
	"errors"
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
	// DefaultIndexURL is the Common Crawl index server: collinfo.json and
	// a CDX API per crawl at IndexURL/<id>-index.
	DefaultIndexURL = "https://index.commoncrawl.org"
	// DefaultDataURL is where Common Crawl's files are served over HTTPS:
	// a capture's filename is a path under it.
	DefaultDataURL = "https://data.commoncrawl.org"
	// DefaultRate is how many index requests per second a Client starts:
	// one, well under what one address may send to a server that serves
	// about 100,000 lookups an hour for everyone.
	DefaultRate rate.Limit = 1
	// DefaultDataRate is how many range requests per second a Client
	// starts to DataURL.
	DefaultDataRate rate.Limit = 1
	// DefaultMaxCollections is how many crawls, newest first, LastGood
	// asks: a year or so of crawls, one request each.
	DefaultMaxCollections = 6
	// DefaultRateLimitPause is how long every request of a Client waits
	// after a 429 answer that names no longer wait; a second 429 in a row
	// stops the Client.
	DefaultRateLimitPause = time.Minute
)

// Errors of the services' answers, the same values relink's other web API
// clients return, so that one errors.Is check covers them all.
var (
	// ErrRateLimited means a service answered 429 Too Many Requests.
	ErrRateLimited = apiclient.ErrRateLimited
	// ErrStopped means the Client sent nothing: two 429 answers in a row
	// stopped it for good.
	ErrStopped = apiclient.ErrStopped
	// ErrMalformed means an answer that is not what the service documents.
	ErrMalformed = apiclient.ErrMalformed
	// ErrTimeout means a request took longer than Client.Timeout.
	ErrTimeout = apiclient.ErrTimeout
	// ErrTooLarge means an answer longer than Client.MaxBody, or a capture
	// whose length is.
	ErrTooLarge = apiclient.ErrTooLarge
)

// StatusError is the cause of an error when a service's final answer was
// not 2xx (nor the 404 of a crawl without captures): status, any
// Retry-After wait, and a snippet of the body. Match it with errors.As.
type StatusError = apiclient.StatusError

// Errors of this package, matchable with errors.Is.
var (
	// ErrNoCapture means no crawl asked holds a capture that fits: none
	// at all, or none with a 2xx status and an HTML media type (LastGood).
	// It is wayback.ErrNoCapture and memento.ErrNoMemento too, so that one
	// errors.Is check covers every archive.
	ErrNoCapture = apiclient.ErrNoCapture
	// ErrBadURI means the URI asked about is not an absolute http or https
	// URI; wayback.ErrBadURI and memento.ErrBadURI are the same value.
	ErrBadURI = apiclient.ErrBadURI
	// ErrBadCollection means a crawl ID that is not of the form of Common
	// Crawl's ("CC-MAIN-2025-43"): letters, digits and hyphens.
	ErrBadCollection = errors.New("ccindex: not a crawl ID")
)

// Error is the error every method returns, the type provider/wayback and
// provider/memento return too (match it with errors.As): the Archive
// ("ccindex"), the Op ("collections", "captures", "read", "last good
// capture", "fetch" or "redirects"), the URI asked about (empty for
// collections), and the cause Err, which errors.Is and errors.As see
// through it. Its message is "ccindex: OP URI: CAUSE".
type Error = apiclient.ArchiveError

// opError returns the *Error of the operation op on uri.
func opError(op, uri string, err error) error {
	return &Error{Archive: "ccindex", Op: op, URI: uri, Err: err}
}

// Client talks to the Common Crawl index server and reads captures from
// Common Crawl's data server. The zero value is ready to use with the
// defaults named in the field comments.
//
// A Client is safe for concurrent use by many goroutines, which then share
// its rate limits. Set the fields before the first request and do not
// change or copy the Client afterwards.
type Client struct {
	// IndexURL is the index server's address, without a trailing slash;
	// empty means DefaultIndexURL. Your own cc-index-server works too.
	IndexURL string
	// DataURL is the address the captures' files are read from; empty
	// means DefaultDataURL.
	DataURL string
	// Crawls are the crawl IDs LastGood asks, newest first; nil means
	// the newest MaxCollections of collinfo.json, read once.
	Crawls []string
	// MaxCollections caps how many crawls LastGood asks; zero or less
	// means DefaultMaxCollections.
	MaxCollections int
	// OnSkip, when not nil, is given each line of a CDX answer that
	// cannot be a capture and was skipped. It may be called from several
	// goroutines at once.
	OnSkip func(*LineError)

	// HTTP carries the requests; nil means a client of the Client's own
	// that uses no proxy. Redirects to another host are not followed.
	HTTP *http.Client
	// UserAgent is sent with every request; empty means relink's.
	UserAgent string
	// Rate is how many index requests per second may start, DataRate how
	// many range requests, Burst how many of each at once after a quiet
	// spell. Zero or less means DefaultRate, DefaultDataRate and 1;
	// rate.Inf turns a limit off.
	Rate     rate.Limit
	DataRate rate.Limit
	Burst    int
	// Attempts is how many times a request is tried after network errors,
	// timeouts and 5xx answers (the index's 503 means "slow down": the
	// backoff does); zero or less means five. Backoff is the wait before
	// the second attempt, doubled before each later one; zero or less
	// means one second.
	Attempts int
	Backoff  time.Duration
	// RateLimitPause is how long every request (of the index, or of the
	// data server) waits after a 429; a second 429 in a row stops them
	// (ErrStopped). Zero or less means DefaultRateLimitPause.
	RateLimitPause time.Duration
	// Timeout bounds one attempt; zero or less means 30 seconds.
	Timeout time.Duration
	// MaxBody caps the bytes read of an answer, and of a capture's
	// decoded body; zero or less means 10 MiB. A capture whose record is
	// longer is an error wrapping ErrTooLarge, without a request.
	MaxBody int64

	once  sync.Once
	index *apiclient.Client
	data  *apiclient.Client

	mu    sync.Mutex
	colls []Collection // collinfo.json, once read
}

var _ filter.Fetcher = (*Client)(nil)

// clients returns the HTTP layers of the index and of the data server,
// built from c's fields on first use.
func (c *Client) clients() (index, data *apiclient.Client) {
	c.once.Do(func() {
		pause := c.RateLimitPause
		if pause <= 0 {
			pause = DefaultRateLimitPause
		}
		build := func(r, def rate.Limit) *apiclient.Client {
			if r <= 0 {
				r = def
			}
			return &apiclient.Client{
				Service: "ccindex",
				Transport: apiclient.Transport{
					HTTP:      c.HTTP,
					UserAgent: c.UserAgent,
					Rate:      r,
					Burst:     c.Burst,
					Attempts:  c.Attempts,
					Backoff:   c.Backoff,
					Timeout:   c.Timeout,
					MaxWait:   max(pause, apiclient.DefaultMaxWait),
				},
				MaxBody:        c.MaxBody,
				RateLimitPause: pause,
				StopAfter:      2,
			}
		}
		c.index = build(c.Rate, DefaultRate)
		c.data = build(c.DataRate, DefaultDataRate)
	})
	return c.index, c.data
}

// CloseIdleConnections closes the connections kept open for later requests.
func (c *Client) CloseIdleConnections() {
	index, data := c.clients()
	index.CloseIdleConnections()
	data.CloseIdleConnections()
}

// base returns the URL raw (or def), checked, without a trailing slash.
func base(raw, def string) (string, error) {
	u, err := apiclient.ParseBaseURL("ccindex", raw, def)
	if err != nil {
		return "", err
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// maxBody returns MaxBody or its default.
func (c *Client) maxBody() int64 {
	if c.MaxBody <= 0 {
		return apiclient.DefaultMaxBody
	}
	return c.MaxBody
}
