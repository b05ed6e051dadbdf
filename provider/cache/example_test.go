package cache_test

import (
	"context"
	"errors"
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

// Open refuses a directory that another user could write: a record
// planted there would be served as an answer.
func ExampleOpen() {
	dir, err := os.MkdirTemp("", "relink-cache")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o777); err != nil {
		log.Fatal(err)
	}
	_, err = cache.Open(dir, 0)
	fmt.Println(errors.Is(err, cache.ErrUnsafe))
	if err := os.Chmod(dir, 0o700); err != nil {
		log.Fatal(err)
	}
	d, err := cache.Open(dir, 0)
	if err != nil {
		log.Fatal(err)
	}
	// On start, remove what is expired, then the oldest above 1 GiB.
	st, err := d.Prune(1 << 30)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%+v\n", st)
	// Output:
	// true
	// {Expired:0 Oldest:0 Temporary:0 RemovedBytes:0 Kept:0 KeptBytes:0}
}
