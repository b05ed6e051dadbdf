// Command signature shows how the paper's lexical signature is made (§3):
// the words of each link to a target on the pages that link to it (or a
// radius of words around each link) are counted and ranked by TF-IDF, and
// the top terms make the query.
//
// Usage:
//
//	go run ./examples/signature -target URL PAGE=URI...
//
// Each PAGE is a saved HTML file and URI the address it was fetched from,
// against which its relative links resolve. Document frequencies are
// counted over the given pages themselves, which is only a demonstration:
// with few pages every term is rare. `relink signature` takes them from a
// store.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/lexsig"
)

func main() {
	target := flag.String("target", "", "the (missing) `URL` the pages link to")
	radius := flag.String("radius", "anchor", "words drawn around each link: anchor, a number of words, or page")
	terms := flag.Int("terms", 4, "signature size (the paper's best: 4)")
	flag.Parse()
	r, err := backlink.ParseRadius(*radius)
	if err != nil || *target == "" || flag.NArg() == 0 || *terms < 1 {
		log.Fatal("usage: signature -target URL [-radius R] [-terms N] PAGE=URI...")
	}
	if err := run(context.Background(), os.Stdout, *target, r, *terms, flag.Args()); err != nil {
		log.Fatal(err)
	}
}

// run prints the signature of target drawn from the PAGE=URI pages.
func run(ctx context.Context, w io.Writer, target string, r backlink.Radius, terms int, pages []string) error {
	df := lexsig.NewMemDF()
	tf := map[string]int{}
	for _, arg := range pages {
		path, uri, ok := strings.Cut(arg, "=")
		if !ok {
			return fmt.Errorf("%s: want PAGE=URI", arg)
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		// Every word of the page counts once for its document frequency.
		all, err := backlink.Words(body, "text/html")
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		df.AddDocument(lexsig.Tokenize(strings.Join(all, " ")))
		// The words around the page's links to target count for TF.
		words, err := backlink.Extract(body, uri, target, r)
		switch {
		case errors.Is(err, backlink.ErrNoLink):
			fmt.Fprintf(w, "%s: no link to the target\n", uri)
			continue
		case err != nil:
			return fmt.Errorf("%s: %w", path, err)
		}
		fmt.Fprintf(w, "%s: %q\n", uri, words)
		lexsig.CountInto(tf, words)
	}
	ranked, err := lexsig.Rank(ctx, tf, df)
	if err != nil {
		return err
	}
	sig := lexsig.Signature(ranked).Top(terms)
	for _, t := range sig {
		fmt.Fprintf(w, "%-12s tf %d  df %d  weight %.3f\n", t.Text, t.TF, t.DF, t.Weight)
	}
	fmt.Fprintf(w, "query: %s\n", sig.Query(lexsig.Conjunctive))
	return nil
}
