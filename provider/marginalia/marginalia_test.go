package marginalia_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/internal/apiclient/apitest"
	"github.com/linkrot/relink/provider/marginalia"
)

// fake answers like Marginalia's search API from corpus: query, count (1
// to 100) and page (1 first), the key in the API-Key header.
func fake(corpus []lexsig.Result, key string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("API-Key") != key {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":"invalid API key"}`)
			return
		}
		p := r.URL.Query()
		count, err1 := strconv.Atoi(p.Get("count"))
		page, err2 := strconv.Atoi(p.Get("page"))
		if err1 != nil || err2 != nil || count < 1 || count > 100 || page < 1 || p.Get("query") == "" {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"error":"bad request"}`)
			return
		}
		type result struct {
			URL         string  `json:"url"`
			Title       string  `json:"title"`
			Description string  `json:"description"`
			Quality     float64 `json:"quality"`
		}
		answer := struct {
			License string   `json:"license"`
			Query   string   `json:"query"`
			Results []result `json:"results"`
		}{License: "CC-BY-NC-SA 4.0", Query: p.Get("query"), Results: []result{}}
		for i := (page - 1) * count; i < min(page*count, len(corpus)); i++ {
			answer.Results = append(answer.Results, result{corpus[i].URI, corpus[i].Title, "about " + corpus[i].Title, -1})
		}
		if err := json.NewEncoder(w).Encode(answer); err != nil {
			panic(err)
		}
	})
}

func newFast(cfg apitest.Config) (*marginalia.Client, error) {
	return marginalia.New(marginalia.Options{
		Key:        cfg.Key,
		BaseURL:    cfg.BaseURL,
		Rate:       rate.Inf,
		Attempts:   cfg.Attempts,
		Backoff:    time.Millisecond,
		MaxBackoff: time.Millisecond,
		Timeout:    cfg.Timeout,

		CrossHostRedirects: cfg.CrossHostRedirects,
	})
}

// newBase returns a client for tests of one attempt at baseURL.
func newBase(baseURL string) (lexsig.Searcher, error) {
	return newFast(apitest.Config{BaseURL: baseURL, Key: apitest.Key, Attempts: 1, Timeout: time.Second})
}

func TestShared(t *testing.T) {
	apitest.Run(t, apitest.Suite{
		New:      func(cfg apitest.Config) (lexsig.Searcher, error) { return newFast(cfg) },
		Handler:  fake,
		NeedsKey: true,
		PageSize: marginalia.MaxCount,
		Max:      marginalia.MaxResults,
	})
}

func TestDocumentedResponse(t *testing.T) {
	apitest.Documented(t, "testdata/search.json", newBase, lexsig.NewQuery([]string{"link", "rot"}, lexsig.Conjunctive), 10, []lexsig.Result{
		{Rank: 1, URI: "https://example.net/~ana/essays/link-rot.html", Title: "On link rot"},
		{Rank: 2, URI: "http://example.org/notes/permalinks.txt", Title: "Permalinks that are not"},
	})
}

// TestRequest checks count and page of each request and the query text in
// query.
func TestRequest(t *testing.T) {
	apitest.Requests(t, "query", []apitest.Paging{
		{Name: "conjunctive", Query: lexsig.NewQuery([]string{"jcdl", "signature", "backlink"}, lexsig.Conjunctive), Limit: 5, Q: "jcdl signature backlink", Want: []string{"5/1"}},
		{Name: "phrase", Query: lexsig.Query{Terms: []string{"link", "neighborhood"}, Phrase: true}, Limit: 250, Q: `"link neighborhood"`, Want: []string{"100/1", "100/2", "100/3"}},
		{Name: "one-term disjunction", Query: lexsig.NewQuery([]string{"jcdl"}, lexsig.Disjunctive), Limit: 3, Q: "jcdl", Want: []string{"3/1"}},
	}, fake(apitest.Corpus(1000), apitest.Key), newBase, func(r *http.Request) string {
		return r.URL.Query().Get("count") + "/" + r.URL.Query().Get("page")
	})
}

func TestDisjunctiveRefused(t *testing.T) {
	c, err := marginalia.New(marginalia.Options{Key: marginalia.PublicKey, BaseURL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	q := lexsig.NewQuery([]string{"jcdl", "signature"}, lexsig.Disjunctive)
	if _, err := c.Search(context.Background(), q, 10); !errors.Is(err, marginalia.ErrUnsupportedQuery) {
		t.Errorf("Search(%q) = %v, want ErrUnsupportedQuery", q, err)
	}
}

// TestPublicKey checks that the shared key is sent like any other and
// that the rate limit it often meets (503) ends in a *StatusError.
func TestPublicKey(t *testing.T) {
	srv := httptest.NewServer(apitest.Failing(http.StatusServiceUnavailable, -1, nil, nil))
	defer srv.Close()
	c, err := marginalia.New(marginalia.Options{Key: marginalia.PublicKey, BaseURL: srv.URL, Rate: rate.Inf, Attempts: 2, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	q := lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive)
	_, err = c.Search(context.Background(), q, 10)
	var se *marginalia.StatusError
	if !errors.As(err, &se) || se.Status != http.StatusServiceUnavailable {
		t.Errorf("Search(%q) = %v, want a *StatusError 503", q, err)
	}
	if got := fmt.Sprint(marginalia.Options{Key: marginalia.PublicKey}); got != `marginalia.Options{Key: public, BaseURL: ""}` {
		t.Errorf("Sprint(options) = %q", got)
	}
	if got := fmt.Sprint(marginalia.Options{Key: apitest.Key}); got != `marginalia.Options{Key: REDACTED, BaseURL: ""}` {
		t.Errorf("Sprint(options) = %q", got)
	}
}
