package mediawiki

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	"github.com/linkrot/relink/backlink"
)

// link is an external link of a fake wiki's page.
type link struct {
	title, url string
	ns         int
}

// fakeWiki answers the Action API as MediaWiki 1.4x does (formatversion=2):
// list=exturlusage over links, a prefix match of euquery under
// euprotocol, pages of eulimit with "continue", and meta=siteinfo. lag
// answers maxlag errors to the first lag requests that send maxlag.
type fakeWiki struct {
	t     *testing.T
	links []link
	mu    sync.Mutex
	lag   int
	reqs  []map[string]string
	// inFlight counts requests being answered, to check they are serial.
	inFlight, most int
}

func (f *fakeWiki) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.inFlight++
	f.most = max(f.most, f.inFlight)
	q := map[string]string{}
	for k := range r.URL.Query() {
		q[k] = r.URL.Query().Get(k)
	}
	f.reqs = append(f.reqs, q)
	lagged := f.lag > 0 && q["maxlag"] != ""
	if lagged {
		f.lag--
	}
	f.mu.Unlock()
	defer func() { f.mu.Lock(); f.inFlight--; f.mu.Unlock() }()
	time.Sleep(time.Millisecond) // let a concurrent request overlap, if the client sent one
	if !strings.HasPrefix(r.UserAgent(), "relink/") {
		f.t.Errorf("User-Agent %q", r.UserAgent())
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	apiErr := func(code, info string) {
		w.Header().Set("MediaWiki-API-Error", code)
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": code, "info": info, "docref": "See /w/api.php"}, "servedby": "mw-test"})
	}
	switch {
	case q["format"] != "json" || q["formatversion"] != "2":
		apiErr("badvalue", "format")
	case lagged:
		w.Header().Set("Retry-After", "5")
		w.Header().Set("X-Database-Lag", "7")
		apiErr("maxlag", "Waiting for 10.64.0.1: 7 seconds lagged.")
	case q["meta"] == "siteinfo":
		json.NewEncoder(w).Encode(map[string]any{"batchcomplete": true, "query": map[string]any{"general": map[string]any{
			"mainpage": "Main Page", "server": "//wiki.test", "articlepath": "/wiki/$1", "scriptpath": "/w"}}})
	case q["list"] == "exturlusage":
		f.exturlusage(w, q, apiErr)
	default:
		apiErr("badvalue", "Unrecognized value for parameter \"list\"")
	}
}

func (f *fakeWiki) exturlusage(w http.ResponseWriter, q map[string]string, apiErr func(code, info string)) {
	if strings.Contains(q["euquery"], "://") {
		apiErr("invalidparammix", "euquery holds a protocol")
		return
	}
	limit, _ := strconv.Atoi(q["eulimit"])
	if limit < 1 || limit > MaxLimit {
		apiErr("badinteger", "eulimit")
		return
	}
	offset := 0
	if c := q["eucontinue"]; c != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(c, "http|"))
		if err != nil {
			apiErr("badcontinue", "Invalid continue param.")
			return
		}
		offset = n
	}
	var found []map[string]any
	for _, l := range f.links {
		scheme, rest, _ := strings.Cut(l.url, "://")
		if scheme == q["euprotocol"] && strings.HasPrefix(rest, q["euquery"]) && strconv.Itoa(l.ns) == q["eunamespace"] {
			found = append(found, map[string]any{"ns": l.ns, "title": l.title, "url": l.url})
		}
	}
	out := map[string]any{"batchcomplete": true}
	end := min(offset+limit, len(found))
	if end < len(found) {
		out["continue"] = map[string]string{"eucontinue": "http|" + strconv.Itoa(end), "continue": "-||"}
	}
	out["query"] = map[string]any{"exturlusage": found[min(offset, len(found)):end]}
	json.NewEncoder(w).Encode(out)
}

func newClient(t *testing.T, f *fakeWiki) (*Client, *[]time.Duration) {
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	var slept []time.Duration
	c := &Client{Endpoint: srv.URL + "/w/api.php", Rate: rate.Inf}
	c.init()
	c.sleep = func(ctx context.Context, d time.Duration) error { slept = append(slept, d); return nil }
	return c, &slept
}

var citing = []link{
	{"Lexical signature", "http://old.example/a.html", 0},
	{"Link rot", "https://old.example/a.html", 0},
	{"Link rot", "http://old.example/a.html", 0},                // cited twice
	{"Web archiving", "http://old.example/a.html#section", 0},   // a fragment is the same URI
	{"Talk:Link rot", "http://old.example/a.html", 1},           // another namespace
	{"About pages", "http://old.example/a.html.bak", 0},         // a longer URI the prefix matches
	{"Café (disambiguation)", "https://old.example/a.html/", 0}, // one trailing slash is the same URI
	{"Other", "http://other.example/a.html", 0},
}

func TestBacklinks(t *testing.T) {
	f := &fakeWiki{t: t, links: citing}
	c, _ := newClient(t, f)
	got, err := c.Backlinks(context.Background(), "https://old.example/a.html", 10)
	require.NoError(t, err)
	const via = "https://old.example/a.html"
	want := []backlink.Backlink{
		{URI: "http://wiki.test/wiki/Lexical_signature", Rank: 1, Level: 1, Via: via},
		{URI: "http://wiki.test/wiki/Link_rot", Rank: 2, Level: 1, Via: via},
		{URI: "http://wiki.test/wiki/Web_archiving", Rank: 3, Level: 1, Via: via},
		{URI: "http://wiki.test/wiki/Caf%C3%A9_(disambiguation)", Rank: 4, Level: 1, Via: via},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Backlinks (-want +got):\n%s", diff)
	}
	// The requests: http, https, then siteinfo; euquery without scheme.
	require.Len(t, f.reqs, 3)
	for i, proto := range []string{"http", "https"} {
		r := f.reqs[i]
		for k, v := range map[string]string{"action": "query", "list": "exturlusage", "euquery": "old.example/a.html",
			"euprotocol": proto, "eunamespace": "0", "euprop": "title|url", "maxlag": "5"} {
			if r[k] != v {
				t.Errorf("request %d: %s=%q, want %q", i+1, k, r[k], v)
			}
		}
	}
	if f.most != 1 {
		t.Errorf("%d requests at once, want 1", f.most)
	}
	// The article path is asked once.
	_, err = c.Backlinks(context.Background(), "http://other.example/a.html", 10)
	require.NoError(t, err)
	if n := len(f.reqs); n != 5 {
		t.Errorf("%d requests after a second call, want 5 (no second siteinfo)", n)
	}
}

// TestContinuation follows "continue" across pages of MaxLimit and stops
// at limit.
func TestContinuation(t *testing.T) {
	var links []link
	for i := range 1200 {
		links = append(links, link{title: "Page " + strconv.Itoa(i), url: "http://old.example/a", ns: 0})
	}
	f := &fakeWiki{t: t, links: links}
	c, _ := newClient(t, f)
	c.ArticlePath = "https://wiki.test/wiki/$1"
	c.article = c.ArticlePath
	got, err := c.Backlinks(context.Background(), "http://old.example/a", 1100)
	require.NoError(t, err)
	if len(got) != 1100 || got[1099].URI != "https://wiki.test/wiki/Page_1099" || got[1099].Rank != 1100 {
		t.Fatalf("got %d backlinks, last %+v", len(got), got[len(got)-1])
	}
	if len(f.reqs) != 3 || f.reqs[1]["eucontinue"] != "http|500" || f.reqs[1]["continue"] != "-||" {
		t.Errorf("requests %v, want three with the continuation sent back", f.reqs)
	}
}

func TestMaxLag(t *testing.T) {
	f := &fakeWiki{t: t, links: citing, lag: 2}
	c, slept := newClient(t, f)
	got, err := c.Backlinks(context.Background(), "http://old.example/a.html", 1)
	require.NoError(t, err)
	require.Len(t, got, 1)
	if diff := cmp.Diff([]time.Duration{5 * time.Second, 5 * time.Second}, *slept); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}

	f = &fakeWiki{t: t, links: citing, lag: 100}
	c, _ = newClient(t, f)
	_, err = c.Backlinks(context.Background(), "http://old.example/a.html", 1)
	require.ErrorIs(t, err, ErrMaxLag)
	require.ErrorIs(t, err, ErrAPI)
	if len(f.reqs) != MaxLagAttempts {
		t.Errorf("%d requests, want %d", len(f.reqs), MaxLagAttempts)
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	f := &fakeWiki{t: t}
	c, _ := newClient(t, f)
	for _, uri := range []string{"", "ftp://old.example/a", "/relative", "mailto:a@example.com"} {
		if _, err := c.Backlinks(ctx, uri, 10); err == nil {
			t.Errorf("Backlinks(%q) = nil error", uri)
		}
	}
	require.Empty(t, f.reqs, "a bad URI sends nothing")

	// An error answer of the API is final and says its code.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("MediaWiki-API-Error", "readapidenied")
		w.Write([]byte(`{"error":{"code":"readapidenied","info":"You need read permission to use this module."}}`))
	}))
	defer srv.Close()
	_, err := (&Client{Endpoint: srv.URL, Rate: rate.Inf}).Backlinks(ctx, "http://old.example/a", 10)
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	if ae.Code != "readapidenied" {
		t.Errorf("code %q", ae.Code)
	}

	// HTML where JSON was due is malformed.
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<html>maintenance</html>"))
	}))
	defer html.Close()
	_, err = (&Client{Endpoint: html.URL, Rate: rate.Inf}).Backlinks(ctx, "http://old.example/a", 10)
	require.ErrorIs(t, err, ErrMalformed)

	_, err = (&Client{Endpoint: "ftp://wiki.test/api.php"}).Backlinks(ctx, "http://old.example/a", 10)
	require.Error(t, err)
}

func TestArticleURL(t *testing.T) {
	for _, tc := range []struct{ title, want string }{
		{"Link rot", "https://w.test/wiki/Link_rot"},
		{"C++", "https://w.test/wiki/C%2B%2B"},
		{"AC/DC", "https://w.test/wiki/AC/DC"},
		{"Talk:Foo (bar), baz", "https://w.test/wiki/Talk:Foo_(bar),_baz"},
		{"100% pure", "https://w.test/wiki/100%25_pure"},
		{"Who? Me", "https://w.test/wiki/Who%3F_Me"},
	} {
		if got := articleURL("https://w.test/wiki/$1", tc.title); got != tc.want {
			t.Errorf("articleURL(%q) = %q, want %q", tc.title, got, tc.want)
		}
	}
}

// TestRateLimited: an HTTP 429 from Wikimedia's rate limiter is waited
// out (its Retry-After) and the request sent again.
func TestRateLimited(t *testing.T) {
	var n int
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		first := n == 1
		mu.Unlock()
		if first {
			w.Header().Set("Retry-After", "0")
			http.Error(w, "Too many requests", http.StatusTooManyRequests)
			return
		}
		w.Write([]byte(`{"batchcomplete":true,"query":{"exturlusage":[]}}`))
	}))
	defer srv.Close()
	c := &Client{Endpoint: srv.URL, Rate: rate.Inf}
	c.init()
	c.api.RateLimitPause = time.Millisecond
	got, err := c.Backlinks(context.Background(), "http://old.example/a", 10)
	require.NoError(t, err)
	require.Empty(t, got)
	if n != 3 { // the 429, its retry, and https
		t.Errorf("%d requests, want 3", n)
	}
}
