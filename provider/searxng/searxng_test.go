package searxng_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
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
// SearXNG has no keys.
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
		return map[string]any{"query": r.URL.Query().Get("q"), "number_of_results": total, "results": list, "answers": []string{}, "unresponsive_engines": [][]string{}}
	},
}

// suite is the shared suite's view of the package; SearXNG takes no key.
var suite = apitest.Suite[*searxng.Client]{
	New: func(cfg apitest.Config) (*searxng.Client, error) {
		return searxng.New(searxng.Options{BaseURL: cfg.BaseURL, Transport: cfg.Transport})
	},
	Handler:  fake.Handler,
	PageSize: pageSize,
	Max:      searxng.MaxResults,
}

func TestShared(t *testing.T) { suite.Run(t) }

// FuzzAnswer feeds any bytes to the decoding of SearXNG's answers and
// to a Search.
func FuzzAnswer(f *testing.F) {
	suite.Fuzz(f, searxng.Decode, "testdata/search.json",
		`{"query":"x","results":[],"unresponsive_engines":[["google","CAPTCHA"]]}`,
		`{"query":"x","number_of_results":120000,"results":[{"url":"https://a.example/","title":"A","score":1.5}],"unresponsive_engines":[]}`)
}

func TestDocumentedResponse(t *testing.T) {
	// The same page for every pageno: the second brings nothing new.
	c := suite.Documented(t, "testdata/search.json", lexsig.NewQuery([]string{"link", "neighborhood"}, lexsig.Conjunctive), 10, []lexsig.Result{
		{Rank: 1, URI: "https://example.org/pubs/jcdl2011.pdf", Title: "Rediscovering Missing Web Pages Using Link Neighborhood Lexical Signatures", Score: 6.5},
		{Rank: 2, URI: "https://example.com/blog/lexical-signatures", Title: "What is a lexical signature?", Score: 0.33},
	})
	if _, err := c.HitCount(context.Background(), "link"); !errors.Is(err, searxng.ErrNoHitCount) {
		t.Errorf("HitCount(%q) = %v, want ErrNoHitCount (results but number_of_results 0)", "link", err)
	}
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
			inner := fake.Handler(apitest.Corpus(1000), "")
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
