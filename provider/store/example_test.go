package store_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/store"
)

// petSite writes a three-page site into a new temporary directory.
func petSite() (string, error) {
	dir, err := os.MkdirTemp("", "relink-pets")
	if err != nil {
		return "", err
	}
	pages := map[string]string{
		"index.html": `<html><head><title>Pets</title></head><body>
			<p>Read about <a href="cats.html">sleepy cats</a> and <a href="dogs.html">loyal dogs</a>.</p></body></html>`,
		"cats.html": `<html><head><title>Cats</title></head><body>
			<p>Cats purr and nap all day. Compare them with <a href="dogs.html">dogs</a>.</p></body></html>`,
		"dogs.html": `<html><head><title>Dogs</title></head><body>
			<p>Dogs bark, fetch sticks and guard the house.</p></body></html>`,
	}
	for name, html := range pages {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(html), 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// openPets builds a store of the pet site in a temporary directory; the
// caller removes the two directories it returns.
func openPets(ctx context.Context) (*store.Store, []string, error) {
	site, err := petSite()
	if err != nil {
		return nil, nil, err
	}
	dbDir, err := os.MkdirTemp("", "relink-store")
	if err != nil {
		return nil, []string{site}, err
	}
	s, err := store.Open(filepath.Join(dbDir, "pets.db"), nil)
	if err != nil {
		return nil, []string{site, dbDir}, err
	}
	if _, err := s.IngestDir(ctx, site, "https://pets.example/", store.IngestOptions{}); err != nil {
		s.Close()
		return nil, []string{site, dbDir}, err
	}
	return s, []string{site, dbDir}, nil
}

// Example builds a store from a directory of HTML files and asks it the
// three questions of a rediscovery: who links to a page, how rare a term
// is, and which pages match a query.
func Example() {
	ctx := context.Background()
	site, err := petSite()
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(site)
	dbDir, err := os.MkdirTemp("", "relink-store")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dbDir)

	s, err := store.Open(filepath.Join(dbDir, "pets.db"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	st, err := s.IngestDir(ctx, site, "https://pets.example/", store.IngestOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(st.Pages, "pages,", st.Links, "links")

	backlinks, err := s.Backlinks(ctx, "https://pets.example/dogs.html", 10)
	if err != nil {
		log.Fatal(err)
	}
	for _, b := range backlinks {
		fmt.Println("backlink", b.Rank, b.URI)
	}

	df, err := s.DocFreq(ctx, "dogs")
	if err != nil {
		log.Fatal(err)
	}
	docs, err := s.Docs(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("DF(dogs) = %d of %d pages\n", df, docs)

	results, err := s.Search(ctx, lexsig.Query{Terms: []string{"dogs", "bark"}}, 10)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range results {
		fmt.Println("result", r.Rank, r.URI, r.Title)
	}
	// Output:
	// 3 pages, 3 links
	// backlink 1 https://pets.example/cats.html
	// backlink 2 https://pets.example
	// DF(dogs) = 3 of 3 pages
	// result 1 https://pets.example/dogs.html Dogs
}

// ExampleStore_WithMissing sets up the paper's experiment for one target:
// the page answers 404 and its links no longer count, but the search
// engine still finds it.
func ExampleStore_WithMissing() {
	ctx := context.Background()
	s, dirs, err := openPets(ctx)
	for _, d := range dirs {
		defer os.RemoveAll(d)
	}
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	view := s.WithMissing("https://pets.example/cats.html")
	page, err := view.Fetch(ctx, "https://pets.example/cats.html")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("fetch:", page.Status)
	backlinks, err := view.Backlinks(ctx, "https://pets.example/dogs.html", 10)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("backlinks of dogs:", len(backlinks), backlinks[0].URI)
	results, err := view.Search(ctx, lexsig.Query{Terms: []string{"cats", "purr"}}, 10)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("search:", results[0].URI)
	// Output:
	// fetch: 404
	// backlinks of dogs: 1 https://pets.example
	// search: https://pets.example/cats.html
}

// ExampleStore_Fetch replays a stored page: the file's bytes, with its
// relative hrefs made absolute.
func ExampleStore_Fetch() {
	ctx := context.Background()
	s, dirs, err := openPets(ctx)
	for _, d := range dirs {
		defer os.RemoveAll(d)
	}
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	page, err := s.Fetch(ctx, "https://pets.example/cats.html")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(page.Status, page.URI, page.Header.Get("Content-Type"))
	body := string(page.Body)
	start := strings.Index(body, "<a ")
	end := start + strings.Index(body[start:], "</a>") + len("</a>")
	fmt.Println(body[start:end])
	// Output:
	// 200 https://pets.example/cats.html text/html
	// <a href="https://pets.example/dogs.html">dogs</a>
}

// ExampleOpen_readOnly shows what a reader gets: no store where there is
// none (and no file made), a refusal while the store's ingest has not
// finished, and the store once it has.
func ExampleOpen_readOnly() {
	ctx := context.Background()
	site, err := petSite()
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(site)
	dbDir, err := os.MkdirTemp("", "relink-store")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dbDir)
	path := filepath.Join(dbDir, "pets.db")
	reader := &store.Options{ReadOnly: true}

	_, err = store.Open(path, reader)
	fmt.Println("before any ingest:", errors.Is(err, store.ErrNoStore))

	w, err := store.Open(path, nil) // the writer makes the file
	if err != nil {
		log.Fatal(err)
	}
	_, err = store.Open(path, reader)
	fmt.Println("before the ingest finished:", errors.Is(err, store.ErrIncomplete))

	if _, err := w.IngestDir(ctx, site, "https://pets.example/", store.IngestOptions{}); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	r, err := store.Open(path, reader)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	n, err := r.Docs(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("after it:", n, "pages")
	// Output:
	// before any ingest: true
	// before the ingest finished: true
	// after it: 3 pages
}
