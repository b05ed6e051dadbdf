package google_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/google"
	"github.com/linkrot/relink/provider/internal/apiclient/apitest"
	"github.com/linkrot/relink/provider/searchapi"
)

const testCX = "0123456789abcdef0"

// fake answers like the Custom Search JSON API: start (1 first) and num
// (1 to 10), start+num-1 at most 100, the key in the key parameter, 400 for
// a wrong key; totalResults is the corpus's size as a string, and nextPage
// is there while results follow.
var fake = apitest.Fake{
	Key: func(r *http.Request) string { return r.URL.Query().Get("key") },
	WrongKey: apitest.Canned{Status: http.StatusBadRequest, Body: `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.",` +
		`"errors":[{"message":"API key not valid. Please pass a valid API key.","domain":"global","reason":"badRequest"}],"status":"INVALID_ARGUMENT"}}`},
	Page: func(r *http.Request) (int, int, bool) {
		p := r.URL.Query()
		start, err1 := strconv.Atoi(p.Get("start"))
		num, err2 := strconv.Atoi(p.Get("num"))
		ok := err1 == nil && err2 == nil && start >= 1 && num >= 1 && num <= 10 && start+num-1 <= 100 && p.Get("cx") == testCX && p.Get("q") != ""
		return start - 1, num, ok
	},
	BadRequest: apitest.Canned{Status: http.StatusBadRequest, Body: `{"error":{"code":400,"message":"Request contains an invalid argument.","status":"INVALID_ARGUMENT"}}`},
	Answer: func(r *http.Request, results []lexsig.Result, total int, more bool) any {
		start, _ := strconv.Atoi(r.URL.Query().Get("start"))
		page := map[string]any{"totalResults": strconv.Itoa(total), "startIndex": start, "count": len(results)}
		queries := map[string]any{"request": []any{page}}
		if end := start + len(results); more && end <= 100 {
			queries["nextPage"] = []any{map[string]any{"totalResults": strconv.Itoa(total), "startIndex": end}}
		}
		items := []map[string]string{}
		for _, res := range results {
			items = append(items, map[string]string{"kind": "customsearch#result", "title": res.Title, "link": res.URI})
		}
		return map[string]any{"kind": "customsearch#search", "queries": queries,
			"searchInformation": map[string]string{"totalResults": strconv.Itoa(total)}, "items": items}
	},
}

// suite is the shared suite's view of the package.
var suite = apitest.Suite[*google.Client]{
	New: func(cfg apitest.Config) (*google.Client, error) {
		return google.New(google.Options{Key: cfg.Key, CX: testCX, BaseURL: cfg.BaseURL, Transport: cfg.Transport})
	},
	Handler:  fake.Handler,
	NeedsKey: true,
	PageSize: google.MaxNum,
	Max:      google.MaxResults,
}

func TestShared(t *testing.T) { suite.Run(t) }

// FuzzAnswer feeds any bytes to the decoding of Google's answers and
// to a Search.
func FuzzAnswer(f *testing.F) {
	suite.Fuzz(f, google.Decode, "testdata/search.json",
		`{"kind":"customsearch#search","searchInformation":{"totalResults":"0"}}`,
		`{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED"}}`)
}

func TestDocumentedResponse(t *testing.T) {
	q := lexsig.NewQuery([]string{"link", "neighborhood"}, lexsig.Conjunctive)
	c := suite.Documented(t, "testdata/search.json", q, 2, []lexsig.Result{
		{Rank: 1, URI: "https://example.org/pubs/link-neighborhood.html", Title: "Rediscovering missing web pages using link neighborhood ..."},
		{Rank: 2, URI: "https://example.com/wiki/Neighbourhood_(graph_theory)", Title: "Neighborhood (graph theory)"},
	})
	n, err := c.HitCount(context.Background(), "link neighborhood")
	if err != nil || n != 48100 {
		t.Errorf("HitCount(%q) = %d, %v, want 48100, nil", "link neighborhood", n, err)
	}
}

// TestRequest checks start and num of each request (start+num-1 at most
// 100) and the query text in q.
func TestRequest(t *testing.T) {
	suite.Requests(t, "q", "", []apitest.Paging{
		{Name: "conjunctive", Query: lexsig.NewQuery([]string{"jcdl", "signature", "backlink"}, lexsig.Conjunctive), Limit: 5, Q: "jcdl signature backlink", Want: []string{"1/5"}},
		{Name: "disjunctive", Query: lexsig.NewQuery([]string{"jcdl", "signature"}, lexsig.Disjunctive), Limit: 10, Q: "jcdl OR signature", Want: []string{"1/10"}},
		{Name: "phrase", Query: lexsig.Query{Terms: []string{"link", "neighborhood"}, Phrase: true}, Limit: 25, Q: `"link neighborhood"`, Want: []string{"1/10", "11/10", "21/5"}},
		{Name: "limit 0 means the most", Query: lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive), Limit: 0, Q: "x",
			Want: []string{"1/10", "11/10", "21/10", "31/10", "41/10", "51/10", "61/10", "71/10", "81/10", "91/10"}},
	}, func(r *http.Request) string {
		return r.URL.Query().Get("start") + "/" + r.URL.Query().Get("num")
	})
}

func TestHitCount(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		want    int64
		wantErr error
	}{
		{"count", `{"searchInformation":{"totalResults":"1230000"}}`, 1230000, nil},
		{"zero", `{"kind":"customsearch#search","searchInformation":{"totalResults":"0"}}`, 0, nil},
		{"missing", `{"kind":"customsearch#search"}`, 0, searchapi.ErrMalformed},
		{"not a number", `{"searchInformation":{"totalResults":"about a million"}}`, 0, searchapi.ErrMalformed},
		{"negative", `{"searchInformation":{"totalResults":"-5"}}`, 0, searchapi.ErrMalformed},
		{"number not string", `{"searchInformation":{"totalResults":12}}`, 0, searchapi.ErrMalformed},
		{"HTML", `<html><body>Error 502</body></html>`, 0, searchapi.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Query().Get("num") != "1" || r.URL.Query().Get("q") != "signature" {
					t.Errorf("HitCount request %q, want num=1 and q=signature", r.URL.RawQuery)
				}
				fmt.Fprint(w, tt.body)
			}))
			defer srv.Close()
			got, err := suite.Client(t, srv.URL, 1).HitCount(context.Background(), "signature")
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("HitCount(%q) = %v, want error %v", "signature", err, tt.wantErr)
			}
			if err != nil {
				apitest.CheckNoKey(t, err)
			}
			if got != tt.want {
				t.Errorf("HitCount(%q) = %d, want %d", "signature", got, tt.want)
			}
		})
	}
}

// TestNew checks what New refuses besides what every engine refuses, and
// how Options print.
func TestNew(t *testing.T) {
	if _, err := google.New(google.Options{Key: "k"}); !errors.Is(err, google.ErrMissingEngine) {
		t.Errorf("New(no CX) = %v, want ErrMissingEngine", err)
	}
	apitest.Printed(t, google.Options{Key: apitest.Key, CX: testCX}, `google.Options{Key: REDACTED, CX: "0123456789abcdef0", BaseURL: ""}`)
}

// quotaError returns the Custom Search JSON API's answer to a spent quota
// of the limit named, as recorded from the API (a 429 RESOURCE_EXHAUSTED,
// reason rateLimitExceeded, with an ErrorInfo detail naming the limit).
func quotaError(limit, quotaLimit string) string {
	msg := fmt.Sprintf("Quota exceeded for quota metric 'Queries' and limit '%s' of service 'customsearch.googleapis.com' for consumer 'project_number:385042346764'.", limit)
	return fmt.Sprintf(`{"error":{"code":429,"message":%q,"errors":[{"message":%q,"domain":"global","reason":"rateLimitExceeded"}],"status":"RESOURCE_EXHAUSTED",`+
		`"details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMIT_EXCEEDED","domain":"googleapis.com",`+
		`"metadata":{"quota_location":"global","service":"customsearch.googleapis.com","quota_limit_value":"100","quota_metric":"customsearch.googleapis.com/requests","quota_limit":%q}}]}}`,
		msg, msg, quotaLimit)
}

// TestDailyQuota checks that an answer saying the day's quota is spent is
// not retried and stops the Client, for Search and HitCount alike: the
// next call sends nothing and fails with ErrQuotaExceeded. The quota of a
// minute is waited out and tried again.
func TestDailyQuota(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		body     string
		spent    bool
		requests int32 // by the first Search
	}{
		{"Queries per day, as recorded", 429, quotaError("Queries per day", "DefaultPerDayPerProject"), true, 1},
		{"the message alone", 429, `{"error":{"code":429,"message":"Quota exceeded for quota metric 'Queries' and limit 'Queries per day' of service 'customsearch.googleapis.com'"}}`, true, 1},
		{"Site Restricted Queries per day", 429, strings.ReplaceAll(quotaError("Site Restricted Queries per day", "SiteRestrictedPerDayPerProject"), "metric 'Queries'", "metric 'Site Restricted Queries'"), true, 1},
		{"the older 403 dailyLimitExceeded", 403, `{"error":{"errors":[{"domain":"usageLimits","reason":"dailyLimitExceeded","message":"Daily Limit Exceeded"}],"code":403,"message":"Daily Limit Exceeded"}}`, true, 1},
		{"Queries per minute per user", 429, quotaError("Queries per minute per user", "DefaultPerMinutePerUser"), false, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, count := suite.Refusing(t, tt.status, http.Header{"Content-Type": {"application/json; charset=UTF-8"}}, tt.body)
			q := lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive)
			_, err := c.Search(context.Background(), q, 10)
			if errors.Is(err, google.ErrQuotaExceeded) != tt.spent || errors.Is(err, searchapi.ErrStopped) != tt.spent {
				t.Errorf("Search() = %v, want ErrQuotaExceeded and ErrStopped %v", err, tt.spent)
			}
			if n := count.Load(); n != tt.requests {
				t.Errorf("Search() made %d requests, want %d", n, tt.requests)
			}
			if !tt.spent {
				return
			}
			_, err = c.Search(context.Background(), q, 10)
			if !errors.Is(err, google.ErrQuotaExceeded) || count.Load() != tt.requests {
				t.Errorf("second Search() = %v after %d requests, want ErrQuotaExceeded and no request", err, count.Load())
			}
			_, err = c.HitCount(context.Background(), "x")
			if !errors.Is(err, google.ErrQuotaExceeded) || count.Load() != tt.requests {
				t.Errorf("HitCount() = %v after %d requests, want ErrQuotaExceeded and no request", err, count.Load())
			}
			apitest.CheckNoKey(t, err)
		})
	}
}
