package apitest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/lexsig"
)

// Paging is one case of Suite.Requests: a query, a limit, and what the
// service should see.
type Paging struct {
	Name  string
	Query lexsig.Query
	Limit int
	// Q is the query text the service should see.
	Q string
	// Want is what Requests' record makes of each request, in order.
	Want []string
}

// Requests runs each case against the fake of 1,000 results, at its URL
// plus suffix (a path, a query the client must keep; empty means none),
// checking that the query text arrives as it should in the parameter
// qParam and noting what record makes of each request (the paging
// parameters, say).
func (s Suite[C]) Requests(t *testing.T, qParam, suffix string, cases []Paging, record func(*http.Request) string) {
	t.Helper()
	h := s.Handler(Corpus(1000), Key)
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
			if _, err := s.Client(t, srv.URL+suffix, 1).Search(context.Background(), tt.Query, tt.Limit); err != nil {
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
func (s Suite[C]) Documented(t *testing.T, path string, q lexsig.Query, limit int, want []lexsig.Result) C {
	t.Helper()
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	t.Cleanup(srv.Close)
	c := s.Client(t, srv.URL, 1)
	got, err := c.Search(context.Background(), q, limit)
	if err != nil {
		t.Fatalf("Search(%q) = %v", q, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Search(%q) (-want +got):\n%s", q, diff)
	}
	return c
}

// Printed checks that v (an engine's Options) prints as want whatever the
// verb, and never shows Key.
func Printed(t *testing.T, v any, want string) {
	t.Helper()
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%d", "%q"} {
		got := fmt.Sprintf(verb, v)
		if got != want {
			t.Errorf("Sprintf(%q, %T) = %q, want %q", verb, v, got, want)
		}
		if strings.Contains(got, Key) {
			t.Errorf("Sprintf(%q, %T) = %q shows the key", verb, v, got)
		}
	}
}
