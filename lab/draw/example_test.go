package draw_test

import (
	"fmt"

	"github.com/linkrot/relink/lab/draw"
	"github.com/linkrot/relink/provider/store"
)

// The same seed draws the same pages, and the moved mode publishes each
// at a path of its own on the same host.
func Example() {
	pages := []store.PageInfo{
		{URI: "https://docs.example/c.html", Backlinks: 1, ContentBacklinks: 1},
		{URI: "https://docs.example/a.html", Backlinks: 4, ContentBacklinks: 3},
		{URI: "https://docs.example/b.html", Backlinks: 12, ContentBacklinks: 12},
	}
	targets, of, err := draw.Pick(pages, 2, 1)
	if err != nil {
		panic(err)
	}
	for _, t := range targets {
		fmt.Println(t.URI, t.Stratum)
	}
	fmt.Println("of", of)
	fmt.Println(draw.MovedURI("https://docs.example/a.html"))
	// Output:
	// https://docs.example/a.html 3-9
	// https://docs.example/c.html 1-2
	// of 3
	// https://docs.example/relocated/47c26c23b5cd.html
}
