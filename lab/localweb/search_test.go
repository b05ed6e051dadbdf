package localweb_test

import (
	"context"
	"crypto/tls"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/lab/localweb"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/brave"
	"github.com/linkrot/relink/provider/google"
	"github.com/linkrot/relink/provider/marginalia"
	"github.com/linkrot/relink/provider/mojeek"
	"github.com/linkrot/relink/provider/searchapi"
	"github.com/linkrot/relink/provider/searxng"
)

// transport is the searchapi.Transport of the tests: no waiting, one
// attempt.
var transport = searchapi.Transport{Rate: rate.Inf, Attempts: 1, Timeout: 10 * time.Second}

// searcher is what every engine's Client is.
type searcher interface {
	lexsig.Searcher
	CloseIdleConnections()
}

// engines returns relink's search clients pointed at srv by their base
// URL option, by name.
func engines(t *testing.T, srv *localweb.Server) map[string]searcher {
	t.Helper()
	out := map[string]searcher{}
	add := func(name string, c searcher, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Cleanup(c.CloseIdleConnections)
		out[name] = c
	}
	b, err := brave.New(brave.Options{Key: "test-key", BaseURL: srv.URL("brave"), Transport: transport})
	add("brave", b, err)
	g, err := google.New(google.Options{Key: "test-key", CX: "test-cx", BaseURL: srv.URL("google"), Transport: transport})
	add("google", g, err)
	m, err := mojeek.New(mojeek.Options{Key: "test-key", BaseURL: srv.URL("mojeek"), Transport: transport})
	add("mojeek", m, err)
	mg, err := marginalia.New(marginalia.Options{Key: marginalia.PublicKey, BaseURL: srv.URL("marginalia"), Transport: transport})
	add("marginalia", mg, err)
	x, err := searxng.New(searxng.Options{BaseURL: srv.URL("searxng"), Transport: transport})
	add("searxng", x, err)
	return out
}

// TestSearchEngines runs every search client of relink against its
// endpoint: the same store query gives the same first result everywhere.
func TestSearchEngines(t *testing.T) {
	srv := start(t, localweb.Options{Relaxed: true})
	queries := []struct {
		name    string
		query   lexsig.Query
		noOR    bool // Marginalia and Mojeek refuse OR queries
		want    string
		wantAll []string
	}{
		{name: "conjunctive", query: lexsig.NewQuery([]string{"operating", "system", "interfaces"}, lexsig.Conjunctive), want: pyBase + "library/os.html"},
		{name: "phrase", query: lexsig.Query{Terms: []string{"lightweight", "data", "interchange"}, Phrase: true}, want: pyBase + "library/json.html"},
		{name: "disjunctive", query: lexsig.NewQuery([]string{"portable", "lightweight"}, lexsig.Disjunctive), noOR: true,
			wantAll: []string{pyBase + "library/json.html", pyBase + "library/os.html"}},
		{name: "nothing", query: lexsig.NewQuery([]string{"zyzzyva"}, lexsig.Conjunctive)},
	}
	for name, c := range engines(t, srv) {
		for _, q := range queries {
			t.Run(name+"/"+q.name, func(t *testing.T) {
				rs, err := c.Search(context.Background(), q.query, 10)
				if q.noOR && (name == "marginalia" || name == "mojeek") {
					if err == nil {
						t.Errorf("Search(%q) = %v, want ErrUnsupportedQuery", q.query, rs)
					}
					return
				}
				if err != nil {
					t.Fatalf("Search(%q): %v", q.query, err)
				}
				var got []string
				for _, r := range rs {
					got = append(got, r.URI)
				}
				switch {
				case q.want != "" && (len(rs) == 0 || rs[0].URI != q.want):
					t.Errorf("Search(%q) = %q, want %s first", q.query, got, q.want)
				case q.want != "" && rs[0].Title == "":
					t.Errorf("Search(%q): first result without a title", q.query)
				case q.wantAll != nil && strings.Join(sorted(got), " ") != strings.Join(q.wantAll, " "):
					t.Errorf("Search(%q) = %q, want %q", q.query, got, q.wantAll)
				case q.want == "" && q.wantAll == nil && len(rs) != 0:
					t.Errorf("Search(%q) = %q, want nothing", q.query, got)
				}
			})
		}
	}
}

// sorted returns a sorted copy of ss.
func sorted(ss []string) []string {
	out := append([]string(nil), ss...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// TestSearchPaging checks that results page as each client pages them:
// a query that matches every page of the store, asked for all results.
func TestSearchPaging(t *testing.T) {
	srv := start(t, localweb.Options{Relaxed: true})
	// "python" is on the index, tutorial, and the two wiki pages; the
	// missing tutorial stays in the index.
	q := lexsig.NewQuery([]string{"python"}, lexsig.Conjunctive)
	for name, c := range engines(t, srv) {
		rs, err := c.Search(context.Background(), q, 100)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(rs) != 4 {
			t.Errorf("%s: %d results, want 4: %v", name, len(rs), rs)
		}
	}
}

// TestHitCounts checks the engines that report hit counts.
func TestHitCounts(t *testing.T) {
	srv := start(t, localweb.Options{Relaxed: true})
	g, _ := google.New(google.Options{Key: "k", CX: "cx", BaseURL: srv.URL("google"), Transport: transport})
	m, _ := mojeek.New(mojeek.Options{Key: "k", BaseURL: srv.URL("mojeek"), Transport: transport})
	for name, hc := range map[string]interface {
		HitCount(context.Context, string) (int64, error)
	}{"google": g, "mojeek": m} {
		n, err := hc.HitCount(context.Background(), "json")
		if err != nil || n != 5 {
			t.Errorf("%s HitCount(json) = %d, %v; want 5 (json.html, os.html, the index and both wiki pages)", name, n, err)
		}
	}
}

// TestSearchThroughProxy points a client at the real endpoint, with only
// an HTTP client that uses the proxy and trusts its CA.
func TestSearchThroughProxy(t *testing.T) {
	srv := start(t, localweb.Options{Relaxed: true})
	hc := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(srv.ProxyURL()), TLSClientConfig: &tls.Config{RootCAs: srv.CA().Pool()}}}
	tr := transport
	tr.HTTP = hc
	b, err := brave.New(brave.Options{Key: "k", Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	defer b.CloseIdleConnections()
	rs, err := b.Search(context.Background(), lexsig.NewQuery([]string{"operating", "system"}, lexsig.Conjunctive), 5)
	if err != nil || len(rs) == 0 || rs[0].URI != pyBase+"library/os.html" {
		t.Fatalf("brave at %s through the proxy = %v, %v", brave.DefaultBaseURL, rs, err)
	}
}

// TestHugeQueries sends each search endpoint a query longer than it
// takes, and a URL longer than the server reads: errors, not crashes.
func TestHugeQueries(t *testing.T) {
	srv := start(t, localweb.Options{Relaxed: true})
	long := strings.Repeat("word ", 1000) // 5,000 bytes
	key := map[string]string{"X-Subscription-Token": "k", "API-Key": "k"}
	for _, tt := range []struct {
		name, url string
		status    int
		body      string
	}{
		{"brave", srv.URL("brave") + "?q=" + url.QueryEscape(long), 422, `"code":"VALIDATION"`},
		{"google", srv.URL("google") + "?key=k&cx=c&q=" + url.QueryEscape(long), 400, `"status":"INVALID_ARGUMENT"`},
		{"mojeek", srv.URL("mojeek") + "?api_key=k&fmt=json&q=" + url.QueryEscape(long), 200, `"status":"ERROR: localweb: bad query`},
		{"marginalia", srv.URL("marginalia") + "?query=" + url.QueryEscape(long), 400, "Bad Request"},
		{"searxng", srv.URL("searxng") + "/search?format=json&q=" + url.QueryEscape(long), 200, `"results":[]`},
		{"brave, a URL past MaxHeaderBytes", srv.URL("brave") + "?q=" + strings.Repeat("a", 2*localweb.MaxHeaderBytes), 431, ""},
	} {
		resp, b := get(t, tt.url, key)
		if resp.StatusCode != tt.status || !strings.Contains(string(b), tt.body) {
			t.Errorf("%s: %d %.200s, want %d with %s", tt.name, resp.StatusCode, b, tt.status, tt.body)
		}
	}
}
