// Command soft404 shows the paper's soft 404 check (§3.1 "Soft 404s") on
// a live URL: it fetches the page and two probe URIs with a random string
// inserted after the first and after the last slash of the path, and the
// page is a soft 404, a "not found" page served with status 200, when both
// probes answer 2xx with nearly the same words (Jaccard above 0.9).
//
// Usage:
//
//	go run ./examples/soft404 [-allow-private] URL
//
// It fetches politely with provider/web: robots.txt is obeyed, one request
// per second per host, and private and loopback addresses are refused
// unless -allow-private. `relink soft404` explains its verdict.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/web"
)

func main() {
	allowPrivate := flag.Bool("allow-private", false, "allow private and loopback addresses (e.g. localhost)")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: soft404 [-allow-private] URL")
	}
	c := &web.Client{AllowPrivate: *allowPrivate}
	defer c.CloseIdleConnections()
	random := filter.RandomString(filter.ProbeLength)
	if err := run(context.Background(), os.Stdout, c, flag.Arg(0), random); err != nil {
		log.Fatal(err)
	}
}

// run checks uri with the probes random makes and prints each fetch and
// the verdict. Only a page that cannot be fetched at all is an error.
func run(ctx context.Context, w io.Writer, f filter.Fetcher, uri, random string) error {
	first, last, err := filter.ProbeURIs(uri, random)
	if err != nil {
		return err
	}
	page, err := f.Fetch(ctx, uri)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "page     %d %s\n", page.Status, uri)
	// A probe without an answer is nil: it makes no page a soft 404.
	probes := make([]*filter.Page, 2)
	for i, p := range []string{first, last} {
		probes[i], err = f.Fetch(ctx, p)
		if err != nil {
			fmt.Fprintf(w, "probe %d  no answer %s: %v\n", i+1, p, err)
			continue
		}
		fmt.Fprintf(w, "probe %d  %d %s, Jaccard %.2f with the page\n", i+1, probes[i].Status, p, filter.Jaccard(words(page), words(probes[i])))
	}
	verdict := "not a soft 404"
	if filter.IsSoft404(page, probes[0], probes[1]) {
		verdict = "soft 404"
	}
	fmt.Fprintln(w, "verdict ", verdict)
	return nil
}

// words returns a page's visible words, lowercased as the filter compares
// them; none for a page that cannot be rendered.
func words(p *filter.Page) []string {
	ws, err := backlink.Words(p.Body, p.Header.Get("Content-Type"))
	if err != nil {
		return nil
	}
	for i, w := range ws {
		ws[i] = strings.ToLower(w)
	}
	return ws
}
