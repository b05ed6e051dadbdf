package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/linkrot/relink/lexsig"
)

// Searcher runs an Engine: it is the one search client behind every
// search-API package, which wraps it in its own exported Client. It is safe
// for concurrent use; its requests share the rate limit of its Client.
type Searcher[R any] struct {
	engine *Engine[R]
	api    *Client
	base   *url.URL
	key    string
}

// NewSearcher returns a Searcher that runs e against base with key (empty
// when the API takes none), sending its requests through api. It sets
// api's Service, Secrets, Redact and Wait from e and key, and its MaxBody
// to DefaultMaxAnswer unless set; api's other fields (rate, attempts,
// timeouts, CrossHostRedirects) are the caller's. api must not be used
// elsewhere. e, base and api must not change afterwards.
func NewSearcher[R any](e *Engine[R], base *url.URL, key string, api *Client) *Searcher[R] {
	api.Service = e.Service
	api.Wait = e.Wait
	if api.MaxBody <= 0 {
		api.MaxBody = DefaultMaxAnswer
	}
	if key != "" && key != e.Public {
		for _, name := range []string{e.KeyHeader, e.KeyParam} {
			if name != "" {
				api.Secrets = append(api.Secrets, name)
			}
		}
		api.Redact = append(api.Redact, key)
	}
	return &Searcher[R]{engine: e, api: api, base: base, key: key}
}

// String names the service and its endpoint, without any password or key:
// "brave.Client{https://api.search.brave.com/res/v1/web/search}".
func (s *Searcher[R]) String() string {
	return s.engine.Service + ".Client{" + s.base.Redacted() + "}"
}

// Format prints the Searcher as String does, whatever the verb, so that no
// verb can show a secret.
func (s *Searcher[R]) Format(f fmt.State, verb rune) { fmt.Fprint(f, s.String()) }

// CloseIdleConnections closes the connections kept open for later requests.
func (s *Searcher[R]) CloseIdleConnections() { s.api.CloseIdleConnections() }

// Search returns at most limit results for query in the API's order, rank
// 1 first; a limit that is not positive or above Paging.Max means
// Paging.Max. It asks for page after page until it has limit results, a
// page holds no new usable URL, the API says it was the last, or
// Paging.Requests or Paging.Max is reached. Results whose URL is not an
// absolute http or https URL with a host, or is longer than MaxURLLen
// bytes, are dropped, and so are repeats of a URL; others are kept
// whatever host they name. A query without terms, or that matches nothing,
// returns an empty slice and a nil error; a query Engine.Check refuses
// returns its error without a request.
//
// A failed request ends the search with an error wrapping an *Error, and
// what Engine.Refine adds; an error of Engine.Read is returned with the
// service and query named. No error holds the key. The results of earlier
// pages are then not returned.
func (s *Searcher[R]) Search(ctx context.Context, query lexsig.Query, limit int) ([]lexsig.Result, error) {
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
func (s *Searcher[R]) count(p Page, missing, limit int) int {
	pg := s.engine.Paging
	switch {
	case pg.Size <= 0:
		return 0
	case pg.By == ByPage:
		return min(limit, pg.Size)
	}
	return min(pg.Size, missing, pg.Max+1-p.Start)
}

// HitCount returns the API's count of the documents that match q
// (Answer.Total), with one request for the first page of one result. q is
// sent as it is: a single term gives that term's document frequency, as a
// lexsig.DFFunc wants. A q of white space only returns 0 without a
// request. When the answer holds no count, the error wraps
// Answer.TotalErr; other errors are as for Search.
func (s *Searcher[R]) HitCount(ctx context.Context, q string) (int64, error) {
	if strings.TrimSpace(q) == "" {
		return 0, nil
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
		return 0, fmt.Errorf("%s: hit count for %q: %w", s.engine.Service, q, s.redact(ans.TotalErr))
	}
	return max(ans.Total, 0), nil
}

// get asks for page p of q and reads the answer.
func (s *Searcher[R]) get(ctx context.Context, q string, p Page) (Answer, error) {
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
	if err := s.api.GetJSON(ctx, NewGet(s.base, params, header), &r); err != nil {
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
		return Answer{}, fmt.Errorf("%s: search %q: %w", e.Service, q, s.redact(err))
	}
	return ans, nil
}

// redact returns err with the key, and any password of the base URL,
// scrubbed from its message.
func (s *Searcher[R]) redact(err error) error {
	return newRedactor(&http.Request{URL: s.base}, nil, s.api.Redact).deep(err)
}

// Decode decodes body, the JSON answer to page p, as a Search does: one
// JSON value (an error wrapping ErrMalformed otherwise) read by Read, with
// the unusable hits dropped. It is for fuzz tests of an engine's decoding;
// its errors are not redacted and name no request.
func (e *Engine[R]) Decode(body []byte, p Page) (Answer, error) {
	var r R
	if err := unmarshal(body, &r); err != nil {
		return Answer{}, err
	}
	return e.read(&r, p)
}

// read calls Read and drops the unusable hits.
func (e *Engine[R]) read(r *R, p Page) (Answer, error) {
	ans, err := e.Read(r, p)
	if err != nil {
		return Answer{}, err
	}
	ans.seen = len(ans.Hits)
	kept := ans.Hits[:0:0]
	for _, h := range ans.Hits {
		if Usable(h.URL) {
			kept = append(kept, h)
		}
	}
	ans.Hits = kept
	return ans, nil
}

// Usable reports whether a result URL is one a Searcher keeps: an absolute
// http or https URL with a host, at most MaxURLLen bytes long.
func Usable(raw string) bool {
	if raw == "" || len(raw) > MaxURLLen {
		return false
	}
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// RefuseOR is an Engine.Check for APIs without an OR operator (Marginalia,
// Mojeek): it refuses a disjunctive query of several terms, which such an
// API would run as a conjunction.
func RefuseOR(query lexsig.Query, text string) error {
	if query.Mode == lexsig.Disjunctive && !query.Phrase && len(query.Terms) > 1 {
		return fmt.Errorf("%w: the API has no OR operator", ErrUnsupportedQuery)
	}
	return nil
}
