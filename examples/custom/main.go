// Command custom shows a Finder whose providers are the caller's own: a
// crawler or archive that holds pages and links plugs them in through the
// library's small interfaces and their Func adapters. Here the "web" is a
// map of a few pages in memory: three blog posts link to a recipe that
// moved from old.example to new.example, and the search index holds its
// new home.
//
// Usage:
//
//	go run ./examples/custom
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
)

// missing is the page that moved.
const missing = "https://old.example/recipes/sourdough-starter.html"

// filler makes a page long enough for the paper's size filter (50 words)
// and English enough for its language filter.
const filler = `<p>We bake bread at home every weekend, and we write about what
worked and what did not. The kitchen is small, the oven is old, and the
flour comes from the mill down the road. Notes, photographs and the
mistakes we made are all here for anyone who wants to try it at home.</p>`

// web is the whole web of this example: URI to HTML.
var web = map[string]string{
	"https://blog.example/weekend-loaf.html": `<html><head><title>Weekend loaf</title></head><body>` + filler +
		`<p>Start with a good <a href="` + missing + `">sourdough starter feeding guide</a> first.</p></body></html>`,
	"https://blog.example/first-bake.html": `<html><head><title>First bake</title></head><body>` + filler +
		`<p>I followed this <a href="` + missing + `">starter feeding schedule</a> for a week.</p></body></html>`,
	"https://forum.example/t/42": `<html><head><title>Help with my starter</title></head><body>` + filler +
		`<p>Read the <a href="` + missing + `">sourdough starter guide</a>, it explains everything.</p></body></html>`,
	"https://new.example/guides/starter.html": `<html><head><title>Sourdough starter: feeding guide</title></head><body>` + filler +
		`<p>A guide to keeping a sourdough starter: its feeding schedule, flour and water.</p></body></html>`,
	"https://new.example/recipes/focaccia.html": `<html><head><title>Focaccia</title></head><body>` + filler +
		`<p>Focaccia with olive oil, rosemary and salt.</p></body></html>`,
}

// links lists the pages that link to each URI, as a link database would.
var links = map[string][]string{
	missing: {"https://blog.example/weekend-loaf.html", "https://blog.example/first-bake.html", "https://forum.example/t/42"},
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run looks for the missing page and prints the queries and candidates.
func run(ctx context.Context, w io.Writer) error {
	words := map[string][]string{} // every page's visible words, lowercased
	df := lexsig.NewMemDF()        // document frequencies over the whole web
	for uri, html := range web {
		ws, err := backlink.Words([]byte(html), "text/html")
		if err != nil {
			return err
		}
		words[uri] = lexsig.Tokenize(strings.Join(ws, " "))
		df.AddDocument(words[uri])
	}
	f := &relink.Finder{
		// Backlinks: the link database, in rank order.
		Backlinks: backlink.ProviderFunc(func(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
			var out []backlink.Backlink
			for i, u := range links[uri] {
				if limit > 0 && i == limit {
					break
				}
				out = append(out, backlink.Backlink{URI: u, Rank: i + 1, Level: 1})
			}
			return out, nil
		}),
		// Fetcher: the page store; a URI it does not hold is a 404 page,
		// not an error (an error means no answer at all).
		Fetcher: filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
			header := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
			html, ok := web[uri]
			if !ok || uri == missing {
				return &filter.Page{URI: uri, Status: http.StatusNotFound, Header: header}, nil
			}
			return &filter.Page{URI: uri, Status: http.StatusOK, Header: header, Body: []byte(html)}, nil
		}),
		DF: df,
		// Searcher: pages holding every term (any term for a disjunctive
		// query), the most matches first, then by URI.
		Searcher: lexsig.SearcherFunc(func(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
			var out []lexsig.Result
			for uri, ws := range words {
				n := 0
				for _, t := range q.Terms {
					if slices.Contains(ws, t) {
						n++
					}
				}
				if n == len(q.Terms) || (n > 0 && q.Mode == lexsig.Disjunctive) {
					out = append(out, lexsig.Result{URI: uri, Score: float64(n)})
				}
			}
			slices.SortFunc(out, func(a, b lexsig.Result) int {
				if a.Score != b.Score {
					return int(b.Score - a.Score)
				}
				return strings.Compare(a.URI, b.URI)
			})
			out = out[:min(len(out), limit)]
			for i := range out {
				out[i].Rank = i + 1
			}
			return out, nil
		}),
		// Strategy: nil would be relink.Default(), the project's best;
		// this is the paper's method in its best setting (Table 4).
		Strategy: relink.Paper{},
	}
	res, err := f.Find(ctx, missing)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "method: %s\n", res.Method)
	for _, b := range res.Backlinks {
		if b.Kept {
			fmt.Fprintf(w, "kept     %s\n", b.URI)
		} else {
			fmt.Fprintf(w, "%-8s %s: %s\n", b.Filter, b.URI, b.Reason)
		}
	}
	fmt.Fprintf(w, "query: %s\n", res.Query)
	for _, c := range res.Candidates {
		fmt.Fprintf(w, "%d %s\n", c.Rank, c.URI)
	}
	return nil
}
