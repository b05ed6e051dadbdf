package apiclient_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	"github.com/linkrot/relink/provider/internal/apiclient"
)

// testKey is the secret the tests send; it must never appear in an error.
const testKey = "s3cr3t-k3y-0123456789"

// newClient returns a Client for tests: no rate limit, tiny backoffs, three
// attempts.
func newClient() *apiclient.Client {
	return &apiclient.Client{
		Service: "test",
		Transport: apiclient.Transport{
			Rate:       rate.Inf,
			Attempts:   3,
			Backoff:    time.Millisecond,
			MaxBackoff: 2 * time.Millisecond,
			Timeout:    5 * time.Second,
		},
		Secrets: []string{"key", "X-Api-Key"},
	}
}

// newRequest returns a GET of base+path with the test key in the query and
// in a header.
func newRequest(t *testing.T, base, path string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+path+"?q=relink&key="+testKey, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Api-Key", testKey)
	return req
}

// answer is one canned HTTP answer.
type answer struct {
	status int
	header map[string]string
	body   string
}

// sequence serves the answers in turn, repeating the last one, and counts
// the requests.
func sequence(answers ...answer) (http.Handler, *atomic.Int32) {
	var n atomic.Int32
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		a := answers[min(i, len(answers)-1)]
		for k, v := range a.header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(a.status)
		fmt.Fprint(w, a.body)
	}), &n
}

type payload struct {
	Results []struct {
		URL   string `json:"url"`
		Title string `json:"title"`
	} `json:"results"`
	Total int64 `json:"total"`
}

const goodBody = `{"results":[{"url":"https://example.com/a","title":"A"}],"total":42}`

func TestGetJSON(t *testing.T) {
	ok := answer{200, map[string]string{"Content-Type": "application/json"}, goodBody}
	tests := []struct {
		name     string
		answers  []answer
		want     *payload // nil: an error is wanted
		wantIs   []error
		status   int // StatusError.Status wanted, 0 for none
		attempts int // requests the server should see
	}{
		{name: "success", answers: []answer{ok}, want: &payload{Total: 42}, attempts: 1},
		{name: "unknown fields ignored", answers: []answer{{200, nil, `{"total":1,"extra":{"x":[1,2]}}`}}, want: &payload{Total: 1}, attempts: 1},
		{name: "malformed JSON", answers: []answer{{200, nil, `{"results":[`}}, wantIs: []error{apiclient.ErrMalformed}, attempts: 1},
		{name: "HTML error page with 200", answers: []answer{{200, map[string]string{"Content-Type": "text/html"}, "<!DOCTYPE html><html><title>Oops</title></html>"}}, wantIs: []error{apiclient.ErrMalformed}, attempts: 1},
		{name: "empty body", answers: []answer{{200, nil, ""}}, wantIs: []error{apiclient.ErrMalformed}, attempts: 1},
		{name: "null body", answers: []answer{{200, nil, " null\n"}}, wantIs: []error{apiclient.ErrMalformed}, attempts: 1},
		{name: "trailing garbage", answers: []answer{{200, nil, goodBody + "<html>"}}, wantIs: []error{apiclient.ErrMalformed}, attempts: 1},
		{name: "wrong type", answers: []answer{{200, nil, `{"total":"many"}`}}, wantIs: []error{apiclient.ErrMalformed}, attempts: 1},
		{name: "binary bytes", answers: []answer{{200, nil, "\x00\xff\xfe\x01garbage"}}, wantIs: []error{apiclient.ErrMalformed}, attempts: 1},
		{name: "429 with Retry-After then success", answers: []answer{{429, map[string]string{"Retry-After": "0"}, "slow down"}, ok}, want: &payload{Total: 42}, attempts: 2},
		{name: "429 with past date then success", answers: []answer{{429, map[string]string{"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}, ""}, ok}, want: &payload{Total: 42}, attempts: 2},
		{name: "429 forever", answers: []answer{{429, nil, `{"error":"quota"}`}}, wantIs: []error{apiclient.ErrRateLimited}, status: 429, attempts: 3},
		{name: "429 asking for more than MaxWait", answers: []answer{{429, map[string]string{"Retry-After": "3600"}, ""}}, wantIs: []error{apiclient.ErrRateLimited}, status: 429, attempts: 1},
		{name: "5xx then success", answers: []answer{{502, nil, "<html>Bad Gateway</html>"}, {503, nil, ""}, ok}, want: &payload{Total: 42}, attempts: 3},
		{name: "5xx forever", answers: []answer{{500, nil, "boom"}}, status: 500, attempts: 3},
		{name: "501 is final", answers: []answer{{501, nil, ""}}, status: 501, attempts: 1},
		{name: "404 is final", answers: []answer{{404, nil, "not here"}}, status: 404, attempts: 1},
		{name: "401 unauthorized", answers: []answer{{401, nil, `{"error":"bad key"}`}}, wantIs: []error{apiclient.ErrUnauthorized}, status: 401, attempts: 1},
		{name: "403 forbidden", answers: []answer{{403, nil, ""}}, wantIs: []error{apiclient.ErrUnauthorized}, status: 403, attempts: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, n := sequence(tt.answers...)
			srv := httptest.NewServer(h)
			defer srv.Close()
			c := newClient()
			var got payload
			err := c.GetJSON(context.Background(), newRequest(t, srv.URL, "/search"), &got)
			if tt.want != nil {
				if err != nil {
					t.Fatalf("GetJSON() = %v, want nil error", err)
				}
				if got.Total != tt.want.Total {
					t.Errorf("GetJSON() total = %d, want %d", got.Total, tt.want.Total)
				}
			} else if err == nil {
				t.Fatalf("GetJSON() = nil error, want one")
			}
			for _, target := range tt.wantIs {
				if !errors.Is(err, target) {
					t.Errorf("GetJSON() = %v, want errors.Is %v", err, target)
				}
			}
			var se *apiclient.StatusError
			if gotStatus := 0; errors.As(err, &se) || tt.status != 0 {
				if se != nil {
					gotStatus = se.Status
				}
				if gotStatus != tt.status {
					t.Errorf("GetJSON() status = %d, want %d (err %v)", gotStatus, tt.status, err)
				}
			}
			if got := int(n.Load()); got != tt.attempts {
				t.Errorf("GetJSON() made %d requests, want %d", got, tt.attempts)
			}
			var e *apiclient.Error
			if err != nil && (!errors.As(err, &e) || e.Attempts != tt.attempts) {
				t.Errorf("GetJSON() = %#v, want an *Error with %d attempts", err, tt.attempts)
			}
			if err != nil && strings.Contains(err.Error(), testKey) {
				t.Errorf("GetJSON() error %q shows the key", err)
			}
		})
	}
}

func TestStatusErrorDetails(t *testing.T) {
	h, _ := sequence(answer{429, map[string]string{"Retry-After": "3600", "X-Quota": "0"}, "<html>\n\t<b>Too\x00many</b>\xff " + strings.Repeat("x", 500) + "</html>"})
	srv := httptest.NewServer(h)
	defer srv.Close()
	err := newClient().GetJSON(context.Background(), newRequest(t, srv.URL, "/"), new(payload))
	var se *apiclient.StatusError
	if !errors.As(err, &se) {
		t.Fatalf("GetJSON() = %v, want a *StatusError", err)
	}
	if se.RetryAfter != time.Hour {
		t.Errorf("RetryAfter = %v, want %v", se.RetryAfter, time.Hour)
	}
	if got := se.Header.Get("X-Quota"); got != "0" {
		t.Errorf("Header X-Quota = %q, want %q", got, "0")
	}
	wantPrefix := "<html> <b>Too\ufffdmany</b>\ufffd xxx"
	if !strings.HasPrefix(se.Snippet, wantPrefix) || !strings.HasSuffix(se.Snippet, "…") {
		t.Errorf("Snippet = %q, want prefix %q and a trailing ellipsis", se.Snippet, wantPrefix)
	}
	if got := len([]rune(se.Snippet)); got > apiclient.SnippetLen+1 {
		t.Errorf("Snippet has %d runes, want at most %d", got, apiclient.SnippetLen+1)
	}
	want := "test: GET " + srv.URL + "/?key=REDACTED&q=relink: HTTP 429 Too Many Requests (retry after 1h0m0s): <html>"
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("GetJSON() = %q, want prefix %q", err, want)
	}
}

func TestMalformedWrapsDecoderError(t *testing.T) {
	h, _ := sequence(answer{200, nil, "<!DOCTYPE html><p>Service unavailable</p>"})
	srv := httptest.NewServer(h)
	defer srv.Close()
	err := newClient().GetJSON(context.Background(), newRequest(t, srv.URL, "/"), new(payload))
	var syntax *json.SyntaxError
	if !errors.Is(err, apiclient.ErrMalformed) || !errors.As(err, &syntax) {
		t.Fatalf("GetJSON() = %v, want ErrMalformed and a *json.SyntaxError", err)
	}
	if !strings.Contains(err.Error(), `body "<!DOCTYPE html><p>Service unavailable</p>"`) {
		t.Errorf("GetJSON() = %q, want it to quote the body", err)
	}
}

func TestHangTimesOut(t *testing.T) {
	released := make(chan struct{}, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // the client gave up and closed the connection
		released <- struct{}{}
	}))
	defer srv.Close()
	c := newClient()
	c.Attempts = 2
	c.Timeout = 50 * time.Millisecond
	err := c.GetJSON(context.Background(), newRequest(t, srv.URL, "/"), new(payload))
	if !errors.Is(err, apiclient.ErrTimeout) {
		t.Fatalf("GetJSON() = %v, want ErrTimeout", err)
	}
	for range 2 {
		<-released // each attempt's connection was closed: nothing left hanging
	}
}

func TestTrickleTimesOut(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		fmt.Fprint(w, `{"results":[`)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	c := newClient()
	c.Attempts = 1
	c.Timeout = 50 * time.Millisecond
	err := c.GetJSON(context.Background(), newRequest(t, srv.URL, "/"), new(payload))
	if !errors.Is(err, apiclient.ErrTimeout) {
		t.Fatalf("GetJSON() = %v, want ErrTimeout", err)
	}
}

func TestContextCancelDuringBackoff(t *testing.T) {
	h, n := sequence(answer{503, nil, ""})
	srv := httptest.NewServer(h)
	defer srv.Close()
	c := newClient()
	c.Attempts = 5
	c.Backoff = time.Hour
	c.MaxBackoff = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	c.HTTP = &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		defer cancel() // cancel once the first answer is in
		return http.DefaultTransport.RoundTrip(r)
	})}
	err := c.GetJSON(ctx, newRequest(t, srv.URL, "/"), new(payload))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("GetJSON() = %v, want context.Canceled", err)
	}
	if got := n.Load(); got != 1 {
		t.Errorf("GetJSON() made %d requests, want 1", got)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestHugeBody(t *testing.T) {
	huge := `{"results":[` + strings.Repeat(`{"url":"https://example.com/","title":"x"},`, 100_000) + `{}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, huge)
	}))
	defer srv.Close()
	c := newClient()
	c.MaxBody = 1 << 10

	err := c.GetJSON(context.Background(), newRequest(t, srv.URL, "/"), new(payload))
	if !errors.Is(err, apiclient.ErrTooLarge) {
		t.Errorf("GetJSON() = %v, want ErrTooLarge", err)
	}

	resp, err := c.GetBytes(context.Background(), newRequest(t, srv.URL, "/"))
	if err != nil {
		t.Fatalf("GetBytes() = %v", err)
	}
	if !resp.Truncated || int64(len(resp.Body)) != c.MaxBody || string(resp.Body) != huge[:c.MaxBody] {
		t.Errorf("GetBytes() = %d bytes, truncated %v; want the first %d bytes, truncated", len(resp.Body), resp.Truncated, c.MaxBody)
	}
}

func TestRedirects(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.String(), http.StatusFound)
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/target?"+r.URL.RawQuery, http.StatusMovedPermanently)
	})
	mux.HandleFunc("/target", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, goodBody)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	t.Run("loop", func(t *testing.T) {
		err := newClient().GetJSON(context.Background(), newRequest(t, srv.URL, "/loop"), new(payload))
		if !errors.Is(err, apiclient.ErrTooManyRedirects) {
			t.Fatalf("GetJSON() = %v, want ErrTooManyRedirects", err)
		}
		var e *apiclient.Error
		if !errors.As(err, &e) || e.Attempts != 1 {
			t.Errorf("GetJSON() = %v, want one attempt", err)
		}
		if strings.Contains(err.Error(), testKey) {
			t.Errorf("GetJSON() = %q shows the key", err)
		}
	})
	t.Run("followed", func(t *testing.T) {
		resp, err := newClient().GetBytes(context.Background(), newRequest(t, srv.URL, "/moved"))
		if err != nil {
			t.Fatalf("GetBytes() = %v", err)
		}
		want := srv.URL + "/target?key=REDACTED&q=relink"
		if resp.URL != want {
			t.Errorf("GetBytes() URL = %q, want %q", resp.URL, want)
		}
	})
	t.Run("not followed", func(t *testing.T) {
		c := newClient()
		c.MaxRedirects = -1
		resp, err := c.Do(context.Background(), newRequest(t, srv.URL, "/moved"))
		if err != nil {
			t.Fatalf("Do() = %v", err)
		}
		if resp.Status != http.StatusMovedPermanently {
			t.Errorf("Do() status = %d, want %d", resp.Status, http.StatusMovedPermanently)
		}
	})
}

// TestRedirectToOtherHost checks issue 12's first failure: a redirect to
// another host must carry no key there, in no header, parameter or
// Referer, and by default must not be followed at all.
func TestRedirectToOtherHost(t *testing.T) {
	tests := []struct {
		name      string
		crossHost bool
		location  func(other string, r *http.Request) string
		wantSeen  bool  // the other host gets a request
		wantErr   error // nil: success
	}{
		{"refused by default", false, func(o string, r *http.Request) string { return o + r.URL.RequestURI() }, false, apiclient.ErrRedirectRefused},
		{"allowed, same query", true, func(o string, r *http.Request) string { return o + r.URL.RequestURI() }, true, nil},
		{"allowed, plain path", true, func(o string, r *http.Request) string { return o + "/" }, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var seen atomic.Value
			other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var b strings.Builder
				fmt.Fprintf(&b, "%s\n", r.URL)
				for name, vs := range r.Header {
					fmt.Fprintf(&b, "%s: %s\n", name, strings.Join(vs, ", "))
				}
				seen.Store(b.String())
				fmt.Fprint(w, goodBody)
			}))
			defer other.Close()
			// other's URL names 127.0.0.1; this one is reached as localhost,
			// so the redirect crosses hosts.
			first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, tt.location(other.URL, r), http.StatusFound)
			}))
			defer first.Close()
			u, _ := url.Parse(first.URL)
			req := newRequest(t, "http://localhost:"+u.Port(), "/")
			req.Header.Set("X-Plain", "visible")
			req.Header.Set("Authorization", "Bearer "+testKey)
			c := newClient()
			c.CrossHostRedirects = tt.crossHost
			err := c.GetJSON(context.Background(), req, new(payload))
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.NotContains(t, err.Error(), testKey)
			} else {
				require.NoError(t, err)
			}
			got, _ := seen.Load().(string)
			require.Equal(t, tt.wantSeen, got != "", "the other host got a request: %q", got)
			assert.NotContains(t, got, testKey, "the other host saw the key")
			assert.NotContains(t, got, "Referer", "the other host got a Referer")
			if tt.wantSeen {
				assert.Contains(t, got, "X-Plain: visible", "a header that is no secret was dropped")
			}
		})
	}
}

// TestNoReferer checks that a same-host redirect carries no Referer either.
func TestNoReferer(t *testing.T) {
	var referer atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
			return
		}
		referer.Store(r.Header.Get("Referer") + "|")
		fmt.Fprint(w, goodBody)
	}))
	defer srv.Close()
	req := newRequest(t, srv.URL, "/old")
	req.Header.Set("Referer", "https://secret.example/?key="+testKey)
	require.NoError(t, newClient().GetJSON(context.Background(), req, new(payload)))
	assert.Equal(t, "|", referer.Load(), "Referer sent")
}

// TestCallerCheckRedirectCannotLoosen checks that a caller's CheckRedirect
// runs after the Client's policy, which it cannot switch off.
func TestCallerCheckRedirectCannotLoosen(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, goodBody) }))
	defer other.Close()
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/", http.StatusFound)
	}))
	defer first.Close()
	u, _ := url.Parse(first.URL)
	called := false
	c := newClient()
	c.HTTP = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { called = true; return nil }}
	err := c.GetJSON(context.Background(), newRequest(t, "http://localhost:"+u.Port(), "/"), new(payload))
	require.ErrorIs(t, err, apiclient.ErrRedirectRefused)
	assert.False(t, called, "the caller's CheckRedirect ran before the refusal")
}

func TestUserAgent(t *testing.T) {
	tests := []struct {
		name, clientUA, requestUA, want string
	}{
		{"default", "", "", apiclient.DefaultUserAgent},
		{"client's", "mybot/1.0", "", "mybot/1.0"},
		{"request's own", "mybot/1.0", "other/2.0", "other/2.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got atomic.Value
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got.Store(r.UserAgent())
				fmt.Fprint(w, goodBody)
			}))
			defer srv.Close()
			c := newClient()
			c.UserAgent = tt.clientUA
			req := newRequest(t, srv.URL, "/")
			if tt.requestUA != "" {
				req.Header.Set("User-Agent", tt.requestUA)
			}
			if err := c.GetJSON(context.Background(), req, new(payload)); err != nil {
				t.Fatalf("GetJSON() = %v", err)
			}
			if got.Load() != tt.want {
				t.Errorf("User-Agent = %q, want %q", got.Load(), tt.want)
			}
		})
	}
}

func TestRedaction(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close() // nothing listens here any more: connection refused

	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, "bad request for %s with %s", r.URL.RequestURI(), r.Header.Get("X-Api-Key"))
	}))
	defer echo.Close()

	pathKey := "pathKEY-987654321"
	tests := []struct {
		name string
		base string
		path string
	}{
		{"connection refused (*url.Error)", closedURL, "/search"},
		{"server echoes the request", echo.URL, "/search"},
		{"key in the path", echo.URL, "/" + pathKey + "/search"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClient()
			c.Attempts = 2
			c.Redact = []string{pathKey}
			err := c.GetJSON(context.Background(), newRequest(t, tt.base, tt.path), new(payload))
			if err == nil {
				t.Fatal("GetJSON() = nil error, want one")
			}
			msgs := []string{err.Error(), fmt.Sprintf("%v %+v %#v", err, err, err)}
			var ue *url.Error
			if errors.As(err, &ue) {
				msgs = append(msgs, ue.Error(), ue.URL)
			}
			for e := error(err); e != nil; e = errors.Unwrap(e) {
				msgs = append(msgs, e.Error())
			}
			for _, m := range msgs {
				if strings.Contains(m, testKey) || strings.Contains(m, pathKey) {
					t.Errorf("error text %q shows a secret", m)
				}
			}
			if !strings.Contains(err.Error(), "REDACTED") {
				t.Errorf("GetJSON() = %q, want REDACTED in place of the key", err)
			}
		})
	}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%d", "%x"} {
		if got := fmt.Sprintf(verb, &apiclient.Client{Service: "x", Redact: []string{pathKey}}); strings.Contains(got, pathKey) {
			t.Errorf("Sprintf(%q, client) = %q shows a secret", verb, got)
		}
	}
}

func TestGetBytes(t *testing.T) {
	h, _ := sequence(answer{503, nil, ""}, answer{200, map[string]string{"Content-Type": "text/html"}, "<html>capture</html>"})
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := newClient().GetBytes(context.Background(), newRequest(t, srv.URL, "/web/2020/x"))
	if err != nil {
		t.Fatalf("GetBytes() = %v", err)
	}
	got := struct {
		Status int
		Body   string
		Type   string
	}{resp.Status, string(resp.Body), resp.Header.Get("Content-Type")}
	want := struct {
		Status int
		Body   string
		Type   string
	}{200, "<html>capture</html>", "text/html"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("GetBytes() (-want +got):\n%s", diff)
	}

	h404, _ := sequence(answer{404, map[string]string{"Link": `<x>; rel="timemap"`}, "none"})
	srv404 := httptest.NewServer(h404)
	defer srv404.Close()
	_, err = newClient().GetBytes(context.Background(), newRequest(t, srv404.URL, "/"))
	var se *apiclient.StatusError
	if !errors.As(err, &se) || se.Status != 404 || se.Header.Get("Link") == "" {
		t.Errorf("GetBytes() = %v, want a *StatusError 404 with its Link header", err)
	}
}

func TestRequestWithBody(t *testing.T) {
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b := new(strings.Builder)
		_, _ = fmt.Fprint(b, r.ContentLength)
		bodies = append(bodies, b.String())
		if len(bodies) == 1 {
			w.WriteHeader(503)
			return
		}
		fmt.Fprint(w, goodBody)
	}))
	defer srv.Close()
	req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader("q=relink"))
	if err != nil {
		t.Fatal(err)
	}
	if err := newClient().GetJSON(context.Background(), req, new(payload)); err != nil {
		t.Fatalf("GetJSON(POST) = %v", err)
	}
	if diff := cmp.Diff([]string{"8", "8"}, bodies); diff != "" {
		t.Errorf("content lengths sent (-want +got):\n%s", diff)
	}

	once, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader("q"))
	if err != nil {
		t.Fatal(err)
	}
	once.GetBody = nil
	if err := newClient().GetJSON(context.Background(), once, new(payload)); err == nil {
		t.Errorf("GetJSON(body without GetBody) = nil error, want one")
	}
}

func TestRateLimitWaitPastDeadline(t *testing.T) {
	h, n := sequence(answer{200, nil, goodBody})
	srv := httptest.NewServer(h)
	defer srv.Close()
	c := newClient()
	c.Rate = rate.Every(time.Hour) // one request, then none for an hour
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.GetJSON(ctx, newRequest(t, srv.URL, "/"), new(payload)); err != nil {
		t.Fatalf("first GetJSON() = %v", err)
	}
	err := c.GetJSON(ctx, newRequest(t, srv.URL, "/"), new(payload))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("second GetJSON() = %v, want context.DeadlineExceeded", err)
	}
	if got := n.Load(); got != 1 {
		t.Errorf("server saw %d requests, want 1", got)
	}
}

// TestRateInfinity checks that +Inf, what strconv.ParseFloat makes of
// "inf", means no limit as rate.Inf does: many requests at once, no wait.
func TestRateInfinity(t *testing.T) {
	h, n := sequence(answer{200, nil, goodBody})
	srv := httptest.NewServer(h)
	defer srv.Close()
	c := newClient()
	c.Rate = rate.Limit(math.Inf(1))
	// A limiter that counted tokens at this rate would stop here: its
	// arithmetic gives NaN, not "no limit".
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := range 20 {
		if err := c.GetJSON(ctx, newRequest(t, srv.URL, "/"), new(payload)); err != nil {
			t.Fatalf("GetJSON() #%d = %v", i+1, err)
		}
	}
	if got := n.Load(); got != 20 {
		t.Errorf("server saw %d requests, want 20", got)
	}
}

func TestNewGet(t *testing.T) {
	base, err := apiclient.ParseBaseURL("test", "https://api.example/v1/search?country=gb&q=old", "")
	if err != nil {
		t.Fatal(err)
	}
	req := apiclient.NewGet(base, url.Values{"q": {"a b"}, "n": {"2"}}, http.Header{"X-KEY": {"k"}})
	if got, want := req.URL.String(), "https://api.example/v1/search?country=gb&n=2&q=a+b"; got != want {
		t.Errorf("NewGet() URL = %q, want %q", got, want)
	}
	if base.RawQuery != "country=gb&q=old" {
		t.Errorf("NewGet() changed base to %q", base)
	}
	if req.Method != http.MethodGet || req.Header.Get("X-Key") != "k" {
		t.Errorf("NewGet() = %s with header %v", req.Method, req.Header)
	}
}

func TestParseBaseURL(t *testing.T) {
	tests := []struct {
		name, raw, fallback, want string
		wantErr                   bool
	}{
		{"fallback", "", "https://api.example/", "https://api.example/", false},
		{"given", "http://127.0.0.1:8080/x", "https://api.example/", "http://127.0.0.1:8080/x", false},
		{"relative", "/search", "", "", true},
		{"other scheme", "ftp://example.com/", "", "", true},
		{"no host", "https:///path", "", "", true},
		{"unparsable", "http://[::1", "", "", true},
		{"unparsable with a password", "http://user:hunter2@[::1", "", "", true},
		{"password in another scheme", "ftp://user:hunter2@example.com/", "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := apiclient.ParseBaseURL("svc", tt.raw, tt.fallback)
			if (err != nil) != tt.wantErr {
				t.Fatalf("ParseBaseURL(%q) = %v, want error %v", tt.raw, err, tt.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "hunter2") {
				t.Errorf("ParseBaseURL(%q) = %v, which shows the password", tt.raw, err)
			}
			if err == nil && got.String() != tt.want {
				t.Errorf("ParseBaseURL(%q) = %q, want %q", tt.raw, got, tt.want)
			}
		})
	}
}

// FuzzGetJSON serves any bytes and checks that GetJSON either decodes
// them or fails with ErrMalformed, never panics, and never quotes more
// than a snippet.
func FuzzGetJSON(f *testing.F) {
	for _, s := range []string{goodBody, "", "null", "<html>", "{\"results\":[", "\xff\xfe{}", `{"total":"x"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
		defer srv.Close()
		c := newClient()
		c.Attempts = 1
		err := c.GetJSON(context.Background(), newRequest(t, srv.URL, "/"), new(payload))
		if err == nil {
			return
		}
		if !errors.Is(err, apiclient.ErrMalformed) {
			t.Fatalf("GetJSON(%q) = %v, want nil or ErrMalformed", body, err)
		}
		if len(err.Error()) > 1000 {
			t.Fatalf("GetJSON(%q) error is %d bytes long", body, len(err.Error()))
		}
	})
}

// TestEchoedCredentialsRedacted checks issue 12's minor failure: a server
// that echoes the request's Authorization header (basic credentials from
// the URL, base64-encoded) or a key in its body shows neither in an error,
// even where the snippet's cut falls inside the secret.
func TestEchoedCredentialsRedacted(t *testing.T) {
	const user, password = "relink", "pa55-w0rd-Secret"
	basic := base64.StdEncoding.EncodeToString([]byte(user + ":" + password))
	tests := []struct {
		name   string
		status int
		body   func(r *http.Request) string
	}{
		{"Authorization echoed in a 401", 401, func(r *http.Request) string { return "denied: " + r.Header.Get("Authorization") }},
		{"Authorization echoed in a 200 that is not JSON", 200, func(r *http.Request) string { return "<pre>" + r.Header.Get("Authorization") + "</pre>" }},
		{"cut falls inside the base64", 500, func(r *http.Request) string {
			return strings.Repeat("x", apiclient.SnippetLen-10) + r.Header.Get("Authorization")
		}},
		{"key in base64", 403, func(r *http.Request) string { return base64.StdEncoding.EncodeToString([]byte(testKey)) }},
		{"key in URL-safe base64 without padding", 403, func(r *http.Request) string {
			return base64.RawURLEncoding.EncodeToString([]byte(testKey))
		}},
		{"password in the clear", 400, func(r *http.Request) string { return "bad password " + password }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				fmt.Fprint(w, tt.body(r))
			}))
			defer srv.Close()
			u, err := url.Parse(srv.URL)
			require.NoError(t, err)
			u.User = url.UserPassword(user, password)
			req := newRequest(t, u.String(), "/search")
			c := newClient()
			c.Attempts = 1
			err = c.GetJSON(context.Background(), req, new(payload))
			require.Error(t, err)
			msg := fmt.Sprintf("%v %+v", err, err)
			for _, secret := range []string{password, basic, basic[:len(basic)-4], testKey} {
				assert.NotContains(t, msg, secret)
			}
			assert.Contains(t, msg, apiclient.Redacted)
		})
	}
}
