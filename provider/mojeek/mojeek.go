package mojeek

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/internal/apiclient"
)

const (
	// DefaultBaseURL is the endpoint of Mojeek's search API.
	DefaultBaseURL = "https://api.mojeek.com/search"
	// KeyEnv is the environment variable the example programs read the key
	// from; the package itself never reads it.
	KeyEnv = "MOJEEK_API_KEY"
	// KeyParam is the query parameter that carries the key.
	KeyParam = "api_key"
	// DefaultPageSize is the number of results asked for per request,
	// Mojeek's documented default for t.
	DefaultPageSize = 10
	// MaxResults is the most results one query yields: the depth the paper
	// scored (§3.2), since Mojeek documents no limit of its own.
	MaxResults = 1000
	// DefaultRate is the request rate a Client keeps to: one per second.
	DefaultRate rate.Limit = 1
)

// Options configures a Client. Only Key is required; every other zero field
// means the default named in its comment.
type Options struct {
	// Key is the API key; required. It is sent as the KeyParam query
	// parameter and never appears in errors or printed output.
	Key string
	// BaseURL replaces DefaultBaseURL, for tests and proxies. Query
	// parameters in it are kept and sent with every request (rb, lb or
	// site, say).
	BaseURL string
	// PageSize is the t parameter, results per request; zero means
	// DefaultPageSize (10). Larger pages spend fewer requests of the
	// key's quota, if the key's plan allows them.
	PageSize int

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
}

// Format prints o with its Key redacted, whatever the verb.
func (o Options) Format(f fmt.State, verb rune) {
	key := ""
	if o.Key != "" {
		key = apiclient.Redacted
	}
	fmt.Fprintf(f, "mojeek.Options{Key: %s, BaseURL: %q, PageSize: %d}", key, o.BaseURL, o.PageSize)
}

// Client searches with the Mojeek Search API. It is safe for concurrent
// use; its requests share one rate limit.
type Client struct {
	api      *apiclient.Client
	base     *url.URL
	key      string
	pageSize int
}

var _ lexsig.Searcher = (*Client)(nil)

// New returns a Client for o. It fails with an error wrapping ErrMissingKey
// when o.Key is empty, and when o.BaseURL is not an absolute http or https
// URL.
func New(o Options) (*Client, error) {
	if o.Key == "" {
		return nil, fmt.Errorf("mojeek: %w (set Options.Key, for example from $%s)", ErrMissingKey, KeyEnv)
	}
	base, err := apiclient.ParseBaseURL("mojeek", o.BaseURL, DefaultBaseURL)
	if err != nil {
		return nil, err
	}
	r := o.Rate
	if r <= 0 {
		r = DefaultRate
	}
	size := o.PageSize
	if size <= 0 {
		size = DefaultPageSize
	}
	return &Client{
		api: &apiclient.Client{
			Service:    "mojeek",
			HTTP:       o.HTTP,
			UserAgent:  o.UserAgent,
			Rate:       r,
			Burst:      o.Burst,
			Attempts:   o.Attempts,
			Backoff:    o.Backoff,
			MaxBackoff: o.MaxBackoff,
			MaxWait:    o.MaxWait,
			Timeout:    o.Timeout,
			Secrets:    []string{KeyParam},
			Redact:     []string{o.Key},
		},
		base:     base,
		key:      o.Key,
		pageSize: size,
	}, nil
}

// String names the Client and its endpoint, never its key.
func (c *Client) String() string { return "mojeek.Client{" + c.base.Redacted() + "}" }

// Format prints the Client as String does, whatever the verb.
func (c *Client) Format(f fmt.State, verb rune) { fmt.Fprint(f, c.String()) }

// CloseIdleConnections closes the connections kept open for later requests.
func (c *Client) CloseIdleConnections() { c.api.CloseIdleConnections() }

// envelope is Mojeek's answer: everything is inside "response".
type envelope struct {
	Response *answer `json:"response"`
}

// answer is the part of Mojeek's response object a Client reads.
type answer struct {
	Status string `json:"status"`
	Head   struct {
		Results int64 `json:"results"`
	} `json:"head"`
	Results []struct {
		URL   string `json:"url"`
		Title string `json:"title"`
		Desc  string `json:"desc"`
	} `json:"results"`
}

// Search returns at most limit results for query, in Mojeek's order, rank
// 1 first; a limit that is not positive or above MaxResults means
// MaxResults. It asks for pages of PageSize results (fewer for the last)
// until it has limit distinct URLs, a page comes back empty, or the total
// count is reached. A query without terms, or that matches nothing, returns
// an empty slice and a nil error; a disjunctive query of several terms
// returns ErrUnsupportedQuery without a request. Results carry URI and
// Title; Mojeek reports no score.
//
// A failed request ends the search with an error that wraps an *Error
// naming the request (its URL holds the query, never the key), or
// ErrStatus; the results of earlier pages are then not returned.
func (c *Client) Search(ctx context.Context, query lexsig.Query, limit int) ([]lexsig.Result, error) {
	if limit <= 0 || limit > MaxResults {
		limit = MaxResults
	}
	results := []lexsig.Result{}
	q := query.String()
	if strings.TrimSpace(q) == "" {
		return results, nil
	}
	if query.Mode == lexsig.Disjunctive && !query.Phrase && len(query.Terms) > 1 {
		return nil, fmt.Errorf("mojeek: search %q: %w: Mojeek has no OR operator", q, ErrUnsupportedQuery)
	}
	seen := make(map[string]bool)
	for start := 1; start <= MaxResults && len(results) < limit; {
		t := min(c.pageSize, limit-len(results), MaxResults+1-start)
		page, err := c.get(ctx, q, start, t)
		if err != nil {
			return nil, err
		}
		for _, r := range page.Results {
			if r.URL == "" || seen[r.URL] || len(results) == limit {
				continue
			}
			seen[r.URL] = true
			results = append(results, lexsig.Result{Rank: len(results) + 1, URI: r.URL, Title: r.Title})
		}
		start += len(page.Results)
		if len(page.Results) == 0 || int64(start) > page.Head.Results {
			break
		}
	}
	return results, nil
}

// HitCount returns the number of documents Mojeek says match q,
// response.head.results, with one request for one result. q is sent as it
// is: a single term gives that term's document frequency, as a
// lexsig.DFFunc wants. A query that matches nothing returns 0; errors are
// as for Search.
func (c *Client) HitCount(ctx context.Context, q string) (int64, error) {
	if strings.TrimSpace(q) == "" {
		return 0, nil
	}
	page, err := c.get(ctx, q, 1, 1)
	if err != nil {
		return 0, err
	}
	return max(page.Head.Results, 0), nil
}

// get asks for t results of q from start and checks response.status.
func (c *Client) get(ctx context.Context, q string, start, t int) (*answer, error) {
	params := url.Values{
		KeyParam: {c.key},
		"q":      {q},
		"fmt":    {"json"},
		"s":      {strconv.Itoa(start)},
		"t":      {strconv.Itoa(t)},
	}
	var env envelope
	if err := c.api.GetJSON(ctx, apiclient.NewGet(c.base, params, nil), &env); err != nil {
		return nil, err
	}
	if env.Response == nil {
		return nil, fmt.Errorf("mojeek: search %q: %w: no \"response\" object", q, ErrMalformed)
	}
	if status := env.Response.Status; status != "OK" {
		return nil, statusError(q, status, c.key)
	}
	return env.Response, nil
}

// statusError returns the error for a response.status other than OK,
// quoting at most 200 bytes of it with the key redacted.
func statusError(q, status, key string) error {
	if len(status) > 200 {
		status = status[:200] + "…"
	}
	status = strings.ReplaceAll(status, key, apiclient.Redacted)
	lower := strings.ToLower(status)
	switch {
	case strings.Contains(lower, "limit"):
		return fmt.Errorf("mojeek: search %q: %w: %w: %q", q, ErrStatus, ErrRateLimited, status)
	case strings.Contains(lower, "key"):
		return fmt.Errorf("mojeek: search %q: %w: %w: %q", q, ErrStatus, ErrUnauthorized, status)
	}
	return fmt.Errorf("mojeek: search %q: %w: %q", q, ErrStatus, status)
}
