package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/store"
)

// Bounds of find's numeric flags.
const (
	// maxTerms is the largest signature: 32 words is the longest query
	// Google's engines take; the paper's sizes go up to 10 (§3.2).
	maxTerms = 32
	// maxResults is the most candidates a query asks for: the paper's
	// 1000 (§4, nDCG over the first 1000 results), and the store's limit.
	maxResults = store.MaxResults
)

const findHelp = `
usage: relink find [-store FILE] [flags] URL

Find treats URL as missing and looks for it again from the pages that link
to it in -store: their words make one or more queries, which -search
answers. It prints the backlink pages (kept, or why not), the queries, the
candidates, and with -method paper the lexical signature.

With a store (built by relink corpus) everything runs locally: the store
lists backlinks, replays pages, answers document frequencies and searches,
and answers 404 for URL itself, as if the page were gone. The store is
opened read-only. With -fetch web the backlink pages (and the soft-404
probes) are fetched from the live web instead, politely (robots.txt, one
request per second per host, five attempts). Backlinks come from the
store, which can be built from a crawl, WARC files or Common Crawl's WAT
link records, and with -backlinks-from store,mediawiki also from a wiki's
articles citing URL (-mediawiki-api; -backlinks-from mediawiki alone
replaces the store's). The live services' answers are kept in -cache DIR
for -cache-age (see relink help fix).

By default the missing URI and the backlink pages are left out of the
candidates; -keep-missing and -keep-backlinks keep them, as the paper's
experiment counted them.

Methods (-method): best (the default: the library's default method,
currently %s), paper, and %s.
paper is the paper's method (§3), set with -depth, -backlinks, -radius,
-terms, -links (or -exclude-nav) and -or; giving one of these without
-method means -method paper. -backlinks also
sets the backlinks of the other methods. The archive-* methods read the
page's archived copy: they need -archive.

Search engines (-search): store (the default), google (Programmable
Search, closing to all on 2027-01-01), brave, marginalia, mojeek, or
searxng (an instance of one's own). Keys and addresses come from -key, -cx
and -search-url, or else from the environment:
%s
No key is ever printed; prefer the environment (a -key flag shows in the
process list).

Document frequencies (-df): store (its exact counts), search (the engine's
hit counts, from %s, over -docs pages: |D|, by default worldwidewebsize.com's
estimate of the indexed web, as the paper took Yahoo!'s index size from that
site) or table (a term-count table, -df-table FILE; without it, the table
relink ships, of 53,936 documentation pages). -df-cache FILE keeps
every value in a file shared by runs, under a source name made of where the
numbers come from and |D|.

Archives (-archive): wayback, memento or ccindex (Common Crawl's index)
gives the archive-* methods the page's last good archived copy, and the
default method the copies of backlink pages that are gone; with wayback
the page's historical redirects are printed too. memento needs
-archive-url, the address of a MemGator server (the Memento Time Travel
service shut down in 2025); ccindex takes -archive-url for the index
server and -archive-data-url for the server captures are read from. The
archive keeps its own rate, -archive-rate (by default the Wayback
Machine's CDX 0.4 a second, 24 of the 30 a minute it allows), whatever
the search engine's -rate. An archive that fails or holds nothing is a
note on stderr, and the run goes on.

Proxies (-proxy URL, -ca FILE): every live request (pages, search,
archives) goes through the HTTP proxy -proxy names (http for http pages,
CONNECT for https), but those to a -search-url or -archive-url on this
machine, which are reached directly; -ca trusts the certificate
authorities of a PEM file besides the system's (an intercepting proxy's,
such as lab/cmd/localweb's). Page hosts that are private or loopback
addresses stay refused unless -allow-private: only the proxy's own address
is exempt.

When no query can be formed (no backlinks, none kept, no word left) the
trail is printed with a note that says why, and the exit code is 0.
`

// findConfig is find's command line.
type findConfig struct {
	liveConfig
	storePath, method, radius, links string
	depth, backlinks, terms, results int
	excludeNav, disjunctive, asJSON  bool
	keepMissing, keepBacklinks       bool
	threshold                        float64
}

// paperFlags are the knobs of the paper's method. -backlinks is one too,
// but the other methods take it as well.
var paperFlags = []string{"depth", "radius", "terms", "links", "exclude-nav", "or"}

func findFlags() (*flag.FlagSet, *findConfig) {
	var c findConfig
	fs := newFlagSet("find")
	fs.StringVar(&c.storePath, "store", "relink.db", "store `FILE` or postgres:// URL built by relink corpus, opened read-only")
	fs.StringVar(&c.method, "method", "best", "the `method`: best, paper, or a strategy's name (listed above)")
	fs.IntVar(&c.depth, "depth", relink.DefaultDepth, "backlink levels: 1, or 2 for levels 1 and 2")
	fs.IntVar(&c.backlinks, "backlinks", relink.DefaultBacklinks, "backlinks asked for per page (the paper: 10, 100, 1000)")
	fs.StringVar(&c.radius, "radius", "anchor", "words drawn around each link: anchor, a number of words, or page")
	fs.IntVar(&c.terms, "terms", relink.DefaultTerms, fmt.Sprintf("signature size, 1 to %d", maxTerms))
	fs.IntVar(&c.results, "results", relink.DefaultResults, fmt.Sprintf("candidates to ask for, 1 to %d", maxResults))
	fs.StringVar(&c.links, "links", "all", "links whose words count: all (the paper's), content (no navigation) or prefer-content")
	fs.BoolVar(&c.excludeNav, "exclude-nav", false, "leave out navigation links (sidebars, tables of contents, next/previous): -links content")
	fs.BoolVar(&c.disjunctive, "or", false, "ask for pages with any term instead of all terms")
	fs.BoolVar(&c.keepMissing, "keep-missing", false, "keep the missing URI among the candidates")
	fs.BoolVar(&c.keepBacklinks, "keep-backlinks", false, "keep the backlink pages among the candidates")
	fs.Float64Var(&c.threshold, "threshold", relink.DefaultThreshold, "the confidence, 0 to 1, at or above which the first candidate is the answer; below it: not found")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
	c.register(fs)
	return fs, &c
}

// findText returns find's help, with the names of the methods.
func findText() string {
	var names []string
	for _, s := range relink.Strategies() {
		names = append(names, s.Name())
	}
	return fmt.Sprintf(findHelp, relink.Default().Name(), strings.Join(names, ", "), envHelp(), strings.Join(hitCountEngines, ", "))
}

// findPlan is find's command line, checked: the method and the target.
type findPlan struct {
	*findConfig
	set      map[string]bool
	strategy relink.Strategy
	// label names the method in the output.
	label  string
	target string
}

// parseFind parses and checks find's command line, before anything is
// opened or asked: a flag that does not fit would otherwise be ignored or
// fail later, after requests that count against a key's quota.
func parseFind(args []string) (*findPlan, error) {
	fs, c := findFlags()
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() != 1 {
		return nil, usagef("need exactly one URL, got %d arguments", fs.NArg())
	}
	p := &findPlan{findConfig: c, set: setFlags(fs)}
	if err := checkBounds(
		bound{flag: "depth", value: c.depth, min: 1, max: 2, meaning: "level-1 backlinks, or levels 1 and 2"},
		bound{flag: "backlinks", value: c.backlinks, min: 1, meaning: "backlinks asked for per page"},
		bound{flag: "terms", value: c.terms, min: 1, max: maxTerms, meaning: "the signature size"},
		bound{flag: "results", value: c.results, min: 1, max: maxResults, meaning: "candidates asked for"},
	); err != nil {
		return nil, err
	}
	if c.threshold < 0 || c.threshold > 1 || c.threshold != c.threshold {
		return nil, usagef("bad -threshold %v: want a confidence from 0 to 1", c.threshold)
	}
	var err error
	if p.strategy, err = pickMethod(c, p.set); err != nil {
		return nil, err
	}
	p.label = p.strategy.Name()
	if paper, ok := p.strategy.(relink.Paper); ok && c.method != paper.Name() {
		p.label = fmt.Sprintf("paper %s, %d terms", paper.Name(), paper.Terms())
	}
	if err := checkFlags(c, p.set); err != nil {
		return nil, err
	}
	if p.target, err = webTarget("URL", fs.Arg(0)); err != nil {
		return nil, err
	}
	return p, nil
}

// pickMethod returns the strategy the command line names: -method, or the
// paper's method when a knob of it is set without -method.
func pickMethod(c *findConfig, set map[string]bool) (relink.Strategy, error) {
	name := c.method
	if !set["method"] && slices.ContainsFunc(append(paperFlags, "backlinks"), func(f string) bool { return set[f] }) {
		name = "paper"
	}
	if name == "paper" {
		p, err := paperOf(c, set)
		if err != nil {
			return nil, err
		}
		return p, nil
	}
	for _, f := range paperFlags {
		if set[f] {
			return nil, usagef("-%s sets the paper's method; -method %s chooses its own", f, name)
		}
	}
	var s relink.Strategy
	switch name {
	case "best":
		s = relink.Default()
	default:
		names := []string{"best", "paper"}
		for _, st := range relink.Strategies() {
			if st.Name() == name {
				s = st
				break
			}
			names = append(names, st.Name())
		}
		if s == nil {
			return nil, usagef("unknown -method %s: want one of %s", quoteArg(name), strings.Join(names, ", "))
		}
	}
	if set["backlinks"] {
		s = withBacklinks{Strategy: s, n: c.backlinks}
	}
	if s.Needs().Archive && c.archive == "none" {
		return nil, usagef("-method %s reads an archived copy of the page: add -archive wayback or -archive memento", name)
	}
	return s, nil
}

// paperOf returns the paper's method the knobs set.
func paperOf(c *findConfig, set map[string]bool) (relink.Paper, error) {
	radius, err := backlink.ParseRadius(c.radius)
	if err != nil {
		return relink.Paper{}, usage(fmt.Errorf("-radius: %w", err))
	}
	links, err := relink.ParseLinks(c.links)
	if err != nil {
		return relink.Paper{}, usage(fmt.Errorf("-links: %w", err))
	}
	if c.excludeNav {
		if set["links"] && links != relink.ContentLinks {
			return relink.Paper{}, usagef("-exclude-nav is -links content, not -links %s", links)
		}
		links = relink.ContentLinks
	}
	p := relink.Paper{Depth: c.depth, Backlinks: c.backlinks, Radius: radius, Size: c.terms, Links: links}
	if c.disjunctive {
		p.Mode = lexsig.Disjunctive
	}
	return p, nil
}

// withBacklinks is a strategy that asks for n backlinks per page: -backlinks
// with a method other than the paper's.
type withBacklinks struct {
	relink.Strategy
	n int
}

// Needs returns the strategy's needs with n backlinks.
func (s withBacklinks) Needs() relink.Needs {
	n := s.Strategy.Needs()
	n.Backlinks = s.n
	return n
}

// checkFlags refuses flags that do not fit together.
func checkFlags(c *findConfig, set map[string]bool) error {
	if err := c.check(set); err != nil {
		return err
	}
	if c.disjunctive && slices.Contains(noOrEngines, c.search) {
		return usagef("-or: %s has no OR operator", c.search)
	}
	return nil
}

func runFind(ctx context.Context, e *env, args []string) (err error) {
	p, err := parseFind(args)
	if err != nil {
		return err
	}
	if p.search == "store" && p.dfKind == "search" {
		p.dfKind = "store" // the store's hit counts are its exact counts
	}
	sv, err := p.dialContext(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := sv.close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	arch := sv.arch

	s, err := openStore(ctx, p.storePath)
	if err != nil {
		return err
	}
	defer s.Close()
	view := s.WithMissing(p.target)
	if err := sv.attach(ctx, &p.liveConfig, view, p.storePath); err != nil {
		return err
	}
	dfs := sv.dfs
	f := &relink.Finder{
		Backlinks:     sv.backlinks(&p.liveConfig, view),
		Fetcher:       sv.fetcher,
		DF:            dfs.df,
		Searcher:      sv.searcher,
		Strategy:      p.strategy,
		Results:       p.results,
		KeepMissing:   p.keepMissing,
		KeepBacklinks: p.keepBacklinks,
		Threshold:     p.threshold,
	}
	if sv.probes != nil {
		f.Filters.Fetcher = sv.probes
	}
	if f.Backlinks == nil {
		return usagef("-backlinks-from names no source of backlinks")
	}
	var notes []string
	redirects := func() ([]outputRedirect, string) { return nil, "" }
	if arch != nil {
		f.Archive = arch.log
		if arch.wayback == nil && !p.strategy.Needs().Archive && !p.strategy.Needs().ArchivedBacklinks {
			notes = append(notes, fmt.Sprintf("-archive %s: only the archive-* methods read an archived copy", p.archive))
		}
		if arch.wayback != nil {
			rctx, cancel := context.WithCancel(ctx)
			redirects = arch.redirects(rctx, p.target)
			defer func() { cancel(); redirects() }() // before sv.close closes the archive
		}
	}

	start := time.Now()
	res, err := f.Find(ctx, p.target)
	var noQuery string
	switch {
	case errors.Is(err, relink.ErrNoQuery) && res != nil:
		noQuery = err.Error()
		notes = append(notes, noQuery)
	case err != nil:
		return err
	}
	out := makeOutput(res, p.strategy.Terms())
	out.Threshold = p.threshold
	out.Method, out.Search, out.DF, out.Error = p.label, p.search, dfs.output(), noQuery
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
		fmt.Fprintln(e.stderr, "relink find: note:", oneLine(n))
	}
	if p.asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	printText(e.stdout, out)
	return nil
}
