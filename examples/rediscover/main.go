// Command rediscover treats a URL as missing and looks for it again from the
// pages that link to it, as the paper does: it prints the lexical signature
// made of the backlinks' words, the query, the candidates the search engine
// answers, and what happened to every backlink page.
//
// Usage:
//
//	rediscover [-store FILE] [flags] URL
//
// With a store (built by examples/corpus) everything runs locally: the store
// lists backlinks, replays pages, answers document frequencies and searches,
// and it answers 404 for URL itself, as if the page were gone. With
// -fetch web the backlink pages (and the soft-404 probes) are fetched from
// the live web instead, politely (robots.txt, one request per second per
// host, five attempts), while the store still lists backlinks and searches.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/provider/web"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "rediscover:", err)
		os.Exit(1)
	}
}

// output is what -json prints.
type output struct {
	URI        string            `json:"uri"`
	Signature  []outputTerm      `json:"signature"`
	Query      string            `json:"query"`
	Candidates []outputCandidate `json:"candidates"`
	Backlinks  []outputBacklink  `json:"backlinks"`
	Seconds    float64           `json:"seconds"`
}

type outputTerm struct {
	Term   string  `json:"term"`
	TF     int     `json:"tf"`
	DF     int64   `json:"df"`
	Weight float64 `json:"weight"`
}

type outputCandidate struct {
	Rank  int    `json:"rank"`
	URI   string `json:"uri"`
	Title string `json:"title,omitempty"`
}

type outputBacklink struct {
	URI    string `json:"uri"`
	Rank   int    `json:"rank"`
	Level  int    `json:"level"`
	Kept   bool   `json:"kept"`
	Filter string `json:"filter,omitempty"`
	Reason string `json:"reason,omitempty"`
	Words  int    `json:"words"`
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("rediscover", flag.ContinueOnError)
	fs.SetOutput(stderr)
	storePath := fs.String("store", "relink.db", "SQLite store `FILE` built by examples/corpus")
	depth := fs.Int("depth", relink.DefaultDepth, "backlink levels: 1, or 2 for levels 1 and 2")
	backlinks := fs.Int("backlinks", relink.DefaultBacklinks, "backlinks asked for per page (the paper: 10, 100, 1000)")
	radiusFlag := fs.String("radius", "anchor", "words drawn around each link: anchor, a number of words, or page")
	terms := fs.Int("terms", relink.DefaultTerms, "signature size")
	results := fs.Int("results", relink.DefaultResults, "candidates to ask for")
	excludeNav := fs.Bool("exclude-nav", false, "leave out navigation links (sidebars, tables of contents, next/previous)")
	disjunctive := fs.Bool("or", false, "ask for pages with any term instead of all terms")
	asJSON := fs.Bool("json", false, "print JSON")
	fetch := fs.String("fetch", "store", "where backlink pages come from: store (replayed) or web (fetched live)")
	userAgent := fs.String("user-agent", web.DefaultUserAgent, "User-Agent for -fetch web")
	allowPrivate := fs.Bool("allow-private", false, "with -fetch web, allow private and loopback addresses")
	ignoreRobots := fs.Bool("ignore-robots", false, "with -fetch web, do not honour robots.txt")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: rediscover [flags] URL")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errors.New("need exactly one URL")
	}
	radius, err := backlink.ParseRadius(*radiusFlag)
	if err != nil {
		return err
	}
	if _, err := os.Stat(*storePath); err != nil {
		return fmt.Errorf("store %s: %w (build one with examples/corpus)", *storePath, err)
	}
	s, err := store.Open(*storePath, &store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer s.Close()

	uri := fs.Arg(0)
	view := s.WithMissing(uri)
	cfg := relink.Config{
		Depth: *depth, Backlinks: *backlinks, Radius: radius, Terms: *terms,
		Results: *results, ExcludeNav: *excludeNav,
	}
	if *disjunctive {
		cfg.Mode = lexsig.Disjunctive
	}
	var fetcher filter.Fetcher = view
	switch *fetch {
	case "store":
	case "web":
		client := &web.Client{UserAgent: *userAgent, AllowPrivate: *allowPrivate, IgnoreRobots: *ignoreRobots}
		defer client.CloseIdleConnections()
		fetcher = client
	default:
		return fmt.Errorf("bad -fetch %q: want store or web", *fetch)
	}
	f := &relink.Finder{
		Backlinks: view.Provider(store.BacklinkOptions{ExcludeNav: *excludeNav}),
		Fetcher:   fetcher,
		DF:        view,
		Searcher:  view,
		Config:    cfg,
	}
	start := time.Now()
	res, err := f.Find(ctx, uri)
	if err != nil {
		return err
	}
	out := makeOutput(res, *terms)
	out.Seconds = time.Since(start).Seconds()
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	printText(stdout, out)
	return nil
}

func makeOutput(res *relink.Result, terms int) output {
	out := output{
		URI:        res.URI,
		Query:      res.Query.String(),
		Signature:  []outputTerm{},
		Candidates: []outputCandidate{},
		Backlinks:  []outputBacklink{},
	}
	for _, t := range res.Signature.Top(terms) {
		out.Signature = append(out.Signature, outputTerm{t.Text, t.TF, t.DF, t.Weight})
	}
	for _, c := range res.Candidates {
		out.Candidates = append(out.Candidates, outputCandidate{c.Rank, c.URI, c.Title})
	}
	for _, b := range res.Backlinks {
		out.Backlinks = append(out.Backlinks, outputBacklink{
			URI: b.URI, Rank: b.Rank, Level: b.Level, Kept: b.Kept,
			Filter: b.Filter, Reason: b.Reason, Words: b.Words,
		})
	}
	return out
}

func printText(w io.Writer, out output) {
	kept := 0
	for _, b := range out.Backlinks {
		if b.Kept {
			kept++
		}
	}
	fmt.Fprintf(w, "missing:   %s\n", out.URI)
	fmt.Fprintf(w, "backlinks: %d found, %d kept\n", len(out.Backlinks), kept)
	for _, b := range out.Backlinks {
		if b.Kept {
			fmt.Fprintf(w, "  %4d  kept      %s (%d words)\n", b.Rank, b.URI, b.Words)
		} else {
			fmt.Fprintf(w, "  %4d  %-9s %s: %s\n", b.Rank, b.Filter, b.URI, b.Reason)
		}
	}
	fmt.Fprintf(w, "\n%-20s %4s %8s %8s\n", "term", "tf", "df", "weight")
	for _, t := range out.Signature {
		fmt.Fprintf(w, "%-20s %4d %8d %8.3f\n", t.Term, t.TF, t.DF, t.Weight)
	}
	fmt.Fprintf(w, "\nquery: %s\n", out.Query)
	if len(out.Candidates) == 0 {
		fmt.Fprintln(w, "no candidates")
	}
	for _, c := range out.Candidates {
		mark := ""
		if u, err := canon.Canonicalize(c.URI); err == nil && u == out.URI {
			mark = "   <- the missing page itself"
		}
		fmt.Fprintf(w, "%4d  %s%s\n", c.Rank, c.URI, mark)
	}
	fmt.Fprintf(w, "(%.0f ms)\n", out.Seconds*1000)
}
