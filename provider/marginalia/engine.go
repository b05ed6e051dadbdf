package marginalia

import (
	"bytes"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/linkrot/relink/provider/searchapi"
)

// engine describes Marginalia's search API: the key in the KeyHeader
// header (PublicKey is no secret), query, count (1 to MaxCount), page (1
// first) and dc (perDomain results a domain at most), no OR operator; a
// 429 that is not the day's limit pauses the Client for pause.
func engine(perDomain int, pause time.Duration) *searchapi.Engine[response] {
	if perDomain <= 0 {
		perDomain = DefaultPerDomain
	}
	perDomain = min(perDomain, MaxPerDomain)
	if pause <= 0 {
		pause = DefaultRateLimitPause
	}
	dc := strconv.Itoa(perDomain)
	return &searchapi.Engine[response]{
		Service:   "marginalia",
		BaseURL:   DefaultBaseURL,
		KeyHeader: KeyHeader,
		KeyEnv:    KeyEnv,
		Public:    PublicKey,
		Params: func(q string, p searchapi.Page) url.Values {
			return url.Values{"query": {q}, "count": {strconv.Itoa(p.Count)}, "page": {strconv.Itoa(p.N + 1)}, "dc": {dc}}
		},
		Paging:         searchapi.Paging{By: searchapi.ByPage, Size: MaxCount, Max: MaxResults},
		Check:          searchapi.RefuseOR,
		Read:           read,
		RateLimitPause: pause,
		Final: func(status int, h http.Header, body []byte) bool {
			return dailyLimit(status, h, body)
		},
		Stop: func(status int, h http.Header, body []byte, _ time.Time) (time.Time, error) {
			if dailyLimit(status, h, body) {
				return time.Time{}, ErrDailyLimit
			}
			return time.Time{}, nil
		},
	}
}

// overLimitBlock is the API-Event-Type of an answer refused because the
// key's queries of the day are spent (DailyLimitState.OverLimitBlock of
// Marginalia's API server); the answers it serves carry UnderLimit,
// NoResults or Cached there.
const overLimitBlock = "OverLimitBlock"

// dailyLimit reports whether an answer says the key's queries of the day
// are spent: a 429 with API-Event-Type OverLimitBlock, or whose body is
// "Daily Limit Exceeded". The per-minute limit's 429 ("QPM Limit
// Exceeded") carries neither.
func dailyLimit(status int, h http.Header, body []byte) bool {
	return status == http.StatusTooManyRequests &&
		(h.Get("API-Event-Type") == overLimitBlock || bytes.Contains(body, []byte("Daily Limit Exceeded")))
}

// response is the part of Marginalia's answer a Client reads.
type response struct {
	Query   string `json:"query"`
	License string `json:"license"`
	Results []struct {
		URL         string `json:"url"`
		Title       string `json:"title"`
		Description string `json:"description"`
	} `json:"results"`
}

// read turns an answer into hits; a page shorter than asked for is the
// last (Marginalia says nothing of further pages).
func read(r *response, p searchapi.Page) (searchapi.Answer, error) {
	ans := searchapi.Answer{Last: len(r.Results) < p.Count}
	for _, res := range r.Results {
		ans.Hits = append(ans.Hits, searchapi.Hit{URL: res.URL, Title: res.Title})
	}
	return ans, nil
}
