package mediawiki_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/provider/mediawiki"
)

// A wiki whose article "Link rot" cites the dead page.
func Example() {
	wiki := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("euprotocol") == "http" {
			fmt.Fprint(w, `{"batchcomplete":true,"query":{"exturlusage":[{"ns":0,"title":"Link rot","url":"http://old.example/a.html"}]}}`)
			return
		}
		fmt.Fprint(w, `{"batchcomplete":true,"query":{"exturlusage":[]}}`)
	}))
	defer wiki.Close()

	c := &mediawiki.Client{Endpoint: wiki.URL + "/w/api.php", ArticlePath: "https://wiki.example/wiki/$1", Rate: rate.Inf}
	pages, err := c.Backlinks(context.Background(), "https://old.example/a.html", 10)
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range pages {
		fmt.Println(p.Rank, p.URI)
	}
	// Output:
	// 1 https://wiki.example/wiki/Link_rot
}
