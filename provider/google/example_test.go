package google_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/google"
	"github.com/linkrot/relink/provider/searchapi"
)

// fakeGoogle answers like the Custom Search JSON API with fixed hit counts,
// so that the examples run without the network.
func fakeGoogle() *httptest.Server {
	hits := map[string]string{"rediscover": "2140000", "missing": "3900000000", "neighborhood": "512000000", "backlinks": "48000000"}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query().Get("q")
		n, ok := hits[q]
		if !ok {
			n = "0"
		}
		fmt.Fprintf(w, `{"kind":"customsearch#search","searchInformation":{"totalResults":%q},
			"items":[{"title":"Found it","link":"https://example.com/new/home.html"}]}`, n)
	}))
}

// A lexsig.DF from Google's hit counts, with |D| an estimate of the size
// of Google's index, as the paper took it from worldwidewebsize.com (§2.1
// "TFIDF"). A program reads the key and the engine ID from the environment:
//
//	c, err := google.New(google.Options{Key: os.Getenv(google.KeyEnv), CX: os.Getenv(google.CXEnv)})
func ExampleClient_HitCount() {
	srv := fakeGoogle()
	defer srv.Close()
	// rate.Inf: the local fake needs no rate limit; leave Rate zero for
	// Google's own service.
	c, err := google.New(google.Options{Key: "my-key", CX: "my-engine", BaseURL: srv.URL, Transport: searchapi.Transport{Rate: rate.Inf}})
	if err != nil {
		fmt.Println(err)
		return
	}

	const webSize = 50_000_000_000 // pages in the index, an estimate
	df := lexsig.DFFunc(func(ctx context.Context, term string) (int64, error) {
		return c.HitCount(ctx, term)
	}).WithDocs(webSize)

	tf := map[string]int{"rediscover": 3, "missing": 3, "neighborhood": 2, "backlinks": 2}
	terms, err := lexsig.Rank(context.Background(), tf, df)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range terms {
		fmt.Printf("%-12s tf=%d df=%d\n", t.Text, t.TF, t.DF)
	}
	// Output:
	// rediscover   tf=3 df=2140000
	// backlinks    tf=2 df=48000000
	// neighborhood tf=2 df=512000000
	// missing      tf=3 df=3900000000
}

func ExampleClient_Search() {
	srv := fakeGoogle()
	defer srv.Close()
	c, err := google.New(google.Options{Key: "my-key", CX: "my-engine", BaseURL: srv.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	q := lexsig.NewQuery([]string{"rediscover", "backlinks"}, lexsig.Conjunctive)
	results, err := c.Search(context.Background(), q, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(results[0].Rank, results[0].URI, results[0].Title)
	// Output:
	// 1 https://example.com/new/home.html Found it
}
