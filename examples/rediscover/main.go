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
// host, five attempts). Backlinks always come from the store, which can be
// built from a crawl, WARC files or Common Crawl's WAT link records.
//
// # Method
//
// -method paper (the default) is the paper's method, set with -depth,
// -backlinks, -radius, -terms, -exclude-nav and -or. -method best is
// relink.Best(), the project's best method that needs no archived copy,
// and any name of relink.Strategies() (phrase, url-2, url-4, url-or-4,
// sig-anchor-4-nonav, anchor+url-4, cascade, fusion, rerank, rerank-fetch,
// archive-title, archive-ls5, archive-ls7) runs that method; the archive-*
// methods need -archive. The queries sent, and a strategy's step, are
// printed.
//
// # Search engine
//
// -search picks who answers the queries: store (the default), or a live
// web search API: google (Programmable Search, closing to all on
// 2027-01-01), brave, marginalia, mojeek or searxng (an instance of one's
// own). -search-url replaces the service's address (a proxy, a
// self-hosted instance, a test server). Keys come from -key (and -cx for
// Google's engine ID) or from the environment: GOOGLE_API_KEY and
// GOOGLE_CSE_ID, BRAVE_API_KEY, MARGINALIA_API_KEY (default Marginalia's
// shared key "public"), MOJEEK_API_KEY, and SEARXNG_URL for the instance.
// A missing key is an error before any request, and no key is ever
// printed. Prefer the environment: a -key flag shows in the process list.
// -rate sets the requests per second to each service (default 1).
//
// # Document frequencies
//
// -df store (the default) takes the store's exact counts; -df search
// the engine's hit counts (google, mojeek and searxng report them) over
// -docs, |D|, by default DefaultDocs, worldwidewebsize.com's estimate of
// the indexed web, as the paper took Yahoo!'s index size from that site;
// -df table reads a term-count table (-df-table FILE, provider/dftable).
// -df-cache FILE keeps every value in a file shared by runs (provider/
// dfcache), under a source name made of where the numbers come from and
// |D| ("google/|D|=4310000000"), so that each term is asked of an engine
// once, ever.
//
// # Archives
//
// -archive wayback or memento (-archive-url to replace the service's
// address) gives the archive-* methods the page's last good archived copy.
// With wayback, the page's historical redirects (where it redirected, and
// when) are printed too. The archive is a clue, not a requirement: when it
// fails or holds nothing, a note says so on stderr and the run goes on.
//
// Ctrl-C stops a run at once; every client and file is closed on the way
// out.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"golang.org/x/time/rate"

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
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case err != nil:
		fmt.Fprintln(os.Stderr, "rediscover:", err)
		os.Exit(1)
	}
}

// paperFlags are the flags of the paper's method, which a strategy ignores.
var paperFlags = []string{"depth", "radius", "terms", "exclude-nav", "or"}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	fs := flag.NewFlagSet("rediscover", flag.ContinueOnError)
	fs.SetOutput(stderr)
	storePath := fs.String("store", "relink.db", "SQLite store `FILE` built by examples/corpus")
	method := fs.String("method", "paper", "the `method`: paper, best, or a strategy's name (listed above)")
	depth := fs.Int("depth", relink.DefaultDepth, "backlink levels: 1, or 2 for levels 1 and 2")
	backlinks := fs.Int("backlinks", relink.DefaultBacklinks, "backlinks asked for per page (the paper: 10, 100, 1000)")
	radiusFlag := fs.String("radius", "anchor", "words drawn around each link: anchor, a number of words, or page")
	terms := fs.Int("terms", relink.DefaultTerms, "signature size")
	results := fs.Int("results", relink.DefaultResults, "candidates to ask for")
	excludeNav := fs.Bool("exclude-nav", false, "leave out navigation links (sidebars, tables of contents, next/previous)")
	disjunctive := fs.Bool("or", false, "ask for pages with any term instead of all terms")
	search := fs.String("search", "store", "search `engine`: "+strings.Join(engineNames, ", "))
	searchURL := fs.String("search-url", "", "the search service's base `URL`, replacing its own")
	key := fs.String("key", "", "API `key` of -search (default from the environment, see above)")
	cx := fs.String("cx", "", "Google's Programmable Search Engine `ID` (default $GOOGLE_CSE_ID)")
	dfKind := fs.String("df", "store", "document frequencies: store, search (the engine's hit counts) or table")
	dfTable := fs.String("df-table", "", "with -df table, a term-count table `FILE` (provider/dftable)")
	docs := fs.Int64("docs", DefaultDocs, "with -df search, |D|: the `number` of pages hit counts are out of")
	dfCache := fs.String("df-cache", "", "keep document frequencies in `FILE`, shared by runs (provider/dfcache)")
	archiveName := fs.String("archive", "none", "web archive of past copies: "+strings.Join(archiveNames, ", "))
	archiveURL := fs.String("archive-url", "", "the archive's base `URL`, replacing its own")
	rateFlag := fs.Float64("rate", 0, "`requests` per second to each web service (search, archive); 0 means its default (1), inf no limit")
	asJSON := fs.Bool("json", false, "print JSON")
	fetch := fs.String("fetch", "store", "where backlink pages come from: store (replayed) or web (fetched live)")
	userAgent := fs.String("user-agent", web.DefaultUserAgent, "User-Agent for -fetch web, search APIs and archives")
	allowPrivate := fs.Bool("allow-private", false, "with -fetch web, allow private and loopback addresses")
	ignoreRobots := fs.Bool("ignore-robots", false, "with -fetch web, do not honour robots.txt")
	fs.Usage = func() { usage(fs) }
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errors.New("need exactly one URL")
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	radius, err := backlink.ParseRadius(*radiusFlag)
	if err != nil {
		return err
	}
	strategy, err := pickMethod(*method)
	if err != nil {
		return err
	}
	if strategy != nil {
		for _, name := range paperFlags {
			if set[name] {
				return fmt.Errorf("-%s sets the paper's method; -method %s chooses its own", name, *method)
			}
		}
		if strategy.UsesArchive() && *archiveName == "none" {
			return fmt.Errorf("-method %s reads an archived copy of the page: add -archive wayback or -archive memento", *method)
		}
	}
	if err := checkFlags(set, *search, *dfKind, *dfTable, *docs, *archiveName, *rateFlag, *disjunctive); err != nil {
		return err
	}
	if *search == "store" && *dfKind == "search" {
		*dfKind = "store" // the store's hit counts are its exact counts
	}
	uri := fs.Arg(0)
	target, err := canon.Canonicalize(uri)
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
	view := s.WithMissing(target)

	reqRate := rate.Limit(*rateFlag) // +Inf ("inf") means no limit to the providers
	var searcher lexsig.Searcher = view
	var eng *engine
	if *search != "store" {
		eng, err = newEngine(engineConfig{name: *search, baseURL: *searchURL, key: *key, cx: *cx, userAgent: *userAgent, rate: reqRate})
		if err != nil {
			return err
		}
		defer eng.client.CloseIdleConnections()
		searcher = eng.client
	}
	dfs, err := openDF(ctx, dfConfig{kind: *dfKind, table: *dfTable, docs: *docs, cache: *dfCache, storePath: *storePath}, view, eng)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := dfs.close(); err == nil && cerr != nil {
			err = fmt.Errorf("-df-cache: %w", cerr)
		}
	}()
	arch, err := newArchive(*archiveName, *archiveURL, *userAgent, reqRate)
	if err != nil {
		return err
	}

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
		DF:        dfs.df,
		Searcher:  searcher,
		Config:    cfg,
		Strategy:  strategy,
	}
	var notes []string
	redirects := func() ([]outputRedirect, string) { return nil, "" }
	if arch != nil {
		defer arch.close()
		f.Archive = arch.log
		if arch.wayback == nil && (strategy == nil || !strategy.UsesArchive()) {
			notes = append(notes, fmt.Sprintf("-archive %s: only the archive-* methods read an archived copy", *archiveName))
		}
		if arch.wayback != nil {
			rctx, cancel := context.WithCancel(ctx)
			redirects = arch.redirects(rctx, target)
			defer func() { cancel(); redirects() }() // before arch.close
		}
	}

	start := time.Now()
	res, err := f.Find(ctx, target)
	if err != nil {
		return err
	}
	out := makeOutput(res, *terms)
	out.Method, out.Search, out.DF = methodName(strategy, cfg), *search, dfs.output()
	if arch != nil {
		out.Archive, notes = arch.outcome(notes)
	}
	var note string
	if out.Redirects, note = redirects(); note != "" {
		notes = append(notes, note)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	out.Seconds = time.Since(start).Seconds()
	out.Notes = notes
	for _, n := range notes {
		fmt.Fprintln(stderr, "rediscover: note:", n)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	printText(stdout, out)
	return nil
}

// pickMethod returns the strategy -method names: nil for the paper's
// method, relink.Best() for "best", or the one of relink.Strategies() of
// that name.
func pickMethod(name string) (relink.Strategy, error) {
	switch name {
	case "paper":
		return nil, nil
	case "best":
		return relink.Best(), nil
	}
	names := []string{"paper", "best"}
	for _, s := range relink.Strategies() {
		if s.Name() == name {
			return s, nil
		}
		names = append(names, s.Name())
	}
	return nil, fmt.Errorf("unknown -method %q: want one of %s", name, strings.Join(names, ", "))
}

// methodName names the method in the output: a strategy's name, or "paper"
// and its setting in the benchmark's words ("paper 1-anchor-10, 4 terms").
func methodName(s relink.Strategy, cfg relink.Config) string {
	if s != nil {
		return s.Name()
	}
	m := relink.Method{Depth: cfg.Depth, Radius: cfg.Radius, Backlinks: cfg.Backlinks, Nav: !cfg.ExcludeNav}
	name := fmt.Sprintf("paper %s, %d terms", m, cfg.Terms)
	if cfg.Mode == lexsig.Disjunctive {
		name += ", any term"
	}
	return name
}

// checkFlags refuses flags that do not fit together, before anything is
// opened or asked: each of these would otherwise be ignored or fail later,
// after requests that count against a key's quota.
func checkFlags(set map[string]bool, search, df, table string, docs int64, archive string, reqRate float64, disjunctive bool) error {
	if !slices.Contains(engineNames, search) {
		return fmt.Errorf("unknown -search %q: want one of %s", search, strings.Join(engineNames, ", "))
	}
	if !slices.Contains(dfKinds, df) {
		return fmt.Errorf("unknown -df %q: want one of %s", df, strings.Join(dfKinds, ", "))
	}
	if !slices.Contains(archiveNames, archive) {
		return fmt.Errorf("unknown -archive %q: want one of %s", archive, strings.Join(archiveNames, ", "))
	}
	for _, c := range []struct {
		flag string
		ok   bool
		why  string
	}{
		{"search-url", search != "store", "-search-url needs a live -search engine"},
		{"key", search != "store" && search != "searxng", "-key is for -search google, brave, marginalia or mojeek"},
		{"cx", search == "google", "-cx is for -search google"},
		{"df-table", df == "table", "-df-table needs -df table"},
		{"docs", df == "search", "-docs is |D| for -df search"},
		{"archive-url", archive != "none", "-archive-url needs -archive wayback or memento"},
	} {
		if set[c.flag] && !c.ok {
			return errors.New(c.why)
		}
	}
	switch {
	case df == "table" && table == "":
		return errors.New("-df table needs -df-table FILE")
	case docs <= 0:
		return fmt.Errorf("bad -docs %d: want the positive number of pages the engine indexes", docs)
	case reqRate < 0 || math.IsNaN(reqRate):
		return fmt.Errorf("bad -rate %v: want 0 (the default), a positive number or inf", reqRate)
	case disjunctive && slices.Contains(noOrEngines, search):
		return fmt.Errorf("-or: %s has no OR operator", search)
	}
	return nil
}

// usage prints the command line's help.
func usage(fs *flag.FlagSet) {
	w := fs.Output()
	fmt.Fprint(w, `usage: rediscover [flags] URL

Treats URL as missing and looks for it again from its backlinks in -store:
their words make a query (the paper's lexical signature, or another
-method), which -search answers.

Methods (-method): paper, best (that is `+relink.Best().Name()+`), and
`)
	names := []string{}
	for _, s := range relink.Strategies() {
		names = append(names, s.Name())
	}
	fmt.Fprintf(w, `  %s.
The archive-* methods read the page's archived copy: they need -archive.

Keys and addresses come from -key, -cx and -search-url, or else from the
environment:
%s
-df search uses hit counts (%s) over -docs pages;
-df-cache keeps them for later runs.

Flags:
`, strings.Join(names, ", "), envHelp(), strings.Join(hitCountEngines, ", "))
	fs.PrintDefaults()
}
