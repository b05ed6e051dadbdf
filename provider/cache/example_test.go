package cache_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/cache"
)

// A second fetch of a page within the age limit is answered from the
// directory, by this process or another.
func Example() {
	dir, err := os.MkdirTemp("", "relink-cache")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	requests := 0
	web := filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
		requests++ // stands in for an HTTP request
		return &filter.Page{URI: uri, Status: http.StatusNotFound}, nil
	})
	d := cache.New(dir, 30*24*time.Hour)
	pages := &cache.Fetcher{Dir: d, Fetcher: web}
	for range 2 {
		p, err := pages.Fetch(context.Background(), "https://old.example/a.html")
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(p.Status)
	}
	fmt.Println("requests:", requests)
	fmt.Printf("%+v\n", d.Stats())
	// Output:
	// 404
	// 404
	// requests: 1
	// {Hits:1 Misses:1 Expired:0 Corrupt:0 Writes:1 WriteErrors:0}
}
