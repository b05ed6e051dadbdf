package searxng

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/linkrot/relink/provider/searchapi"
)

// accept is the Accept header a Client sends: JSON first, and text/html,
// without which the bot detection of SearXNG's limiter answers 429
// (searx/botdetection/http_accept.py: 'text/html' not in
// request.accept_mimetypes).
const accept = "application/json, text/html;q=0.5"

// engine describes a SearXNG instance's search for o: q, format=json,
// pageno (1 first, at most o.MaxPages pages) and o's categories, engines
// and language; no key, no page size.
func engine(o Options) *searchapi.Engine[response] {
	pages := o.MaxPages
	if pages <= 0 {
		pages = DefaultMaxPages
	}
	extra := url.Values{}
	for name, v := range map[string]string{"categories": o.Categories, "engines": o.Engines, "language": o.Language} {
		if v != "" {
			extra.Set(name, v)
		}
	}
	lang := o.Language
	if lang == "" {
		lang = "*"
	}
	return &searchapi.Engine[response]{
		Service: "searxng",
		Path:    "/search",
		Header:  http.Header{"Accept": {accept}, "Accept-Language": {lang}},
		Params: func(q string, p searchapi.Page) url.Values {
			params := url.Values{"q": {q}, "format": {"json"}, "pageno": {strconv.Itoa(p.N + 1)}}
			for k, vs := range extra {
				params[k] = vs
			}
			return params
		},
		Paging: searchapi.Paging{Max: MaxResults, Requests: pages},
		Read:   read,
		Refine: jsonDisabled,
		Final:  limiter,
		Stop:   stopOnLimiter,
	}
}

// response is the part of SearXNG's JSON answer a Client reads.
type response struct {
	Query string `json:"query"`
	// NumberOfResults is nil where the instance sends none, as SearXNG
	// does since 2026-05-25.
	NumberOfResults *float64 `json:"number_of_results"`
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

// read turns an answer into hits. A page without results whose engines
// failed is an error on the first page, the last page after it. The hit
// count is number_of_results when it is at least 1; an answer with results
// but no count has none.
func read(r *response, p searchapi.Page) (searchapi.Answer, error) {
	var ans searchapi.Answer
	if len(r.Results) == 0 && len(r.UnresponsiveEngines) > 0 {
		if p.N == 0 {
			return ans, enginesFailed(r)
		}
		ans.Last = true
	}
	for _, res := range r.Results {
		ans.Hits = append(ans.Hits, searchapi.Hit{URL: res.URL, Title: res.Title, Score: res.Score})
	}
	switch n := r.NumberOfResults; {
	case n == nil:
		// SearXNG's JSON has had no number_of_results since its commit
		// dd27fce3b of 2026-05-25 (#6130): no answer will ever hold a
		// count, with results or without.
		ans.TotalErr, ans.NoTotals = ErrNoHitCount, true
	case *n >= 1:
		ans.Total = int64(min(*n, 1<<62))
	case len(r.Results) > 0:
		// Before that commit, 0 beside results meant that no engine
		// reported a count for the query (or one below the results).
		ans.TotalErr = ErrNoHitCount
	}
	return ans, nil
}

// Answers of SearXNG's limiter (searx/limiter.py and searx/botdetection):
// its bot detection and its rate limit both answer 429 with the body
// "Too Many Requests" and no Retry-After (botdetection._helpers.
// too_many_requests), and its block list 429 with "IP is on BLOCKLIST -
// ...". They cannot be told apart from one another, but they can from the
// 429 of a proxy in front of the instance, which says more or names a
// wait.
const (
	limiterBody   = "Too Many Requests"
	blocklistBody = "IP is on BLOCKLIST"
)

// limiterWindow is how long a Client stops after a refusal of the
// limiter: the sliding window in which its ip_limit counts the API
// requests (format other than html) of an address, API_WINDOW (3600 s),
// of which it allows API_MAX (4); every refused request counts too.
const limiterWindow = time.Hour

// limiter reports whether an answer is a refusal of SearXNG's limiter.
func limiter(status int, h http.Header, body []byte) bool {
	if status != http.StatusTooManyRequests || h.Get("Retry-After") != "" {
		return false
	}
	b := strings.TrimSpace(string(body))
	return b == limiterBody || strings.HasPrefix(b, blocklistBody)
}

// stopOnLimiter stops the Client for limiterWindow after a refusal of the
// limiter (for its life after the block list's).
func stopOnLimiter(status int, h http.Header, body []byte, now time.Time) (time.Time, error) {
	switch {
	case !limiter(status, h, body):
		return time.Time{}, nil
	case strings.HasPrefix(strings.TrimSpace(string(body)), blocklistBody):
		return time.Time{}, ErrLimiter
	}
	return now.Add(limiterWindow), ErrLimiter
}

// jsonDisabled returns ErrJSONDisabled for a 403 answer, SearXNG's answer
// when the JSON format is not enabled.
func jsonDisabled(se *searchapi.StatusError) error {
	if se.Status == http.StatusForbidden {
		return ErrJSONDisabled
	}
	return nil
}

// enginesFailed returns the error for an answer without results whose
// engines all failed, naming a few of them.
func enginesFailed(r *response) error {
	var names []string
	for _, e := range r.UnresponsiveEngines {
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
	return fmt.Errorf("%w: %s", ErrEnginesFailed, strings.Join(names, ", "))
}
