package localweb_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/linkrot/relink/lab/localweb"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/brave"
	"github.com/linkrot/relink/provider/google"
	"github.com/linkrot/relink/provider/marginalia"
	"github.com/linkrot/relink/provider/mojeek"
	"github.com/linkrot/relink/provider/searchapi"
	"github.com/linkrot/relink/provider/searxng"
	"github.com/linkrot/relink/provider/wayback"
)

// once is a limit of one request an hour.
var once = localweb.Window{N: 1, Per: time.Hour}

var osQuery = lexsig.NewQuery([]string{"operating", "system"}, lexsig.Conjunctive)

// TestRateLimits checks that each service refuses the request past its
// limit as it documents, and that relink's client reads the refusal.
func TestRateLimits(t *testing.T) {
	srv := start(t, localweb.Options{Limits: localweb.Limits{
		Brave: once, Google: once, MojeekDay: once, MarginaliaPublic: once,
		// A SearXNG search asks for pages until one brings nothing new:
		// two requests here.
		SearXNGAPI: localweb.Window{N: 2, Per: time.Hour}, WaybackCDX: once, CCIndex: once, CCData: once, Wiki: once,
	}})
	ctx := context.Background()
	es := engines(t, srv)
	for _, name := range []string{"brave", "google", "mojeek", "marginalia", "searxng"} {
		if _, err := es[name].Search(ctx, osQuery, 5); err != nil {
			t.Fatalf("%s, first request: %v", name, err)
		}
		_, err := es[name].Search(ctx, osQuery, 5)
		var se *searchapi.StatusError
		switch name {
		case "marginalia": // 429 "QPM Limit Exceeded", as its API server answers
			if !errors.As(err, &se) || se.Status != http.StatusTooManyRequests || !strings.Contains(se.Snippet, "QPM Limit Exceeded") {
				t.Errorf("%s, second request: %v, want a 429 QPM Limit Exceeded", name, err)
			}
		default:
			if !errors.Is(err, searchapi.ErrRateLimited) {
				t.Errorf("%s, second request: %v, want ErrRateLimited", name, err)
			}
		}
	}

	wb := waybackClient(t, srv)
	if _, err := wb.Captures(ctx, pyBase+"library/os.html", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := wb.Captures(ctx, pyBase+"library/os.html", nil); !errors.Is(err, wayback.ErrRateLimited) {
		t.Errorf("wayback, second CDX request: %v, want ErrRateLimited", err)
	}
	// Fetch asks the CDX API first, so it is refused too; replay itself is
	// not limited.
	if _, err := wb.Fetch(ctx, pyBase+"library/os.html"); !errors.Is(err, wayback.ErrRateLimited) {
		t.Errorf("wayback Fetch (a CDX query first): %v, want ErrRateLimited", err)
	}
	for i := 0; i < 3; i++ {
		if resp, _ := get(t, srv.URL("wayback")+"/web/20200115120000id_/"+pyBase+"library/os.html", nil); resp.StatusCode != 200 {
			t.Errorf("replay %d: %d, want 200", i+1, resp.StatusCode)
		}
	}

	cc := srv.URL("commoncrawl-index")
	for i, want := range []int{200, 503} {
		if resp, _ := get(t, cc+"/collinfo.json", nil); resp.StatusCode != want {
			t.Errorf("index request %d: %d, want %d", i+1, resp.StatusCode, want)
		}
	}
	data := srv.URL("commoncrawl-data") + "/crawl-data/none"
	get(t, data, nil)
	if resp, b := get(t, data, nil); resp.StatusCode != 503 || !strings.Contains(string(b), "<Code>SlowDown</Code>") {
		t.Errorf("second data request: %d %s, want 503 SlowDown", resp.StatusCode, b)
	}

	wiki := srv.URL("mediawiki") + "?" + exturl("euquery", "docs.python.org").Encode()
	get(t, wiki, nil)
	if resp, _ := get(t, wiki, nil); resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Errorf("second wiki request: %d, Retry-After %q; want 429 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}

// TestBraveRateHeaders checks Brave's headers and error objects.
func TestBraveRateHeaders(t *testing.T) {
	srv := start(t, localweb.Options{Limits: localweb.Limits{Brave: localweb.Window{N: 1, Per: time.Hour}, BraveMonth: localweb.Window{N: 2, Per: 2 * time.Hour}}})
	u := srv.URL("brave") + "?q=operating+system"
	key := map[string]string{"X-Subscription-Token": "k"}
	resp, _ := get(t, u, key)
	if resp.StatusCode != 200 || resp.Header.Get("X-RateLimit-Limit") != "1, 2" || resp.Header.Get("X-RateLimit-Policy") != "1;w=3600, 2;w=7200" ||
		resp.Header.Get("X-RateLimit-Remaining") != "0, 1" {
		t.Errorf("first answer: %d %v", resp.StatusCode, resp.Header)
	}
	resp, b := get(t, u, key)
	if resp.StatusCode != 429 || !strings.Contains(string(b), `"code":"RATE_LIMITED"`) || !strings.Contains(string(b), `"type":"ErrorResponse"`) {
		t.Errorf("second answer: %d %s", resp.StatusCode, b)
	}
	// Another key has its own plan.
	resp, _ = get(t, u, map[string]string{"X-Subscription-Token": "other"})
	if resp.StatusCode != 200 {
		t.Errorf("another key: %d, want 200", resp.StatusCode)
	}
	// No key at all.
	resp, b = get(t, u, nil)
	if resp.StatusCode != 422 || !strings.Contains(string(b), `"code":"VALIDATION"`) {
		t.Errorf("no key: %d %s, want 422 VALIDATION", resp.StatusCode, b)
	}
	resp, b = get(t, srv.URL("brave")+"?q="+strings.Repeat("word+", 60), key)
	if resp.StatusCode != 422 {
		t.Errorf("a query of 60 words: %d %s, want 422", resp.StatusCode, b)
	}
}

// TestMarginaliaLimits checks Marginalia's answers to its two limits, as
// its API server writes them (ApiV2.search): a bare 429 "QPM Limit
// Exceeded" for the minute's, a 429 "Daily Limit Exceeded" with
// API-Event-Type OverLimitBlock and API-Remaining-Daily-Capacity 0 for the
// day's, the daily state on every answer served, and no Retry-After; and
// that relink's client stops at the day's.
func TestMarginaliaLimits(t *testing.T) {
	srv := start(t, localweb.Options{Limits: localweb.Limits{
		Marginalia: localweb.Window{N: 1, Per: time.Minute}, MarginaliaDay: localweb.Window{N: 2, Per: 24 * time.Hour},
	}})
	u := srv.URL("marginalia") + "?query=operating+system"
	key := map[string]string{"API-Key": "k"}
	resp, _ := get(t, u, key)
	if resp.StatusCode != 200 || resp.Header.Get("API-Event-Type") != "UnderLimit" || resp.Header.Get("API-Remaining-Daily-Capacity") != "1" {
		t.Errorf("first answer: %d %v, want 200 UnderLimit with 1 remaining", resp.StatusCode, resp.Header)
	}
	resp, b := get(t, u, key)
	if resp.StatusCode != 429 || string(b) != "QPM Limit Exceeded" || resp.Header.Get("API-Event-Type") != "" || resp.Header.Get("Retry-After") != "" {
		t.Errorf("second answer in the minute: %d %q %v, want a bare 429 QPM Limit Exceeded", resp.StatusCode, b, resp.Header)
	}

	day := start(t, localweb.Options{Limits: localweb.Limits{MarginaliaDay: localweb.Window{N: 1, Per: 24 * time.Hour}}})
	u = day.URL("marginalia") + "?query=operating+system"
	get(t, u, key)
	resp, b = get(t, u, key)
	if resp.StatusCode != 429 || string(b) != "Daily Limit Exceeded" || resp.Header.Get("API-Event-Type") != "OverLimitBlock" ||
		resp.Header.Get("API-Remaining-Daily-Capacity") != "0" || resp.Header.Get("Retry-After") != "" {
		t.Errorf("second answer of the day: %d %q %v, want 429 Daily Limit Exceeded, OverLimitBlock", resp.StatusCode, b, resp.Header)
	}
	mg, _ := marginalia.New(marginalia.Options{Key: "k", BaseURL: day.URL("marginalia"), Transport: transport})
	defer mg.CloseIdleConnections()
	if _, err := mg.Search(context.Background(), osQuery, 5); !errors.Is(err, marginalia.ErrDailyLimit) {
		t.Errorf("Search past the day's limit: %v, want ErrDailyLimit", err)
	}
}

// TestGoogleDailyQuota checks Google's answer to a spent daily quota, as
// recorded from the Custom Search JSON API: 429 RESOURCE_EXHAUSTED,
// "Queries per day", an ErrorInfo detail whose quota_limit is
// DefaultPerDayPerProject; and that relink's client stops at it.
func TestGoogleDailyQuota(t *testing.T) {
	srv := start(t, localweb.Options{Limits: localweb.Limits{GoogleDay: localweb.Window{N: 1, Per: 24 * time.Hour}}})
	u := srv.URL("google") + "?key=k&cx=c&q=operating+system"
	get(t, u, nil)
	resp, b := get(t, u, nil)
	for _, want := range []string{`"status":"RESOURCE_EXHAUSTED"`, "limit 'Queries per day'", `"reason":"rateLimitExceeded"`,
		`"@type":"type.googleapis.com/google.rpc.ErrorInfo"`, `"quota_limit":"DefaultPerDayPerProject"`} {
		if resp.StatusCode != 429 || !strings.Contains(string(b), want) {
			t.Errorf("second request of the day: %d %s, want 429 with %s", resp.StatusCode, b, want)
		}
	}
	g, _ := google.New(google.Options{Key: "k", CX: "c", BaseURL: srv.URL("google"), Transport: transport})
	defer g.CloseIdleConnections()
	if _, err := g.Search(context.Background(), osQuery, 5); !errors.Is(err, google.ErrQuotaExceeded) {
		t.Errorf("Search past the day's quota: %v, want ErrQuotaExceeded", err)
	}
}

// TestSearXNGLimiter checks the limiter's header checks.
func TestSearXNGLimiter(t *testing.T) {
	srv := start(t, localweb.Options{})
	u := srv.URL("searxng") + "/search?q=python&format=json"
	browser := map[string]string{"User-Agent": "relink-test/1", "Accept": "text/html", "Accept-Language": "en", "Accept-Encoding": "gzip"}
	for name, change := range map[string][2]string{
		"curl":               {"User-Agent", "curl/8.5.0"},
		"Go's default agent": {"User-Agent", "Go-http-client/1.1"},
		"JSON only":          {"Accept", "application/json"},
		"no Accept-Language": {"Accept-Language", ""},
		"no compression":     {"Accept-Encoding", "identity"},
	} {
		h := map[string]string{}
		for k, v := range browser {
			h[k] = v
		}
		h[change[0]] = change[1]
		if resp, _ := get(t, u, h); resp.StatusCode != http.StatusTooManyRequests {
			t.Errorf("%s: %d, want 429", name, resp.StatusCode)
		}
	}
	if resp, b := get(t, u, browser); resp.StatusCode != 200 {
		t.Errorf("a browser's headers: %d %s", resp.StatusCode, b)
	}
}

// TestDefaultLimits checks that the limits are on by default (Brave's
// free plan: one request a second) and that Relaxed turns them off.
func TestDefaultLimits(t *testing.T) {
	ctx := context.Background()
	strict := start(t, localweb.Options{})
	b, _ := brave.New(brave.Options{Key: "k", BaseURL: strict.URL("brave"), Transport: transport})
	defer b.CloseIdleConnections()
	if _, err := b.Search(ctx, osQuery, 5); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Search(ctx, osQuery, 5); !errors.Is(err, searchapi.ErrRateLimited) {
		t.Errorf("a second Brave request within the second: %v, want ErrRateLimited", err)
	}

	relaxed := start(t, localweb.Options{Relaxed: true})
	rb, _ := brave.New(brave.Options{Key: "k", BaseURL: relaxed.URL("brave"), Transport: transport})
	defer rb.CloseIdleConnections()
	g, _ := google.New(google.Options{Key: "k", CX: "cx", BaseURL: relaxed.URL("google"), Transport: transport})
	m, _ := mojeek.New(mojeek.Options{Key: "k", BaseURL: relaxed.URL("mojeek"), Transport: transport})
	mg, _ := marginalia.New(marginalia.Options{Key: marginalia.PublicKey, BaseURL: relaxed.URL("marginalia"), Transport: transport})
	x, _ := searxng.New(searxng.Options{BaseURL: relaxed.URL("searxng"), Transport: transport})
	wb := waybackClient(t, relaxed)
	for i := 0; i < 30; i++ {
		for name, s := range map[string]lexsig.Searcher{"brave": rb, "google": g, "mojeek": m, "marginalia": mg, "searxng": x} {
			if _, err := s.Search(ctx, osQuery, 5); err != nil {
				t.Fatalf("relaxed %s, request %d: %v", name, i+1, err)
			}
		}
		if _, err := wb.Captures(ctx, pyBase+"library/os.html", nil); err != nil {
			t.Fatalf("relaxed wayback, request %d: %v", i+1, err)
		}
	}
}
