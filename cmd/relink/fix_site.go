package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/memento"
	siteidx "github.com/linkrot/relink/provider/site"
	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/repair"
)

// Without -store, fix takes the dead link's own site as the index
// (package provider/site): the site's sitemaps and a crawl focused by the
// dead link's clues fill a store per host, kept under -cache, which the
// default method searches and, without -df table or search, takes
// document frequencies from. With -search ENGINE, each query asks the
// site's store and the engine at once and fuses their lists
// (relink.SearchFusion, the default method's reciprocal rank fusion); an
// engine that fails (a spent quota) leaves the site's answers, and the
// result's evidence says so. Every answer is still checked live.

// siteDir is the directory of the site indexes below -cache.
const siteDir = "sites"

// siteSearch is fix's -search value for the site index, its default
// without -store.
const siteSearch = "site"

// errNoSitePages is the error of a dead link whose site gave no page.
var errNoSitePages = errors.New("the site index holds no page")

// The crawl budgets: a host's budget for the run is hostBaseBudget
// requests (robots.txt, the sitemaps, the home page and the pages nearest
// the clues) and perLinkBudget more for each of its dead links, at most
// maxHostBudget (at one request a second, 33 minutes of one host). The
// first crawl of a host may spend the whole when no answer is confident;
// the host's later dead links then find its pages stored. A host's crawl
// counts in the calls of the dead link it ran for; shared over the host's
// dead links it is at most hostBaseBudget/n + perLinkBudget a dead link.
const (
	hostBaseBudget = 40
	perLinkBudget  = 10
	maxHostBudget  = 2000
)

// siteIndexes is fix's site index: one crawl per dead link, sharing each
// host's store across the run's dead links and later runs.
type siteIndexes struct {
	// links counts the run's dead links by host (expect).
	links map[string]int
	index *siteidx.Index
	// fetcher reads the backlink pages again, from the cache, for their
	// links to the dead link's host.
	fetcher filter.Fetcher
	// siteDF reports whether document frequencies are the site's (no -df
	// table).
	siteDF bool
	tmp    string // a directory of the run's own, removed at close; "" for -cache
	// engine is -search ENGINE's searcher, fused with the site's store;
	// nil for none. engineName names it in the evidence, engineLimit and
	// siteLimit are the results each query asks of it and of the store.
	engine                 lexsig.Searcher
	engineName             string
	engineLimit, siteLimit int
	// warn tells standard error, once a run, that the engine failed.
	warn     func(string)
	warnOnce sync.Once
}

// newSiteIndexes makes the site index of a run: its stores under -cache
// (or a temporary directory without one), its crawls through the run's
// fetcher (the live web client behind the cache), counted as fetches.
func newSiteIndexes(sv *services, c *fixConfig, stderr io.Writer) (*siteIndexes, error) {
	si := &siteIndexes{fetcher: countingFetcher{f: sv.fetcher, service: serviceFetch}, siteDF: c.dfKind == "store", siteLimit: c.siteResults,
		warn: func(msg string) { fmt.Fprintln(stderr, "relink fix:", msg) }}
	if c.search != "store" {
		si.engine, si.engineName, si.engineLimit = countingSearcher{sv.searcher}, c.search, c.results
	}
	dir := ""
	if c.cacheOn() {
		dir = filepath.Join(c.cacheDir, siteDir)
	} else {
		tmp, err := os.MkdirTemp("", "relink-sites-*")
		if err != nil {
			return nil, err
		}
		dir, si.tmp = tmp, tmp
	}
	si.index = &siteidx.Index{Dir: dir, MaxAge: c.cacheAge, Crawler: &siteidx.Crawler{Fetcher: crawlFetcher{pages: sv.fetcher, robots: sv.web}}}
	return si, nil
}

// expect counts the run's dead links by host, for the hosts' budgets.
func (si *siteIndexes) expect(links []repair.DeadLink) {
	si.links = map[string]int{}
	for _, l := range links {
		if u, err := url.Parse(l.URL); err == nil {
			si.links[strings.ToLower(u.Host)]++
		}
	}
}

// hostBudget returns the requests the run's crawls of uri's host may send
// together.
func (si *siteIndexes) hostBudget(uri string) int {
	n := 1
	if u, err := url.Parse(uri); err == nil {
		n = max(n, si.links[strings.ToLower(u.Host)])
	}
	return min(maxHostBudget, hostBaseBudget+perLinkBudget*n)
}

// close closes the stores, and removes a temporary directory.
func (si *siteIndexes) close() error {
	err := si.index.Close()
	if si.tmp != "" {
		err = errors.Join(err, os.RemoveAll(si.tmp))
	}
	return err
}

// crawlFetcher is the crawl's fetcher: the run's pages (the live web
// client behind the cache, so that a page the crawl fetched is not asked
// for again when the Finder checks it as a candidate, nor by the next run
// within -cache-age, 404s included) and the live client's robots.txt
// Sitemap lines, every request counted as a fetch of the dead link it is
// crawled for.
type crawlFetcher struct {
	pages  filter.Fetcher
	robots siteidx.SitemapLister
}

func (f crawlFetcher) Fetch(ctx context.Context, uri string) (*filter.Page, error) {
	return f.pages.Fetch(countAs(ctx, serviceFetch), uri)
}

func (f crawlFetcher) Sitemaps(ctx context.Context, uri string) ([]string, error) {
	return f.robots.Sitemaps(countAs(ctx, serviceFetch), uri)
}

// prepare crawls the site of the dead link clues.URI with what clues
// (and the archived copy, when there is one) tell of it, and points f's
// Searcher at the site's store, fused with the engine's answers when
// there is one (the fusion returned, nil otherwise), and its DF, unless
// -df table or search, at the store too. What the crawl did goes to r's
// evidence. A site that gave no page leaves the engine alone when the
// document frequencies are not the site's, and fails otherwise.
func (si *siteIndexes) prepare(ctx context.Context, f *relink.Finder, clues *relink.Clues, archived *filter.Page, r *repair.Result) (*fusedSearch, error) {
	job := siteidx.Job{Missing: clues.URI, Clues: siteidx.Clues{URI: clues.URI}, HostBudget: si.hostBudget(clues.URI)}
	for _, p := range clues.Phrases() {
		job.Clues.Anchors = append(job.Clues.Anchors, strings.Join(p.Words, " "))
	}
	if archived == nil {
		archived = clues.Archive
	}
	if archived != nil {
		job.Clues.Title = backlink.Title(archived.Body)
		job.Clues.Since = captureTime(archived)
	}
	job.Seeds = si.seeds(ctx, clues)
	s, err := si.index.Build(ctx, job, confident(job.Clues))
	if err != nil {
		return nil, fmt.Errorf("site index: %w", err)
	}
	rep := s.Report
	r.Evidence = append(r.Evidence, repair.Evidence{Kind: "site", Detail: siteDetail(rep)})
	docs, err := s.Store.Docs(ctx)
	if err != nil {
		return nil, fmt.Errorf("site index: %w", err)
	}
	switch {
	case docs == 0 && si.engine != nil && !si.siteDF:
		r.Evidence = append(r.Evidence, repair.Evidence{Kind: "search", Detail: fmt.Sprintf("%s: %s's answers alone", errNoSitePages, si.engineName)})
		f.Searcher = si.engine
		return nil, nil
	case docs == 0:
		return nil, fmt.Errorf("%w: %s", errNoSitePages, siteDetail(rep))
	}
	if si.siteDF {
		f.DF = s.Store
	}
	if si.engine == nil {
		f.Searcher = s.Store
		return nil, nil
	}
	fs := &fusedSearch{si: si, fusion: relink.SearchFusion{Sources: []relink.Source{
		{Name: siteSearch, Searcher: s.Store, Limit: si.siteLimit},
		{Name: si.engineName, Searcher: si.engine, Limit: si.engineLimit},
	}}}
	f.Searcher = fs
	return fs, nil
}

// fusedSearch is the Searcher of one dead link with the site index and an
// engine: the site's store and the engine fused (relink.SearchFusion),
// recording which list each result came from and the engine's failures,
// for the result's evidence. It is safe for concurrent use.
type fusedSearch struct {
	si     *siteIndexes
	fusion relink.SearchFusion
	mu     sync.Mutex
	// from holds the sources of each result; asked counts the queries,
	// failed those a source failed, firstErr the first failure.
	from          map[string][]string
	asked, failed int
	firstErr      error
}

func (s *fusedSearch) Search(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
	fused, err := s.fusion.Fuse(ctx, q, limit)
	s.mu.Lock()
	s.asked++
	if err != nil {
		s.failed++
		if s.firstErr == nil {
			s.firstErr = err
		}
	}
	if s.from == nil {
		s.from = map[string][]string{}
	}
	for _, r := range fused {
		for _, src := range r.Sources {
			if !slices.Contains(s.from[r.URI], src) {
				s.from[r.URI] = append(s.from[r.URI], src)
			}
		}
	}
	s.mu.Unlock()
	if fused == nil && err != nil {
		return nil, err
	}
	if err != nil && ctx.Err() == nil {
		s.si.warnOnce.Do(func() {
			s.si.warn(fmt.Sprintf("a search failed (%v); the dead links go on with the lists that answered (each result's evidence says so)", err))
		})
	}
	out := make([]lexsig.Result, len(fused))
	for i, r := range fused {
		out[i] = r.Result
	}
	return out, nil
}

// note adds to r's evidence which lists its candidates came from (the
// site's, the engine's or both) and the queries a source failed.
func (s *fusedSearch) note(r *repair.Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failed > 0 {
		r.Evidence = append(r.Evidence, repair.Evidence{Kind: "search", Detail: fmt.Sprintf(
			"%d of %d queries answered without a list (%v): the fusion of the others", s.failed, s.asked, s.firstErr)})
	}
	var parts []string
	for _, c := range r.Candidates {
		if from := s.from[c.URI]; len(from) > 0 {
			parts = append(parts, c.URI+" from "+strings.Join(from, " and "))
		}
	}
	if len(parts) > 0 {
		r.Evidence = append(r.Evidence, repair.Evidence{Kind: "lists", Detail: strings.Join(parts, "; ")})
	}
}

// captureTime returns when an archived copy was captured (its
// Memento-Datetime), the zero Time when it does not say.
func captureTime(p *filter.Page) time.Time {
	t, err := http.ParseTime(p.Header.Get(memento.MementoDatetimeHeader))
	if err != nil {
		return time.Time{}
	}
	return t
}

// siteDetail says what a crawl did, for a result's evidence.
func siteDetail(rep *siteidx.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "crawled %s", rep.Host)
	if rep.MovedTo != "" {
		fmt.Fprintf(&b, " (the old host's root redirects there)")
	}
	fmt.Fprintf(&b, ": %d pages fetched, %d already indexed, %d requests, %d sitemap URLs (%d recent); stopped: %s", rep.Pages, rep.Known, rep.Requests, rep.SitemapURLs, rep.Recent, rep.Stopped)
	if rep.Failure != "" {
		fmt.Fprintf(&b, " (%s)", rep.Failure)
	}
	return b.String()
}

// seeds returns the links of the kept backlink pages to the dead link's
// host, with their anchor texts: where the site's other pages are linked
// from. The pages are read again through the fetcher, whose cache answers
// without a request.
func (si *siteIndexes) seeds(ctx context.Context, clues *relink.Clues) []siteidx.Link {
	target, err := url.Parse(clues.URI)
	if err != nil {
		return nil
	}
	var out []siteidx.Link
	for _, e := range clues.Evidence {
		if !e.Kept {
			continue
		}
		p, err := si.fetcher.Fetch(ctx, e.URI)
		if err != nil || !filter.IsSuccess(p.Status) {
			continue
		}
		links, err := backlink.Outlinks(p.Body, p.URI)
		if err != nil {
			continue
		}
		for _, l := range links {
			if u, err := url.Parse(l.URI); err == nil && strings.EqualFold(u.Host, target.Host) && l.URI != clues.URI {
				out = append(out, siteidx.Link{URI: l.URI, Anchor: l.Anchor})
			}
		}
	}
	return out
}

// minConfidentWords is the fewest distinct words a phrase (an anchor, the
// archived title) must have for a page titled with all of them to end a
// crawl: one word names too many pages.
const minConfidentWords = 2

// confident returns the crawl's stop rule for clues: a page of the store
// whose title holds every word (stop words aside) of an anchor phrase or
// of the archived title. It only ends the crawl early; the strategy then
// judges every candidate as it would an engine's.
func confident(clues siteidx.Clues) siteidx.Confident {
	var phrases [][]string
	for _, p := range append(clues.Anchors, clues.Title) {
		seen := map[string]bool{}
		var ws []string
		for _, w := range lexsig.Tokenize(p) {
			if !seen[w] && !lexsig.IsStopWord(w) {
				seen[w] = true
				ws = append(ws, w)
			}
		}
		if len(ws) >= minConfidentWords {
			phrases = append(phrases, ws)
		}
	}
	return func(ctx context.Context, s *store.Store) bool {
		for _, ws := range phrases {
			rs, err := s.Search(ctx, lexsig.Query{Terms: ws}, 5)
			if err != nil {
				return false
			}
			for _, r := range rs {
				title := map[string]bool{}
				for _, w := range lexsig.Tokenize(r.Title) {
					title[w] = true
				}
				all := true
				for _, w := range ws {
					all = all && title[w]
				}
				if all {
					return true
				}
			}
		}
		return false
	}
}
