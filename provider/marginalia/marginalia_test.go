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
		return marginalia.New(marginalia.Options{Key: cfg.Key, BaseURL: cfg.BaseURL, Transport: cfg.Transport})
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
// that the rate limit it often meets (503) ends in a *StatusError.
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
	apitest.Printed(t, marginalia.Options{Key: marginalia.PublicKey}, `marginalia.Options{Key: public, BaseURL: ""}`)
	apitest.Printed(t, marginalia.Options{Key: apitest.Key}, `marginalia.Options{Key: REDACTED, BaseURL: ""}`)
}
