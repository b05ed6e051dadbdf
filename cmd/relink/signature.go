package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/lexsig"
)

const signatureHelp = `
usage: relink signature -target URL [-radius anchor|5|10|page] [-terms 4] [-store FILE] [-json] PAGE[=URI]...

Signature computes the lexical signature of a target from the pages that
link to it, as the paper does for a missing page (§3): the words of each
link to the target (or a radius of words around it) ranked by TF-IDF.

Each PAGE is an HTML file, optionally followed by "=" and the URI it was
fetched from, against which its relative links resolve
(saved.html=https://example.org/blog/). A file given without a URI stands
for file://localhost/ABSOLUTE/PATH. Document frequencies come from the
store given with -store, opened read-only; without one they are counted
over the given pages themselves, which is only a demonstration: with few
pages every term is rare.
`

// signatureConfig is signature's command line.
type signatureConfig struct {
	target, radius, storePath string
	terms                     int
	asJSON                    bool
}

func signatureFlags() (*flag.FlagSet, *signatureConfig) {
	var c signatureConfig
	fs := newFlagSet("signature")
	fs.StringVar(&c.target, "target", "", "the (missing) `URL` the pages link to (required)")
	fs.StringVar(&c.radius, "radius", "anchor", "words drawn around each link: anchor, a number of words, or page")
	fs.IntVar(&c.terms, "terms", relink.DefaultTerms, fmt.Sprintf("signature size, 1 to %d (the paper's best: 4)", maxTerms))
	fs.StringVar(&c.storePath, "store", "", "store `FILE` or postgres:// URL to take document frequencies from, opened read-only")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON instead of text")
	return fs, &c
}

// sigPage is one backlink page given on the command line.
type sigPage struct {
	path, uri string
	body      []byte
}

// sigOutput is what -json prints.
type sigOutput struct {
	Target    string       `json:"target"`
	Query     string       `json:"query"`
	Signature []outputTerm `json:"signature"`
	Pages     []sigOutPage `json:"pages"`
}

type sigOutPage struct {
	URI    string `json:"uri"`
	Words  int    `json:"words"`
	Reason string `json:"reason,omitempty"`
}

func runSignature(ctx context.Context, e *env, args []string) error {
	fs, c := signatureFlags()
	if err := parse(fs, args); err != nil {
		return err
	}
	if c.target == "" || fs.NArg() == 0 {
		return usagef("need -target and at least one page")
	}
	target, err := webTarget("-target", c.target)
	if err != nil {
		return err
	}
	if err := checkBounds(bound{flag: "terms", value: c.terms, min: 1, max: maxTerms, meaning: "the signature size"}); err != nil {
		return err
	}
	radius, err := backlink.ParseRadius(c.radius)
	if err != nil {
		return usage(fmt.Errorf("-radius: %w", err))
	}
	pages, err := readPages(fs.Args())
	if err != nil {
		return err
	}

	var df lexsig.DF
	if c.storePath != "" {
		s, err := openStore(ctx, c.storePath)
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

	out := sigOutput{Target: target}
	tf := make(map[string]int)
	for _, p := range pages {
		words, err := backlink.Extract(p.body, p.uri, target, radius)
		op := sigOutPage{URI: p.uri, Words: len(words)}
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
	sig := lexsig.Signature(ranked).Top(c.terms)
	out.Query = sig.Query(lexsig.Conjunctive).String()
	out.Signature = terms(sig)
	if c.asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	for _, p := range out.Pages {
		if p.Reason != "" {
			fmt.Fprintf(e.stdout, "skipped  %s: %s\n", p.URI, p.Reason)
		} else {
			fmt.Fprintf(e.stdout, "page     %s: %d words\n", p.URI, p.Words)
		}
	}
	fmt.Fprintln(e.stdout)
	printTerms(e.stdout, out.Signature)
	fmt.Fprintf(e.stdout, "\nquery: %s\n", out.Query)
	return nil
}

// readPages reads the PAGE[=URI] arguments.
func readPages(args []string) ([]sigPage, error) {
	var pages []sigPage
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
		pages = append(pages, sigPage{path: path, uri: uri, body: body})
	}
	return pages, nil
}
