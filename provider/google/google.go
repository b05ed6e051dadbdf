package google

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/internal/apiclient"
)

const (
	// DefaultBaseURL is the endpoint of the Custom Search JSON API.
	DefaultBaseURL = "https://www.googleapis.com/customsearch/v1"
	// KeyEnv and CXEnv are the environment variables the example programs
	// read the API key and the engine ID from; the package itself never
	// reads them.
	KeyEnv = "GOOGLE_API_KEY"
	CXEnv  = "GOOGLE_CSE_ID"
	// KeyParam is the query parameter that carries the key.
	KeyParam = "key"
	// MaxNum is the most results one request returns (the num parameter).
	MaxNum = 10
	// MaxResults is the most results Google returns for one query.
	MaxResults = 100
	// DefaultRate is the request rate a Client keeps to: one per second.
	// Google's quota is counted per day and per minute; a day's free quota
	// (100 queries) is spent in under two minutes at this rate.
	DefaultRate rate.Limit = 1
)

// Options configures a Client. Key and CX are required; every other zero
// field means the default named in its comment.
type Options struct {
	// Key is the API key; required. It is sent as the KeyParam query
	// parameter and never appears in errors or printed output.
	Key string
	// CX is the Programmable Search Engine ID; required. To search the
	// whole web the engine must have "Search the entire web" on.
	CX string
	// BaseURL replaces DefaultBaseURL, for tests and proxies. Query
	// parameters in it are kept and sent with every request (lr, gl or
	// safe, say).
	BaseURL string

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
	// Timeout bounds one request; zero means 30 s.
	Timeout time.Duration
	// CrossHostRedirects lets an answer redirect to another host than
	// BaseURL's; off, such an answer is an error wrapping
	// ErrRedirectRefused and nothing is sent there. Even on, the key is
	// not sent to the other host (and no request carries a Referer, which
	// would name the key).
	CrossHostRedirects bool
}

// Format prints o with its Key redacted, whatever the verb.
func (o Options) Format(f fmt.State, verb rune) {
	key := ""
	if o.Key != "" {
		key = apiclient.Redacted
	}
	fmt.Fprintf(f, "google.Options{Key: %s, CX: %q, BaseURL: %q}", key, o.CX, o.BaseURL)
}

// Client searches with the Custom Search JSON API. It is safe for
// concurrent use; its requests share one rate limit.
type Client struct {
	s *apiclient.Searcher[response]
}

var _ lexsig.Searcher = (*Client)(nil)

// New returns a Client for o. It fails with an error wrapping ErrMissingKey
// when o.Key is empty, ErrMissingEngine when o.CX is empty, and when
// o.BaseURL is not an absolute http or https URL.
func New(o Options) (*Client, error) {
	if o.Key == "" {
		return nil, fmt.Errorf("google: %w (set Options.Key, for example from $%s)", ErrMissingKey, KeyEnv)
	}
	if o.CX == "" {
		return nil, fmt.Errorf("%w (set Options.CX, for example from $%s)", ErrMissingEngine, CXEnv)
	}
	base, err := apiclient.ParseBaseURL("google", o.BaseURL, DefaultBaseURL)
	if err != nil {
		return nil, err
	}
	api := &apiclient.Client{HTTP: o.HTTP, UserAgent: o.UserAgent, Rate: o.Rate, Burst: o.Burst, Attempts: o.Attempts, Backoff: o.Backoff, MaxBackoff: o.MaxBackoff, MaxWait: o.MaxWait, Timeout: o.Timeout, CrossHostRedirects: o.CrossHostRedirects}
	return &Client{s: apiclient.NewSearcher(engine(o.CX), base, o.Key, api)}, nil
}

// String names the Client and its endpoint, never its key.
func (c *Client) String() string { return c.s.String() }

// Format prints the Client as String does, whatever the verb.
func (c *Client) Format(f fmt.State, verb rune) { c.s.Format(f, verb) }

// CloseIdleConnections closes the connections kept open for later requests.
func (c *Client) CloseIdleConnections() { c.s.CloseIdleConnections() }

// Search returns at most limit results for query, in Google's order, rank 1
// first; a limit that is not positive or above MaxResults means MaxResults.
// It asks for pages of up to MaxNum results until it has limit distinct
// URLs, a page brings no new URL or has no next page, or the next start
// would pass MaxResults. A query without terms, or that matches nothing,
// returns an empty slice and a nil error. Results carry URI and Title;
// Google reports no score. A result whose link is not an absolute http or
// https URL, or is longer than 4,096 bytes, is dropped.
//
// A failed request ends the search with an error that wraps an *Error
// naming the request (its URL holds the query, never the key) and the
// cause (see the Err variables); Google's 400 "API key not valid" also
// matches ErrUnauthorized. The results of earlier pages are then not
// returned.
func (c *Client) Search(ctx context.Context, query lexsig.Query, limit int) ([]lexsig.Result, error) {
	return c.s.Search(ctx, query, limit)
}

// HitCount returns Google's estimate of the number of pages that match q,
// searchInformation.totalResults, with one request for one result. q is
// sent as it is: a single term gives that term's document frequency, as a
// lexsig.DFFunc wants. A query that matches nothing returns 0. An answer
// without a count, or with one that is not a number, is an error wrapping
// ErrMalformed; others are as for Search.
func (c *Client) HitCount(ctx context.Context, q string) (int64, error) {
	return c.s.HitCount(ctx, q)
}
