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
	"sync/atomic"
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

// TestMonthlyQuotaSpent checks that a 429 whose X-RateLimit-Reset says
// the month's quota is spent ends the search at once, naming the wait.
func TestMonthlyQuotaSpent(t *testing.T) {
	var count atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		count.Add(1)
		w.Header().Set("X-RateLimit-Limit", "1, 2000")
		w.Header().Set("X-RateLimit-Remaining", "1, 0")
		w.Header().Set("X-RateLimit-Reset", "1, 1419704")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"type":"ErrorResponse","error":{"status":429,"code":"RATE_LIMITED","detail":"Request rate limit exceeded for plan."}}`)
	}))
	defer srv.Close()
	_, err := suite.Client(t, srv.URL, 5).Search(context.Background(), lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive), 10)
	var se *searchapi.StatusError
	if !errors.Is(err, searchapi.ErrRateLimited) || !errors.As(err, &se) || se.RetryAfter != 1419704*time.Second {
		t.Errorf("Search() = %v, want ErrRateLimited with RetryAfter 1419704s", err)
	}
	if n := count.Load(); n != 1 {
		t.Errorf("Search() made %d requests, want 1", n)
	}
}
