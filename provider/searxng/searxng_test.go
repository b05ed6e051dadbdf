package searxng_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/time/rate"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/internal/apiclient/apitest"
	"github.com/linkrot/relink/provider/searchapi"
	"github.com/linkrot/relink/provider/searxng"
)

// pageSize is the number of results a page of the fake holds, as an
// instance with two engines of ten results each might.
const pageSize = 20

// fake answers like a SearXNG instance with the JSON format enabled: q,
// format=json and pageno (1 first) on /search; pages of pageSize results.
// SearXNG has no keys. Its answer is get_json_response's of searx/
// webutils.py since 2026-05-25 (commit dd27fce3b, #6130): query, results,
// answers, corrections, infoboxes, suggestions and unresponsive_engines,
// and no number_of_results.
var fake = apitest.Fake{
	Page: func(r *http.Request) (int, int, bool) {
		p := r.URL.Query()
		page, err := strconv.Atoi(p.Get("pageno"))
		return (page - 1) * pageSize, pageSize, strings.HasSuffix(r.URL.Path, "/search") && p.Get("format") == "json" && err == nil && page >= 1 && p.Get("q") != ""
	},
	BadRequest: apitest.Canned{Status: http.StatusForbidden, Body: "<html><body>403 Forbidden</body></html>"},
	Answer: func(r *http.Request, results []lexsig.Result, total int, _ bool) any {
		list := []map[string]any{}
		for _, res := range results {
			list = append(list, map[string]any{"url": res.URI, "title": res.Title, "content": "about", "engine": "brave", "engines": []string{"brave"}, "score": 1})
		}
		return map[string]any{"query": r.URL.Query().Get("q"), "results": list, "answers": []string{}, "corrections": []string{},
			"infoboxes": []any{}, "suggestions": []string{}, "unresponsive_engines": [][]string{}}
	},
}

// botUserAgent is the start of the User-Agents SearXNG's bot detection
// refuses (searx/botdetection/http_user_agent.py, USER_AGENT, matched at
// the start), in part.
var botUserAgent = regexp.MustCompile(`^(unknown|[Cc][Uu][Rr][Ll]|[wW]get|Scrapy|python-requests|Go-http-client|Java|okhttp|HttpClient|Python|libwww-perl|Ruby|HeadlessChrome)`)

// limited puts SearXNG's limiter (searx/limiter.py, on by default in its
// Docker setup) in front of h: on /search, the probes of its bot
// detection (searx/botdetection/http_accept.py, http_accept_encoding.py,
// http_accept_language.py, http_connection.py, http_user_agent.py) refuse
// a request whose Accept lacks text/html, whose Accept-Encoding names
// neither gzip nor deflate, without Accept-Language, with "Connection:
// close" or with a bot's User-Agent, and every refusal is
// botdetection._helpers.too_many_requests: 429, body "Too Many Requests",
// no Retry-After.
func limited(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua := r.Header.Get("User-Agent")
		if ua == "" {
			ua = "unknown" // the probe's default
		}
		enc := strings.Split(r.Header.Get("Accept-Encoding"), ",")
		for i := range enc {
			enc[i] = strings.TrimSpace(enc[i])
		}
		if strings.HasSuffix(r.URL.Path, "/search") && (!strings.Contains(r.Header.Get("Accept"), "text/html") ||
			!(slices.Contains(enc, "gzip") || slices.Contains(enc, "deflate")) ||
			strings.TrimSpace(r.Header.Get("Accept-Language")) == "" ||
			r.Header.Get("Connection") == "close" || r.Close ||
			botUserAgent.MatchString(ua)) {
			http.Error(w, "Too Many Requests", http.StatusTooManyRequests)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// suite is the shared suite's view of the package; SearXNG takes no key.
var suite = apitest.Suite[*searxng.Client]{
	New: func(cfg apitest.Config) (*searxng.Client, error) {
		return searxng.New(searxng.Options{BaseURL: cfg.BaseURL, Transport: cfg.Transport})
	},
	Handler:  func(corpus []lexsig.Result, key string) http.Handler { return limited(fake.Handler(corpus, key)) },
	PageSize: pageSize,
	Max:      searxng.MaxResults,
}

func TestShared(t *testing.T) { suite.Run(t) }

// FuzzAnswer feeds any bytes to the decoding of SearXNG's answers and
// to a Search.
func FuzzAnswer(f *testing.F) {
	suite.Fuzz(f, searxng.Decode, "testdata/search_2026.json",
		readFile(f, "testdata/search.json"),
		`{"query":"x","results":[],"unresponsive_engines":[["google","CAPTCHA"]]}`,
		`{"query":"x","number_of_results":120000,"results":[{"url":"https://a.example/","title":"A","score":1.5}],"unresponsive_engines":[]}`)
}

// TestDocumentedResponse reads SearXNG's answer as it is now (search_2026.json,
// without number_of_results) and as it was before 2026-05-25 (search.json,
// number_of_results 0 beside results).
func TestDocumentedResponse(t *testing.T) {
	for _, fixture := range []string{"testdata/search_2026.json", "testdata/search.json"} {
		t.Run(fixture, func(t *testing.T) {
			// The same page for every pageno: the second brings nothing new.
			c := suite.Documented(t, fixture, lexsig.NewQuery([]string{"link", "neighborhood"}, lexsig.Conjunctive), 10, []lexsig.Result{
				{Rank: 1, URI: "https://example.org/pubs/jcdl2011.pdf", Title: "Rediscovering Missing Web Pages Using Link Neighborhood Lexical Signatures", Score: 6.5},
				{Rank: 2, URI: "https://example.com/blog/lexical-signatures", Title: "What is a lexical signature?", Score: 0.33},
			})
			if _, err := c.HitCount(context.Background(), "link"); !errors.Is(err, searxng.ErrNoHitCount) {
				t.Errorf("HitCount(%q) = %v, want ErrNoHitCount", "link", err)
			}
		})
	}
}

// TestNoHitCountOnce checks that an instance without number_of_results
// (every SearXNG since 2026-05-25) fails HitCount with ErrNoHitCount,
// never 0, with results or without, and that the Client then sends no
// further count request: a DF over many terms fails once, clearly.
func TestNoHitCountOnce(t *testing.T) {
	var count atomic.Int32
	h := suite.Handler(apitest.Corpus(3), "")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		count.Add(1)
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c := suite.Client(t, srv.URL, 1)
	for _, term := range []string{"first", "second", "third"} {
		n, err := c.HitCount(context.Background(), term)
		if !errors.Is(err, searxng.ErrNoHitCount) || n != 0 {
			t.Errorf("HitCount(%q) = %d, %v, want ErrNoHitCount", term, n, err)
		}
	}
	if count.Load() != 1 {
		t.Errorf("HitCount made %d requests, want 1", count.Load())
	}
	// Search goes on working.
	if got, err := c.Search(context.Background(), lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive), 10); err != nil || len(got) != 3 {
		t.Errorf("Search() = %v, %v, want 3 results", got, err)
	}
}

// TestLimiter checks that a refusal of SearXNG's limiter (429, its bare
// "Too Many Requests", no Retry-After) is told from a proxy's rate limit
// (a 429 with a Retry-After): the first is not retried, is ErrLimiter, and
// stops the Client; the second is retried.
func TestLimiter(t *testing.T) {
	tests := []struct {
		name     string
		header   http.Header
		body     string
		limiter  bool
		requests int32
	}{
		{"bot detection or rate limit", nil, "Too Many Requests", true, 1},
		{"block list", nil, "IP is on BLOCKLIST - 192.0.2.7", true, 1},
		{"a proxy's rate limit", http.Header{"Retry-After": {"0"}}, "<html><body><h1>429 Too Many Requests</h1></body></html>", false, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
			for k, v := range tt.header {
				h[k] = v
			}
			c, count := suite.Refusing(t, http.StatusTooManyRequests, h, tt.body)
			q := lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive)
			_, err := c.Search(context.Background(), q, 10)
			if !errors.Is(err, searchapi.ErrRateLimited) || errors.Is(err, searxng.ErrLimiter) != tt.limiter || errors.Is(err, searchapi.ErrStopped) != tt.limiter {
				t.Errorf("Search() = %v, want ErrRateLimited and ErrLimiter %v", err, tt.limiter)
			}
			if count.Load() != tt.requests {
				t.Errorf("Search() made %d requests, want %d", count.Load(), tt.requests)
			}
			if !tt.limiter {
				return
			}
			if _, err := c.HitCount(context.Background(), "x"); !errors.Is(err, searxng.ErrLimiter) || count.Load() != tt.requests {
				t.Errorf("HitCount() after the limiter = %v after %d requests, want ErrLimiter and no request", err, count.Load())
			}
		})
	}
}

// TestLimiterPassesClient checks that the Client's own requests pass the
// limiter's bot detection, with a User-Agent of the caller's too, and that
// a bot's User-Agent would not.
func TestLimiterPassesClient(t *testing.T) {
	srv := httptest.NewServer(suite.Handler(apitest.Corpus(3), ""))
	defer srv.Close()
	for _, ua := range []string{"", "my-crawler/1.0 (+https://example.org/)", "Go-http-client/1.1"} {
		tr := apitest.NewConfig(srv.URL, 1, time.Second).Transport
		tr.UserAgent = ua
		c, err := searxng.New(searxng.Options{BaseURL: srv.URL, Transport: tr})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Search(context.Background(), lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive), 10)
		if bot := strings.HasPrefix(ua, "Go-http-client"); (err != nil) != bot {
			t.Errorf("Search() with User-Agent %q = %v, want an error %v", ua, err, bot)
		}
	}
}

// readFile returns a testdata file as a string.
func readFile(tb testing.TB, name string) string {
	tb.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		tb.Fatal(err)
	}
	return string(data)
}

func TestRequest(t *testing.T) {
	tests := []struct {
		name    string
		opts    searxng.Options
		query   lexsig.Query
		limit   int
		wantQ   string
		wantReq []string // pageno of each request
		extra   map[string]string
	}{
		{"conjunctive", searxng.Options{}, lexsig.NewQuery([]string{"jcdl", "signature"}, lexsig.Conjunctive), 5, "jcdl signature", []string{"1"}, nil},
		{"disjunctive", searxng.Options{}, lexsig.NewQuery([]string{"jcdl", "signature"}, lexsig.Disjunctive), 30, "jcdl OR signature", []string{"1", "2"}, nil},
		{"phrase", searxng.Options{}, lexsig.Query{Terms: []string{"link", "neighborhood"}, Phrase: true}, 41, `"link neighborhood"`, []string{"1", "2", "3"}, nil},
		{"engines and language", searxng.Options{Engines: "brave,mojeek", Language: "en", Categories: "general"}, lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive), 3, "x", []string{"1"},
			map[string]string{"engines": "brave,mojeek", "language": "en", "categories": "general"}},
		{"max pages", searxng.Options{MaxPages: 2}, lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive), 0, "x", []string{"1", "2"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			inner := suite.Handler(apitest.Corpus(1000), "")
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if q := r.URL.Query().Get("q"); q != tt.wantQ {
					t.Errorf("q = %q, want %q", q, tt.wantQ)
				}
				for k, v := range tt.extra {
					if got := r.URL.Query().Get(k); got != v {
						t.Errorf("%s = %q, want %q", k, got, v)
					}
				}
				got = append(got, r.URL.Query().Get("pageno"))
				inner.ServeHTTP(w, r)
			}))
			defer srv.Close()
			o := tt.opts
			o.BaseURL, o.Transport = srv.URL, apitest.NewConfig(srv.URL, 1, time.Second).Transport
			c, err := searxng.New(o)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Search(context.Background(), tt.query, tt.limit); err != nil {
				t.Fatalf("Search(%q, %d) = %v", tt.query, tt.limit, err)
			}
			if diff := cmp.Diff(tt.wantReq, got); diff != "" {
				t.Errorf("requests pageno (-want +got):\n%s", diff)
			}
		})
	}
}

func TestJSONDisabled(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, "<!DOCTYPE html><html><title>403 Forbidden</title><h1>Forbidden</h1></html>")
	}))
	defer srv.Close()
	c := suite.Client(t, srv.URL, 3)
	q := lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive)
	_, err := c.Search(context.Background(), q, 10)
	var e *searchapi.Error
	if !errors.Is(err, searxng.ErrJSONDisabled) || !errors.Is(err, searchapi.ErrUnauthorized) || !errors.As(err, &e) || e.Attempts != 1 {
		t.Errorf("Search(%q) = %v, want ErrJSONDisabled and ErrUnauthorized after one attempt", q, err)
	}
	if _, err := c.HitCount(context.Background(), "x"); !errors.Is(err, searxng.ErrJSONDisabled) {
		t.Errorf("HitCount(%q) = %v, want ErrJSONDisabled", "x", err)
	}
}

func TestEnginesFailed(t *testing.T) {
	tests := []struct {
		name     string
		pages    []string
		want     int // results wanted, or -1 for ErrEnginesFailed
		hitCount error
	}{
		{"first page", []string{`{"query":"x","number_of_results":0,"results":[],"unresponsive_engines":[["google","CAPTCHA"],["bing","timeout"]]}`}, -1, searxng.ErrEnginesFailed},
		{"odd shape of the list", []string{`{"query":"x","number_of_results":0,"results":[],"unresponsive_engines":["google", ["bing"], 3]}`}, -1, searxng.ErrEnginesFailed},
		{"later page", []string{
			`{"query":"x","number_of_results":0,"results":[{"url":"https://a.example/","title":"A"}],"unresponsive_engines":[]}`,
			`{"query":"x","number_of_results":0,"results":[],"unresponsive_engines":[["google","CAPTCHA"]]}`,
		}, 1, searxng.ErrNoHitCount},
		{"nothing found", []string{`{"query":"x","number_of_results":0,"results":[],"unresponsive_engines":[]}`}, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n, _ := strconv.Atoi(r.URL.Query().Get("pageno"))
				fmt.Fprint(w, tt.pages[min(n, len(tt.pages))-1])
			}))
			defer srv.Close()
			c := suite.Client(t, srv.URL, 1)
			q := lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive)
			got, err := c.Search(context.Background(), q, 10)
			switch {
			case tt.want < 0 && !errors.Is(err, searxng.ErrEnginesFailed):
				t.Errorf("Search(%q) = %v, %v, want ErrEnginesFailed", q, got, err)
			case tt.want >= 0 && (err != nil || len(got) != tt.want):
				t.Errorf("Search(%q) = %v, %v, want %d results", q, got, err, tt.want)
			}
			if _, err := c.HitCount(context.Background(), "x"); !errors.Is(err, tt.hitCount) || (tt.hitCount == nil && err != nil) {
				t.Errorf("HitCount(%q) = %v, want %v", "x", err, tt.hitCount)
			}
		})
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		name, base string
		want       error
		wantString string
	}{
		{"missing", "", searxng.ErrMissingBaseURL, ""},
		{"root", "http://localhost:8888", nil, "searxng.Client{http://localhost:8888/search}"},
		{"sub-path with slash", "https://example.org/searxng/", nil, "searxng.Client{https://example.org/searxng/search}"},
		{"password hidden", "https://me:pw@example.org/", nil, "searxng.Client{https://me:xxxxx@example.org/search}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := searxng.New(searxng.Options{BaseURL: tt.base})
			if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Fatalf("New(%q) = %v, want %v", tt.base, err, tt.want)
			}
			if err == nil && c.String() != tt.wantString {
				t.Errorf("New(%q).String() = %q, want %q", tt.base, c.String(), tt.wantString)
			}
		})
	}
}

func TestOptionsFormat(t *testing.T) {
	apitest.Printed(t, searxng.Options{BaseURL: "https://me:pw@example.org/", Engines: "brave", MaxPages: 3},
		`searxng.Options{BaseURL: "https://me:xxxxx@example.org/", Categories: "", Engines: "brave", Language: "", MaxPages: 3}`)
}

// TestCredentialsNeverShown checks issue 12's minor failure: credentials
// in the base URL reach the instance (basic authentication) but never an
// error, not even base64-encoded in the Authorization header an instance
// echoes in its body.
func TestCredentialsNeverShown(t *testing.T) {
	const user, password = "searcher", "s3cret-Pa55word"
	basic := base64.StdEncoding.EncodeToString([]byte(user + ":" + password))
	for _, status := range []int{http.StatusUnauthorized, http.StatusOK, http.StatusBadGateway} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			var got string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got = r.Header.Get("Authorization")
				w.WriteHeader(status)
				fmt.Fprintf(w, "<html><pre>Authorization: %s\nuser %s password %s</pre></html>", got, user, password)
			}))
			defer srv.Close()
			base := strings.Replace(srv.URL, "http://", "http://"+user+":"+password+"@", 1)
			c := suite.Client(t, base, 1)
			_, err := c.Search(context.Background(), lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive), 10)
			if err == nil {
				t.Fatal("Search() = nil error, want one")
			}
			if got != "Basic "+basic {
				t.Errorf("Authorization = %q, want basic credentials", got)
			}
			for _, m := range []string{fmt.Sprintf("%v %+v", err, err), c.String(), fmt.Sprintf("%#v", c)} {
				for _, secret := range []string{password, basic} {
					if strings.Contains(m, secret) {
						t.Errorf("%q shows %q", m, secret)
					}
				}
			}
		})
	}
}

// TestLimiterHeaders checks the headers without which the bot detection of
// SearXNG's limiter answers 429: an Accept naming text/html and an
// Accept-Language.
func TestLimiterHeaders(t *testing.T) {
	tests := []struct {
		name, language, wantLanguage string
	}{
		{"no language", "", "*"},
		{"language", "en-GB", "en-GB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var accept, language string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				accept, language = r.Header.Get("Accept"), r.Header.Get("Accept-Language")
				fmt.Fprint(w, `{"query":"x","results":[],"unresponsive_engines":[]}`)
			}))
			defer srv.Close()
			c, err := searxng.New(searxng.Options{BaseURL: srv.URL, Language: tt.language, Transport: searchapi.Transport{Rate: rate.Inf}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Search(context.Background(), lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive), 10); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(accept, "text/html") || !strings.HasPrefix(accept, "application/json") {
				t.Errorf("Accept = %q, want application/json first and text/html", accept)
			}
			if language != tt.wantLanguage {
				t.Errorf("Accept-Language = %q, want %q", language, tt.wantLanguage)
			}
		})
	}
}
