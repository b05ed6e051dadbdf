package brave_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/brave"
	"github.com/linkrot/relink/provider/searchapi"
)

// A fake of Brave's web search stands in for the service here; a program
// leaves BaseURL empty and reads the key from the environment:
//
//	c, err := brave.New(brave.Options{Key: os.Getenv(brave.KeyEnv)})
func ExampleClient_Search() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(brave.KeyHeader) != "my-key" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		fmt.Fprint(w, `{"type":"search","query":{"original":"missing web pages","more_results_available":false},
			"web":{"type":"search","results":[
				{"title":"Lost and found","url":"https://example.com/moved/page.html","description":"…"},
				{"title":"Link rot","url":"https://example.org/linkrot","description":"…"}]}}`)
	}))
	defer srv.Close()

	c, err := brave.New(brave.Options{Key: "my-key", BaseURL: srv.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	sig := lexsig.NewQuery([]string{"missing", "web", "pages"}, lexsig.Conjunctive)
	results, err := c.Search(context.Background(), sig, 10)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range results {
		fmt.Println(r.Rank, r.URI, r.Title)
	}
	// Output:
	// 1 https://example.com/moved/page.html Lost and found
	// 2 https://example.org/linkrot Link rot
}

func ExampleNew() {
	_, err := brave.New(brave.Options{})
	fmt.Println(errors.Is(err, searchapi.ErrMissingKey))
	fmt.Println(err)
	// Output:
	// true
	// brave: missing API key (set Options.Key, for example from $BRAVE_API_KEY)
}
