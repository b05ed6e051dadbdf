package google

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/linkrot/relink/provider/searchapi"
)

// engine describes the Custom Search JSON API for the engine cx: the key in
// the key parameter, pages by start (1 first) and num (at most MaxNum),
// at most MaxResults results.
func engine(cx string) *searchapi.Engine[response] {
	return &searchapi.Engine[response]{
		Service:  "google",
		BaseURL:  DefaultBaseURL,
		KeyParam: KeyParam,
		KeyEnv:   KeyEnv,
		Params: func(q string, p searchapi.Page) url.Values {
			return url.Values{"cx": {cx}, "q": {q}, "start": {strconv.Itoa(p.Start)}, "num": {strconv.Itoa(p.Count)}}
		},
		Paging: searchapi.Paging{By: searchapi.ByStart, Size: MaxNum, Max: MaxResults},
		Read:   read,
		Refine: badKey,
		Final: func(status int, _ http.Header, body []byte) bool {
			return dailyQuota(status, body)
		},
		Stop: func(status int, _ http.Header, body []byte, _ time.Time) (time.Time, error) {
			if dailyQuota(status, body) {
				return time.Time{}, ErrQuotaExceeded
			}
			return time.Time{}, nil
		},
	}
}

// errorAnswer is the part of a Google API error object a Client reads:
// {"error": {"code", "message", "errors": [{"message", "domain",
// "reason"}], "status", "details": [{"@type", "reason", "metadata":
// {"quota_limit", ...}}]}}.
type errorAnswer struct {
	Error struct {
		Message string `json:"message"`
		Status  string `json:"status"`
		Errors  []struct {
			Reason string `json:"reason"`
		} `json:"errors"`
		Details []struct {
			Metadata struct {
				QuotaLimit string `json:"quota_limit"`
			} `json:"metadata"`
		} `json:"details"`
	} `json:"error"`
}

// dailyQuota reports whether an answer says the day's quota is spent (see
// ErrQuotaExceeded). A quota of a minute ("Queries per minute per user",
// DefaultPerMinutePerUser) is not: it is tried again.
func dailyQuota(status int, body []byte) bool {
	var a errorAnswer
	if status != http.StatusTooManyRequests && status != http.StatusForbidden || json.Unmarshal(body, &a) != nil {
		return false
	}
	e := a.Error
	if status == http.StatusForbidden {
		for _, r := range e.Errors {
			if r.Reason == "dailyLimitExceeded" {
				return true
			}
		}
		return false
	}
	if strings.Contains(strings.ToLower(e.Message), " per day") {
		return true
	}
	for _, d := range e.Details {
		if strings.Contains(d.Metadata.QuotaLimit, "PerDay") {
			return true
		}
	}
	return false
}

// response is the part of the API's answer (a Search resource) a Client
// reads.
type response struct {
	Queries struct {
		NextPage []struct {
			StartIndex int `json:"startIndex"`
		} `json:"nextPage"`
	} `json:"queries"`
	SearchInformation struct {
		TotalResults string `json:"totalResults"`
	} `json:"searchInformation"`
	Items []struct {
		Title string `json:"title"`
		Link  string `json:"link"`
	} `json:"items"`
}

// read turns an answer into hits; the page is the last when the answer
// names no next page. The hit count is searchInformation.totalResults, a
// decimal string.
func read(r *response, _ searchapi.Page) (searchapi.Answer, error) {
	ans := searchapi.Answer{Last: len(r.Queries.NextPage) == 0}
	for _, it := range r.Items {
		ans.Hits = append(ans.Hits, searchapi.Hit{URL: it.Link, Title: it.Title})
	}
	total := r.SearchInformation.TotalResults
	n, err := strconv.ParseInt(total, 10, 64)
	if err != nil || n < 0 {
		ans.TotalErr = fmt.Errorf("%w: totalResults %q is not a count", searchapi.ErrMalformed, snip(total))
	}
	ans.Total = n
	return ans, nil
}

// badKey returns ErrUnauthorized for Google's 400 answer to a key it does
// not accept ("API key not valid", reason keyInvalid), which other APIs
// answer with 401 or 403.
func badKey(se *searchapi.StatusError) error {
	if se.Status == http.StatusBadRequest && (strings.Contains(se.Snippet, "API key not valid") || strings.Contains(se.Snippet, "keyInvalid")) {
		return searchapi.ErrUnauthorized
	}
	return nil
}

// snip returns s cut to 100 bytes, for quoting a field of an answer.
func snip(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}
