package store_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/linkrot/relink/provider/commoncrawl"
	"github.com/linkrot/relink/provider/store"
)

// ExampleStore_IngestWAT adds the link records of a WAT file to the pet
// store: a blog and a forum, which the store holds no copy of, link to
// the dogs page and to a page nobody holds any more. Backlinks returns
// them with the anchor texts of their links, ranked with the pages (by
// in-degree: the cats page has one, the others none; then by URI); Fetch
// cannot serve them.
func ExampleStore_IngestWAT() {
	ctx := context.Background()
	s, dirs, err := openPets(ctx)
	for _, d := range dirs {
		defer os.RemoveAll(d)
	}
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	// A WAT file as Common Crawl publishes them, written here with
	// commoncrawl.Writer.
	wat := filepath.Join(dirs[1], "links.warc.wat.gz")
	f, err := os.Create(wat)
	if err != nil {
		log.Fatal(err)
	}
	w := commoncrawl.NewWriter(f)
	fetched := time.Date(2024, 5, 18, 0, 0, 0, 0, time.UTC)
	for _, p := range []*commoncrawl.Page{
		{URI: "https://blog.example/pets", Fetched: fetched, Status: 200, Links: []commoncrawl.Link{
			{Target: "https://pets.example/dogs.html", Anchor: "a page about guard dogs"},
			{Target: "https://pets.example/hamsters.html", Anchor: "hamster care"},
		}},
		{URI: "https://forum.example/t/42", Fetched: fetched, Status: 200, Links: []commoncrawl.Link{
			{Target: "https://pets.example/hamsters.html", Anchor: "the hamster wheel guide"},
		}},
	} {
		if err := w.WritePage(p); err != nil {
			log.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}

	st, err := s.IngestWAT(ctx, []string{wat}, store.IngestOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(st.Sources, "link sources,", st.Links, "link records")
	for _, uri := range []string{"https://pets.example/dogs.html", "https://pets.example/hamsters.html"} {
		links, err := s.Backlinks(ctx, uri, 10)
		if err != nil {
			log.Fatal(err)
		}
		for _, b := range links {
			fmt.Printf("%s <- %d. %s %q\n", uri, b.Rank, b.URI, b.Anchors)
		}
	}
	page, err := s.Fetch(ctx, "https://blog.example/pets")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("fetch the blog:", page.Status)
	// Output:
	// 2 link sources, 3 link records
	// https://pets.example/dogs.html <- 1. https://pets.example/cats.html []
	// https://pets.example/dogs.html <- 2. https://blog.example/pets ["a page about guard dogs"]
	// https://pets.example/dogs.html <- 3. https://pets.example []
	// https://pets.example/hamsters.html <- 1. https://blog.example/pets ["hamster care"]
	// https://pets.example/hamsters.html <- 2. https://forum.example/t/42 ["the hamster wheel guide"]
	// fetch the blog: 404
}
