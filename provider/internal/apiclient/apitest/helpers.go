package apitest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/lexsig"
)

// NewFunc returns the client under test for a fake's URL.
type NewFunc func(baseURL string) (lexsig.Searcher, error)

// Paging is one case of RequestsCase: a query, a limit, and what the
// service should see.
type Paging struct {
	Name  string
	Query lexsig.Query
	Limit int
	// Q is the query text the service should see.
	Q string
	// Want is what Record makes of each request, in order.
	Want []string
}

// Requests runs each case against a server that passes every request to
// h, after checking that the query text arrives as it should in the
// parameter qParam and noting what record makes of the request (the paging
// parameters, say).
func Requests(t *testing.T, qParam string, cases []Paging, h http.Handler, newClient NewFunc, record func(*http.Request) string) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			var mu sync.Mutex
			var got []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if q := r.URL.Query().Get(qParam); q != tt.Q {
					t.Errorf("%s = %q, want %q", qParam, q, tt.Q)
				}
				mu.Lock()
				got = append(got, record(r))
				mu.Unlock()
				h.ServeHTTP(w, r)
			}))
			defer srv.Close()
			c, err := newClient(srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Search(context.Background(), tt.Query, tt.Limit); err != nil {
				t.Fatalf("Search(%q, %d) = %v", tt.Query, tt.Limit, err)
			}
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff(tt.Want, got); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}

// Documented serves the fixture at path (an answer in the format of the
// service's documentation, with fields a client ignores) to every request,
// and checks that Search(q, limit) returns want. It returns the client for
// further checks.
func Documented(t *testing.T, path string, newClient NewFunc, q lexsig.Query, limit int, want []lexsig.Result) lexsig.Searcher {
	t.Helper()
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	t.Cleanup(srv.Close)
	c, err := newClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Search(context.Background(), q, limit)
	if err != nil {
		t.Fatalf("Search(%q) = %v", q, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Search(%q) (-want +got):\n%s", q, diff)
	}
	return c
}
