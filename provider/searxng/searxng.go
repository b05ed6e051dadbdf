package searxng

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/internal/apiclient"
)

const (
	// URLEnv is the environment variable the example programs read the
	// instance URL from; the package itself never reads it.
	URLEnv = "SEARXNG_URL"
	// MaxResults is the most results one query yields: the depth the paper
	// scored (§3.2).
	MaxResults = 1000
	// DefaultMaxPages is how many pages a Search asks for at most.
	DefaultMaxPages = 50
	// DefaultRate is the request rate a Client keeps to: one per second,
	// since every request fans out to the instance's engines, which rate
	// limit the instance in turn.
	DefaultRate rate.Limit = 1
)

// Options configures a Client. Only BaseURL is required; every other zero
// field means the default named in its comment.
type Options struct {
	// BaseURL is the instance's URL, such as "http://localhost:8888" or
	// "https://search.example.org/searxng"; required. Requests go to its
	// path plus "/search". Query parameters in it are kept and sent with
	// every request.
	BaseURL string
	// Categories, Engines and Language, when not empty, are sent as the
	// categories, engines (comma-separated lists) and language parameters;
	// Language is also the Accept-Language header, "*" when empty.
	Categories string
	Engines    string
	Language   string
	// MaxPages caps the pages one Search asks for; zero means
	// DefaultMaxPages (50).
	MaxPages int

	// HTTP carries the requests; nil means a client of the package's own
	// that uses no proxy.
	HTTP *http.Client
	// UserAgent is sent with every request; empty means relink's.
	UserAgent string
	// Rate and Burst limit the requests per second; zero means
	// DefaultRate (1/s) and a burst of 1; rate.Inf turns the limit off.
	Rate  rate.Limit
	Burst int
	// Attempts is how many times a request is tried (after 429, 5xx,
	// network errors and timeouts); zero means 5.
	Attempts int
	// Backoff is the first wait between attempts, doubled each time up to
	// MaxBackoff; zero means 1 s and 30 s.
	Backoff    time.Duration
	MaxBackoff time.Duration
	// MaxWait caps a Retry-After wait that is honoured; a longer one ends
	// the call with ErrRateLimited at once. Zero means 1 min.
	MaxWait time.Duration
	// Timeout bounds one request; zero means 30 s. SearXNG waits for its
	// slowest engine (its own request_timeout, a few seconds).
	Timeout time.Duration
	// CrossHostRedirects lets the instance redirect to another host than
	// BaseURL's; off, such an answer is an error wrapping
	// ErrRedirectRefused and nothing is sent there. Even on, credentials
	// of BaseURL are not sent to the other host.
	CrossHostRedirects bool
}

// Client searches through a SearXNG instance. It is safe for concurrent
// use; its requests share one rate limit.
type Client struct {
	s *apiclient.Searcher[response]
}

var _ lexsig.Searcher = (*Client)(nil)

// New returns a Client for o. It fails with an error wrapping
// ErrMissingBaseURL when o.BaseURL is empty, and when it is not an absolute
// http or https URL.
func New(o Options) (*Client, error) {
	if o.BaseURL == "" {
		return nil, fmt.Errorf("%w (set Options.BaseURL, for example from $%s)", ErrMissingBaseURL, URLEnv)
	}
	base, err := apiclient.ParseBaseURL("searxng", o.BaseURL, "")
	if err != nil {
		return nil, err
	}
	base.Path = strings.TrimSuffix(base.Path, "/") + "/search"
	base.RawPath = ""
	pages := o.MaxPages
	if pages <= 0 {
		pages = DefaultMaxPages
	}
	api := &apiclient.Client{HTTP: o.HTTP, UserAgent: o.UserAgent, Rate: o.Rate, Burst: o.Burst, Attempts: o.Attempts, Backoff: o.Backoff, MaxBackoff: o.MaxBackoff, MaxWait: o.MaxWait, Timeout: o.Timeout, CrossHostRedirects: o.CrossHostRedirects}
	return &Client{s: apiclient.NewSearcher(engine(o, pages), base, "", api)}, nil
}

// String names the Client and its instance (without any user:password).
func (c *Client) String() string { return c.s.String() }

// Format prints the Client as String does, whatever the verb.
func (c *Client) Format(f fmt.State, verb rune) { c.s.Format(f, verb) }

// CloseIdleConnections closes the connections kept open for later requests.
func (c *Client) CloseIdleConnections() { c.s.CloseIdleConnections() }

// Search returns at most limit results for query, in the instance's order,
// rank 1 first; a limit that is not positive or above MaxResults means
// MaxResults. It asks for page after page until it has limit distinct URLs,
// a page brings no new URL, or MaxPages pages were asked for. A query
// without terms, or that matches nothing, returns an empty slice and a nil
// error. Results carry URI, Title and SearXNG's score. A result whose URL
// is not an absolute http or https URL, or is longer than 4,096 bytes, is
// dropped.
//
// A failed request ends the search with an error that wraps an *Error
// naming the request and the cause (see the Err variables), or
// ErrEnginesFailed when the first page has no results because the engines
// failed; the results of earlier pages are then not returned. A later page
// on which the engines failed ends the search with the results so far.
func (c *Client) Search(ctx context.Context, query lexsig.Query, limit int) ([]lexsig.Result, error) {
	return c.s.Search(ctx, query, limit)
}

// HitCount returns number_of_results for q, the count the instance's
// engines reported, with one request. q is sent as it is: a single term
// gives that term's document frequency, as a lexsig.DFFunc wants. An answer
// with results but no count (SearXNG since 2026.5.29 sends none, and most
// engines never reported one) fails with ErrNoHitCount; an answer with
// neither returns 0. Other errors are as for Search.
func (c *Client) HitCount(ctx context.Context, q string) (int64, error) {
	return c.s.HitCount(ctx, q)
}
