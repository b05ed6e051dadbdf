package searchapi

import (
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/internal/apiclient"
)

// MaxURLLen is the longest result URL, in bytes, a Client keeps. Search
// engines do not index longer URLs (browsers and servers commonly stop near
// 2,000 to 8,000 bytes); a longer one in an answer is noise or an attack on
// the memory of whatever stores the results.
const MaxURLLen = 4096

// DefaultMaxAnswer caps the body of one search answer a Client reads,
// 4 MiB: a page of 100 results with snippets is well under 1 MiB. A longer
// answer is an error wrapping ErrTooLarge.
const DefaultMaxAnswer int64 = 4 << 20

// Engine describes one search API to a Client, the way a database/sql
// driver describes a database to package sql: where the API is, where the
// key goes, which parameters ask for which page, how results are paged and
// how an answer, decoded from JSON into an R, becomes hits. The Client does
// the rest (requests, retries, limits, redaction, paging, de-duplication,
// errors), the same for every engine. Each engine package (provider/google,
// provider/brave, ...) is such a description and a constructor.
//
// An Engine is a value the engine package builds once per client from its
// options; it must not change after New is given it. Its functions must be
// safe for concurrent use (they are called by concurrent searches) and
// must not panic on any decoded answer.
type Engine[R any] struct {
	// Service names the API in errors and in String ("brave").
	Service string
	// BaseURL is the API's endpoint, used when the caller gives none;
	// empty means the caller must give one.
	BaseURL string
	// Path is added to the path of the base URL the caller gives (the
	// /search of a SearXNG instance's URL); empty means none.
	Path string

	// KeyHeader or KeyParam names the request header or query parameter
	// that carries the key; both empty means the API takes none. When one
	// is set, New refuses an empty key with ErrMissingKey. The key never
	// appears in an error, unless it is Public.
	KeyHeader string
	KeyParam  string
	// KeyEnv is the environment variable the error of a missing key
	// suggests (the package never reads it); empty means none.
	KeyEnv string
	// Public is a key that is no secret (Marginalia's "public"): it is
	// sent like any key but not redacted, and the error of a missing key
	// suggests it.
	Public string
	// Header is sent with every request (Accept, Accept-Language); nil
	// means none beyond the Client's own.
	Header http.Header

	// Params returns the query parameters, besides the key, that ask for
	// page p of the query text q. Parameters of the base URL are kept
	// unless Params sets the same name.
	Params func(q string, p Page) url.Values
	// Paging says how results are asked for page by page.
	Paging Paging
	// Check refuses, before any request, a query the API cannot express
	// (text is query.String()); its error should wrap ErrUnsupportedQuery.
	// Nil accepts every query.
	Check func(query lexsig.Query, text string) error

	// Read turns the decoded answer to page p into hits, in rank order,
	// with every result of the page (the Client drops the unusable ones).
	// An error (the API says the search failed, say) ends the search; the
	// Client adds the service and query to it and redacts it.
	Read func(r *R, p Page) (Answer, error)
	// Refine returns, for a final non-2xx answer, a sentinel the error
	// should match besides what it matches already (Google's 400 for a bad
	// key is ErrUnauthorized), or nil. Nil means none.
	Refine func(se *StatusError) error
	// Final reports whether a 429 or 5xx answer, which the Client would
	// try again, is final because the service says in its body or header
	// that asking again will not help (Brave's QUOTA_LIMITED, a refusal of
	// SearXNG's limiter). Nil means none is.
	Final func(status int, h http.Header, body []byte) bool
	// Stop reports whether a non-2xx answer stops the Client, and why (an
	// error of the engine package, such as brave.ErrQuotaExceeded): a
	// non-nil why makes the answer final, and every later Search and
	// HitCount fail at once, without a request, with an error wrapping
	// ErrStopped, why and the answer's *StatusError, until the time Stop
	// returns (the zero time: for the Client's life). Nil means no answer
	// stops the Client.
	Stop func(status int, h http.Header, body []byte, now time.Time) (until time.Time, why error)
	// RateLimitPause, when positive, makes a 429 answer that is neither
	// final nor stopping pause every request of the Client, not only the
	// one that got it, for that long, or for the wait the answer asks
	// when that is longer (a pause longer than Transport.MaxWait is not
	// waited: requests fail at once with ErrRateLimited until it ends).
	// It is for a limit counted per key over a window that the service
	// names no wait for (Marginalia's queries a minute). Zero means the
	// request that got the 429 alone waits, as for a 5xx answer.
	RateLimitPause time.Duration
	// Wait reads how long a 429 or 5xx answer asks to wait before the next
	// attempt (a wait longer than Transport.MaxWait makes the answer
	// final); ok is false when the header says nothing. Nil means the
	// Retry-After header alone, in seconds or as an HTTP date.
	Wait func(h http.Header, now time.Time) (d time.Duration, ok bool)
}

// PageBy is how an API counts the position of a page.
type PageBy int

const (
	// ByStart: the request names the rank of its first result (Google's
	// start, Mojeek's s) and how many it wants, so the last request asks
	// only for what is missing.
	ByStart PageBy = iota
	// ByPage: the request names a page number or offset in pages of a
	// fixed size (Brave's offset, Marginalia's page), so every request of
	// a search asks for the same count, min(limit, Size).
	ByPage
)

// Paging says how an API hands out the results of one query.
type Paging struct {
	// By is how a request names its position.
	By PageBy
	// Size is the most results one request may ask for; zero means the
	// API decides and takes no count (SearXNG), and Page.Count is then 0.
	Size int
	// Max is the most results one query yields; a Search limit above it,
	// or not positive, means Max.
	Max int
	// Requests caps the requests of one Search (Brave's highest offset,
	// SearXNG's MaxPages); zero means no cap of the API's own.
	Requests int
}

// Page is one request of a search.
type Page struct {
	// N counts the requests of this search, 0 for the first.
	N int
	// Start is the rank of the first result asked for, 1 for the first.
	Start int
	// Count is how many results are asked for; 0 when Paging.Size is 0.
	Count int
}

// Hit is one result as an API reports it.
type Hit struct {
	URL   string
	Title string
	// Score is the API's own score, zero when it reports none.
	Score float64
}

// Answer is what Engine.Read makes of one decoded page.
type Answer struct {
	// Hits are the page's results in rank order.
	Hits []Hit
	// Last says the API reports no further page (Google's missing
	// nextPage, Brave's more_results_available false, a short page).
	Last bool
	// Total is the API's count of matching documents, for HitCount, when
	// TotalErr is nil; TotalErr says why there is none (the API reports no
	// count, or one that is not a number). Engines without hit counts
	// leave both zero.
	Total    int64
	TotalErr error
	// NoTotals says, with TotalErr, that the API reports no hit counts at
	// all, not just none for this query (SearXNG since it dropped
	// number_of_results): the Counter remembers it, and every later
	// HitCount fails with TotalErr at once, without a request, so that a
	// DF over many terms fails once and clearly rather than term by term.
	NoTotals bool

	// seen is the number of hits Read returned, before the unusable
	// ones were dropped; positions advance by it.
	seen int
}

// Decode decodes body, the JSON answer to page p, as a Search does: one
// JSON value (an error wrapping ErrMalformed otherwise) read by Read, with
// the unusable hits dropped. It is for fuzz tests of an engine's decoding;
// its errors are not redacted and name no request.
func (e *Engine[R]) Decode(body []byte, p Page) (Answer, error) {
	var r R
	if err := apiclient.DecodeJSON(body, &r); err != nil {
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

// Usable reports whether a result URL is one a Client keeps: an absolute
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
// API would run as a conjunction, with an error wrapping
// ErrUnsupportedQuery.
func RefuseOR(query lexsig.Query, text string) error {
	if query.Mode == lexsig.Disjunctive && !query.Phrase && len(query.Terms) > 1 {
		return fmt.Errorf("%w: the API has no OR operator", ErrUnsupportedQuery)
	}
	return nil
}
