package brave_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/brave"
	"github.com/linkrot/relink/provider/internal/apiclient/apitest"
	"github.com/linkrot/relink/provider/searchapi"
)

// fake answers like Brave's web search: count results per page (at most
// 20), offset in pages (at most 9), the key in the X-Subscription-Token
// header, 401 for a wrong one; web is left out of a page without results.
var fake = apitest.Fake{
	Key: func(r *http.Request) string { return r.Header.Get("X-Subscription-Token") },
	WrongKey: apitest.Canned{Status: http.StatusUnauthorized,
		Body: `{"type":"ErrorResponse","error":{"id":"x","status":401,"code":"SUBSCRIPTION_TOKEN_INVALID","detail":"The provided subscription token is invalid."}}`},
	Page: func(r *http.Request) (int, int, bool) {
		count, err1 := strconv.Atoi(r.URL.Query().Get("count"))
		offset, err2 := strconv.Atoi(r.URL.Query().Get("offset"))
		return offset * count, count, err1 == nil && err2 == nil && count >= 1 && count <= 20 && offset >= 0 && offset <= 9 && r.URL.Query().Get("q") != ""
	},
	BadRequest: apitest.Canned{Status: http.StatusUnprocessableEntity,
		Body: `{"type":"ErrorResponse","error":{"status":422,"code":"VALIDATION","detail":"Unable to validate request parameter(s)"}}`},
	Answer: func(r *http.Request, results []lexsig.Result, _ int, more bool) any {
		page := map[string]any{"type": "search", "query": map[string]any{"original": r.URL.Query().Get("q"), "more_results_available": more}}
		if len(results) > 0 {
			page["web"] = map[string]any{"type": "search", "results": apitest.URLTitles(results)}
		}
		return page
	},
}

// suite is the shared suite's view of the package.
var suite = apitest.Suite[*brave.Client]{
	New: func(cfg apitest.Config) (*brave.Client, error) {
		return brave.New(brave.Options{Key: cfg.Key, BaseURL: cfg.BaseURL, Transport: cfg.Transport})
	},
	Handler:  fake.Handler,
	NeedsKey: true,
	PageSize: brave.MaxCount,
	Max:      brave.MaxResults,
}

func TestShared(t *testing.T) { suite.Run(t) }

// FuzzAnswer feeds any bytes to the decoding of Brave's answers and
// to a Search.
func FuzzAnswer(f *testing.F) {
	suite.Fuzz(f, brave.Decode, "testdata/web_search.json",
		`{"type":"search","query":{"original":"x","more_results_available":false}}`,
		`{"type":"ErrorResponse","error":{"status":422,"code":"VALIDATION"}}`)
}

// TestDocumentedResponse reads an answer written in the format of Brave's
// documentation, with the fields a Client ignores.
func TestDocumentedResponse(t *testing.T) {
	suite.Documented(t, "testdata/web_search.json", lexsig.NewQuery([]string{"rediscover", "missing"}, lexsig.Conjunctive), 2, []lexsig.Result{
		{Rank: 1, URI: "https://example.org/papers/jcdl2011-link-neighborhood.pdf", Title: "Rediscovering Missing Web Pages Using Link Neighborhood Lexical Signatures"},
		{Rank: 2, URI: "https://example.com/wiki/Lexical_signature", Title: "Lexical signature - Wikipedia-like overview"},
	})
}

// TestRequest checks count and offset (in pages) of each request, and
// that query parameters of the base URL are kept.
func TestRequest(t *testing.T) {
	suite.Requests(t, "q", "/res/v1/web/search?country=gb", []apitest.Paging{
		{Name: "conjunctive", Query: lexsig.NewQuery([]string{"jcdl", "signature", "backlink"}, lexsig.Conjunctive), Limit: 5, Q: "jcdl signature backlink", Want: []string{"5/0 gb"}},
		{Name: "disjunctive", Query: lexsig.NewQuery([]string{"jcdl", "signature"}, lexsig.Disjunctive), Limit: 20, Q: "jcdl OR signature", Want: []string{"20/0 gb"}},
		{Name: "phrase", Query: lexsig.Query{Terms: []string{"link", "neighborhood"}, Phrase: true}, Limit: 45, Q: `"link neighborhood"`, Want: []string{"20/0 gb", "20/1 gb", "20/2 gb"}},
		{Name: "limit 0 means the most", Query: lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive), Limit: 0, Q: "x",
			Want: []string{"20/0 gb", "20/1 gb", "20/2 gb", "20/3 gb", "20/4 gb", "20/5 gb", "20/6 gb", "20/7 gb", "20/8 gb", "20/9 gb"}},
	}, func(r *http.Request) string {
		p := r.URL.Query()
		return p.Get("count") + "/" + p.Get("offset") + " " + p.Get("country")
	})
}

func TestOverlappingPagesAreDeduplicated(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("offset") {
		case "0":
			fmt.Fprint(w, `{"type":"search","web":{"results":[{"url":"https://a.example/","title":"A"},{"url":"https://b.example/","title":"B"}]}}`)
		case "1":
			fmt.Fprint(w, `{"type":"search","web":{"results":[{"url":"https://b.example/","title":"B"},{"url":"https://c.example/","title":"C"}]}}`)
		default:
			fmt.Fprint(w, `{"type":"search","query":{"more_results_available":false}}`)
		}
	}))
	defer srv.Close()
	c := suite.Client(t, srv.URL, 1)
	q := lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive)
	got, err := c.Search(context.Background(), q, 2)
	if err != nil {
		t.Fatalf("Search(%q) = %v", q, err)
	}
	got2, err := c.Search(context.Background(), q, 0)
	if err != nil {
		t.Fatalf("Search(%q) = %v", q, err)
	}
	var uris []string
	for _, r := range append(got, got2...) {
		uris = append(uris, strconv.Itoa(r.Rank)+" "+r.URI)
	}
	want := []string{"1 https://a.example/", "2 https://b.example/", "1 https://a.example/", "2 https://b.example/", "3 https://c.example/"}
	if diff := cmp.Diff(want, uris); diff != "" {
		t.Errorf("Search(%q) (-want +got):\n%s", q, diff)
	}
}

func TestQueryTooLong(t *testing.T) {
	c := suite.Client(t, "http://127.0.0.1:1", 1)
	tests := []struct {
		name  string
		terms []string
	}{
		{"51 words", strings.Fields(strings.Repeat("w ", 51))},
		{"401 characters", []string{strings.Repeat("x", 401)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := lexsig.NewQuery(tt.terms, lexsig.Conjunctive)
			if _, err := c.Search(context.Background(), q, 10); !errors.Is(err, searchapi.ErrUnsupportedQuery) {
				t.Errorf("Search(%s) = %v, want ErrUnsupportedQuery", tt.name, err)
			}
		})
	}
}

func TestOptionsFormat(t *testing.T) {
	apitest.Printed(t, brave.Options{Key: apitest.Key, BaseURL: "https://proxy.example/"}, `brave.Options{Key: REDACTED, BaseURL: "https://proxy.example/"}`)
}

func TestErrorNamesRequestNotKey(t *testing.T) {
	srv := httptest.NewServer(apitest.Failing(http.StatusTooManyRequests, -1, nil, nil))
	defer srv.Close()
	q := lexsig.NewQuery([]string{"lexical", "signature"}, lexsig.Conjunctive)
	_, err := suite.Client(t, srv.URL, 2).Search(context.Background(), q, 10)
	var e *searchapi.Error
	if !errors.As(err, &e) || e.Service != "brave" || e.Attempts != 2 {
		t.Fatalf("Search(%q) = %#v, want a brave *Error after 2 attempts", q, err)
	}
	u, perr := url.Parse(e.URL)
	if perr != nil || u.Query().Get("q") != "lexical signature" {
		t.Errorf("Error.URL = %q, want the query in it", e.URL)
	}
	apitest.CheckNoKey(t, err)
}

// TestWait checks how long a refused request waits: Brave sends
// X-RateLimit-Reset (seconds until each window of X-RateLimit-Policy
// resets) rather than Retry-After.
func TestWait(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		header http.Header
		want   time.Duration
		wantOK bool
	}{
		{"nothing", http.Header{}, 0, false},
		{"second spent", http.Header{"X-Ratelimit-Reset": {"1, 1419704"}, "X-Ratelimit-Remaining": {"0, 1000"}}, time.Second, true},
		{"month spent", http.Header{"X-Ratelimit-Reset": {"1, 1419704"}, "X-Ratelimit-Remaining": {"1, 0"}}, 1419704 * time.Second, true},
		{"none known spent: the soonest", http.Header{"X-Ratelimit-Reset": {"7, 30"}}, 7 * time.Second, true},
		{"Retry-After first", http.Header{"Retry-After": {"3"}, "X-Ratelimit-Reset": {"1, 1419704"}}, 3 * time.Second, true},
		{"unreadable", http.Header{"X-Ratelimit-Reset": {"soon"}}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := brave.Wait(tt.header, at)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("Wait(%v) = %v, %v, want %v, %v", tt.header, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// Brave's 429 answers. The headers are as its API documentation's
// "Response Headers" page gives them (X-RateLimit-Limit "1, 15000": per
// second and per month; X-RateLimit-Reset "1, 1419704": seconds until each
// window resets; no Retry-After). The bodies are answers recorded from the
// API in public repositories: {"type":"ErrorResponse","error":{"id",
// "status":429,"detail","meta":{"plan","rate_limit","rate_current",
// "quota_limit","quota_current","component":"rate_limiter"},"code"},
// "time"}, with the code RATE_LIMITED ("Request rate limit exceeded for
// plan.") for the second's rate and QUOTA_LIMITED ("Request quota limit
// exceeded for plan.") for the month's quota; the API reference's own
// example lists the error under "errors".
const (
	rateLimitedBody    = `{"type":"ErrorResponse","error":{"id":"32433a2a-3426-4831-8123-4553d4be9455","status":429,"detail":"Request rate limit exceeded for plan","meta":{"plan":"Free","rate_limit":1,"rate_current":1,"quota_limit":2000,"quota_current":210},"code":"RATE_LIMITED"},"time":1771039449}`
	quotaLimitedBody   = `{"type":"ErrorResponse","error":{"id":"e1c1d312-85d8-4bd4-94fe-b6a2833f2a7f","status":429,"detail":"Request quota limit exceeded for plan.","meta":{"plan":"Free","rate_limit":1,"rate_current":1,"quota_limit":2000,"quota_current":2001,"component":"rate_limiter"},"code":"QUOTA_LIMITED"},"time":1770323003}`
	referenceQuotaBody = `{"type":"ErrorResponse","errors":[{"id":"5d832250-9396-4f6e-b84a-2a1fe524cd7d","code":"QUOTA_LIMITED","detail":"Request quota limit exceeded for plan.","status":429,"meta":{"component":"rate_limiter"}}],"time":1663072993}`
)

// TestQuotaSpent checks that an answer saying the key's quota is spent
// (Brave's QUOTA_LIMITED, or a month's window with nothing remaining) is
// not retried and stops the Client: the next Search sends nothing and
// fails with ErrQuotaExceeded, while a spent second (RATE_LIMITED) is
// waited out and retried.
func TestQuotaSpent(t *testing.T) {
	tests := []struct {
		name     string
		header   map[string]string
		body     string
		spent    bool
		requests int32 // by the first Search
	}{
		{"QUOTA_LIMITED with the month's reset", map[string]string{"X-RateLimit-Limit": "1, 2000", "X-RateLimit-Remaining": "1, 0", "X-RateLimit-Reset": "1, 1419704"}, quotaLimitedBody, true, 1},
		{"QUOTA_LIMITED without headers", nil, quotaLimitedBody, true, 1},
		{"QUOTA_LIMITED as the API reference lists it", nil, referenceQuotaBody, true, 1},
		{"month's remaining 0 with another code", map[string]string{"X-RateLimit-Remaining": "1, 0", "X-RateLimit-Reset": "1, 86400"}, rateLimitedBody, true, 1},
		{"RATE_LIMITED: the second is spent", map[string]string{"X-RateLimit-Limit": "1, 2000", "X-RateLimit-Remaining": "0, 1790", "X-RateLimit-Reset": "0, 1419704"}, rateLimitedBody, false, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			c, count := suite.Refusing(t, http.StatusTooManyRequests, h, tt.body)
			q := lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive)
			_, err := c.Search(context.Background(), q, 10)
			if !errors.Is(err, searchapi.ErrRateLimited) || errors.Is(err, brave.ErrQuotaExceeded) != tt.spent || errors.Is(err, searchapi.ErrStopped) != tt.spent {
				t.Errorf("Search() = %v, want ErrRateLimited, ErrQuotaExceeded and ErrStopped %v", err, tt.spent)
			}
			if n := count.Load(); n != tt.requests {
				t.Errorf("Search() made %d requests, want %d", n, tt.requests)
			}
			_, err = c.Search(context.Background(), q, 10)
			if tt.spent && (!errors.Is(err, brave.ErrQuotaExceeded) || !errors.Is(err, searchapi.ErrStopped) || count.Load() != tt.requests) {
				t.Errorf("second Search() = %v after %d requests, want ErrQuotaExceeded and no request", err, count.Load())
			}
			apitest.CheckNoKey(t, err)
		})
	}
}
