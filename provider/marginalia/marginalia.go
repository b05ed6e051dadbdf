package marginalia

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
	// DefaultBaseURL is the endpoint of Marginalia's search API.
	DefaultBaseURL = "https://api2.marginalia-search.com/search"
	// KeyEnv is the environment variable the example programs read the key
	// from; the package itself never reads it.
	KeyEnv = "MARGINALIA_API_KEY"
	// KeyHeader is the request header that carries the key.
	KeyHeader = "API-Key"
	// PublicKey is the key Marginalia leaves open for trying the API,
	// shared by all its users and often rate limited.
	PublicKey = "public"
	// MaxCount is the most results one request returns (the count
	// parameter).
	MaxCount = 100
	// MaxResults is the most results one query yields: the depth the paper
	// scored (§3.2), since Marginalia documents no limit of its own.
	MaxResults = 1000
	// DefaultRate is the request rate a Client keeps to: one per second.
	DefaultRate rate.Limit = 1
)

// Options configures a Client. Only Key is required; every other zero field
// means the default named in its comment.
type Options struct {
	// Key is the API key, PublicKey for the shared one; required. It is
	// sent in the KeyHeader header and never appears in errors or printed
	// output.
	Key string
	// BaseURL replaces DefaultBaseURL, for tests and proxies. Query
	// parameters in it are kept and sent with every request (dc or nsfw,
	// say).
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
	// ErrRedirectRefused and nothing is sent there. Even on, a key other
	// than PublicKey is not sent to the other host.
	CrossHostRedirects bool
}

// Format prints o with its Key redacted (unless it is PublicKey), whatever
// the verb.
func (o Options) Format(f fmt.State, verb rune) {
	key := o.Key
	if key != "" && key != PublicKey {
		key = apiclient.Redacted
	}
	fmt.Fprintf(f, "marginalia.Options{Key: %s, BaseURL: %q}", key, o.BaseURL)
}

// Client searches with the Marginalia Search API. It is safe for concurrent
// use; its requests share one rate limit.
type Client struct {
	s *apiclient.Searcher[response]
}

var _ lexsig.Searcher = (*Client)(nil)

// New returns a Client for o. It fails with an error wrapping ErrMissingKey
// when o.Key is empty (PublicKey is a key anyone may use), and when
// o.BaseURL is not an absolute http or https URL.
func New(o Options) (*Client, error) {
	if o.Key == "" {
		return nil, fmt.Errorf("marginalia: %w (set Options.Key, for example from $%s, or to %q)", ErrMissingKey, KeyEnv, PublicKey)
	}
	base, err := apiclient.ParseBaseURL("marginalia", o.BaseURL, DefaultBaseURL)
	if err != nil {
		return nil, err
	}
	api := &apiclient.Client{HTTP: o.HTTP, UserAgent: o.UserAgent, Rate: o.Rate, Burst: o.Burst, Attempts: o.Attempts, Backoff: o.Backoff, MaxBackoff: o.MaxBackoff, MaxWait: o.MaxWait, Timeout: o.Timeout, CrossHostRedirects: o.CrossHostRedirects}
	return &Client{s: apiclient.NewSearcher(engine, base, o.Key, api)}, nil
}

// String names the Client and its endpoint, never its key.
func (c *Client) String() string { return c.s.String() }

// Format prints the Client as String does, whatever the verb.
func (c *Client) Format(f fmt.State, verb rune) { c.s.Format(f, verb) }

// CloseIdleConnections closes the connections kept open for later requests.
func (c *Client) CloseIdleConnections() { c.s.CloseIdleConnections() }

// Search returns at most limit results for query, in Marginalia's order,
// rank 1 first; a limit that is not positive or above MaxResults means
// MaxResults. It asks for pages of min(limit, MaxCount) results until it
// has limit distinct URLs or a page comes back short or brings no new URL.
// A query without terms, or that matches nothing, returns an empty slice
// and a nil error; a disjunctive query of several terms returns
// ErrUnsupportedQuery without a request. Results carry URI and Title;
// Marginalia reports no score. A result whose URL is not an absolute http
// or https URL, or is longer than 4,096 bytes, is dropped.
//
// A failed request ends the search with an *Error that names the request
// (its URL holds the query; the key travels in a header) and wraps the
// cause (see the Err variables); the results of earlier pages are then not
// returned.
func (c *Client) Search(ctx context.Context, query lexsig.Query, limit int) ([]lexsig.Result, error) {
	return c.s.Search(ctx, query, limit)
}
