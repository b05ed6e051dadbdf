package searchapi_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/searchapi"
)

// answer is the JSON of a small search API: results and a total.
type answer struct {
	Total   int64 `json:"total"`
	Results []struct {
		Link string `json:"link"`
		Name string `json:"name"`
	} `json:"results"`
}

// demo describes that API: the key in the X-Key header, pages of two
// results by rank, at most ten results a query.
var demo = &searchapi.Engine[answer]{
	Service:   "demo",
	KeyHeader: "X-Key",
	Params: func(q string, p searchapi.Page) url.Values {
		return url.Values{"q": {q}, "from": {strconv.Itoa(p.Start)}, "n": {strconv.Itoa(p.Count)}}
	},
	Paging: searchapi.Paging{By: searchapi.ByStart, Size: 2, Max: 10},
	Read: func(a *answer, p searchapi.Page) (searchapi.Answer, error) {
		ans := searchapi.Answer{Total: a.Total, Last: len(a.Results) < p.Count}
		for _, r := range a.Results {
			ans.Hits = append(ans.Hits, searchapi.Hit{URL: r.Link, Title: r.Name})
		}
		return ans, nil
	},
}

// Client is what an engine package declares: a struct embedding the
// shared client.
type Client struct{ *searchapi.Counter }

// An engine is a description; NewCounter makes the engine package's Client
// from it, and its errors are searchapi's whatever the engine.
func ExampleNewCounter() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Key") != "k-123" {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		switch r.URL.Query().Get("from") {
		case "1":
			fmt.Fprint(w, `{"total":3,"results":[{"link":"https://a.example/","name":"A"},{"link":"javascript:void(0)","name":"dropped"}]}`)
		default:
			fmt.Fprint(w, `{"total":3,"results":[{"link":"https://b.example/","name":"B"}]}`)
		}
	}))
	defer srv.Close()

	fast := searchapi.Transport{Rate: rate.Inf}
	c, err := searchapi.NewCounter[Client](demo, srv.URL, "k-123", fast)
	if err != nil {
		fmt.Println(err)
		return
	}
	results, err := c.Search(context.Background(), lexsig.NewQuery([]string{"lost", "page"}, lexsig.Conjunctive), 5)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range results {
		fmt.Println(r.Rank, r.URI, r.Title)
	}
	n, err := c.HitCount(context.Background(), "lost")
	fmt.Println("hits:", n, err)

	wrong, err := searchapi.NewCounter[Client](demo, srv.URL, "wrong-key", fast)
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = wrong.Search(context.Background(), lexsig.NewQuery([]string{"lost"}, lexsig.Conjunctive), 5)
	fmt.Println(errors.Is(err, searchapi.ErrUnauthorized))

	_, err = searchapi.NewCounter[Client](demo, srv.URL, "", fast)
	fmt.Println(err)
	// Output:
	// 1 https://a.example/ A
	// 2 https://b.example/ B
	// hits: 3 <nil>
	// true
	// demo: missing API key (set Options.Key)
}
