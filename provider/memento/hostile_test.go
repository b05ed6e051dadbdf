package memento_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/internal/apiclient/apitest"
	"github.com/linkrot/relink/provider/memento"
	"github.com/linkrot/relink/provider/web"
)

// counted is an httptest server that counts the requests it gets and
// answers them with handle.
type counted struct {
	*httptest.Server
	hits atomic.Int32
}

func newCounted(t *testing.T, handle http.HandlerFunc) *counted {
	t.Helper()
	c := &counted{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.hits.Add(1)
		handle(w, r)
	}))
	t.Cleanup(c.Close)
	return c
}

// oneMemento answers every lookup and TimeMap with one memento at urim,
// as the Time Travel service's JSON API and MemGator's JSON TimeMap write
// them.
func oneMemento(urim func() string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.Contains(r.URL.Path, "/api/json/"):
			fmt.Fprintf(w, `{"original_uri": %q, "mementos": {
				"last": {"datetime": "2011-06-30T12:00:00Z", "uri": [%q]},
				"closest": {"datetime": "2011-06-30T12:00:00Z", "uri": [%q]}}}`, page, urim(), urim())
		case strings.Contains(r.URL.Path, "/timemap/json/"):
			fmt.Fprintf(w, `{"original_uri": %q, "mementos": {"list": [{"datetime": "2011-06-30T12:00:00Z", "uri": %q}]}}`, page, urim())
		default:
			http.NotFound(w, r)
		}
	}
}

// internalPage stands for a page on the machine's own network, which no
// answer of a service may make the Client fetch.
func internalPage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html")
	fmt.Fprint(w, "<title>internal admin console</title>")
}

// TestPrivateMementoRefused is the regression test of issue 12, item 2:
// a service's answer naming an internal (loopback) address made the
// Client fetch it, so that its title became a query for a search engine.
// The service is on loopback too, as in every test: BaseURL is the
// caller's choice and is not checked, while the URI-Ms of its answer are.
func TestPrivateMementoRefused(t *testing.T) {
	tests := []struct {
		name         string
		allowPrivate bool
		wantHits     int32
	}{
		{"refused by default", false, 0},
		{"fetched with AllowPrivate", true, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			internal := newCounted(t, internalPage)
			service := newCounted(t, oneMemento(func() string { return internal.URL + "/admin" }))
			c := &memento.Client{BaseURL: service.URL, Rate: rate.Inf, Backoff: time.Millisecond, AllowPrivate: tc.allowPrivate}

			p, err := c.Fetch(context.Background(), page)
			assert.Equal(t, tc.wantHits, internal.hits.Load(), "requests to the internal server")
			assert.Equal(t, int32(1), service.hits.Load(), "requests to the service")
			if tc.allowPrivate {
				require.NoError(t, err)
				assert.Equal(t, "<title>internal admin console</title>", string(p.Body))
				return
			}
			require.ErrorIs(t, err, memento.ErrPrivateAddress)
			require.ErrorIs(t, err, web.ErrPrivateAddress)
			assert.Nil(t, p)
		})
	}
}

// TestServiceRedirect checks that a redirect of the service to another
// host is not followed unless AllowPrivate is set, while one within its
// host is.
func TestServiceRedirect(t *testing.T) {
	tests := []struct {
		name         string
		allowPrivate bool
		sameHost     bool
		wantErr      error
		wantHits     int32 // requests to the redirect's target
	}{
		{"another host refused", false, false, memento.ErrOffsiteRedirect, 0},
		{"another host with AllowPrivate", true, false, nil, 1},
		{"same host followed", false, true, nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			other := newCounted(t, oneMemento(func() string { return "http://archive.example/web/20110630120000/" + page }))
			service := newCounted(t, func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.URL.Path, "/moved/") {
					oneMemento(func() string { return "http://archive.example/web/20110630120000/" + page })(w, r)
					return
				}
				to := strings.Replace(other.URL, "127.0.0.1", "localhost", 1) + r.URL.Path
				if tc.sameHost {
					to = "/moved" + r.URL.Path
				}
				http.Redirect(w, r, to, http.StatusFound)
			})
			c := &memento.Client{BaseURL: service.URL, Rate: rate.Inf, Backoff: time.Millisecond, AllowPrivate: tc.allowPrivate}

			m, err := c.Last(context.Background(), page)
			assert.Equal(t, tc.wantHits, other.hits.Load(), "requests to the other host")
			if tc.wantErr != nil {
				require.ErrorIs(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, []string{"http://archive.example/web/20110630120000/" + page}, m.URIs)
		})
	}
}

// TestHostileArchive runs Fetch against archives that misbehave; each case
// must end with the error or Page it names, never hang or read without
// bound.
func TestHostileArchive(t *testing.T) {
	const maxBody = 64 << 10
	tests := []struct {
		name    string
		archive func(self func() string) http.HandlerFunc
		check   func(t *testing.T, p *filter.Page, err error)
	}{
		{
			name: "redirect loop",
			archive: func(self func() string) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					http.Redirect(w, r, r.URL.RequestURI(), http.StatusFound)
				}
			},
			check: func(t *testing.T, p *filter.Page, err error) {
				require.ErrorIs(t, err, web.ErrTooManyRedirects)
			},
		},
		{
			name: "endless body",
			archive: func(self func() string) http.HandlerFunc {
				return apitest.Endless(http.Header{"Content-Type": {"text/html"}, "Memento-Datetime": {"Thu, 30 Jun 2011 12:00:00 GMT"}}, "", "<p>again</p>")
			},
			check: func(t *testing.T, p *filter.Page, err error) {
				require.NoError(t, err)
				assert.Len(t, p.Body, maxBody)
				assert.Equal(t, "true", p.Header.Get(web.TruncatedHeader))
			},
		},
		{
			name: "hangs after the header",
			archive: func(self func() string) http.HandlerFunc {
				return apitest.HangAfterHeader("text/html", "<p>a start")
			},
			check: func(t *testing.T, p *filter.Page, err error) {
				require.ErrorIs(t, err, web.ErrTimeout)
			},
		},
		{
			name: "archive overloaded",
			archive: func(self func() string) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					http.Error(w, "<h1>Service Unavailable</h1>", http.StatusServiceUnavailable)
				}
			},
			check: func(t *testing.T, p *filter.Page, err error) {
				var se *memento.StatusError
				require.ErrorAs(t, err, &se)
				assert.Equal(t, http.StatusServiceUnavailable, se.Status)
			},
		},
		{
			name: "archive rate limits",
			archive: func(self func() string) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					http.Error(w, "slow down", http.StatusTooManyRequests)
				}
			},
			check: func(t *testing.T, p *filter.Page, err error) {
				require.ErrorIs(t, err, memento.ErrRateLimited)
			},
		},
		{
			name: "archived 503 page",
			archive: func(self func() string) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Memento-Datetime", "Thu, 30 Jun 2011 12:00:00 GMT")
					w.Header().Set("Content-Type", "text/html")
					w.WriteHeader(http.StatusServiceUnavailable)
					fmt.Fprint(w, "<title>Down for maintenance</title>")
				}
			},
			check: func(t *testing.T, p *filter.Page, err error) {
				require.NoError(t, err)
				assert.Equal(t, http.StatusServiceUnavailable, p.Status)
				assert.Equal(t, "<title>Down for maintenance</title>", string(p.Body))
			},
		},
		{
			name: "archived 429 page",
			archive: func(self func() string) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Memento-Datetime", "Thu, 30 Jun 2011 12:00:00 GMT")
					w.WriteHeader(http.StatusTooManyRequests)
					fmt.Fprint(w, "the site was rate limiting the crawler")
				}
			},
			check: func(t *testing.T, p *filter.Page, err error) {
				require.NoError(t, err)
				assert.Equal(t, http.StatusTooManyRequests, p.Status)
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var archive *counted
			archive = newCounted(t, tc.archive(func() string { return archive.URL }))
			service := newCounted(t, oneMemento(func() string { return archive.URL + "/web/20110630120000/" + page }))
			c := &memento.Client{
				BaseURL: service.URL, Rate: rate.Inf, Backoff: time.Millisecond, Attempts: 2,
				Timeout: 200 * time.Millisecond, MaxBody: maxBody, AllowPrivate: true,
			}
			p, err := c.Fetch(context.Background(), page)
			tc.check(t, p, err)
		})
	}
}

// TestHostileService runs lookups against a service that misbehaves.
func TestHostileService(t *testing.T) {
	tests := []struct {
		name    string
		handle  http.HandlerFunc
		wantErr error
	}{
		{"redirect loop", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, r.URL.RequestURI(), http.StatusFound)
		}, memento.ErrTooManyRedirects},
		{"endless answer", apitest.Endless(http.Header{"Content-Type": {"application/json"}},
			`{"mementos": {"last": {"datetime": "2011-06-30T12:00:00Z", "uri": [`, `"http://a.example/web/20110630120000/x",`), memento.ErrTooLarge},
		{"hangs after the header", apitest.HangAfterHeader("application/json", `{"mementos": `), memento.ErrTimeout},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			service := newCounted(t, tc.handle)
			c := &memento.Client{BaseURL: service.URL, Rate: rate.Inf, Backoff: time.Millisecond, Attempts: 1,
				Timeout: 200 * time.Millisecond, MaxBody: 64 << 10}
			_, err := c.Lookup(context.Background(), page, time.Time{})
			require.ErrorIs(t, err, tc.wantErr)
		})
	}
}
