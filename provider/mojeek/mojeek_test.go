package mojeek_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/internal/apiclient/apitest"
	"github.com/linkrot/relink/provider/mojeek"
	"github.com/linkrot/relink/provider/searchapi"
)

// pageSize is the t the shared suite's client asks for.
const pageSize = 20

// fake answers like Mojeek's search API: s (1 first) and t, the key in
// api_key, fmt=json; a wrong key gets 403 and an ERROR status, a bad
// request a 200 answer with an ERROR status, as Mojeek reports errors in
// response.status.
var fake = apitest.Fake{
	Key:      func(r *http.Request) string { return r.URL.Query().Get("api_key") },
	WrongKey: apitest.Canned{Status: http.StatusForbidden, Body: `{"response":{"status":"ERROR: Invalid API key"}}`},
	Page: func(r *http.Request) (int, int, bool) {
		p := r.URL.Query()
		s, err1 := strconv.Atoi(p.Get("s"))
		t, err2 := strconv.Atoi(p.Get("t"))
		return s - 1, t, err1 == nil && err2 == nil && s >= 1 && t >= 1 && p.Get("fmt") == "json" && p.Get("q") != ""
	},
	BadRequest: apitest.Canned{Status: http.StatusOK, Body: `{"response":{"status":"ERROR: Bad Request"}}`},
	Answer: func(r *http.Request, results []lexsig.Result, total int, _ bool) any {
		p := r.URL.Query()
		head := map[string]any{"query": p.Get("q"), "start": p.Get("s"), "return": len(results), "exact": true, "results": total}
		list := []map[string]string{}
		for _, res := range results {
			list = append(list, map[string]string{"url": res.URI, "title": res.Title, "desc": "about " + res.Title})
		}
		return map[string]any{"response": map[string]any{"status": "OK", "head": head, "results": list}}
	},
}

// suite is the shared suite's view of the package.
var suite = apitest.Suite[*mojeek.Client]{
	New: func(cfg apitest.Config) (*mojeek.Client, error) {
		return mojeek.New(mojeek.Options{Key: cfg.Key, BaseURL: cfg.BaseURL, PageSize: pageSize, Transport: cfg.Transport})
	},
	Handler:  fake.Handler,
	NeedsKey: true,
	NoOR:     true,
	PageSize: pageSize,
	Max:      mojeek.MaxResults,
}

func TestShared(t *testing.T) { suite.Run(t) }

// FuzzAnswer feeds any bytes to the decoding of Mojeek's answers and
// to a Search.
func FuzzAnswer(f *testing.F) {
	suite.Fuzz(f, mojeek.Decode, "testdata/search.json",
		`{"response":{"status":"ERROR: Daily Limit Reached"}}`,
		`{"response":{"status":"OK","head":{"query":"x","start":1,"return":0,"results":0}}}`)
}

func TestDocumentedResponse(t *testing.T) {
	c := suite.Documented(t, "testdata/search.json", lexsig.NewQuery([]string{"lexical", "signatures"}, lexsig.Conjunctive), 2, []lexsig.Result{
		{Rank: 1, URI: "https://example.edu/~klein/lexical-signatures/", Title: "Lexical signatures for lost pages"},
		{Rank: 2, URI: "https://example.net/blog/2011/06/link-neighborhood.html", Title: "Link neighborhoods and rediscovery"},
	})
	if n, err := c.HitCount(context.Background(), "lexical signatures"); err != nil || n != 20931 {
		t.Errorf("HitCount(%q) = %d, %v, want 20931, nil", "lexical signatures", n, err)
	}
}

// TestRequest checks s and t of each request, the last asking only for
// what is missing.
func TestRequest(t *testing.T) {
	suite.Requests(t, "q", "", []apitest.Paging{
		{Name: "conjunctive", Query: lexsig.NewQuery([]string{"jcdl", "signature", "backlink"}, lexsig.Conjunctive), Limit: 5, Q: "jcdl signature backlink", Want: []string{"1/5"}},
		{Name: "phrase", Query: lexsig.Query{Terms: []string{"link", "neighborhood"}, Phrase: true}, Limit: 45, Q: `"link neighborhood"`, Want: []string{"1/20", "21/20", "41/5"}},
		{Name: "one-term disjunction", Query: lexsig.NewQuery([]string{"jcdl"}, lexsig.Disjunctive), Limit: 3, Q: "jcdl", Want: []string{"1/3"}},
	}, func(r *http.Request) string {
		return r.URL.Query().Get("s") + "/" + r.URL.Query().Get("t")
	})
}

// TestStatus covers answers whose HTTP status is 200 but whose
// response.status is not OK.
func TestStatus(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []error
	}{
		{"daily limit", `{"response":{"status":"ERROR: Daily Limit Reached"}}`, []error{mojeek.ErrStatus, searchapi.ErrRateLimited}},
		{"bad key", `{"response":{"status":"ERROR: Invalid API key ` + apitest.Key + `"}}`, []error{mojeek.ErrStatus, searchapi.ErrUnauthorized}},
		{"other", `{"response":{"status":"ERROR: Something broke"}}`, []error{mojeek.ErrStatus}},
		{"no response object", `{"status":"OK"}`, []error{searchapi.ErrMalformed}},
		{"XML instead of JSON", `<?xml version="1.0"?><response><status>OK</status></response>`, []error{searchapi.ErrMalformed}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, tt.body) }))
			defer srv.Close()
			c := suite.Client(t, srv.URL, 1)
			q := lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive)
			_, err := c.Search(context.Background(), q, 10)
			for _, want := range tt.want {
				if !errors.Is(err, want) {
					t.Errorf("Search(%q) = %v, want errors.Is %v", q, err, want)
				}
			}
			if _, herr := c.HitCount(context.Background(), "x"); !errors.Is(herr, tt.want[0]) {
				t.Errorf("HitCount(%q) = %v, want errors.Is %v", "x", herr, tt.want[0])
			}
			apitest.CheckNoKey(t, err)
		})
	}
}

func TestOptionsFormat(t *testing.T) {
	apitest.Printed(t, mojeek.Options{Key: apitest.Key, PageSize: 50}, `mojeek.Options{Key: REDACTED, BaseURL: "", PageSize: 50}`)
}
