package brave

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/linkrot/relink/internal/retry"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/searchapi"
)

// engine describes Brave's web search: the key in the KeyHeader header,
// pages of count results (at most MaxCount) at offset 0 to MaxOffset,
// counted in pages.
var engine = &searchapi.Engine[response]{
	Service:   "brave",
	BaseURL:   DefaultBaseURL,
	KeyHeader: KeyHeader,
	KeyEnv:    KeyEnv,
	Params: func(q string, p searchapi.Page) url.Values {
		return url.Values{"q": {q}, "count": {strconv.Itoa(p.Count)}, "offset": {strconv.Itoa(p.N)}}
	},
	Paging: searchapi.Paging{By: searchapi.ByPage, Size: MaxCount, Max: MaxResults, Requests: MaxOffset + 1},
	Check:  checkLength,
	Read:   read,
	Wait:   wait,
	Final: func(status int, h http.Header, body []byte) bool {
		_, spent := quota(status, h, body)
		return spent
	},
	Stop: stop,
}

// response is the part of Brave's web search answer (WebSearchApiResponse)
// a Client reads.
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

// read turns an answer into hits; the page is the last when Brave says
// more_results_available is false.
func read(r *response, _ searchapi.Page) (searchapi.Answer, error) {
	more := r.Query.MoreResultsAvailable
	ans := searchapi.Answer{Last: more != nil && !*more}
	for _, res := range r.Web.Results {
		ans.Hits = append(ans.Hits, searchapi.Hit{URL: res.URL, Title: res.Title})
	}
	return ans, nil
}

// checkLength refuses a query over Brave's limits on q.
func checkLength(_ lexsig.Query, text string) error {
	if utf8.RuneCountInString(text) > MaxQueryLen || len(strings.Fields(text)) > MaxQueryWords {
		return fmt.Errorf("%w: more than %d characters or %d words", searchapi.ErrUnsupportedQuery, MaxQueryLen, MaxQueryWords)
	}
	return nil
}

// wait reads how long a refused request must wait. Brave sends no
// Retry-After but X-RateLimit-Reset, the seconds until each window of the
// plan's X-RateLimit-Policy resets ("1, 1419704": the second's and the
// month's), beside X-RateLimit-Remaining, the requests left in each ("0,
// 1000"). The wait is the longest reset among the windows with nothing
// left; when none is known to be spent, the shortest reset. A Retry-After,
// should Brave send one, comes first.
func wait(h http.Header, at time.Time) (time.Duration, bool) {
	if d, ok := retry.After(h.Get("Retry-After"), at); ok {
		return d, true
	}
	resets := numbers(h.Get("X-RateLimit-Reset"))
	if len(resets) == 0 {
		return 0, false
	}
	remaining := numbers(h.Get("X-RateLimit-Remaining"))
	spent, soonest := int64(-1), resets[0]
	for i, r := range resets {
		soonest = min(soonest, r)
		if i < len(remaining) && remaining[i] == 0 {
			spent = max(spent, r)
		}
	}
	if spent < 0 {
		spent = soonest
	}
	const most = int64(1<<63-1) / int64(time.Second)
	return time.Duration(min(spent, most)) * time.Second, true
}

// numbers reads a comma-separated list of non-negative integers; any
// other list is none.
func numbers(v string) []int64 {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	var out []int64
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil || n < 0 {
			return nil
		}
		out = append(out, n)
	}
	return out
}

// errorAnswer is Brave's error answer (ErrorResponse). Answers recorded
// from the API carry one error object, {"type":"ErrorResponse","error":
// {"id","status","code","detail","meta":{...}},"time"}; the examples of
// its API reference a list of them under "errors". Both are read.
type errorAnswer struct {
	Error  *apiError  `json:"error"`
	Errors []apiError `json:"errors"`
}

// apiError is one error of an ErrorResponse.
type apiError struct {
	Code   string `json:"code"`
	Detail string `json:"detail"`
}

// quotaLimited is the code of Brave's answer when the plan's quota (not
// its rate) is spent: "Request quota limit exceeded for plan.".
const quotaLimited = "QUOTA_LIMITED"

// quota reads a 429 answer: spent reports that the key's quota is spent
// (the error code QUOTA_LIMITED, or a window beyond the first with
// nothing remaining), and reset how long until it comes back, when
// X-RateLimit-Reset says (zero otherwise).
func quota(status int, h http.Header, body []byte) (reset time.Duration, spent bool) {
	if status != http.StatusTooManyRequests {
		return 0, false
	}
	var a errorAnswer
	if json.Unmarshal(body, &a) == nil {
		if a.Error != nil && a.Error.Code == quotaLimited {
			spent = true
		}
		for _, e := range a.Errors {
			spent = spent || e.Code == quotaLimited
		}
	}
	resets := numbers(h.Get("X-RateLimit-Reset"))
	remaining := numbers(h.Get("X-RateLimit-Remaining"))
	var longest int64
	for i, r := range resets {
		if i == 0 {
			continue // the second's window: a rate, not a quota
		}
		if i < len(remaining) && remaining[i] == 0 {
			spent = true
			longest = max(longest, r)
		}
	}
	if spent && longest == 0 && len(resets) > 1 {
		longest = slices.Max(resets[1:])
	}
	const most = int64(1<<63-1) / int64(time.Second)
	return time.Duration(min(longest, most)) * time.Second, spent
}

// stop stops the Client on an answer that says the quota is spent, until
// the quota's window resets (for the Client's life when Brave does not
// say when).
func stop(status int, h http.Header, body []byte, now time.Time) (time.Time, error) {
	reset, spent := quota(status, h, body)
	switch {
	case !spent:
		return time.Time{}, nil
	case reset == 0:
		return time.Time{}, ErrQuotaExceeded
	}
	return now.Add(reset), ErrQuotaExceeded
}
