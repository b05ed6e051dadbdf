package mediawiki

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/internal/retry"
	"github.com/linkrot/relink/internal/useragent"
	"github.com/linkrot/relink/provider/internal/apiclient"
)

// Defaults of Client's fields.
const (
	// Wikipedia is the API of the English Wikipedia, the Client's default
	// Endpoint.
	Wikipedia = "https://en.wikipedia.org/w/api.php"
	// DefaultRate is the requests per second a Client sends by default.
	DefaultRate = 1
	// DefaultMaxLag is the maxlag parameter sent by default: 5 seconds,
	// the value the MediaWiki manual recommends for Wikimedia wikis.
	DefaultMaxLag = 5
	// MaxLagAttempts is how many times a request is sent while the wiki
	// answers maxlag or ratelimited.
	MaxLagAttempts = 5
	// MinLagWait is the least wait after a maxlag error: the manual asks
	// for at least 5 seconds.
	MinLagWait = 5 * time.Second
	// MaxLimit is the most pages one request lists (eulimit) for a user
	// without the apihighlimits right.
	MaxLimit = 500
	// MaxRequests bounds the requests of one Backlinks call per protocol:
	// continuations past it are not followed.
	MaxRequests = 20
)

// Errors of a Client, matchable with errors.Is.
var (
	// ErrBadURI is returned for a URI that is not absolute http or https.
	ErrBadURI = errors.New("mediawiki: not an absolute http or https URI")
	// ErrAPI is wrapped by every *APIError.
	ErrAPI = errors.New("mediawiki: API error")
	// ErrMaxLag means the wiki was still lagged (or rate limiting) after
	// MaxLagAttempts requests; it is wrapped with the last *APIError.
	ErrMaxLag = errors.New("mediawiki: wiki lagged or rate limited on every attempt")
	// ErrMalformed means a 2xx answer was not the JSON the API documents.
	ErrMalformed = apiclient.ErrMalformed
)

// APIError is an error answer of the Action API: {"error": {"code":
// ..., "info": ...}}.
type APIError struct {
	// Code is the error's code ("maxlag", "ratelimited", "badvalue",
	// "readapidenied", ...), Info its message.
	Code, Info string
	// RetryAfter is the wait the answer's Retry-After header asked for,
	// zero when none.
	RetryAfter time.Duration
}

// Error returns "mediawiki: API error CODE: INFO".
func (e *APIError) Error() string { return fmt.Sprintf("mediawiki: API error %s: %s", e.Code, e.Info) }

// Is reports whether target is ErrAPI.
func (e *APIError) Is(target error) bool { return target == ErrAPI }

// Client lists the pages of one wiki that cite a URI. Its zero value asks
// the English Wikipedia. Set the fields before the first call and do not
// change them afterwards; a Client is safe for concurrent use (its
// requests are sent one at a time).
type Client struct {
	// Endpoint is the wiki's api.php URL; empty means Wikipedia.
	Endpoint string
	// ArticlePath is the wiki's article URL with $1 for the title
	// ("https://en.wikipedia.org/wiki/$1"); empty means asked of the wiki
	// once (meta=siteinfo: server and articlepath).
	ArticlePath string
	// Namespaces are the namespaces of the pages listed; nil means
	// articles alone (0).
	Namespaces []int
	// UserAgent is sent with every request; empty means relink's, which
	// names the project and its address as Wikimedia's policy asks.
	UserAgent string
	// Rate is how many requests per second may start; zero or less means
	// DefaultRate; rate.Inf turns the limit off.
	Rate rate.Limit
	// MaxLag is the maxlag parameter, in seconds; zero means
	// DefaultMaxLag, a negative value sends none.
	MaxLag int
	// HTTP carries the requests; nil means a client of the Client's own.
	HTTP *http.Client

	once    sync.Once
	api     *apiclient.Client
	base    *url.URL
	baseErr error

	mu      sync.Mutex // one request at a time; guards article
	article string
	// sleep waits d or until ctx is done; tests replace it.
	sleep func(ctx context.Context, d time.Duration) error
}

var _ backlink.SchemeFolder = (*Client)(nil)

func (c *Client) init() {
	c.once.Do(func() {
		c.base, c.baseErr = apiclient.ParseBaseURL("mediawiki", c.Endpoint, Wikipedia)
		r := c.Rate
		if r <= 0 {
			r = DefaultRate
		}
		ua := c.UserAgent
		if ua == "" {
			ua = useragent.Default
		}
		// A 429 (Wikimedia's API rate limits since 2026) pauses every
		// request of the Client, for its Retry-After or MinLagWait.
		c.api = &apiclient.Client{Service: "mediawiki", Transport: apiclient.Transport{HTTP: c.HTTP, UserAgent: ua, Rate: r}, RateLimitPause: MinLagWait}
		c.article = c.ArticlePath
		if c.sleep == nil {
			c.sleep = retry.Sleep
		}
	})
}

// CloseIdleConnections closes the Client's idle connections.
func (c *Client) CloseIdleConnections() {
	c.init()
	c.api.CloseIdleConnections()
}

// FoldsSchemes reports true: Backlinks lists the pages citing either the
// http or the https form of a URI.
func (c *Client) FoldsSchemes() bool { return true }

// Backlinks returns at most limit pages of the wiki that cite uri, by its
// http or https form, in the wiki's order (http's first), each with
// Level 1, its Rank and Via uri. A URI the wiki does not cite gives an
// empty slice and a nil error. Errors: ErrBadURI, an *APIError (ErrAPI),
// ErrMaxLag, ErrMalformed, or the request's (apiclient's errors: rate
// limited on every attempt, a timeout, a status).
func (c *Client) Backlinks(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
	c.init()
	if c.baseErr != nil {
		return nil, c.baseErr
	}
	target, err := canon.Canonicalize(uri)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadURI, err)
	}
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, ErrBadURI
	}
	out := []backlink.Backlink{}
	if limit <= 0 {
		return out, nil
	}
	want := schemeless(target)
	query := strings.TrimPrefix(target, u.Scheme+"://")
	seen := map[string]bool{}
	for _, protocol := range []string{"http", "https"} {
		err := c.list(ctx, query, protocol, func(title, link string) bool {
			if link != "" {
				if cl, err := canon.Canonicalize(link); err != nil || schemeless(cl) != want {
					return true // a longer URI the prefix matched
				}
			}
			if seen[title] {
				return true
			}
			seen[title] = true
			out = append(out, backlink.Backlink{URI: title, Rank: len(out) + 1, Level: 1, Via: target})
			return len(out) < limit
		})
		if err != nil {
			return nil, err
		}
		if len(out) == limit {
			break
		}
	}
	if len(out) == 0 {
		return out, nil
	}
	path, err := c.articlePath(ctx)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].URI = articleURL(path, out[i].URI)
	}
	return out, nil
}

// schemeless returns a canonical URI without its scheme.
func schemeless(u string) string {
	_, rest, _ := strings.Cut(u, "://")
	return rest
}

// euPage is one page of a list=exturlusage answer (formatversion=2).
type euPage struct {
	PageID int    `json:"pageid"`
	NS     int    `json:"ns"`
	Title  string `json:"title"`
	URL    string `json:"url"`
}

// answer is an Action API answer: an error, or a query with its
// continuation.
type answer struct {
	Error    *struct{ Code, Info string } `json:"error"`
	Continue map[string]any               `json:"continue"`
	Query    *struct {
		ExtURLUsage []euPage `json:"exturlusage"`
		General     *struct {
			Server      string `json:"server"`
			ArticlePath string `json:"articlepath"`
		} `json:"general"`
	} `json:"query"`
}

// list gives each page listed for query under protocol to each, until
// each returns false, the list ends, or MaxRequests requests were sent.
func (c *Client) list(ctx context.Context, query, protocol string, each func(title, link string) bool) error {
	ns := c.Namespaces
	if ns == nil {
		ns = []int{0}
	}
	var nss []string
	for _, n := range ns {
		nss = append(nss, strconv.Itoa(n))
	}
	params := url.Values{
		"action":      {"query"},
		"list":        {"exturlusage"},
		"euquery":     {query},
		"euprotocol":  {protocol},
		"eunamespace": {strings.Join(nss, "|")},
		"euprop":      {"title|url"},
		"eulimit":     {strconv.Itoa(MaxLimit)},
		"continue":    {""},
	}
	for range MaxRequests {
		var a answer
		if err := c.get(ctx, params, &a); err != nil {
			return err
		}
		if a.Query == nil && a.Continue == nil {
			return fmt.Errorf("%w: an answer with no query", ErrMalformed)
		}
		if a.Query != nil {
			for _, p := range a.Query.ExtURLUsage {
				if p.Title == "" {
					continue
				}
				if !each(p.Title, p.URL) {
					return nil
				}
			}
		}
		if len(a.Continue) == 0 {
			return nil
		}
		// Continuation: every field of "continue" goes back as it came.
		for k, v := range a.Continue {
			s, ok := v.(string)
			if !ok {
				return fmt.Errorf("%w: continue field %q is not a string", ErrMalformed, k)
			}
			params.Set(k, s)
		}
	}
	return nil
}

// get sends one Action API request with params (format, formatversion
// and maxlag added) and decodes the answer into a, one request at a time,
// waiting and sending again after a maxlag or ratelimited error.
func (c *Client) get(ctx context.Context, params url.Values, a *answer) error {
	p := url.Values{}
	for k, v := range params {
		p[k] = v
	}
	p.Set("format", "json")
	p.Set("formatversion", "2")
	lag := c.MaxLag
	if lag == 0 {
		lag = DefaultMaxLag
	}
	if lag > 0 {
		p.Set("maxlag", strconv.Itoa(lag))
	}
	var last *APIError
	for n := 1; n <= MaxLagAttempts; n++ {
		c.mu.Lock()
		resp, err := c.api.GetBytes(ctx, apiclient.NewGet(c.base, p, nil))
		c.mu.Unlock()
		if err != nil {
			return err
		}
		*a = answer{}
		if err := apiclient.DecodeJSON(resp.Body, a); err != nil {
			return err
		}
		if a.Error == nil {
			return nil
		}
		last = &APIError{Code: a.Error.Code, Info: a.Error.Info}
		if d, ok := retry.After(resp.Header.Get("Retry-After"), time.Now()); ok {
			last.RetryAfter = d
		}
		if last.Code != "maxlag" && last.Code != "ratelimited" {
			return last
		}
		if n == MaxLagAttempts {
			break
		}
		if err := c.sleep(ctx, max(last.RetryAfter, MinLagWait)); err != nil {
			return err
		}
	}
	return fmt.Errorf("%w: %w", ErrMaxLag, last)
}

// articlePath returns the wiki's article path, asking it of the wiki the
// first time.
func (c *Client) articlePath(ctx context.Context) (string, error) {
	c.mu.Lock()
	path := c.article
	c.mu.Unlock()
	if path != "" {
		return path, nil
	}
	var a answer
	if err := c.get(ctx, url.Values{"action": {"query"}, "meta": {"siteinfo"}, "siprop": {"general"}}, &a); err != nil {
		return "", err
	}
	if a.Query == nil || a.Query.General == nil || !strings.Contains(a.Query.General.ArticlePath, "$1") {
		return "", fmt.Errorf("%w: siteinfo without an article path", ErrMalformed)
	}
	server, err := c.base.Parse(a.Query.General.Server) // "//en.wikipedia.org" takes the API's scheme
	if err != nil || server.Host == "" {
		return "", fmt.Errorf("%w: siteinfo server %q", ErrMalformed, a.Query.General.Server)
	}
	path = server.Scheme + "://" + server.Host + a.Query.General.ArticlePath
	c.mu.Lock()
	c.article = path
	c.mu.Unlock()
	return path, nil
}

// articleURL returns the URL of the page titled title under path, the
// title written as MediaWiki writes it in URLs: spaces as underscores,
// and percent-escapes but for the characters it leaves as they are.
func articleURL(path, title string) string {
	t := url.QueryEscape(strings.ReplaceAll(title, " ", "_"))
	for _, r := range []string{";", ":", "@", "$", "!", "*", "(", ")", ",", "/", "~"} {
		t = strings.ReplaceAll(t, url.QueryEscape(r), r)
	}
	return strings.Replace(path, "$1", t, 1)
}
