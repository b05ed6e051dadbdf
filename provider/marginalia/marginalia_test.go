package marginalia_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
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
	})
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
	body, err := os.ReadFile("testdata/search.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	defer srv.Close()
	c, err := newFast(apitest.Config{BaseURL: srv.URL, Key: apitest.Key, Attempts: 1, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	q := lexsig.NewQuery([]string{"link", "rot"}, lexsig.Conjunctive)
	got, err := c.Search(context.Background(), q, 10)
	if err != nil {
		t.Fatalf("Search(%q) = %v", q, err)
	}
	want := []lexsig.Result{
		{Rank: 1, URI: "https://example.net/~ana/essays/link-rot.html", Title: "On link rot"},
		{Rank: 2, URI: "http://example.org/notes/permalinks.txt", Title: "Permalinks that are not"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Search(%q) (-want +got):\n%s", q, diff)
	}
}

func TestRequest(t *testing.T) {
	tests := []struct {
		name    string
		query   lexsig.Query
		limit   int
		wantQ   string
		wantReq []string // count/page of each request
	}{
		{"conjunctive", lexsig.NewQuery([]string{"jcdl", "signature", "backlink"}, lexsig.Conjunctive), 5, "jcdl signature backlink", []string{"5/1"}},
		{"phrase", lexsig.Query{Terms: []string{"link", "neighborhood"}, Phrase: true}, 250, `"link neighborhood"`, []string{"100/1", "100/2", "100/3"}},
		{"one-term disjunction", lexsig.NewQuery([]string{"jcdl"}, lexsig.Disjunctive), 3, "jcdl", []string{"3/1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			inner := fake(apitest.Corpus(1000), apitest.Key)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if q := r.URL.Query().Get("query"); q != tt.wantQ {
					t.Errorf("query = %q, want %q", q, tt.wantQ)
				}
				got = append(got, r.URL.Query().Get("count")+"/"+r.URL.Query().Get("page"))
				inner.ServeHTTP(w, r)
			}))
			defer srv.Close()
			c, err := newFast(apitest.Config{BaseURL: srv.URL, Key: apitest.Key, Attempts: 1, Timeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Search(context.Background(), tt.query, tt.limit); err != nil {
				t.Fatalf("Search(%q, %d) = %v", tt.query, tt.limit, err)
			}
			if diff := cmp.Diff(tt.wantReq, got); diff != "" {
				t.Errorf("requests count/page (-want +got):\n%s", diff)
			}
		})
	}
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
