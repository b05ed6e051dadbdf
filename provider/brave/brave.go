package brave

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/internal/apiclient"
)

const (
	// DefaultBaseURL is the endpoint of Brave's web search.
	DefaultBaseURL = "https://api.search.brave.com/res/v1/web/search"
	// KeyEnv is the environment variable the example programs read the key
	// from; the package itself never reads it.
	KeyEnv = "BRAVE_API_KEY"
	// KeyHeader is the request header that carries the key.
	KeyHeader = "X-Subscription-Token"
	// MaxCount is the most results one request returns (Brave's count
	// parameter).
	MaxCount = 20
	// MaxOffset is the highest offset Brave accepts, counted in pages of
	// count results.
	MaxOffset = 9
	// MaxResults is the most results one query can yield: MaxOffset+1
	// pages of MaxCount.
	MaxResults = (MaxOffset + 1) * MaxCount
	// MaxQueryLen and MaxQueryWords are Brave's limits on q.
	MaxQueryLen   = 400
	MaxQueryWords = 50
	// DefaultRate is the request rate a Client keeps to: one per second,
	// the free plan's limit.
	DefaultRate rate.Limit = 1
)

// Options configures a Client. Only Key is required; every other zero field
// means the default named in its comment.
type Options struct {
	// Key is the subscription token; required. It is sent in the
	// KeyHeader header and never appears in errors or printed output.
	Key string
	// BaseURL replaces DefaultBaseURL, for tests and proxies. Query
	// parameters in it are kept and sent with every request.
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
	// the search with ErrRateLimited at once. Zero means 1 min.
	MaxWait time.Duration
	// Timeout bounds one request; zero means 30 s.
	Timeout time.Duration
}

// Format prints o with its Key redacted, whatever the verb.
func (o Options) Format(f fmt.State, verb rune) {
	key := ""
	if o.Key != "" {
		key = apiclient.Redacted
	}
	fmt.Fprintf(f, "brave.Options{Key: %s, BaseURL: %q}", key, o.BaseURL)
}

// Client searches with the Brave Search API. It is safe for concurrent use;
// its requests share one rate limit.
type Client struct {
	api  *apiclient.Client
	base *url.URL
	key  string
}

var _ lexsig.Searcher = (*Client)(nil)

// New returns a Client for o. It fails with an error wrapping ErrMissingKey
// when o.Key is empty, and when o.BaseURL is not an absolute http or https
// URL.
func New(o Options) (*Client, error) {
	if o.Key == "" {
		return nil, fmt.Errorf("brave: %w (set Options.Key, for example from $%s)", ErrMissingKey, KeyEnv)
	}
	base, err := apiclient.ParseBaseURL("brave", o.BaseURL, DefaultBaseURL)
	if err != nil {
		return nil, err
	}
	r := o.Rate
	if r <= 0 {
		r = DefaultRate
	}
	return &Client{
		api: &apiclient.Client{
			Service:    "brave",
			HTTP:       o.HTTP,
			UserAgent:  o.UserAgent,
			Rate:       r,
			Burst:      o.Burst,
			Attempts:   o.Attempts,
			Backoff:    o.Backoff,
			MaxBackoff: o.MaxBackoff,
			MaxWait:    o.MaxWait,
			Timeout:    o.Timeout,
			Secrets:    []string{KeyHeader},
			Redact:     []string{o.Key},
		},
		base: base,
		key:  o.Key,
	}, nil
}

// String names the Client and its endpoint, never its key.
func (c *Client) String() string { return "brave.Client{" + c.base.Redacted() + "}" }

// Format prints the Client as String does, whatever the verb.
func (c *Client) Format(f fmt.State, verb rune) { fmt.Fprint(f, c.String()) }

// CloseIdleConnections closes the connections kept open for later requests.
func (c *Client) CloseIdleConnections() { c.api.CloseIdleConnections() }

// response is the part of Brave's web search answer a Client reads.
type response struct {
	Query struct {
		MoreResultsAvailable *bool `json:"more_results_available"`
	} `json:"query"`
	Web struct {
		Results []struct {
			URL         string `json:"url"`
			Title       string `json:"title"`
			Description string `json:"description"`
		} `json:"results"`
	} `json:"web"`
}

// Search returns at most limit results for query, in Brave's order, rank 1
// first; a limit that is not positive or above MaxResults means MaxResults.
// It asks for pages of min(limit, MaxCount) results until it has limit
// distinct URLs, a page comes back empty, Brave says there are no more, or
// the offset would pass MaxOffset. A query without terms, or that matches
// nothing, returns an empty slice and a nil error; a query over Brave's
// length limits returns ErrUnsupportedQuery without a request. Results
// carry URI and Title; Brave reports no score.
//
// A failed request ends the search with an *Error that names the request
// (its URL holds the query, never the key) and wraps the cause (see the
// Err variables); the results of earlier pages are then not returned.
func (c *Client) Search(ctx context.Context, query lexsig.Query, limit int) ([]lexsig.Result, error) {
	if limit <= 0 || limit > MaxResults {
		limit = MaxResults
	}
	q := query.String()
	results := []lexsig.Result{}
	if strings.TrimSpace(q) == "" {
		return results, nil
	}
	if utf8.RuneCountInString(q) > MaxQueryLen || len(strings.Fields(q)) > MaxQueryWords {
		return nil, fmt.Errorf("brave: search %q: %w: more than %d characters or %d words", q, ErrUnsupportedQuery, MaxQueryLen, MaxQueryWords)
	}
	count := min(limit, MaxCount)
	seen := make(map[string]bool)
	for offset := 0; offset <= MaxOffset && len(results) < limit; offset++ {
		var page response
		if err := c.api.GetJSON(ctx, c.request(q, count, offset), &page); err != nil {
			return nil, err // an *Error that names the service and the query
		}
		for _, r := range page.Web.Results {
			if r.URL == "" || seen[r.URL] || len(results) == limit {
				continue
			}
			seen[r.URL] = true
			results = append(results, lexsig.Result{Rank: len(results) + 1, URI: r.URL, Title: r.Title})
		}
		more := page.Query.MoreResultsAvailable
		if len(page.Web.Results) == 0 || (more != nil && !*more) {
			break
		}
	}
	return results, nil
}

// request returns the GET for one page.
func (c *Client) request(q string, count, offset int) *http.Request {
	params := url.Values{
		"q":      {q},
		"count":  {strconv.Itoa(count)},
		"offset": {strconv.Itoa(offset)},
	}
	return apiclient.NewGet(c.base, params, http.Header{KeyHeader: {c.key}})
}
