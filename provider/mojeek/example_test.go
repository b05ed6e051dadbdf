package mojeek_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/mojeek"
	"github.com/linkrot/relink/provider/searchapi"
)

// A DF from Mojeek's hit counts, and a search with the resulting
// signature. A fake of Mojeek's API stands in for the service; a program
// leaves BaseURL and Transport zero and reads the key from the environment:
//
//	c, err := mojeek.New(mojeek.Options{Key: os.Getenv(mojeek.KeyEnv)})
func Example() {
	hits := map[string]int{"jcdl": 41000, "signature": 2900000, "neighborhood": 1800000}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query().Get("q")
		if n, ok := hits[q]; ok {
			fmt.Fprintf(w, `{"response":{"status":"OK","head":{"query":%q,"results":%d},"results":[]}}`, q, n)
			return
		}
		fmt.Fprintf(w, `{"response":{"status":"OK","head":{"query":%q,"results":1},
			"results":[{"url":"https://example.edu/papers/jcdl.html","title":"Link neighborhood lexical signatures","desc":"…"}]}}`, q)
	}))
	defer srv.Close()

	c, err := mojeek.New(mojeek.Options{Key: "my-key", BaseURL: srv.URL, Transport: searchapi.Transport{Rate: rate.Inf}})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	const indexSize = 8_000_000_000 // an estimate of Mojeek's index
	df := lexsig.DFFunc(c.HitCount).WithDocs(indexSize)
	sig, err := lexsig.Compute(ctx, []string{"jcdl", "jcdl", "signature", "neighborhood", "neighborhood"}, df, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("signature:", sig)
	results, err := c.Search(ctx, sig.Query(lexsig.Conjunctive), 10)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range results {
		fmt.Println(r.Rank, r.URI)
	}
	// Output:
	// signature: jcdl neighborhood
	// 1 https://example.edu/papers/jcdl.html
}
