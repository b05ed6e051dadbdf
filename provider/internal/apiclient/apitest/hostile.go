package apitest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/internal/apiclient"
	"github.com/linkrot/relink/provider/searchapi"
)

// searchFunc runs one search against a server for h, as Run's search does.
type searchFunc func(t *testing.T, h http.Handler, attempts int, timeout time.Duration, limit int) ([]lexsig.Result, error)

// runRedirects checks issue 12's first failure for the client: a redirect
// to another host carries the key nowhere (URL, header, Referer), and is
// not followed at all unless CrossHostRedirects is set; a redirect loop
// ends in an error, not a hang.
func (s Suite[C]) runRedirects(t *testing.T) {
	for _, crossHost := range []bool{false, true} {
		t.Run(fmt.Sprintf("redirect to another host, CrossHostRedirects %v", crossHost), func(t *testing.T) {
			var mu sync.Mutex
			var seen []string
			other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				defer mu.Unlock()
				seen = append(seen, r.URL.String())
				for name, vs := range r.Header {
					seen = append(seen, name+": "+strings.Join(vs, ", "))
				}
				http.Error(w, "not here", http.StatusNotFound)
			}))
			defer other.Close()
			// The redirect keeps the path and query: an API that moved
			// host, the case where a key in the query would follow.
			first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, other.URL+r.URL.RequestURI(), http.StatusFound)
			}))
			defer first.Close()
			cfg := NewConfig(first.URL, 2, 5*time.Second)
			cfg.Transport.CrossHostRedirects = crossHost
			c := s.client(t, cfg)
			_, err := c.Search(t.Context(), query, 10)
			if err == nil {
				t.Fatalf("Search(%q) through a redirect to a 404 = nil error", query)
			}
			checkNoKey(t, err)
			if !crossHost && !errors.Is(err, searchapi.ErrRedirectRefused) {
				t.Errorf("Search(%q) = %v, want ErrRedirectRefused", query, err)
			}
			mu.Lock()
			defer mu.Unlock()
			if !crossHost && len(seen) > 0 {
				t.Errorf("the other host got a request: %q", seen)
			}
			if crossHost && len(seen) == 0 {
				t.Errorf("the other host got no request with CrossHostRedirects set")
			}
			for _, line := range seen {
				if strings.Contains(line, Key) || strings.HasPrefix(line, "Referer") {
					t.Errorf("the other host saw %q", line)
				}
			}
		})
	}

	t.Run("redirect loop", func(t *testing.T) {
		var count atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			count.Add(1)
			http.Redirect(w, r, r.URL.RequestURI(), http.StatusFound)
		}))
		defer srv.Close()
		_, err := s.client(t, NewConfig(srv.URL, 3, 5*time.Second)).Search(t.Context(), query, 10)
		if !errors.Is(err, searchapi.ErrTooManyRedirects) {
			t.Errorf("Search(%q) = %v, want ErrTooManyRedirects", query, err)
		}
		checkNoKey(t, err)
		if n := count.Load(); n > apiclient.DefaultMaxRedirects+1 {
			t.Errorf("Search(%q) made %d requests, want at most %d (a loop is not retried)", query, n, apiclient.DefaultMaxRedirects+1)
		}
	})
}

// Rewrite passes requests to next and replaces old by new in the body of
// its answers, so that a test can make a fake's answer hostile in the
// service's own format.
func Rewrite(next http.Handler, old, new string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		for k, vs := range rec.Header() {
			w.Header()[k] = vs
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		w.Write(bytes.ReplaceAll(rec.Body.Bytes(), []byte(old), []byte(new)))
	})
}

// runHostile serves hostile answers: huge, cut, invalid, hanging after the
// headers, and results no client should pass on.
func (s Suite[C]) runHostile(t *testing.T, search searchFunc) {
	good := Corpus(3)
	odd := []lexsig.Result{
		good[0],
		{URI: "javascript:alert(1)", Title: "script"},
		{URI: "ftp://example.com/file.txt", Title: "ftp"},
		{URI: "/relative/path.html", Title: "relative"},
		{URI: "https://example.com/" + strings.Repeat("a", searchapi.MaxURLLen), Title: "too long"},
		{URI: "http://", Title: "no host"},
		good[1],
		{URI: "mailto:someone@example.com", Title: "mail"},
		good[2],
	}
	foreign := []lexsig.Result{
		{Rank: 1, URI: "http://127.0.0.1:1/admin", Title: "loopback"},
		{Rank: 2, URI: "https://attacker.example/phish", Title: "elsewhere"},
		{Rank: 3, URI: "http://[::1]/x", Title: "loopback v6"},
	}
	huge := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"results":[{"url":"https://example.com/","title":"`)
		chunk := bytes.Repeat([]byte("a"), 1<<20)
		for range 100 { // 100 MiB, more than any client reads
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
		fmt.Fprint(w, `"}]}`)
	})
	hangAfterHeaders := HangAfterHeader("application/json", `{"results":[`)
	cut := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		s.Handler(good, Key).ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		w.Write(body[:len(body)/2])
	})
	tests := []struct {
		name    string
		handler http.Handler
		timeout time.Duration
		want    []lexsig.Result // nil: an error
		wantErr error
	}{
		{name: "unusable URLs are dropped", handler: s.Handler(odd, Key), want: good},
		{name: "other hosts' URLs are results", handler: s.Handler(foreign, Key), want: foreign},
		{name: "invalid UTF-8 in titles", handler: Rewrite(s.Handler(good, Key), "Page 2", "Page \xff\xfe2"),
			want: []lexsig.Result{good[0], {Rank: 2, URI: good[1].URI, Title: "Page \ufffd\ufffd2"}, good[2]}},
		{name: "invalid UTF-8 outside strings", handler: Rewrite(s.Handler(good, Key), "Page 2", "\xff\""), wantErr: searchapi.ErrMalformed},
		{name: "JSON cut in half", handler: cut, wantErr: searchapi.ErrMalformed},
		{name: "100 MiB body", handler: huge, wantErr: searchapi.ErrTooLarge},
		{name: "hang after the headers", handler: hangAfterHeaders, timeout: 100 * time.Millisecond, wantErr: searchapi.ErrTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			timeout := tt.timeout
			if timeout == 0 {
				timeout = 5 * time.Second
			}
			got, err := search(t, tt.handler, 1, timeout, 10)
			if tt.want == nil {
				if !errors.Is(err, tt.wantErr) {
					t.Errorf("Search(%q) = %v, %v, want an error matching %v", query, got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Search(%q) = %v", query, err)
			}
			if diff := cmp.Diff(tt.want, withoutScores(got)); diff != "" {
				t.Errorf("Search(%q) (-want +got):\n%s", query, diff)
			}
			for _, r := range got {
				if !utf8.ValidString(r.Title) {
					t.Errorf("Search(%q) title %q is not valid UTF-8", query, r.Title)
				}
			}
		})
	}
}

// Endless answers 200 with header h, start, and then repeat written again
// and again until the client stops reading: a body with no end, which a
// client must cut at its size limit.
func Endless(h http.Header, start, repeat string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for k, v := range h {
			w.Header()[k] = v
		}
		io.WriteString(w, start)
		chunk := strings.Repeat(repeat, max(1, 4096/max(1, len(repeat))))
		for r.Context().Err() == nil {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
	}
}

// HangAfterHeader answers 200 with Content-Type ctype and the start of a
// body, then sends nothing more until the client gives up: a client must
// bound an attempt by its time limit.
func HangAfterHeader(ctype, start string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, start)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
}
