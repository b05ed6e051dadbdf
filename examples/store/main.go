// Command store shows a Finder over a store, the library's local web: one
// SQLite file (built by `relink corpus`) that lists backlinks, replays
// pages, answers document frequencies and searches. The store is opened
// read-only, and the given URL is treated as missing: the store answers
// 404 for it, as if the page were gone, though its search index still
// holds it (as the paper's search engine did).
//
// Usage:
//
//	go run ./examples/store -store relink.db URL
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/store"
)

func main() {
	path := flag.String("store", "relink.db", "store `FILE` built by relink corpus")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: store [-store FILE] URL")
	}
	if err := run(context.Background(), *path, flag.Arg(0), os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run looks for uri again with the store's providers and prints what the
// default method found.
func run(ctx context.Context, path, uri string, w io.Writer) error {
	// ReadOnly: a reader never creates or changes a store. Without it,
	// Open would create a new, empty store for a path that has none.
	s, err := store.Open(path, &store.Options{ReadOnly: true}) // a store built by relink corpus
	if err != nil {
		return err
	}
	defer s.Close()
	view := s.WithMissing(uri) // the page is gone in this view
	f := &relink.Finder{
		Backlinks: view,
		Fetcher:   view,
		DF:        lexsig.NewCache(view), // each term looked up once
		Searcher:  view,
		// Strategy nil is relink.Default(), the project's best method.
	}
	res, err := f.Find(ctx, uri)
	switch {
	case errors.Is(err, relink.ErrNoQuery):
		// Not a failure: the backlinks gave nothing to search. The
		// trail (res.Backlinks) says what happened to each.
		fmt.Fprintln(w, err)
		return nil
	case err != nil:
		return err
	}
	fmt.Fprintf(w, "method: %s\n", res.Method)
	for _, b := range res.Backlinks {
		fmt.Fprintf(w, "backlink %s kept=%v\n", b.URI, b.Kept)
	}
	for _, q := range res.Queries {
		fmt.Fprintf(w, "query: %s\n", q)
	}
	for _, c := range res.Candidates {
		fmt.Fprintf(w, "%d %s %q\n", c.Rank, c.URI, c.Title)
	}
	if res.Found { // the first candidate reached the threshold
		fmt.Fprintf(w, "found %s (confidence %.2f)\n", res.Candidates[0].URI, res.Confidence)
	} else {
		fmt.Fprintf(w, "not found (confidence %.2f)\n", res.Confidence)
	}
	return nil
}
