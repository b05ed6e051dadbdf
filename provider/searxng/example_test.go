package searxng_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/searxng"
)

// A fake instance stands in for one's own SearXNG here; a program reads
// the instance URL from the environment:
//
//	c, err := searxng.New(searxng.Options{BaseURL: os.Getenv(searxng.URLEnv)})
func ExampleClient_Search() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("pageno") != "1" {
			fmt.Fprint(w, `{"query":"x","results":[],"answers":[],"corrections":[],"infoboxes":[],"suggestions":[],"unresponsive_engines":[]}`)
			return
		}
		fmt.Fprint(w, `{"query":"missing page","results":[
			{"url":"https://example.com/new/place.html","title":"Moved here","content":"…","engines":["brave","mojeek"],"score":4.0},
			{"url":"https://example.org/about","title":"About","content":"…","engines":["brave"],"score":1.5}],
			"unresponsive_engines":[]}`)
	}))
	defer srv.Close()

	c, err := searxng.New(searxng.Options{BaseURL: srv.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	results, err := c.Search(context.Background(), lexsig.NewQuery([]string{"missing", "page"}, lexsig.Conjunctive), 10)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range results {
		fmt.Printf("%d %s %q %.1f\n", r.Rank, r.URI, r.Title, r.Score)
	}
	// Output:
	// 1 https://example.com/new/place.html "Moved here" 4.0
	// 2 https://example.org/about "About" 1.5
}

// An instance without the JSON format answers 403; the error says what to
// change.
func ExampleErrJSONDisabled() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
	}))
	defer srv.Close()

	c, err := searxng.New(searxng.Options{BaseURL: srv.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = c.Search(context.Background(), lexsig.NewQuery([]string{"x"}, lexsig.Conjunctive), 10)
	fmt.Println(errors.Is(err, searxng.ErrJSONDisabled))
	// Output:
	// true
}
