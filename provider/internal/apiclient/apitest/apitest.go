// Package apitest is the shared test suite of relink's search-API clients
// (provider/google, provider/brave, provider/marginalia, provider/mojeek,
// provider/searxng, all run by provider/searchapi): each package fakes its
// service in the service's own documented format and describes itself in
// a Suite, whose Run checks the behaviour every client must have (paging,
// empty answers, malformed bodies, rate limits, server errors, timeouts,
// keys kept out of errors, redirects, hostile answers, cancellation)
// against that fake. The package's own tests then hold only what is its
// own: its documented answers, its fixtures and its special cases.
//
// It is for tests only: it imports package testing.
package apitest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/time/rate"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/searchapi"
)

// Key is the API key Run gives the client under test. It is distinctive
// enough that finding it in an error message cannot be a coincidence.
const Key = "TESTKEY-9f8e7d6c5b4a"

// Config is what Suite.New is given: everything but the engine's own
// options.
type Config struct {
	// BaseURL is the fake service's URL.
	BaseURL string
	// Key is the API key: Key, another one, or empty in the missing-key
	// case.
	Key string
	// Transport is the fast transport of a test: no rate limit, backoffs
	// of a millisecond, the attempts, timeout and redirect policy of the
	// case. New must pass it on unchanged.
	Transport searchapi.Transport
}

// NewConfig returns the Config for a client of the fake at baseURL with
// Key, n attempts and timeout.
func NewConfig(baseURL string, attempts int, timeout time.Duration) Config {
	return Config{BaseURL: baseURL, Key: Key, Transport: searchapi.Transport{
		Rate:       rate.Inf,
		Attempts:   attempts,
		Backoff:    time.Millisecond,
		MaxBackoff: time.Millisecond,
		Timeout:    timeout,
	}}
}

// Suite describes one engine package to the shared tests; C is its
// Client.
type Suite[C lexsig.Searcher] struct {
	// New returns the client under test for cfg: the engine's New with
	// cfg's BaseURL, Key and Transport, and whatever else the engine
	// needs (Google's CX).
	New func(cfg Config) (C, error)
	// Handler fakes the service: it answers every search, in the
	// service's documented JSON format, with the results of corpus (in
	// that order) that the request's paging parameters select, and answers
	// 401 or 403 when the request does not carry key.
	Handler func(corpus []lexsig.Result, key string) http.Handler
	// NeedsKey says that New must refuse an empty key with an error
	// wrapping searchapi.ErrMissingKey.
	NeedsKey bool
	// NoOR says that the API has no OR operator: Search must refuse a
	// disjunctive query of several terms, without a request, with an
	// error wrapping searchapi.ErrUnsupportedQuery.
	NoOR bool
	// PageSize is how many results one page of the fake holds, so that
	// the paging cases ask for several pages.
	PageSize int
	// Max is the most results the client returns for one query (its
	// MaxResults).
	Max int
}

// Client returns the client under test for the fake at baseURL, with Key,
// n attempts and a timeout of a second; it fails t when New fails.
func (s Suite[C]) Client(t testing.TB, baseURL string, attempts int) C {
	t.Helper()
	return s.client(t, NewConfig(baseURL, attempts, time.Second))
}

// Refusing starts a fake that answers every request with status, header
// and body (a service's refusal: a quota spent, a limiter), closed when t
// ends, and returns the client under test for it, with three attempts,
// and the count of the requests the fake got.
func (s Suite[C]) Refusing(t testing.TB, status int, header http.Header, body string) (C, *atomic.Int32) {
	t.Helper()
	count := new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		count.Add(1)
		for k, v := range header {
			w.Header()[k] = v
		}
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return s.Client(t, srv.URL, 3), count
}

func (s Suite[C]) client(t testing.TB, cfg Config) C {
	t.Helper()
	c, err := s.New(cfg)
	if err != nil {
		t.Fatalf("New(%s) = %v", cfg.BaseURL, err)
	}
	return c
}

// Corpus returns n results whose URIs and titles name their rank.
func Corpus(n int) []lexsig.Result {
	out := make([]lexsig.Result, n)
	for i := range out {
		out[i] = lexsig.Result{
			Rank:  i + 1,
			URI:   fmt.Sprintf("https://example.com/page/%04d.html", i+1),
			Title: fmt.Sprintf("Page %d", i+1),
		}
	}
	return out
}

// Failing answers the first n requests with status (429 with
// "Retry-After: 0", so that a retry comes at once) and a short HTML body,
// and passes the rest to next; n < 0 fails every request. It counts all
// requests in *count when count is not nil.
func Failing(status, n int, next http.Handler, count *atomic.Int32) http.Handler {
	var seen atomic.Int32
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(seen.Add(1))
		if count != nil {
			count.Add(1)
		}
		if n < 0 || i <= n {
			if status == http.StatusTooManyRequests {
				w.Header().Set("Retry-After", "0")
			}
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(status)
			fmt.Fprintf(w, "<html><body><h1>%d %s</h1></body></html>", status, http.StatusText(status))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// query is the query Run sends.
var query = lexsig.NewQuery([]string{"lexical", "signature"}, lexsig.Conjunctive)

// Run runs the shared cases against s.
func (s Suite[C]) Run(t *testing.T) {
	t.Helper()
	newClient := func(t *testing.T, base string, attempts int, timeout time.Duration) C {
		t.Helper()
		return s.client(t, NewConfig(base, attempts, timeout))
	}
	search := func(t *testing.T, h http.Handler, attempts int, timeout time.Duration, limit int) ([]lexsig.Result, error) {
		t.Helper()
		srv := httptest.NewServer(h)
		defer srv.Close()
		got, err := newClient(t, srv.URL, attempts, timeout).Search(context.Background(), query, limit)
		if err != nil {
			checkNoKey(t, err)
		}
		return got, err
	}

	t.Run("paging", func(t *testing.T) {
		corpus := Corpus(3*s.PageSize + 3)
		for _, limit := range []int{1, s.PageSize, s.PageSize + 1, len(corpus), len(corpus) + 10, 0} {
			t.Run(fmt.Sprintf("limit %d", limit), func(t *testing.T) {
				got, err := search(t, s.Handler(corpus, Key), 1, 5*time.Second, limit)
				if err != nil {
					t.Fatalf("Search(%q, %d) = %v", query, limit, err)
				}
				n := len(corpus)
				if limit > 0 {
					n = min(n, limit)
				}
				n = min(n, s.Max)
				if diff := cmp.Diff(corpus[:n], withoutScores(got)); diff != "" {
					t.Errorf("Search(%q, %d) (-want +got):\n%s", query, limit, diff)
				}
			})
		}
	})

	t.Run("no more than the API gives", func(t *testing.T) {
		corpus := Corpus(s.Max + s.PageSize + 1)
		var count atomic.Int32
		got, err := search(t, Failing(0, 0, s.Handler(corpus, Key), &count), 1, 5*time.Second, s.Max+50)
		if err != nil {
			t.Fatalf("Search(%q, %d) = %v", query, s.Max+50, err)
		}
		if diff := cmp.Diff(corpus[:s.Max], withoutScores(got)); diff != "" {
			t.Errorf("Search(%q, %d) (-want +got):\n%s", query, s.Max+50, diff)
		}
		if most := (s.Max + s.PageSize - 1) / s.PageSize; int(count.Load()) > most {
			t.Errorf("Search(%q, %d) made %d requests, want at most %d", query, s.Max+50, count.Load(), most)
		}
	})

	t.Run("empty results", func(t *testing.T) {
		got, err := search(t, s.Handler(nil, Key), 1, 5*time.Second, 10)
		if err != nil || got == nil || len(got) != 0 {
			t.Errorf("Search(%q) = %v, %v, want an empty slice and nil", query, got, err)
		}
	})

	t.Run("query without terms", func(t *testing.T) {
		var count atomic.Int32
		srv := httptest.NewServer(Failing(0, 0, s.Handler(Corpus(3), Key), &count))
		defer srv.Close()
		got, err := newClient(t, srv.URL, 1, 5*time.Second).Search(context.Background(), lexsig.Query{}, 10)
		if err != nil || got == nil || len(got) != 0 {
			t.Errorf("Search(empty query) = %v, %v, want an empty slice and nil", got, err)
		}
		if count.Load() != 0 {
			t.Errorf("Search(empty query) made %d requests, want 0", count.Load())
		}
	})

	ok := s.Handler(Corpus(5), Key)
	html := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!DOCTYPE html><html><head><title>Maintenance</title></head><body>Back soon</body></html>")
	})
	hang := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	errorCases := []struct {
		name     string
		handler  http.Handler
		attempts int
		timeout  time.Duration
		want     error // nil: success with the 5 results
		status   int   // StatusError.Status wanted, or 0
	}{
		{name: "HTML instead of JSON", handler: html, attempts: 3, want: searchapi.ErrMalformed},
		{name: "429 then success", handler: Failing(429, 2, ok, nil), attempts: 3},
		{name: "429 forever", handler: Failing(429, -1, ok, nil), attempts: 3, want: searchapi.ErrRateLimited, status: 429},
		{name: "503 then success", handler: Failing(503, 1, ok, nil), attempts: 3},
		{name: "500 forever", handler: Failing(500, -1, ok, nil), attempts: 2, status: 500},
		{name: "hanging server", handler: hang, attempts: 2, timeout: 50 * time.Millisecond, want: searchapi.ErrTimeout},
		{name: "wrong key", handler: s.Handler(Corpus(5), "another-key"), attempts: 3, want: searchapi.ErrUnauthorized},
	}
	for _, tt := range errorCases {
		if tt.name == "wrong key" && !s.NeedsKey {
			continue
		}
		t.Run(tt.name, func(t *testing.T) {
			timeout := tt.timeout
			if timeout == 0 {
				timeout = 5 * time.Second
			}
			got, err := search(t, tt.handler, tt.attempts, timeout, 10)
			if tt.want == nil && tt.status == 0 {
				if err != nil {
					t.Fatalf("Search(%q) = %v", query, err)
				}
				if diff := cmp.Diff(Corpus(5), withoutScores(got)); diff != "" {
					t.Errorf("Search(%q) (-want +got):\n%s", query, diff)
				}
				return
			}
			if err == nil {
				t.Fatalf("Search(%q) = %v, nil; want an error", query, got)
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("Search(%q) = %v, want errors.Is %v", query, err, tt.want)
			}
			var se *searchapi.StatusError
			if tt.status != 0 && (!errors.As(err, &se) || se.Status != tt.status) {
				t.Errorf("Search(%q) = %v, want a *StatusError %d", query, err, tt.status)
			}
		})
	}

	if s.NeedsKey {
		t.Run("missing key", func(t *testing.T) {
			cfg := NewConfig("http://127.0.0.1:1", 1, time.Second)
			cfg.Key = ""
			_, err := s.New(cfg)
			if !errors.Is(err, searchapi.ErrMissingKey) {
				t.Errorf("New(no key) = %v, want ErrMissingKey", err)
			}
		})
	}

	t.Run("base URL not absolute http or https", func(t *testing.T) {
		for _, base := range []string{"/search", "example.com/search", "ftp://example.com/", "http://", "http://%zz"} {
			if _, err := s.New(NewConfig(base, 1, time.Second)); err == nil {
				t.Errorf("New(BaseURL %q) = nil error, want one", base)
			}
		}
	})

	if s.NoOR {
		t.Run("disjunctive query refused", func(t *testing.T) {
			var count atomic.Int32
			srv := httptest.NewServer(Failing(0, 0, s.Handler(Corpus(3), Key), &count))
			defer srv.Close()
			or := lexsig.NewQuery([]string{"jcdl", "signature"}, lexsig.Disjunctive)
			if _, err := newClient(t, srv.URL, 1, time.Second).Search(context.Background(), or, 10); !errors.Is(err, searchapi.ErrUnsupportedQuery) {
				t.Errorf("Search(%q) = %v, want ErrUnsupportedQuery", or, err)
			}
			if count.Load() != 0 {
				t.Errorf("Search(%q) made %d requests, want 0", or, count.Load())
			}
		})
	}

	t.Run("printing the client hides the key", func(t *testing.T) {
		c := newClient(t, "http://127.0.0.1:1", 1, time.Second)
		for _, verb := range []string{"%v", "%+v", "%s", "%#v", "%d", "%x", "%q"} {
			if got := fmt.Sprintf(verb, c); strings.Contains(got, Key) {
				t.Errorf("Sprintf(%q, client) = %q shows the key", verb, got)
			}
		}
	})

	s.runRedirects(t)
	s.runHostile(t, search)

	t.Run("canceled context", func(t *testing.T) {
		srv := httptest.NewServer(hang)
		defer srv.Close()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := newClient(t, srv.URL, 3, 5*time.Second).Search(ctx, query, 10)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Search(canceled) = %v, want context.Canceled", err)
		}
	})
}

// CheckNoKey fails t when the message of err, of anything it wraps, or its
// printed forms show Key.
func CheckNoKey(t *testing.T, err error) {
	t.Helper()
	checkNoKey(t, err)
}

func checkNoKey(t *testing.T, err error) {
	t.Helper()
	msgs := []string{fmt.Sprintf("%v %+v %s", err, err, err)}
	var walk func(error)
	walk = func(e error) {
		if e == nil {
			return
		}
		msgs = append(msgs, e.Error())
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		case interface{ Unwrap() []error }:
			for _, inner := range u.Unwrap() {
				walk(inner)
			}
		}
	}
	walk(err)
	for _, m := range msgs {
		if strings.Contains(m, Key) {
			t.Errorf("error %q shows the API key", m)
		}
	}
}

// withoutScores returns rs with Score zeroed, for comparing with Corpus.
func withoutScores(rs []lexsig.Result) []lexsig.Result {
	out := make([]lexsig.Result, len(rs))
	for i, r := range rs {
		r.Score = 0
		out[i] = r
	}
	return out
}

// Fuzz runs a fuzz target over the engine's answers, starting from the
// fixture (a documented answer in testdata) and bodies (a few of the
// service's other answers: no results, an error). Each input is decoded
// as the answer to a first and a later page by decode (the Decode method
// of the package's searchapi.Engine), which must not panic and must keep
// only hits with a usable URL and a title of valid UTF-8; and it is served
// as the body of a 200 answer to the client under test, whose Search must
// neither panic nor hang, and return an error or results ranked 1, 2, ...
// with distinct, usable URIs.
func (s Suite[C]) Fuzz(f *testing.F, decode func([]byte, searchapi.Page) (searchapi.Answer, error), fixture string, bodies ...string) {
	seed, err := os.ReadFile(fixture)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	for _, b := range append(bodies, "", "null", "{}", "[]", "<html>503</html>", `{"results":[{"url":"javascript:x"}]}`) {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, p := range []searchapi.Page{{N: 0, Start: 1, Count: 10}, {N: 1, Start: 11, Count: 10}} {
			ans, err := decode(body, p)
			if err != nil {
				continue
			}
			for _, h := range ans.Hits {
				if !searchapi.Usable(h.URL) || !utf8.ValidString(h.Title) {
					t.Fatalf("Decode(page %d) kept hit %+v", p.N, h)
				}
			}
		}

		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write(body)
		}))
		defer srv.Close()
		got, err := s.Client(t, srv.URL, 1).Search(context.Background(), query, 30)
		if err != nil {
			return
		}
		seen := make(map[string]bool)
		for i, r := range got {
			if r.Rank != i+1 || !searchapi.Usable(r.URI) || seen[r.URI] {
				t.Fatalf("Search() result %d = %+v, want rank %d and a new URI", i, r, i+1)
			}
			seen[r.URI] = true
		}
	})
}
