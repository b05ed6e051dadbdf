package wayback_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/internal/apiclient/apitest"
	"github.com/linkrot/relink/provider/wayback"
	"github.com/linkrot/relink/provider/web"
)

// cdxHeader is the first row of a CDX JSON answer with the fields Captures
// asks for.
const cdxHeader = `["urlkey","timestamp","original","mimetype","statuscode","digest","length"]`

// cdxRow returns a row of a CDX JSON answer for page.
func cdxRow(ts, status string) string {
	return fmt.Sprintf(`["com,example)/old/page.html",%q,%q,"text/html",%q,"AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH","2310"]`, ts, page, status)
}

// TestCDXBadRow checks that a row that cannot be a capture, such as the
// Internet Archive's "20000012170449" (month zero), is skipped and
// reported, not a failure of the whole answer.
func TestCDXBadRow(t *testing.T) {
	tests := []struct {
		name      string
		rows      []string
		wantTimes []string
		wantSkips []int // rows skipped
		wantErr   error
	}{
		{
			name:      "month zero among good rows",
			rows:      []string{cdxRow("19990125085330", "200"), cdxRow("20000012170449", "200"), cdxRow("20010203040506", "404")},
			wantTimes: []string{"19990125085330", "20010203040506"},
			wantSkips: []int{2},
		},
		{
			name: "every kind of bad row",
			rows: []string{
				cdxRow("2000", "200"), cdxRow("20000101000000", "OK"), cdxRow("20000101000000", "-1"),
				`["com,example)/old/page.html","20000101000000"]`, cdxRow("20020202020202", "-"),
				`["com,example)/","20000101000000","","text/html","200","A","1"]`,
				`["com,example)/","20000101000000","http://example.com/","text/html","200","A","-5"]`,
			},
			wantTimes: []string{"20020202020202"},
			wantSkips: []int{1, 2, 3, 4, 6, 7},
		},
		{
			name:      "every row bad",
			rows:      []string{cdxRow("20000012170449", "200")},
			wantSkips: []int{1},
			wantErr:   wayback.ErrMalformed,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, "[%s,\n%s]\n", cdxHeader, strings.Join(tc.rows, ",\n"))
			}))
			defer srv.Close()
			c := &wayback.Client{BaseURL: srv.URL, Rate: rate.Inf}
			var skipped []int
			caps, err := c.Captures(context.Background(), page, &wayback.Query{OnSkip: func(re *wayback.RowError) {
				assert.ErrorIs(t, re, wayback.ErrMalformed)
				skipped = append(skipped, re.Row)
			}})
			if diff := cmp.Diff(tc.wantSkips, skipped); diff != "" {
				t.Errorf("rows skipped (-want +got):\n%s", diff)
			}
			if tc.wantErr != nil {
				require.ErrorIs(t, err, tc.wantErr)
				var re *wayback.RowError
				require.ErrorAs(t, err, &re)
				assert.Equal(t, tc.wantSkips[0], re.Row)
				return
			}
			require.NoError(t, err)
			var times []string
			for _, cp := range caps {
				times = append(times, cp.Timestamp())
			}
			if diff := cmp.Diff(tc.wantTimes, times); diff != "" {
				t.Errorf("captures (-want +got):\n%s", diff)
			}
		})
	}
}

// hostileArchive is an archive whose CDX API lists one good capture of page
// and whose replays are answered by replay.
func hostileArchive(t *testing.T, replay http.HandlerFunc) *wayback.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/cdx/search/cdx":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, "[%s,\n%s]\n", cdxHeader, cdxRow("20070806193004", "200"))
		case strings.HasPrefix(r.URL.Path, "/web/"):
			replay(w, r)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return &wayback.Client{BaseURL: srv.URL, AvailabilityURL: srv.URL + "/available", Rate: rate.Inf, ReplayRate: rate.Inf, RateLimitPause: 10 * time.Millisecond,
		Backoff: time.Millisecond, Attempts: 2, Timeout: 200 * time.Millisecond, MaxBody: 64 << 10}
}

// TestHostileReplay runs LastGood against replays that misbehave; each case
// must end with the error or Page it names, never hang, read without bound
// or leave the archive.
func TestHostileReplay(t *testing.T) {
	var internalHits atomic.Int32
	internal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		internalHits.Add(1)
		fmt.Fprint(w, "<title>internal admin console</title>")
	}))
	defer internal.Close()
	archived := func(w http.ResponseWriter, status int, body string) {
		w.Header().Set("Memento-Datetime", "Mon, 06 Aug 2007 19:30:04 GMT")
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}
	tests := []struct {
		name   string
		replay http.HandlerFunc
		check  func(t *testing.T, p *filter.Page, err error)
	}{
		{
			name: "redirect to an internal host",
			replay: func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, internal.URL+"/admin", http.StatusFound)
			},
			check: func(t *testing.T, p *filter.Page, err error) {
				require.NoError(t, err) // the redirect is the answer, not followed
				assert.Equal(t, http.StatusFound, p.Status)
			},
		},
		{
			name: "redirect loop within the archive",
			replay: func(w http.ResponseWriter, r *http.Request) {
				next := "/web/20070806193005id_/" + page
				if strings.Contains(r.URL.Path, "20070806193005") {
					next = "/web/20070806193004id_/" + page
				}
				w.Header().Set("Location", next)
				w.WriteHeader(http.StatusFound)
			},
			check: func(t *testing.T, p *filter.Page, err error) {
				require.NoError(t, err) // MaxHops ends it
				assert.Equal(t, http.StatusFound, p.Status)
			},
		},
		{
			name:   "endless body",
			replay: apitest.Endless(http.Header{"Memento-Datetime": {"Mon, 06 Aug 2007 19:30:04 GMT"}}, "", "<p>again</p>"),
			check: func(t *testing.T, p *filter.Page, err error) {
				require.NoError(t, err)
				assert.Len(t, p.Body, 64<<10)
				assert.Equal(t, "true", p.Header.Get(web.TruncatedHeader))
			},
		},
		{
			name:   "hangs after the header",
			replay: apitest.HangAfterHeader("text/html", "<p>a start"),
			check: func(t *testing.T, p *filter.Page, err error) {
				require.ErrorIs(t, err, wayback.ErrTimeout)
			},
		},
		{
			name: "archive overloaded",
			replay: func(w http.ResponseWriter, r *http.Request) {
				http.Error(w, "<h1>Service Unavailable</h1>", http.StatusServiceUnavailable)
			},
			check: func(t *testing.T, p *filter.Page, err error) {
				var se *wayback.StatusError
				require.ErrorAs(t, err, &se)
				assert.Equal(t, http.StatusServiceUnavailable, se.Status)
			},
		},
		{
			name: "archive rate limits",
			replay: func(w http.ResponseWriter, r *http.Request) {
				http.Error(w, "slow down", http.StatusTooManyRequests)
			},
			check: func(t *testing.T, p *filter.Page, err error) {
				require.ErrorIs(t, err, wayback.ErrRateLimited)
			},
		},
		{
			name: "archived 503 page",
			replay: func(w http.ResponseWriter, r *http.Request) {
				archived(w, http.StatusServiceUnavailable, "<title>Down for maintenance</title>")
			},
			check: func(t *testing.T, p *filter.Page, err error) {
				require.NoError(t, err)
				assert.Equal(t, http.StatusServiceUnavailable, p.Status)
				assert.Equal(t, "<title>Down for maintenance</title>", string(p.Body))
			},
		},
		{
			name: "archived 429 page",
			replay: func(w http.ResponseWriter, r *http.Request) {
				archived(w, http.StatusTooManyRequests, "the site was rate limiting the crawler")
			},
			check: func(t *testing.T, p *filter.Page, err error) {
				require.NoError(t, err)
				assert.Equal(t, http.StatusTooManyRequests, p.Status)
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := hostileArchive(t, tc.replay)
			p, err := c.LastGood(context.Background(), page)
			tc.check(t, p, err)
			assert.Zero(t, internalHits.Load(), "requests to the internal host")
		})
	}
}

// TestAnswerNamesAnotherHost checks that the availability API and the
// redirect captures naming another host's URL make the Client fetch
// nothing there: Available reports the URL, Redirects reads the Location.
func TestAnswerNamesAnotherHost(t *testing.T) {
	var internalHits atomic.Int32
	internal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		internalHits.Add(1)
	}))
	defer internal.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/available":
			fmt.Fprintf(w, `{"archived_snapshots": {"closest": {"available": true, "url": %q, "timestamp": "20070806193004", "status": "200"}}}`, internal.URL+"/web/20070806193004/"+page)
		case r.URL.Path == "/cdx/search/cdx":
			fmt.Fprintf(w, "[%s,\n%s]\n", cdxHeader, cdxRow("20070806193004", "302"))
		default:
			w.Header().Set("Memento-Datetime", "Mon, 06 Aug 2007 19:30:04 GMT")
			http.Redirect(w, r, internal.URL+"/new", http.StatusFound)
		}
	}))
	defer srv.Close()
	c := &wayback.Client{BaseURL: srv.URL, AvailabilityURL: srv.URL + "/available", Rate: rate.Inf, MaxHops: 3}

	s, err := c.Available(context.Background(), page, time.Time{})
	require.NoError(t, err)
	assert.Equal(t, internal.URL+"/web/20070806193004/"+page, s.URL)

	rs, err := c.Redirects(context.Background(), page)
	require.NoError(t, err)
	require.Len(t, rs, 1)
	assert.Equal(t, internal.URL+"/new", rs[0].Hops[0].To)
	assert.Zero(t, internalHits.Load(), "requests to the other host")
}
