package searxng

import (
	"context"
	"errors"
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
	// categories, engines (comma-separated lists) and language parameters.
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
}

// Client searches through a SearXNG instance. It is safe for concurrent
// use; its requests share one rate limit.
type Client struct {
	api      *apiclient.Client
	base     *url.URL
	extra    url.Values
	maxPages int
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
	extra := url.Values{}
	for name, v := range map[string]string{"categories": o.Categories, "engines": o.Engines, "language": o.Language} {
		if v != "" {
			extra.Set(name, v)
		}
	}
	r := o.Rate
	if r <= 0 {
		r = DefaultRate
	}
	pages := o.MaxPages
	if pages <= 0 {
		pages = DefaultMaxPages
	}
	return &Client{
		api: &apiclient.Client{
			Service:    "searxng",
			HTTP:       o.HTTP,
			UserAgent:  o.UserAgent,
			Rate:       r,
			Burst:      o.Burst,
			Attempts:   o.Attempts,
			Backoff:    o.Backoff,
			MaxBackoff: o.MaxBackoff,
			MaxWait:    o.MaxWait,
			Timeout:    o.Timeout,
		},
		base:     base,
		extra:    extra,
		maxPages: pages,
	}, nil
}

// String names the Client and its instance (without any user:password).
func (c *Client) String() string { return "searxng.Client{" + c.base.Redacted() + "}" }

// Format prints the Client as String does, whatever the verb.
func (c *Client) Format(f fmt.State, verb rune) { fmt.Fprint(f, c.String()) }

// CloseIdleConnections closes the connections kept open for later requests.
func (c *Client) CloseIdleConnections() { c.api.CloseIdleConnections() }

// response is the part of SearXNG's JSON answer a Client reads.
type response struct {
	Query           string  `json:"query"`
	NumberOfResults float64 `json:"number_of_results"`
	Results         []struct {
		URL     string  `json:"url"`
		Title   string  `json:"title"`
		Content string  `json:"content"`
		Score   float64 `json:"score"`
	} `json:"results"`
	// UnresponsiveEngines lists the engines that failed, each as an
	// [engine, reason] pair; read loosely, since only its length matters.
	UnresponsiveEngines []any `json:"unresponsive_engines"`
}

// Search returns at most limit results for query, in the instance's order,
// rank 1 first; a limit that is not positive or above MaxResults means
// MaxResults. It asks for page after page until it has limit distinct URLs,
// a page brings no new URL, or MaxPages pages were asked for. A query
// without terms, or that matches nothing, returns an empty slice and a nil
// error. Results carry URI, Title and SearXNG's score.
//
// A failed request ends the search with an error that wraps an *Error
// naming the request and the cause (see the Err variables), or
// ErrEnginesFailed when the first page has no results because the engines
// failed; the results of earlier pages are then not returned. A later page
// on which the engines failed ends the search with the results so far.
func (c *Client) Search(ctx context.Context, query lexsig.Query, limit int) ([]lexsig.Result, error) {
	if limit <= 0 || limit > MaxResults {
		limit = MaxResults
	}
	results := []lexsig.Result{}
	q := query.String()
	if strings.TrimSpace(q) == "" {
		return results, nil
	}
	seen := make(map[string]bool)
	for page := 1; page <= c.maxPages && len(results) < limit; page++ {
		answer, err := c.get(ctx, q, page)
		if err != nil {
			return nil, err
		}
		if len(answer.Results) == 0 && len(answer.UnresponsiveEngines) > 0 {
			if page == 1 {
				return nil, enginesFailed(q, answer)
			}
			break
		}
		before := len(results)
		for _, r := range answer.Results {
			if r.URL == "" || seen[r.URL] || len(results) == limit {
				continue
			}
			seen[r.URL] = true
			results = append(results, lexsig.Result{Rank: len(results) + 1, URI: r.URL, Title: r.Title, Score: r.Score})
		}
		if len(results) == before {
			break
		}
	}
	return results, nil
}

// HitCount returns number_of_results for q, the count the instance's
// engines reported, with one request. q is sent as it is: a single term
// gives that term's document frequency, as a lexsig.DFFunc wants. An answer
// with results but a count of zero fails with ErrNoHitCount (most engines
// report none; choose engines that do, with Options.Engines); an answer
// with neither returns 0. Other errors are as for Search.
func (c *Client) HitCount(ctx context.Context, q string) (int64, error) {
	if strings.TrimSpace(q) == "" {
		return 0, nil
	}
	answer, err := c.get(ctx, q, 1)
	if err != nil {
		return 0, err
	}
	n := answer.NumberOfResults
	switch {
	case n >= 1:
		return int64(min(n, 1<<62)), nil
	case len(answer.Results) > 0:
		return 0, fmt.Errorf("searxng: hit count for %q: %w", q, ErrNoHitCount)
	case len(answer.UnresponsiveEngines) > 0:
		return 0, enginesFailed(q, answer)
	}
	return 0, nil
}

// get asks for one page of q.
func (c *Client) get(ctx context.Context, q string, page int) (*response, error) {
	params := url.Values{"q": {q}, "format": {"json"}, "pageno": {strconv.Itoa(page)}}
	for k, vs := range c.extra {
		params[k] = vs
	}
	var answer response
	if err := c.api.GetJSON(ctx, apiclient.NewGet(c.base, params, nil), &answer); err != nil {
		var se *StatusError
		if errors.As(err, &se) && se.Status == http.StatusForbidden {
			return nil, fmt.Errorf("%w: %w", ErrJSONDisabled, err)
		}
		return nil, err
	}
	return &answer, nil
}

// enginesFailed returns the error for an answer without results whose
// engines all failed, naming a few of them.
func enginesFailed(q string, answer *response) error {
	var names []string
	for _, e := range answer.UnresponsiveEngines {
		if len(names) == 5 {
			names = append(names, "…")
			break
		}
		desc := fmt.Sprint(e)
		if pair, ok := e.([]any); ok && len(pair) == 2 {
			desc = fmt.Sprintf("%v (%v)", pair[0], pair[1])
		}
		if len(desc) > 80 {
			desc = desc[:80] + "…"
		}
		names = append(names, desc)
	}
	return fmt.Errorf("searxng: search %q: %w: %s", q, ErrEnginesFailed, strings.Join(names, ", "))
}
