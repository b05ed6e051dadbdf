package marginalia_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/marginalia"
	"github.com/linkrot/relink/provider/searchapi"
)

// A fake of Marginalia's API stands in for the service here; a program
// leaves BaseURL empty and uses its own key or the shared one:
//
//	c, err := marginalia.New(marginalia.Options{Key: marginalia.PublicKey})
func ExampleClient_Search() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"license":"CC-BY-NC-SA 4.0","query":%q,"results":[
			{"url":"https://example.net/~ana/essays/link-rot.html","title":"On link rot","description":"…"}]}`,
			r.URL.Query().Get("query"))
	}))
	defer srv.Close()

	c, err := marginalia.New(marginalia.Options{Key: marginalia.PublicKey, BaseURL: srv.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	results, err := c.Search(ctx, lexsig.NewQuery([]string{"link", "rot"}, lexsig.Conjunctive), 10)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range results {
		fmt.Println(r.Rank, r.URI, r.Title)
	}

	_, err = c.Search(ctx, lexsig.NewQuery([]string{"link", "rot"}, lexsig.Disjunctive), 10)
	fmt.Println(errors.Is(err, searchapi.ErrUnsupportedQuery))
	// Output:
	// 1 https://example.net/~ana/essays/link-rot.html On link rot
	// true
}

// A key's queries of the day spent stop the Client: the Search that met
// the limit and every later one fail with ErrDailyLimit, and no request
// follows the first.
func ExampleErrDailyLimit() {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("API-Event-Type", "OverLimitBlock")
		w.Header().Set("API-Remaining-Daily-Capacity", "0")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, "Daily Limit Exceeded")
	}))
	defer srv.Close()
	c, err := marginalia.New(marginalia.Options{Key: marginalia.PublicKey, BaseURL: srv.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	q := lexsig.NewQuery([]string{"link", "rot"}, lexsig.Conjunctive)
	for range 2 {
		_, err = c.Search(context.Background(), q, 10)
		fmt.Println(errors.Is(err, marginalia.ErrDailyLimit), errors.Is(err, searchapi.ErrStopped))
	}
	fmt.Println(requests.Load(), "request")
	// Output:
	// true true
	// true true
	// 1 request
}
