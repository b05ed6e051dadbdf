package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/cmd/relink/internal/progress"
	"github.com/linkrot/relink/internal/atomicfile"
	"github.com/linkrot/relink/provider/brave"
	"github.com/linkrot/relink/provider/marginalia"
	"github.com/linkrot/relink/repair"
)

// Defaults and bounds of fix's flags.
const (
	// defaultFixConcurrency is how many dead links are looked for at once:
	// few, since each already reads its backlink pages concurrently and
	// the services keep to their rate limits.
	defaultFixConcurrency = 2
	maxFixConcurrency     = 64
	// defaultPageBudget is the memory, in MB, the inspected backlink
	// pages shared by the run's dead links may take (relink.NewPageCache).
	defaultPageBudget = 256
)

const fixHelp = `
usage: relink fix [-store FILE [-queue]] [-site-index=false] [-in FILE] [-format auto|urls|pairs|lychee|muffet|linkchecker]
                  [-o jsonl|csv|md|nginx|apache|netlify] [-out FILE] [-threshold T]
                  [-state FILE] [-rewrite DIR [-write] [-base URL]] [-decisions FILE]
                  [-fail-on LIST] [live flags as for relink find]

Fix looks for the new home of every dead link a link checker found. It
reads the dead links from standard input (or -in): a list of URLs, source
TAB dead pairs, or the report of lychee (--format json), muffet
(--format=json) or linkchecker (-o csv); -format auto tells them apart.
For each dead URL, in the input's order, it

  1. fetches it: a 2xx answer that is no soft 404 is "alive", and a
     redirect to such a page "moved" there;
  2. looks for it again from the pages that link to it (the report's
     sources, then -backlinks-from: the store's backlinks, a wiki's
     articles citing it) with relink's default method (%s):
     backlink pages read live or from the store, and from an archive
     when they are gone, searches, the archived copy of the dead page;
  3. with -archive wayback or ccindex, checks where the dead URL's
     archived redirects lead: a live page that is no soft 404 (nor a home page)
     is a candidate, a permanent redirect's alone at confidence 0.9, a
     temporary one's at 0.6, and one that is also the first candidate
     raises its confidence (1-(1-a)(1-b));
  4. answers "moved" when the first candidate's confidence reaches
     -threshold and the candidate, fetched, answers 2xx and is no soft
     404 (a dead one gives way to the next, at most 3), "gone" when
     there was evidence but none reached it, and "unknown" (with an
     error) when there was none or a service failed.

Then the moves found learn the rules by which a site moved its pages (a
new host, a version segment, a renamed prefix, files served as
directories), and each gone or unknown URL of the same site is tried
under them: one that answers 2xx there and is no soft 404 is "moved"
too.

The results go to standard output (or -out) as -o says: jsonl, one JSON
object a dead URL in input order (dead, sources, verdict, uri,
confidence, candidates, queries, backlinks, archive, evidence, calls,
error); csv; md, a report; or nginx, apache and netlify redirect maps of
the moves of one's own site, -site. calls counts the HTTP requests each
dead link sent to remote services (none with the store alone).

-rewrite DIR replaces the moved links, at or above -threshold, in the
Markdown, HTML and reST files under DIR (served at -base, against which
relative links are resolved; without it they are left alone): a unified
diff goes to standard output (and the results only to -out), and -write
applies it. -decisions FILE restricts the rewrite to the repairs a
review accepted: a JSON file

  {"decisions": [{"dead": URL, "uri": URL, "decision": "accept"}, ...]}

in which each accepted decision rewrites dead to uri (the URI chosen,
which may be another candidate) and "reject" leaves it alone; links with
no decision are left alone.

-state FILE keeps a journal (JSON Lines, one result a line, synced as
each dead link is done): a run killed and run again with the same -state
does not look again for what it finished. Unknown results from a service
that failed are not kept, so that a rerun tries them again. One run
writes a journal at a time (another is refused), and lines in it that
are no result (torn, or someone else's) are skipped, saying so.

-cache DIR (by default relink/live in the user's cache directory;
-no-cache or -cache "" for none) keeps the live services' answers for
-cache-age: pages fetched (not 429s or 5xx), archived copies and
redirects, search answers, wiki citations, and the hosts that answer a
made-up path with an error (their soft-404 probes are not sent again).
Several runs may share it at once. It must be a directory only its user
can write (it is made mode 0700); another is refused. On start, answers
older than -cache-age are removed, then the oldest until the rest fit in
-cache-max (2GiB). Document frequencies are kept apart, with -df-cache
FILE. calls counts only requests sent, none for an answer from the
cache.

-backlinks-from store,mediawiki names where backlinks come from besides
the report's sources (default: the store, when there is one): mediawiki
asks a wiki's API (-mediawiki-api, the English Wikipedia's by default)
which articles cite the dead URL, politely (maxlag, one request at a
time); -mediawiki-article-path gives the wiki's article URL with $1 when
it should not be asked.

With -store alone the store serves as the whole web (pages, backlinks,
search and document frequencies); -fetch web, -search ENGINE, -df and
-archive replace parts of it, as for relink find (see relink help find).
Without -store the backlinks are the report's sources (and -backlinks-from
mediawiki) and pages come from the web, and each dead link's own site is
the index, with no key (-search site names it): its robots.txt sitemaps
and a crawl of at most 40 requests a host and 10 more for each of its
dead links, 2,000 a host (robots.txt, one request a second to a host or its
Crawl-delay, never another host), led by the dead link's
anchor texts, URL words and archived title, with every other request
taken from the sitemap, its URLs dated after the archived copy (or its
newest) first, fill a store per host under
-cache (sites/, kept for -cache-age and shared by the host's dead links),
which is searched and gives the document frequencies unless -df table
(or -df search); a root that redirects to another host has that host
crawled. -search ENGINE adds the engine: each query asks the site's
store (100 results, or -results) and the engine (one request's worth, or
-results) and fuses their lists by the default method's reciprocal rank
fusion; the evidence says which list each candidate came from ("lists":
site, the engine or both). An engine that fails (a spent quota) leaves
the site's answers, said once on standard error and in each result's
evidence; a site that gave no page leaves the engine alone when the
document frequencies are not the site's. -site-index=false searches with
the engine alone, as before the site index: -df search or table is then
needed.

-queue, with a postgres:// -store, puts the dead links on a queue in the
store's database instead of looking for them here, and waits for relink
worker processes (on this machine or others, started before or after) to
look for them, with this command line's settings (but for what is each
worker's own: -allow-private, -proxy, -ca and the services' addresses,
-search-url, -archive-url, -archive-data-url, -mediawiki-api); the results come back
in the input's order, as without it. Killed and run again with the same
command line and input, fix finds the run: the dead links done meanwhile
are not queued again (see relink help worker).

Progress goes to standard error on a terminal, and a summary line at the
end. -fail-on gone,unknown exits 3 when any dead link ended with one of
those verdicts (for CI).
`

// fixText returns fix's help.
func fixText() string { return fmt.Sprintf(fixHelp, relink.Default().Name()) }

// fixConfig is fix's command line.
type fixConfig struct {
	liveConfig
	storePath, in, format, output, out string
	state, rewrite, base, decisions    string
	rewriteJSON                        string
	site                               string
	write                              bool
	threshold                          float64
	concurrency, pageBudget            int
	results                            int
	// siteResults is the results each query asks of the site index:
	// -results, or storeResults.
	siteResults int
	failOn      listFlag
	// queue is -queue; settings are the flags a worker needs to look
	// for the dead links as this process would (queueSettings), and
	// workerOwn the flags given that are each worker's own, not queued.
	queue     bool
	settings  []string
	workerOwn []string
	// siteIndex: no -store, each dead link's site is the index
	// (fix_site.go), fused with -search ENGINE's answers when there is
	// one. siteIndexOn is -site-index.
	siteIndex, siteIndexOn bool
}

func fixFlags() (*flag.FlagSet, *fixConfig) {
	var c fixConfig
	fs := newFlagSet("fix")
	fs.StringVar(&c.storePath, "store", "", "store `FILE` or postgres:// URL built by relink corpus, opened read-only (none: the live services and the report's sources)")
	fs.StringVar(&c.in, "in", "-", "read the dead links from `FILE`; - is standard input")
	fs.StringVar(&c.format, "format", string(repair.FormatAuto), "the input's `format`: "+joinNames(repair.Formats()))
	fs.StringVar(&c.output, "o", string(repair.OutputJSONL), "the output's `format`: "+joinNames(repair.Outputs()))
	fs.StringVar(&c.out, "out", "-", "write the results to `FILE`; - is standard output")
	fs.StringVar(&c.site, "site", "", "with -o nginx, apache or netlify, the `site` whose moved URLs get redirects: a host or a URL")
	fs.Float64Var(&c.threshold, "threshold", relink.DefaultThreshold, "the confidence, 0 to 1, at or above which a candidate is the new home")
	fs.StringVar(&c.state, "state", "", "journal `FILE` of the dead links done, to resume a run")
	fs.StringVar(&c.rewrite, "rewrite", "", "replace the moved links in the Markdown, HTML and reST files under `DIR` (a diff; -write applies it)")
	fs.BoolVar(&c.write, "write", false, "with -rewrite, write the files instead of printing a diff")
	fs.StringVar(&c.rewriteJSON, "rewrite-json", "", "with -rewrite, also write its summary as JSON to `FILE`: links replaced, files changed and scanned, and every file left alone with why")
	fs.StringVar(&c.base, "base", "", "with -rewrite, the `URL` the directory is served at, for relative links")
	fs.StringVar(&c.decisions, "decisions", "", "with -rewrite, apply only the repairs accepted in `FILE` (written by a review)")
	fs.Var(&c.failOn, "fail-on", "exit 3 when a dead link ends with one of these `verdicts` (gone,unknown; also moved, alive)")
	fs.IntVar(&c.concurrency, "concurrency", defaultFixConcurrency, fmt.Sprintf("dead links looked for at once, 1 to %d", maxFixConcurrency))
	fs.IntVar(&c.results, "results", 0, fmt.Sprintf("results each query asks the search engine for, 1 to %d; 0 means as many as one request brings (the store: %d)", maxResults, storeResults))
	fs.IntVar(&c.pageBudget, "page-budget", defaultPageBudget, "`MB` of inspected backlink pages kept for the other dead links")
	fs.BoolVar(&c.siteIndexOn, "site-index", true, "without -store, search each dead link's own site (its sitemaps and a crawl), fused with -search ENGINE's answers; false leaves the engine alone")
	fs.BoolVar(&c.queue, "queue", false, "with a postgres:// -store, put the dead links on the database's queue for relink worker processes and wait for their results")
	c.register(fs)
	// fix searches the dead link's own site without -store (siteSearch).
	search := fs.Lookup("search")
	search.Usage = "search `engine`: " + siteSearch + " (the default without -store: each dead link's own site, fused with any engine named), store (the default with -store), " + strings.Join(engineNames[1:], ", ")
	search.DefValue = "" // the default depends on -store, as the usage says
	return fs, &c
}

// joinNames joins names with ", ".
func joinNames[S ~string](names []S) string {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = string(n)
	}
	return strings.Join(s, ", ")
}

// checkNoStore checks a command line without -store. The site index
// serves (pages from the web, document frequencies the site's unless -df
// search or table), fused with -search ENGINE's answers when there is
// one; with -site-index=false the engine searches alone, with -df search
// or a table (the shipped one unless -df given).
func (c *fixConfig) checkNoStore(set map[string]bool) error {
	engine := c.search != "store"
	if !c.siteIndexOn {
		if !engine {
			return usagef("-site-index=false needs -search ENGINE (or -store): something must search")
		}
		if c.fetch != "web" {
			return usagef("without -store and the site index, -fetch web is needed (pages come from the web)")
		}
		if c.dfKind == "store" {
			if set["df"] {
				return usagef("-df store needs -store: without the site index, use -df search or -df table")
			}
			c.dfKind = "table" // the shipped table (-df-table unset)
		}
		return nil
	}
	switch {
	case set["fetch"] && c.fetch != "web":
		return usagef("-fetch store needs -store")
	case c.dfKind == "search" && !engine:
		return usagef("-df search needs -search ENGINE, whose hit counts it takes")
	case c.dfKind == "store" && c.dfCache != "":
		return usagef("-df-cache keeps one source's numbers: without -store each site has its own (use -df table)")
	}
	c.fetch, c.siteIndex = "web", true
	return nil
}

// parseFix parses and checks fix's command line.
func parseFix(args []string) (*fixConfig, error) {
	fs, c := fixFlags()
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() != 0 {
		return nil, usagef("fix takes no arguments (the dead links come from standard input or -in), got %s", quoteArg(fs.Arg(0)))
	}
	set := setFlags(fs)
	if c.search != siteSearch && !slices.Contains(engineNames, c.search) {
		return nil, unknownEngine(c.search, siteSearch)
	}
	if c.search == siteSearch {
		// The site index is no engine: it is what serves without -store
		// and -search (checkNoStore), named.
		switch {
		case c.storePath != "":
			return nil, usagef("-search site is without -store: the store searches itself")
		case !c.siteIndexOn:
			return nil, usagef("-search site and -site-index=false contradict each other")
		}
		c.search = "store"
	}
	if err := c.check(set); err != nil {
		return nil, err
	}
	if err := checkBounds(
		bound{flag: "concurrency", value: c.concurrency, min: 1, max: maxFixConcurrency, meaning: "dead links looked for at once"},
		bound{flag: "page-budget", value: c.pageBudget, min: 1, meaning: "MB of backlink pages kept"},
		bound{flag: "results", value: c.results, min: 0, max: maxResults, meaning: "results asked for per query, 0 for one request's worth"},
	); err != nil {
		return nil, err
	}
	if c.threshold < 0 || c.threshold > 1 || c.threshold != c.threshold {
		return nil, usagef("bad -threshold %v: want a confidence from 0 to 1", c.threshold)
	}
	if !slices.Contains(repair.Formats(), repair.Format(c.format)) {
		return nil, usagef("unknown -format %s: want one of %s", quoteArg(c.format), joinNames(repair.Formats()))
	}
	out := repair.Output(c.output)
	if !slices.Contains(repair.Outputs(), out) {
		return nil, usagef("unknown -o %s: want one of %s", quoteArg(c.output), joinNames(repair.Outputs()))
	}
	redirects := out == repair.OutputNginx || out == repair.OutputApache || out == repair.OutputNetlify
	switch {
	case redirects && c.site == "":
		return nil, usagef("-o %s needs -site, the site whose moved URLs get redirects", c.output)
	case !redirects && set["site"]:
		return nil, usagef("-site is for -o nginx, apache or netlify")
	case redirects:
		// A map of no result checks the site before the run.
		if _, err := (repair.Redirects{Site: c.site, Format: out}).Write(io.Discard, nil); err != nil {
			return nil, usage(fmt.Errorf("-site %s: %w", quoteArg(c.site), err))
		}
	case c.rewrite == "" && (set["write"] || set["base"] || set["decisions"] || set["rewrite-json"]):
		return nil, usagef("-write, -base, -decisions and -rewrite-json need -rewrite DIR")
	}
	if c.base != "" {
		if _, err := webTarget("-base", c.base); err != nil {
			return nil, err
		}
	}
	for _, v := range c.failOn {
		if !slices.Contains(repair.Verdicts(), repair.Verdict(v)) {
			return nil, usagef("bad -fail-on %s: want verdicts among %s", quoteArg(v), joinNames(repair.Verdicts()))
		}
	}
	if c.storePath != "" && set["site-index"] {
		return nil, usagef("-site-index is without -store: the store searches itself")
	}
	if c.storePath == "" && slices.Contains(c.backlinksFrom, "store") {
		return nil, usagef("-backlinks-from store needs -store")
	}
	if c.storePath == "" {
		if err := c.checkNoStore(set); err != nil {
			return nil, err
		}
	}
	if c.queue {
		switch {
		case !isPostgres(c.storePath):
			return nil, usagef("-queue needs a postgres:// -store, whose database holds the queue")
		case c.state != "":
			return nil, usagef("-queue keeps its state in the database: -state is not needed")
		}
		c.settings, c.workerOwn = queueSettings(fs)
	}
	c.siteResults = cmp.Or(c.results, storeResults)
	if c.results == 0 {
		c.results = autoResults(c.search)
	}
	if c.search == "store" && c.dfKind == "search" {
		c.dfKind = "store" // the store's hit counts are its exact counts
	}
	return c, nil
}

func runFix(ctx context.Context, e *env, args []string) (err error) {
	c, err := parseFix(args)
	if err != nil {
		return err
	}
	sv, err := c.dialContext(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := sv.close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	var decisions map[string]string
	if c.decisions != "" {
		if decisions, err = readDecisions(c.decisions); err != nil {
			return err
		}
	}
	links, err := readDeadLinks(ctx, e.stdin, c.in, repair.Format(c.format))
	if err != nil {
		return err
	}

	var st openedStore
	if c.storePath != "" {
		if st, err = openStore(ctx, c.storePath); err != nil {
			return err
		}
		defer st.Close()
	}
	if err := sv.attach(ctx, &c.liveConfig, st, c.storePath); err != nil {
		return err
	}
	var jr *journal
	done := map[string]repair.Result{}
	if c.state != "" {
		if jr, done, err = openJournal(c.state, e.stderr); err != nil {
			return err
		}
		defer func() {
			if cerr := jr.close(); err == nil && cerr != nil {
				err = cerr
			}
		}()
	}

	fx := newFixer(sv, st, c)
	if c.siteIndex {
		if fx.site, err = newSiteIndexes(sv, c, e.stderr); err != nil {
			return err
		}
		fx.site.expect(links)
		defer func() {
			if cerr := fx.site.close(); err == nil && cerr != nil {
				err = cerr
			}
		}()
	}
	start := time.Now()
	var (
		results []repair.Result
		resumed int
	)
	if c.queue {
		results, err = queued(ctx, e, c, links)
	} else {
		results, resumed, err = fx.all(ctx, e, links, done, jr)
	}
	if err != nil {
		return err
	}
	if err := fx.applyRules(ctx, results); err != nil {
		return err
	}

	if c.rewrite == "" || c.out != "-" {
		if err := writeResults(e.stdout, c.out, results, repair.Output(c.output), c.site); err != nil {
			return err
		}
	}
	if c.rewrite != "" {
		if err := rewrite(e, c, results, decisions); err != nil {
			return err
		}
	}
	fmt.Fprintln(e.stderr, "relink fix:", summary(results, resumed, time.Since(start)))
	if bad := failedOn(results, c.failOn); bad > 0 {
		return &exitError{code: exitFailOn, msg: fmt.Sprintf("%d dead links ended %s (-fail-on)", bad, strings.Join(c.failOn, " or "))}
	}
	return nil
}

// storeResults is how many results fix asks of the store by default: the
// default method fuses its queries' lists and orders the first 20 of the
// fusion anew, and deeper lists put the page among those 20 more often
// (on the development corpus's moved targets: 84.7% found with 10 results
// a query, 87.3% with 50, 87.7% with 100, 88.0% with the experiment's
// 1000). A store answers for free.
const storeResults = 100

// autoResults returns the results each query asks the engine for when
// -results is 0: as many as one request returns (so that a query costs
// one request), at least relink.DefaultResults, and storeResults of the
// store.
func autoResults(engine string) int {
	switch engine {
	case "store":
		return storeResults
	case "brave":
		return brave.MaxCount
	case "marginalia":
		return marginalia.MaxCount
	}
	return relink.DefaultResults // google, mojeek and searxng: 10 a page
}

// readDeadLinks reads the dead links from path, or from stdin for "-",
// giving up when ctx is done (readInput). An input that is not in its
// format is a failure that says where.
func readDeadLinks(ctx context.Context, stdin io.Reader, path string, format repair.Format) ([]repair.DeadLink, error) {
	name := path
	if path == "-" {
		name = "standard input"
	}
	links, err := readInput(ctx, stdin, path, func(r io.Reader) ([]repair.DeadLink, error) {
		return repair.ReadInput(r, format)
	})
	var pe *os.PathError
	switch {
	case errors.As(err, &pe) && pe.Op == "open":
		return nil, fmt.Errorf("-in: %w", err)
	case err != nil:
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return links, nil
}

// all looks for every dead link that done does not hold, at most
// c.concurrency at once, recording each result in jr as it is found, and
// returns the results in the order of links and how many came from done.
// When ctx is done it waits for the links in flight and returns ctx's
// error: what was recorded stays recorded.
func (fx *fixer) all(ctx context.Context, e *env, links []repair.DeadLink, done map[string]repair.Result, jr *journal) ([]repair.Result, int, error) {
	results := make([]repair.Result, len(links))
	var todo []int
	for i, l := range links {
		if r, ok := done[stateKey(l.URL)]; ok {
			r.Dead, r.Sources = l.URL, l.Sources
			results[i] = r
			continue
		}
		todo = append(todo, i)
	}
	resumed := len(links) - len(todo)
	bar := newFixProgress(e.stderr, len(links), resumed)
	var (
		mu       sync.Mutex
		recorded int
		firstErr error
		next     = make(chan int)
		wg       sync.WaitGroup
	)
	for range min(fx.concurrency, len(todo)) {
		wg.Go(func() {
			for i := range next {
				r, keep := fx.fix(ctx, links[i])
				if ctx.Err() != nil && !keep {
					continue // cancelled: looked for again on a rerun
				}
				mu.Lock()
				results[i] = r
				var err error
				if jr != nil && keep {
					err = jr.add(r)
				}
				if err != nil && firstErr == nil {
					firstErr = err
				}
				recorded++
				n := recorded
				bar.add(r.Verdict)
				mu.Unlock()
				if e.afterResult != nil {
					e.afterResult(n)
				}
			}
		})
	}
feed:
	for _, i := range todo {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	bar.finish()
	if firstErr != nil {
		return nil, 0, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	return results, resumed, nil
}

// writeResults writes results in format to path, or to stdout for "-",
// as atomicfile.Write writes a path: a regular file whole or not at all
// (keeping its mode, owner and group; a new one 0644 less the umask), a
// FIFO, device or /dev/stdout as it is, a symbolic link's target.
func writeResults(stdout io.Writer, path string, results []repair.Result, format repair.Output, site string) error {
	if path == "-" {
		return repair.Write(stdout, results, format, site)
	}
	err := atomicfile.Write(path, 0o644, func(w io.Writer) error {
		return repair.Write(w, results, format, site)
	})
	if err != nil {
		return fmt.Errorf("-out %s: %w", path, err)
	}
	return nil
}

// failedOn counts the results whose verdict is one of verdicts.
func failedOn(results []repair.Result, verdicts []string) int {
	n := 0
	for _, r := range results {
		if slices.Contains(verdicts, string(r.Verdict)) {
			n++
		}
	}
	return n
}

// summary is the line fix prints at the end: the verdicts, the requests
// sent to each service and the time taken.
func summary(results []repair.Result, resumed int, took time.Duration) string {
	counts := map[repair.Verdict]int{}
	var calls repair.Calls
	for _, r := range results {
		counts[r.Verdict]++
		calls.Fetch += r.Calls.Fetch
		calls.Search += r.Calls.Search
		calls.Archive += r.Calls.Archive
		calls.Backlinks += r.Calls.Backlinks
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d dead links: %d found (moved), %d gone, %d alive, %d unknown", len(results),
		counts[repair.Moved], counts[repair.Gone], counts[repair.Alive], counts[repair.Unknown])
	if resumed > 0 {
		fmt.Fprintf(&b, " (%d from -state)", resumed)
	}
	fmt.Fprintf(&b, "; remote calls: fetch %d, search %d, archive %d, backlinks %d; %s",
		calls.Fetch, calls.Search, calls.Archive, calls.Backlinks, took.Round(time.Millisecond))
	return b.String()
}

// fixProgress prints fix's progress on a terminal: dead links done, of
// how many, the verdicts so far and the time left at the pace so far.
// Off a terminal it prints nothing. It is not safe for concurrent use.
type fixProgress struct {
	w                    io.Writer
	on                   bool
	total, done, resumed int
	counts               map[repair.Verdict]int
	start, last          time.Time
}

func newFixProgress(w io.Writer, total, resumed int) *fixProgress {
	return &fixProgress{w: w, on: progress.IsTerminal(w) && total > resumed, total: total, done: resumed, resumed: resumed,
		counts: map[repair.Verdict]int{}, start: time.Now()}
}

// add counts one dead link done.
func (p *fixProgress) add(v repair.Verdict) {
	p.done++
	p.counts[v]++
	if !p.on || time.Since(p.last) < 200*time.Millisecond && p.done < p.total {
		return
	}
	p.last = time.Now()
	eta := "?"
	if n := p.done - p.resumed; n > 0 {
		left := time.Duration(float64(time.Since(p.start)) / float64(n) * float64(p.total-p.done))
		eta = left.Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\rrelink fix: %d/%d dead links, %d moved, %d gone, %d alive, %d unknown, %s left\x1b[K",
		p.done, p.total, p.counts[repair.Moved], p.counts[repair.Gone], p.counts[repair.Alive], p.counts[repair.Unknown], eta)
}

// finish ends the progress line.
func (p *fixProgress) finish() {
	if p.on && !p.last.IsZero() {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// canonOr returns the canonical form of u, or u when it has none.
func canonOr(u string) string {
	if c, err := canon.Canonicalize(u); err == nil {
		return c
	}
	return u
}

// errNotWeb is the error of a dead link that is no http(s) URL.
var errNotWeb = errors.New("not an http or https URL: only web pages have backlinks to look for them by")
