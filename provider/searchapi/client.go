package searchapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/internal/apiclient"
)

// Client is the one search client behind every engine package: it runs
// an Engine. Each engine package's Client embeds a *Client (or a *Counter,
// when its API reports hit counts), whose methods it so has.
//
// A Client is safe for concurrent use; its requests share one rate limit
// (Transport.Rate), so share one Client per key. Make one with New: the
// zero Client has no engine to run.
type Client struct {
	s runner
}

var _ lexsig.Searcher = (*Client)(nil)

// Counter is a Client whose API also reports how many documents match a
// query, for document frequencies (§2.1 "TFIDF"). An engine package's
// Client embeds one when it has HitCount; NewCounter makes it.
type Counter struct {
	*Client
}

// runner is an Engine's searches, whatever its answer type.
type runner interface {
	search(ctx context.Context, query lexsig.Query, limit int) ([]lexsig.Result, error)
	hitCount(ctx context.Context, q string) (int64, error)
	String() string
	closeIdle()
}

// New returns a C, an engine package's Client (a struct whose only field
// is an embedded *Client), that runs e against baseURL (empty means
// e.BaseURL) with key, sending its requests as t says:
//
//	func New(o Options) (*Client, error) {
//		return searchapi.New[Client](engine, o.BaseURL, o.Key, o.Transport)
//	}
//
// It fails with an error wrapping ErrMissingKey when key is empty and e
// takes one, and when the base URL is not an absolute http or https URL
// (the error quotes it, without any password). e must not change
// afterwards.
func New[C ~struct{ *Client }, R any](e *Engine[R], baseURL, key string, t Transport) (*C, error) {
	c, err := newClient(e, baseURL, key, t)
	if err != nil {
		return nil, err
	}
	return &C{c}, nil
}

// NewCounter is New for an engine whose Read reports Answer.Total: its C
// embeds a *Counter, and so has HitCount too.
func NewCounter[C ~struct{ *Counter }, R any](e *Engine[R], baseURL, key string, t Transport) (*C, error) {
	c, err := newClient(e, baseURL, key, t)
	if err != nil {
		return nil, err
	}
	return &C{&Counter{c}}, nil
}

// newClient returns the Client of New.
func newClient[R any](e *Engine[R], baseURL, key string, t Transport) (*Client, error) {
	if key == "" && (e.KeyHeader != "" || e.KeyParam != "") {
		hint := ""
		if e.KeyEnv != "" {
			hint = ", for example from $" + e.KeyEnv
		}
		if e.Public != "" {
			hint += fmt.Sprintf(", or to %q", e.Public)
		}
		return nil, fmt.Errorf("%s: %w (set Options.Key%s)", e.Service, ErrMissingKey, hint)
	}
	base, err := apiclient.ParseBaseURL(e.Service, baseURL, e.BaseURL)
	if err != nil {
		return nil, err
	}
	if e.Path != "" {
		base.Path = strings.TrimSuffix(base.Path, "/") + e.Path
		base.RawPath = ""
	}
	api := transportClient(t)
	api.Service = e.Service
	api.Wait = e.Wait
	api.RateLimitPause = e.RateLimitPause
	if e.Final != nil {
		api.Final = func(r *apiclient.Response) bool { return e.Final(r.Status, r.Header, r.Body) }
	}
	if e.Stop != nil {
		api.Stop = func(r *apiclient.Response, now time.Time) (time.Time, error) {
			return e.Stop(r.Status, r.Header, r.Body, now)
		}
	}
	api.MaxBody = DefaultMaxAnswer
	if key != "" && key != e.Public {
		for _, name := range []string{e.KeyHeader, e.KeyParam} {
			if name != "" {
				api.Secrets = append(api.Secrets, name)
			}
		}
		api.Redact = append(api.Redact, key)
	}
	return &Client{s: &searcher[R]{engine: e, api: api, base: base, key: key}}, nil
}

// String names the engine and its endpoint, without any password or key:
// "brave.Client{https://api.search.brave.com/res/v1/web/search}".
func (c *Client) String() string { return c.s.String() }

// Format prints the Client as String does, whatever the verb, so that no
// verb (%#v, %x, ...) can show a secret.
func (c *Client) Format(f fmt.State, verb rune) { fmt.Fprint(f, c.String()) }

// CloseIdleConnections closes the connections kept open for later
// requests; requests in flight are not affected.
func (c *Client) CloseIdleConnections() { c.s.closeIdle() }

// Search returns at most limit results for query in the API's order, rank
// 1 first; a limit that is not positive or above the API's most
// (Paging.Max, each engine package's MaxResults) means that most. It asks
// for page after page until it has limit results, a page holds no new
// usable URL, the API says it was the last, or the API's cap on pages or
// results is reached. Results whose URL is not an absolute http or https
// URL with a host, or is longer than MaxURLLen bytes, are dropped, and so
// are repeats of a URL (pages may overlap); others are kept whatever host
// they name. Results carry URI, Title and the API's score, when it
// reports one. A query without terms, or that matches nothing, returns an
// empty slice and a nil error; a query the API cannot express returns an
// error wrapping ErrUnsupportedQuery without a request.
//
// A failed request ends the search with an error wrapping an *Error that
// names the request (its URL holds the query, never the key) and the
// cause (see the Err variables, and the engine package's own); an error
// the API reports in its answer is returned with the service and query
// named. No error shows the key. The results of earlier pages are then
// not returned.
func (c *Client) Search(ctx context.Context, query lexsig.Query, limit int) ([]lexsig.Result, error) {
	return c.s.search(ctx, query, limit)
}

// HitCount returns the API's count of the documents that match q, with one
// request for the first page of one result. q is sent as it is: a single
// term gives that term's document frequency, as a lexsig.DFFunc wants. A q
// of white space only returns 0 without a request, and so does an answer
// that reports no match. An answer without a usable count is an error (an
// ErrMalformed for a count that is not a number, or the engine package's
// own); other errors are as for Search. Once an answer said that the API
// reports no counts at all (Answer.NoTotals), every later HitCount fails
// with the same cause at once, without a request.
func (c *Counter) HitCount(ctx context.Context, q string) (int64, error) {
	return c.s.hitCount(ctx, q)
}

// searcher runs an Engine whose answers decode into an R.
type searcher[R any] struct {
	engine *Engine[R]
	api    *apiclient.Client
	base   *url.URL
	key    string

	noTotals atomic.Pointer[error] // TotalErr of an answer with NoTotals, once one came
}

func (s *searcher[R]) String() string {
	return s.engine.Service + ".Client{" + s.base.Redacted() + "}"
}

func (s *searcher[R]) closeIdle() { s.api.CloseIdleConnections() }

// search is Client.Search.
func (s *searcher[R]) search(ctx context.Context, query lexsig.Query, limit int) ([]lexsig.Result, error) {
	e := s.engine
	if limit <= 0 || limit > e.Paging.Max {
		limit = e.Paging.Max
	}
	results := []lexsig.Result{}
	text := query.String()
	if strings.TrimSpace(text) == "" {
		return results, nil
	}
	if e.Check != nil {
		if err := e.Check(query, text); err != nil {
			return nil, fmt.Errorf("%s: search %q: %w", e.Service, text, err)
		}
	}
	seen := make(map[string]bool)
	p := Page{Start: 1}
	for ; len(results) < limit && p.Start <= e.Paging.Max && (e.Paging.Requests <= 0 || p.N < e.Paging.Requests); p.N++ {
		p.Count = s.count(p, limit-len(results), limit)
		if e.Paging.By == ByPage {
			p.Start = p.N*p.Count + 1
			if p.Start > e.Paging.Max {
				break
			}
		}
		ans, err := s.get(ctx, text, p)
		if err != nil {
			return nil, err
		}
		before := len(results)
		for _, h := range ans.Hits {
			if seen[h.URL] || len(results) == limit {
				continue
			}
			seen[h.URL] = true
			results = append(results, lexsig.Result{Rank: len(results) + 1, URI: h.URL, Title: h.Title, Score: h.Score})
		}
		if ans.Last || len(results) == before {
			break
		}
		p.Start += ans.seen
	}
	return results, nil
}

// count returns how many results page p asks for, when missing more are
// wanted of a search for limit.
func (s *searcher[R]) count(p Page, missing, limit int) int {
	pg := s.engine.Paging
	switch {
	case pg.Size <= 0:
		return 0
	case pg.By == ByPage:
		return min(limit, pg.Size)
	}
	return min(pg.Size, missing, pg.Max+1-p.Start)
}

// hitCount is Counter.HitCount: Answer.Total of the first page, or an
// error wrapping Answer.TotalErr.
func (s *searcher[R]) hitCount(ctx context.Context, q string) (int64, error) {
	if strings.TrimSpace(q) == "" {
		return 0, nil
	}
	if err := s.noTotals.Load(); err != nil {
		return 0, fmt.Errorf("%s: hit count for %q: %w (no request sent: an earlier answer had no count)", s.engine.Service, q, *err)
	}
	p := Page{Start: 1}
	if s.engine.Paging.Size > 0 {
		p.Count = 1
	}
	ans, err := s.get(ctx, q, p)
	if err != nil {
		return 0, err
	}
	if ans.TotalErr != nil {
		if ans.NoTotals {
			err := ans.TotalErr
			s.noTotals.CompareAndSwap(nil, &err)
		}
		return 0, fmt.Errorf("%s: hit count for %q: %w", s.engine.Service, q, s.api.RedactError(ans.TotalErr, s.base))
	}
	return max(ans.Total, 0), nil
}

// get asks for page p of q and reads the answer.
func (s *searcher[R]) get(ctx context.Context, q string, p Page) (Answer, error) {
	e := s.engine
	params := url.Values{}
	if e.Params != nil {
		params = e.Params(q, p)
	}
	header := e.Header.Clone()
	if header == nil {
		header = http.Header{}
	}
	switch {
	case e.KeyParam != "":
		params.Set(e.KeyParam, s.key)
	case e.KeyHeader != "":
		header.Set(e.KeyHeader, s.key)
	}
	var r R
	if err := s.api.GetJSON(ctx, apiclient.NewGet(s.base, params, header), &r); err != nil {
		var se *StatusError
		if e.Refine != nil && errors.As(err, &se) {
			if extra := e.Refine(se); extra != nil {
				return Answer{}, fmt.Errorf("%w: %w", extra, err)
			}
		}
		return Answer{}, err
	}
	ans, err := e.read(&r, p)
	if err != nil {
		return Answer{}, fmt.Errorf("%s: search %q: %w", e.Service, q, s.api.RedactError(err, s.base))
	}
	return ans, nil
}
