// Command signature computes a lexical signature for a target URI from the
// pages that link to it, as the paper does for a missing page: the words of
// each link to the target (or a radius of words around it) ranked by TF-IDF.
//
// Usage:
//
//	signature -target URI [-radius anchor|5|10|page] [-terms 4] [-store FILE] [-json] PAGE...
//
// Each PAGE is an HTML file, optionally followed by "=" and the URI it was
// fetched from, against which its relative links resolve
// (saved.html=https://example.org/blog/). A file given without a URI stands
// for file://localhost/ABSOLUTE/PATH. Document frequencies come from the
// store given with -store; without one they are counted over the given pages
// themselves, which is only a demonstration: with few pages every term is
// rare.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/store"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "signature:", err)
		os.Exit(1)
	}
}

// page is one backlink page given on the command line.
type page struct {
	path, uri string
	body      []byte
}

// output is what -json prints.
type output struct {
	Target    string       `json:"target"`
	Query     string       `json:"query"`
	Signature []outputTerm `json:"signature"`
	Pages     []outputPage `json:"pages"`
}

type outputTerm struct {
	Term   string  `json:"term"`
	TF     int     `json:"tf"`
	DF     int64   `json:"df"`
	Weight float64 `json:"weight"`
}

type outputPage struct {
	URI    string `json:"uri"`
	Words  int    `json:"words"`
	Reason string `json:"reason,omitempty"`
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("signature", flag.ContinueOnError)
	fs.SetOutput(stderr)
	target := fs.String("target", "", "the (missing) `URI` the pages link to (required)")
	radiusFlag := fs.String("radius", "anchor", "words drawn around each link: anchor, a number of words, or page")
	terms := fs.Int("terms", 4, "signature size (the paper's best: 4)")
	storePath := fs.String("store", "", "SQLite store `FILE` to take document frequencies from")
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: signature -target URI [flags] PAGE[=URI]...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *target == "" || fs.NArg() == 0 {
		fs.Usage()
		return errors.New("need -target and at least one page")
	}
	radius, err := backlink.ParseRadius(*radiusFlag)
	if err != nil {
		return err
	}
	pages, err := readPages(fs.Args())
	if err != nil {
		return err
	}

	var df lexsig.DF
	if *storePath != "" {
		s, err := store.Open(*storePath, nil)
		if err != nil {
			return err
		}
		defer s.Close()
		df = s
	} else {
		mem := lexsig.NewMemDF()
		for _, p := range pages {
			words, err := backlink.Words(p.body, "")
			if err != nil {
				return fmt.Errorf("%s: %w", p.path, err)
			}
			mem.AddDocument(words)
		}
		df = mem
	}

	out := output{Target: *target}
	tf := make(map[string]int)
	for _, p := range pages {
		words, err := backlink.Extract(p.body, p.uri, *target, radius)
		op := outputPage{URI: p.uri, Words: len(words)}
		switch {
		case errors.Is(err, backlink.ErrNoLink):
			op.Reason = "no link to the target"
		case err != nil:
			return fmt.Errorf("%s: %w", p.path, err)
		}
		lexsig.CountInto(tf, words)
		out.Pages = append(out.Pages, op)
	}
	ranked, err := lexsig.Rank(ctx, tf, df)
	if err != nil {
		return err
	}
	sig := lexsig.Signature(ranked).Top(*terms)
	out.Query = sig.Query(lexsig.Conjunctive).String()
	for _, t := range sig {
		out.Signature = append(out.Signature, outputTerm{t.Text, t.TF, t.DF, t.Weight})
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	for _, p := range out.Pages {
		if p.Reason != "" {
			fmt.Fprintf(stdout, "skipped  %s: %s\n", p.URI, p.Reason)
		} else {
			fmt.Fprintf(stdout, "page     %s: %d words\n", p.URI, p.Words)
		}
	}
	fmt.Fprintf(stdout, "\n%-20s %4s %8s %8s\n", "term", "tf", "df", "weight")
	for _, t := range out.Signature {
		fmt.Fprintf(stdout, "%-20s %4d %8d %8.3f\n", t.Term, t.TF, t.DF, t.Weight)
	}
	fmt.Fprintf(stdout, "\nquery: %s\n", out.Query)
	return nil
}

// readPages reads the PAGE[=URI] arguments.
func readPages(args []string) ([]page, error) {
	var pages []page
	for _, arg := range args {
		path, uri, _ := strings.Cut(arg, "=")
		if uri == "" {
			abs, err := filepath.Abs(path)
			if err != nil {
				return nil, err
			}
			uri = "file://localhost" + filepath.ToSlash(abs)
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		pages = append(pages, page{path: path, uri: uri, body: body})
	}
	return pages, nil
}
