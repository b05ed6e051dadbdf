package marginalia_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/internal/apiclient/apitest"
	"github.com/linkrot/relink/provider/marginalia"
	"github.com/linkrot/relink/provider/searchapi"
)

// fake answers like Marginalia's search API: query, count (1 to 100) and
// page (1 first), the key in the API-Key header, 401 for a wrong one.
var fake = apitest.Fake{
	Key:      func(r *http.Request) string { return r.Header.Get("API-Key") },
	WrongKey: apitest.Canned{Status: http.StatusUnauthorized, Body: `{"error":"invalid API key"}`},
	Page: func(r *http.Request) (int, int, bool) {
		p := r.URL.Query()
		count, err1 := strconv.Atoi(p.Get("count"))
		page, err2 := strconv.Atoi(p.Get("page"))
		return (page - 1) * count, count, err1 == nil && err2 == nil && count >= 1 && count <= 100 && page >= 1 && p.Get("query") != ""
	},
	BadRequest: apitest.Canned{Status: http.StatusBadRequest, Body: `{"error":"bad request"}`},
	Answer: func(r *http.Request, results []lexsig.Result, _ int, _ bool) any {
		return map[string]any{"license": "CC-BY-NC-SA 4.0", "query": r.URL.Query().Get("query"), "results": apitest.URLTitles(results)}
	},
}

// suite is the shared suite's view of the package.
var suite = apitest.Suite[*marginalia.Client]{
	New: func(cfg apitest.Config) (*marginalia.Client, error) {
		// The shared cases' 429s ask for no wait: a millisecond's pause
		// stands in for the minute's.
		return marginalia.New(marginalia.Options{Key: cfg.Key, BaseURL: cfg.BaseURL, Transport: cfg.Transport, RateLimitPause: time.Millisecond})
	},
	Handler:  fake.Handler,
	NeedsKey: true,
	NoOR:     true,
	PageSize: marginalia.MaxCount,
	Max:      marginalia.MaxResults,
}

func TestShared(t *testing.T) { suite.Run(t) }

// FuzzAnswer feeds any bytes to the decoding of Marginalia's answers and
// to a Search.
func FuzzAnswer(f *testing.F) {
	suite.Fuzz(f, marginalia.Decode, "testdata/search.json",
		`{"license":"CC-BY-NC-SA 4.0","query":"x","results":[]}`,
		`{"error":"invalid API key"}`)
}

func TestDocumentedResponse(t *testing.T) {
	suite.Documented(t, "testdata/search.json", lexsig.NewQuery([]string{"link", "rot"}, lexsig.Conjunctive), 10, []lexsig.Result{
		{Rank: 1, URI: "https://example.net/~ana/essays/link-rot.html", Title: "On link rot"},
		{Rank: 2, URI: "http://example.org/notes/permalinks.txt", Title: "Permalinks that are not"},
	})
}

// TestRequest checks count and page of each request and the query text in
// query.
func TestRequest(t *testing.T) {
	suite.Requests(t, "query", "", []apitest.Paging{
		{Name: "conjunctive", Query: lexsig.NewQuery([]string{"jcdl", "signature", "backlink"}, lexsig.Conjunctive), Limit: 5, Q: "jcdl signature backlink", Want: []string{"5/1"}},
		{Name: "phrase", Query: lexsig.Query{Terms: []string{"link", "neighborhood"}, Phrase: true}, Limit: 250, Q: `"link neighborhood"`, Want: []string{"100/1", "100/2", "100/3"}},
		{Name: "one-term disjunction", Query: lexsig.NewQuery([]string{"jcdl"}, lexsig.Disjunctive), Limit: 3, Q: "jcdl", Want: []string{"3/1"}},
	}, func(r *http.Request) string {
		return r.URL.Query().Get("count") + "/" + r.URL.Query().Get("page")
	})
}

// TestPublicKey checks that the shared key is sent like any other and
// that a 503 (the API's answer to filter updates past the minute's limit,
// or a proxy's) ends in a *StatusError after its attempts.
func TestPublicKey(t *testing.T) {
	failing := apitest.Failing(http.StatusServiceUnavailable, -1, nil, nil)
	var key atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key.Store(r.Header.Get(marginalia.KeyHeader))
		failing.ServeHTTP(w, r)
	}))
	defer srv.Close()
	cfg := apitest.NewConfig(srv.URL, 2, time.Second)
	cfg.Key = marginalia.PublicKey
	c, err := suite.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	q := lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive)
	_, err = c.Search(context.Background(), q, 10)
	var se *searchapi.StatusError
	if !errors.As(err, &se) || se.Status != http.StatusServiceUnavailable {
		t.Errorf("Search(%q) = %v, want a *StatusError 503", q, err)
	}
	if got := key.Load(); got != marginalia.PublicKey {
		t.Errorf("%s = %q, want %q", marginalia.KeyHeader, got, marginalia.PublicKey)
	}
	apitest.Printed(t, marginalia.Options{Key: marginalia.PublicKey}, `marginalia.Options{Key: public, BaseURL: "", PerDomain: 0, RateLimitPause: 0s}`)
	apitest.Printed(t, marginalia.Options{Key: apitest.Key}, `marginalia.Options{Key: REDACTED, BaseURL: "", PerDomain: 0, RateLimitPause: 0s}`)
}

// Marginalia's answers to a spent limit, as its API server writes them
// (MarginaliaSearch, code/services-application/api-service, ApiV2.search):
// the per-minute limit is a bare 429 "QPM Limit Exceeded"; the day's is a
// 429 "Daily Limit Exceeded" with the daily state in two headers. Neither
// names a wait.
const (
	qpmBody   = "QPM Limit Exceeded"
	dailyBody = "Daily Limit Exceeded"
)

// dailyHeader is the header of the day's limit spent.
var dailyHeader = http.Header{"Api-Event-Type": {"OverLimitBlock"}, "Api-Remaining-Daily-Capacity": {"0"}}

// TestDailyLimit checks that a spent daily limit is not retried and stops
// the Client: the next Search sends nothing and fails with ErrDailyLimit.
func TestDailyLimit(t *testing.T) {
	tests := []struct {
		name   string
		header http.Header
		body   string
	}{
		{"as the API server answers", dailyHeader, dailyBody},
		{"the header alone", dailyHeader, ""},
		{"the body alone", nil, dailyBody},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, count := suite.Refusing(t, http.StatusTooManyRequests, tt.header, tt.body)
			q := lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive)
			_, err := c.Search(context.Background(), q, 10)
			if !errors.Is(err, marginalia.ErrDailyLimit) || !errors.Is(err, searchapi.ErrRateLimited) || !errors.Is(err, searchapi.ErrStopped) {
				t.Errorf("Search() = %v, want ErrDailyLimit, ErrRateLimited and ErrStopped", err)
			}
			if n := count.Load(); n != 1 {
				t.Errorf("Search() made %d requests, want 1", n)
			}
			_, err = c.Search(context.Background(), q, 10)
			if !errors.Is(err, marginalia.ErrDailyLimit) || count.Load() != 1 {
				t.Errorf("second Search() = %v after %d requests, want ErrDailyLimit and no request", err, count.Load())
			}
		})
	}
}

// TestMinuteLimit checks that the per-minute limit is waited out by the
// whole Client: a QPM answer pauses every request for RateLimitPause (a
// minute by default), and is tried again after it. A pause longer than
// the Transport's MaxWait is not waited: the Search fails at once, and so
// does the next, without a request, and neither stops the Client.
func TestMinuteLimit(t *testing.T) {
	var count atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if count.Add(1) == 1 {
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(qpmBody))
			return
		}
		w.Write([]byte(`{"license":"CC-BY-NC-SA 4.0","query":"x","results":[{"url":"https://example.net/a","title":"A"}]}`))
	}))
	defer srv.Close()
	q := lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive)

	cfg := apitest.NewConfig(srv.URL, 3, time.Second)
	cfg.Transport.MaxWait = time.Second
	c, err := marginalia.New(marginalia.Options{Key: cfg.Key, BaseURL: cfg.BaseURL, Transport: cfg.Transport})
	require.NoError(t, err)
	_, err = c.Search(context.Background(), q, 10)
	if !errors.Is(err, searchapi.ErrRateLimited) || errors.Is(err, searchapi.ErrStopped) || errors.Is(err, marginalia.ErrDailyLimit) {
		t.Errorf("Search() = %v, want ErrRateLimited alone", err)
	}
	_, err = c.Search(context.Background(), q, 10)
	if !errors.Is(err, searchapi.ErrRateLimited) || count.Load() != 1 {
		t.Errorf("second Search() = %v after %d requests, want ErrRateLimited and no request (the minute's pause)", err, count.Load())
	}

	count.Store(0)
	cfg = apitest.NewConfig(srv.URL, 3, time.Second)
	c, err = marginalia.New(marginalia.Options{Key: cfg.Key, BaseURL: cfg.BaseURL, Transport: cfg.Transport, RateLimitPause: time.Millisecond})
	require.NoError(t, err)
	res, err := c.Search(context.Background(), q, 10)
	if err != nil || len(res) != 1 || count.Load() != 2 {
		t.Errorf("Search() = %v, %v after %d requests, want one result after 2", res, err, count.Load())
	}
}

// TestPerDomain checks the dc parameter: Marginalia keeps 2 results a
// domain unless told (ApiV2.doSearch), which would hide a site's other
// pages, so a Client asks for PerDomain, by default MaxPerDomain, the
// documented most (1 to 100).
func TestPerDomain(t *testing.T) {
	tests := []struct {
		name string
		set  int
		want string
	}{
		{"default", 0, "100"},
		{"one", 1, "1"},
		{"negative is the default", -3, "100"},
		{"over the most", 250, "100"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var dc atomic.Value
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				dc.Store(r.URL.Query().Get("dc"))
				w.Write([]byte(`{"license":"CC-BY-NC-SA 4.0","query":"x","results":[]}`))
			}))
			defer srv.Close()
			cfg := apitest.NewConfig(srv.URL, 1, time.Second)
			c, err := marginalia.New(marginalia.Options{Key: cfg.Key, BaseURL: srv.URL + "?dc=7", Transport: cfg.Transport, PerDomain: tt.set})
			require.NoError(t, err)
			_, err = c.Search(context.Background(), lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive), 10)
			require.NoError(t, err)
			if got := dc.Load(); got != tt.want {
				t.Errorf("PerDomain %d: dc = %v, want %s", tt.set, got, tt.want)
			}
		})
	}
}
