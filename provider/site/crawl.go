package site

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/web"
)

// Defaults of the Crawler fields; a zero or negative field means its
// default.
const (
	// DefaultBudget is how many pages one crawl of a host fetches at most.
	// At web.DefaultRate (one request a second) it is under two minutes of
	// one host's time.
	DefaultBudget = 100
	// DefaultMaxSitemapFiles is how many sitemap files (indexes included)
	// one crawl fetches at most.
	DefaultMaxSitemapFiles = 10
	// DefaultMaxSitemapURLs is how many sitemap URLs one crawl queues at
	// most, over all its files.
	DefaultMaxSitemapURLs = 4 * MaxSitemapURLs
	// DefaultMaxFailures is how many fetches in a row may fail (no
	// answer, a timeout, a 5xx or 429 after the fetcher's own retries)
	// before the host is given up as slow or failing.
	DefaultMaxFailures = 3
	// DefaultMaxDepth is the most path segments a followed URL has.
	DefaultMaxDepth = 12
	// DefaultMaxQueryParams is the most query parameters a followed URL
	// has.
	DefaultMaxQueryParams = 4
	// DefaultMaxQueryVariants is how many distinct queries of one path a
	// crawl follows.
	DefaultMaxQueryVariants = 3
	// DefaultMaxPerPattern is how many URLs of one numbered shape (digits
	// made alike) a crawl follows.
	DefaultMaxPerPattern = 10
)

// Why a crawl ended, the values of Report.Stopped.
const (
	// StopConfident: the caller's Visit said an answer is confident.
	StopConfident = "confident"
	// StopBudget: Crawler.Budget pages were fetched.
	StopBudget = "budget"
	// StopExhausted: no link was left to follow.
	StopExhausted = "exhausted"
	// StopFailing: Crawler.MaxFailures fetches in a row failed: a slow or
	// failing host (Report.Failure says how).
	StopFailing = "failing-host"
	// StopCancelled: the context was done.
	StopCancelled = "cancelled"
	// StopSitemapDone: every sitemap URL modified since the missing page
	// was last seen alive (Clues.Since) was read, and none was
	// confident. A page moved to a new address after that date is one of
	// them on a site whose sitemap dates its pages; the rest of the site
	// is older than the link's death.
	StopSitemapDone = "sitemap-read"
)

// SitemapLister is the optional ability of a Fetcher to tell the Sitemap
// lines of the robots.txt it obeys for uri's origin (web.Client has it).
// Without it a crawl looks for /sitemap.xml alone.
type SitemapLister interface {
	// Sitemaps returns the URIs of the Sitemap lines, as written; none
	// and no error when there are none. It may fetch the robots.txt.
	Sitemaps(ctx context.Context, uri string) ([]string, error)
}

// Crawler crawls one host's pages, best first, for the pages most like a
// missing one. The zero value is not usable: Fetcher must be set. A
// Crawler holds no state between crawls and is safe for concurrent use
// when its Fetcher is; the politeness of many crawls of one host (the
// rate, the robots.txt) is the Fetcher's (web.Client keeps it).
type Crawler struct {
	// Fetcher fetches every page and sitemap file; it must obey robots.txt
	// and a per-host rate, as web.Client does (an error wrapping
	// web.ErrDisallowed is counted as CutRobots). When it is also a
	// SitemapLister, the robots.txt Sitemap lines are read.
	Fetcher filter.Fetcher
	// Budget is the most pages fetched in one crawl (Job.Known pages are
	// free); zero means DefaultBudget.
	Budget int
	// MaxSitemapFiles and MaxSitemapURLs bound the sitemaps read; zero
	// means DefaultMaxSitemapFiles and DefaultMaxSitemapURLs.
	MaxSitemapFiles int
	MaxSitemapURLs  int
	// MaxFailures is how many fetches in a row may fail before the host
	// is cut; zero means DefaultMaxFailures.
	MaxFailures int
	// MaxDepth, MaxQueryParams, MaxQueryVariants and MaxPerPattern are the
	// crawl trap bounds (see the Cut reasons); zero means their defaults.
	MaxDepth         int
	MaxQueryParams   int
	MaxQueryVariants int
	MaxPerPattern    int
}

func (c *Crawler) budget() int          { return orDefault(c.Budget, DefaultBudget) }
func (c *Crawler) maxSitemapFiles() int { return orDefault(c.MaxSitemapFiles, DefaultMaxSitemapFiles) }
func (c *Crawler) maxSitemapURLs() int  { return orDefault(c.MaxSitemapURLs, DefaultMaxSitemapURLs) }
func (c *Crawler) maxFailures() int     { return orDefault(c.MaxFailures, DefaultMaxFailures) }
func (c *Crawler) maxDepth() int        { return orDefault(c.MaxDepth, DefaultMaxDepth) }
func (c *Crawler) maxQueryParams() int  { return orDefault(c.MaxQueryParams, DefaultMaxQueryParams) }
func (c *Crawler) maxQueryVariants() int {
	return orDefault(c.MaxQueryVariants, DefaultMaxQueryVariants)
}
func (c *Crawler) maxPerPattern() int { return orDefault(c.MaxPerPattern, DefaultMaxPerPattern) }

// orDefault returns d when v is zero or less, else v.
func orDefault(v, d int) int {
	if v <= 0 {
		return d
	}
	return v
}

// Link is a link to follow: a URI on the host and the words of its
// anchor, such as a same-host link on a page that links to the missing
// one.
type Link struct {
	URI    string
	Anchor string
}

// Job is one crawl: the missing page, what is known of it, and what to do
// with each page.
type Job struct {
	// Missing is the missing page's URI; its host is the one crawled,
	// unless Host is set.
	Missing string
	// Host, when not empty, is the host to crawl ("example.org",
	// "example.org:8080"), with Missing's scheme: a domain change the
	// caller already knows. Empty means Missing's host, or the host its
	// root redirects to (Report.MovedTo).
	Host string
	// Clues order the links: those whose anchor and URL share most words
	// with the clues are followed first. An empty Clues.URI means Missing.
	Clues Clues
	// Seeds are links to follow besides the home page's and the
	// sitemap's: the same-host links of the pages that link to Missing.
	// Links to Missing's old host follow a domain change to the new one.
	Seeds []Link
	// Budget, when above zero, is this crawl's page budget instead of
	// Crawler.Budget.
	Budget int
	// HostBudget, for Index.Build, bounds the requests all the Index's
	// crawls of the host send together (Report.Requests: pages, sitemap
	// files, robots.txt): when above zero, a crawl's page budget is what
	// is left of it (and a crawl with none left sends nothing: the store
	// answers as it is). A caller that knows how many
	// dead links a host has gives it a budget for them all, which the
	// first crawl may spend when no answer is confident and the later
	// ones find stored.
	HostBudget int
	// Sitemap, when not nil, are the host's sitemap URLs an earlier crawl
	// read (Report.Sitemap): they are queued and the sitemaps are not
	// fetched again.
	Sitemap []SitemapURL
	// Known, when not nil, returns a page already indexed, which is read
	// for its links without a request and not given to Visit (nil, false
	// for a page it does not hold).
	Known func(ctx context.Context, uri string) (*filter.Page, bool)
	// Skip, when not nil, reports the URIs an earlier crawl fetched that
	// gave no page (Report.NoPage): they are not asked for again.
	Skip func(uri string) bool
	// Visit is given each page fetched that is an HTML page with a 2xx
	// status, on the crawled host, in crawl order, from one goroutine.
	// Returning stop true ends the crawl (StopConfident); an error ends
	// it and is returned by Crawl.
	Visit func(ctx context.Context, page *filter.Page) (stop bool, err error)
}

// Cut is one link not followed, with the reason (a Cut constant).
type Cut struct {
	URI    string
	Reason string
}

// Report is what a crawl did.
type Report struct {
	// Host is the host crawled, with its port if any.
	Host string
	// MovedTo is the host Missing's root redirected to, when it did: the
	// site's new domain, the one crawled.
	MovedTo string
	// Sitemaps are the sitemap files read, with what each gave.
	Sitemaps []SitemapFile
	// SitemapURLs is the number of sitemap URLs queued.
	SitemapURLs int
	// Sitemap are the sitemap URLs read, on the host, at most
	// Crawler.MaxSitemapURLs: Job.Sitemap for a later crawl. Nil when the
	// sitemaps were not read (Job.Sitemap was given, or the crawl ended
	// before).
	Sitemap []SitemapURL
	// Recent counts the sitemap URLs taken as recent (modified after
	// Clues.Since, or in the newer half of the dated ones), which a crawl
	// reads early.
	Recent int
	// Requests counts the fetcher's calls: pages, sitemap files, and one
	// for the robots.txt when the Fetcher is a SitemapLister.
	Requests int
	// Pages counts the pages given to Visit; Known the pages read from
	// Job.Known; Skipped the URIs Job.Skip passed over.
	Pages, Known, Skipped int
	// NoPage are the URIs fetched that gave no page to index (a status
	// other than 2xx, not HTML, a redirect off the host): Job.Skip for a
	// later crawl. A failure (no answer, 5xx, 429) is not one.
	NoPage []string
	// Stopped says why the crawl ended (a Stop constant).
	Stopped string
	// Failure, for StopFailing, is the last failure.
	Failure string
	// Cut counts the links not followed by reason (the Cut constants),
	// each link once.
	Cut map[string]int
	// Cuts are the first cut links of each reason, at most
	// maxCutExamples of each, so a report shows what was cut.
	Cuts []Cut
}

// SitemapURL is a page URL a sitemap lists, with its <lastmod> (the zero
// Time when it has none).
type SitemapURL struct {
	URI      string
	Modified time.Time
}

// SitemapFile is one sitemap file read by a crawl.
type SitemapFile struct {
	URI string
	// Index reports a sitemap index.
	Index bool
	// URLs is how many URLs it gave on the host.
	URLs int
	// OffHost counts the URLs it named on other hosts, not kept.
	OffHost int
	// Error is why it was cut, or could not be read; "" when whole.
	Error string
}

// maxCutExamples bounds Report.Cuts for each reason.
const maxCutExamples = 5

// cut records one link not followed.
func (r *Report) cut(uri, reason string) {
	if r.Cut == nil {
		r.Cut = map[string]int{}
	}
	if r.Cut[reason] < maxCutExamples {
		r.Cuts = append(r.Cuts, Cut{URI: uri, Reason: reason})
	}
	r.Cut[reason]++
}

// ErrBadJob is the error of a Job whose Missing is not an absolute
// http(s) URI, or of a Crawler without a Fetcher.
var ErrBadJob = errors.New("site: bad crawl job")

// Crawl crawls the host of job.Missing (or job.Host), best first: the
// home page first (whose redirect to another host is a domain change:
// that host is then crawled), then the links of the home page, of
// job.Seeds, of the host's sitemaps and of every page fetched, the one
// whose anchor and URL words weigh most against job.Clues first (ties:
// fewer path segments, then the order found).
//
// The sitemap's URLs are also read early, every other fetch, from a
// queue of their own, since a page moved to an address that no page
// links to is reached through the sitemap alone: the recent ones first
// (a <lastmod> after Clues.Since, when known, else in the newer half of
// the sitemap's dates: a moved page is published anew), then by their
// URL words, then those no page fetched links to, then the newest. When
// Clues.Since is known, the crawl ends once every recent URL was read
// (StopSitemapDone), and a confident Visit ends it only once they are, if
// the budget holds them: a page last changed before the missing one was
// last seen is not its new address, whatever its title.
//
// It never leaves the host; it cuts crawl traps, counting each cut
// (Report.Cut), and stops at the page budget, when Visit says stop, when
// no link is left, when MaxFailures fetches in a row fail, or when ctx is
// done (StopCancelled, with no error: the report says how far it got).
// The error is Visit's, or ErrBadJob.
func (c *Crawler) Crawl(ctx context.Context, job Job) (*Report, error) {
	if c.Fetcher == nil {
		return nil, fmt.Errorf("%w: no Fetcher", ErrBadJob)
	}
	missing, err := url.Parse(job.Missing)
	if err != nil || !isHTTP(missing) {
		return nil, fmt.Errorf("%w: missing page %q is not an absolute http(s) URI", ErrBadJob, job.Missing)
	}
	clues := job.Clues
	if clues.URI == "" {
		clues.URI = job.Missing
	}
	cr := &crawl{c: c, job: job, rep: &Report{}, scorer: newScorer(clues), seen: map[string]bool{}, queued: map[string]*item{}}
	cr.maps.order = bySitemap
	cr.oldHost = strings.ToLower(missing.Host)
	cr.scheme = strings.ToLower(missing.Scheme)
	cr.rep.Host = cr.oldHost
	if job.Host != "" {
		cr.rep.Host = strings.ToLower(job.Host)
	}
	err = cr.run(ctx)
	return cr.rep, err
}

// crawl is the state of one Crawl.
type crawl struct {
	c       *Crawler
	job     Job
	rep     *Report
	scorer  *scorer
	guard   *trapGuard
	oldHost string
	scheme  string
	front   frontier
	// maps is the sitemap's URLs not yet read, the best first
	// (mapsBefore); items are in both queues, and one read from either is
	// marked done and passed over in the other.
	maps frontier
	// since is the date after which a sitemap URL is recent (Clues.Since,
	// or the median of the sitemap's dates); stopRecent ends the crawl
	// once the recent ones are read (Clues.Since was known), recentLeft
	// counting those not yet read.
	since      time.Time
	stopRecent bool
	recentLeft int
	turn       int
	seen       map[string]bool  // URLs queued, cut or fetched
	queued     map[string]*item // URLs in the frontier
	seq        int
	fetched    int // pages fetched against the budget
	failed     int // fetches failed in a row
}

// errStop ends a crawl from inside.
type errStop string

func (e errStop) Error() string { return string(e) }

func (cr *crawl) run(ctx context.Context) error {
	root := cr.scheme + "://" + cr.rep.Host + "/"
	cr.guard = newTrapGuard(cr.c, cr.rep.Host)
	err := cr.visit(ctx, root, true)
	switch {
	case err != nil:
	case cr.job.Sitemap != nil:
		cr.queueSitemap(cr.job.Sitemap)
	default:
		err = cr.sitemaps(ctx)
		if cr.rep.Sitemap == nil {
			cr.rep.Sitemap = []SitemapURL{}
		}
		cr.queueSitemap(cr.rep.Sitemap)
	}
	if err == nil {
		for _, l := range cr.job.Seeds {
			cr.queue(cr.onNewHost(l.URI), l.Anchor)
		}
		err = cr.loop(ctx)
	}
	var stop errStop
	switch {
	case errors.As(err, &stop):
		cr.rep.Stopped = string(stop)
		return nil
	case ctx.Err() != nil && (err == nil || errors.Is(err, ctx.Err())):
		cr.rep.Stopped = StopCancelled
		return nil
	case err == nil:
		cr.rep.Stopped = StopExhausted
	}
	return err
}

// onNewHost moves a link to the old host onto the new one after a domain
// change, path and query kept.
func (cr *crawl) onNewHost(uri string) string {
	if cr.rep.Host == cr.oldHost {
		return uri
	}
	u, err := url.Parse(uri)
	if err != nil || !strings.EqualFold(u.Host, cr.oldHost) {
		return uri
	}
	u.Host = cr.rep.Host
	return u.String()
}

// loop follows the best link until a stop: every other link the best of
// the sitemap's, the others the best of all.
func (cr *crawl) loop(ctx context.Context) error {
	for {
		if cr.stopRecent && cr.recentLeft == 0 {
			return errStop(StopSitemapDone)
		}
		it := cr.next()
		if it == nil {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		delete(cr.queued, it.uri)
		delete(cr.queued, it.link)
		if err := cr.visit(ctx, it.uri, false); err != nil {
			return err
		}
	}
}

// next takes the next link to follow from the frontier, or nil when none
// is left; it alternates between the sitemap's queue and the whole
// frontier.
func (cr *crawl) next() *item {
	cr.turn++
	queues := []*frontier{&cr.front, &cr.maps}
	if cr.turn%2 == 1 {
		queues[0], queues[1] = queues[1], queues[0]
	}
	for _, q := range queues {
		for q.Len() > 0 {
			it := heap.Pop(q).(*item)
			if it.done {
				continue
			}
			it.done = true
			if it.recent {
				cr.recentLeft--
			}
			return it
		}
	}
	return nil
}

// visit reads one page, from Known or fetched, and queues its links.
// The root's redirect to another host makes that host the crawled one.
func (cr *crawl) visit(ctx context.Context, uri string, root bool) error {
	cr.seen[uri] = true
	if cr.job.Known != nil {
		if page, ok := cr.job.Known(ctx, uri); ok {
			cr.rep.Known++
			cr.links(page)
			return nil
		}
	}
	if cr.job.Skip != nil && cr.job.Skip(uri) {
		cr.rep.Skipped++
		return nil
	}
	if cr.spent() >= cr.budget() {
		return errStop(StopBudget)
	}
	page, err := cr.fetch(ctx, uri)
	switch {
	case errors.Is(err, web.ErrDisallowed):
		cr.rep.cut(uri, CutRobots)
		return nil
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return cr.fail(err.Error())
	case page.Status == http.StatusTooManyRequests || page.Status >= 500:
		return cr.fail(fmt.Sprintf("%s answered %d", uri, page.Status))
	}
	cr.failed = 0
	final, err := url.Parse(page.URI)
	if err != nil {
		return nil
	}
	if host := strings.ToLower(final.Host); host != cr.rep.Host {
		if !root || cr.job.Host != "" || !isHTTP(final) {
			cr.rep.cut(page.URI, CutOffHost)
			return nil
		}
		// A domain change: the old root sends its readers to the new site.
		cr.rep.MovedTo = host
		cr.rep.Host = host
		cr.scheme = strings.ToLower(final.Scheme)
		cr.guard = newTrapGuard(cr.c, host)
	}
	cr.seen[page.URI] = true
	if page.Status < 200 || page.Status > 299 || filter.Sniff(page.Header, page.Body) != filter.TypeHTML {
		cr.rep.NoPage = append(cr.rep.NoPage, uri)
		return nil
	}
	cr.links(page)
	if cr.job.Visit == nil {
		return nil
	}
	cr.rep.Pages++
	stop, err := cr.job.Visit(ctx, page)
	if err != nil {
		return err
	}
	if stop && !cr.recentFirst() {
		return errStop(StopConfident)
	}
	return nil
}

// recentFirst reports whether the crawl reads the recent sitemap URLs
// left before it trusts a confident answer: when the date the missing
// page was last seen is known (a page last changed before it is not the
// page's new address, whatever its title) and they fit in the budget.
func (cr *crawl) recentFirst() bool {
	return cr.stopRecent && cr.recentLeft > 0 && cr.recentLeft <= cr.budget()-cr.spent()
}

// fetch fetches uri against the budget. A canonical URI has lost the
// slash that ended its path (canon.Canonicalize), which most servers add
// back with a redirect; when one answers 404 instead, and the path's last
// segment names no file, the URI with the slash is asked for too.
func (cr *crawl) fetch(ctx context.Context, uri string) (*filter.Page, error) {
	cr.fetched++
	cr.rep.Requests++
	page, err := cr.c.Fetcher.Fetch(ctx, uri)
	if err != nil || page.Status != http.StatusNotFound || cr.spent() >= cr.budget() {
		return page, err
	}
	u, perr := url.Parse(uri)
	if perr != nil || u.RawQuery != "" || u.Path == "" || strings.HasSuffix(u.Path, "/") || path.Ext(u.Path) != "" {
		return page, err
	}
	u.Path += "/"
	cr.fetched++
	cr.rep.Requests++
	return cr.c.Fetcher.Fetch(ctx, u.String())
}

// budget returns the crawl's budget: Job.Budget, else Crawler.Budget.
func (cr *crawl) budget() int { return orDefault(cr.job.Budget, cr.c.budget()) }

// spent returns what the crawl spent of its budget: the pages fetched,
// or, under a host budget (Job.HostBudget), every request.
func (cr *crawl) spent() int {
	if cr.job.HostBudget > 0 {
		return cr.rep.Requests
	}
	return cr.fetched
}

// fail counts a failed fetch, and stops the crawl at MaxFailures in a row.
func (cr *crawl) fail(why string) error {
	cr.failed++
	if cr.failed >= cr.c.maxFailures() {
		cr.rep.Failure = why
		return errStop(StopFailing)
	}
	return nil
}

// links queues the links of page.
func (cr *crawl) links(page *filter.Page) {
	links, err := backlink.Outlinks(page.Body, page.URI)
	if err != nil {
		return
	}
	for _, l := range links {
		if !l.Area {
			cr.queue(l.URI, l.Anchor)
		}
	}
}

// queue adds a link to the frontier unless it was seen or is cut; a link
// seen off the host is not recorded (pages link to other sites all the
// time), other cuts are.
func (cr *crawl) queue(uri, anchor string) {
	if it := cr.queued[uri]; it != nil {
		cr.raise(it, anchor)
		return
	}
	if cr.seen[uri] {
		return
	}
	clean, reason, rewrote := cr.guard.admit(uri)
	if rewrote {
		cr.rep.cut(uri, CutSessionID)
	}
	switch {
	case reason == CutOffHost:
		return
	case reason != "":
		cr.seen[uri] = true
		cr.rep.cut(uri, reason)
		return
	case cr.queued[clean] != nil:
		cr.raise(cr.queued[clean], anchor)
		return
	case cr.seen[clean]:
		return
	}
	cr.seen[uri], cr.seen[clean] = true, true
	cr.seq++
	u, _ := url.Parse(clean)
	it := &item{
		uri:    clean,
		link:   uri,
		score:  cr.scorer.score(anchor, clean),
		depth:  strings.Count(strings.Trim(u.Path, "/"), "/"),
		seq:    cr.seq,
		linked: true,
	}
	cr.queued[uri], cr.queued[clean] = it, it
	heap.Push(&cr.front, it)
}

// queueSitemap queues the sitemap's URLs, in the frontier and in the
// sitemap's own queue, each marked recent or not (see Crawl).
func (cr *crawl) queueSitemap(urls []SitemapURL) {
	cr.since = cr.job.Clues.Since
	var dates []time.Time
	for _, s := range urls {
		if !s.Modified.IsZero() {
			dates = append(dates, s.Modified)
		}
	}
	if len(dates) == 0 {
		cr.since = time.Time{}
	} else if cr.since.IsZero() {
		slices.SortFunc(dates, time.Time.Compare)
		cr.since = dates[(len(dates)-1)/2]
	} else {
		cr.stopRecent = true
	}
	for _, s := range urls {
		uri := cr.onNewHost(s.URI)
		if cr.queued[uri] == nil {
			cr.queue(uri, "")
			if it := cr.queued[uri]; it != nil {
				it.linked = false // queued from the sitemap
			}
		}
		it := cr.queued[uri]
		if it == nil || it.inMaps {
			continue
		}
		it.inMaps, it.modified = true, s.Modified
		it.recent = !cr.since.IsZero() && s.Modified.After(cr.since)
		if it.recent {
			cr.recentLeft++
			cr.rep.Recent++
		}
		heap.Push(&cr.maps, it)
	}
	if cr.recentLeft == 0 {
		cr.stopRecent = false // no recent page: nothing tells where to stop
	}
}

// raise moves a queued link up when another anchor of it scores better,
// and marks a sitemap URL a page links to.
func (cr *crawl) raise(it *item, anchor string) {
	if !it.linked && it.inMaps && !it.done {
		it.linked = true
		heap.Fix(&cr.maps, it.index[bySitemap])
	}
	it.linked = true
	if s := cr.scorer.score(anchor, it.uri); s > it.score {
		it.score = s
		if !it.done {
			heap.Fix(&cr.front, it.index[byScore])
			if it.inMaps {
				heap.Fix(&cr.maps, it.index[bySitemap])
			}
		}
	}
}

// item is a link in the frontier.
type item struct {
	uri   string // to fetch
	link  string // as found, before session identifiers were removed
	score float64
	depth int
	seq   int
	// index is the item's place in each queue: the frontier's
	// (byScore) and the sitemap's (bySitemap).
	index [2]int
	// A sitemap URL is in the sitemap's queue too (inMaps), with its
	// <lastmod>, whether it is recent, and whether a page links to it
	// (linked).
	inMaps   bool
	modified time.Time
	recent   bool
	linked   bool
	done     bool // taken from one queue: passed over in the other
}

// The orders of a frontier.
const (
	// byScore: the highest score, then the fewest path segments, then the
	// first found.
	byScore = iota
	// bySitemap: the recent URLs, then the highest score, then those no
	// page links to, then the newest, then as byScore.
	bySitemap
)

// frontier is a heap of links, the best first by its order.
type frontier struct {
	items []*item
	order int // byScore or bySitemap
}

func (f *frontier) Len() int { return len(f.items) }
func (f *frontier) Less(i, j int) bool {
	a, b := f.items[i], f.items[j]
	if f.order == bySitemap {
		switch {
		case a.recent != b.recent:
			return a.recent
		case a.score != b.score:
			return a.score > b.score
		case a.linked != b.linked:
			return !a.linked
		case !a.modified.Equal(b.modified):
			return a.modified.After(b.modified)
		}
	}
	if a.score != b.score {
		return a.score > b.score
	}
	if a.depth != b.depth {
		return a.depth < b.depth
	}
	return a.seq < b.seq
}
func (f *frontier) Swap(i, j int) {
	f.items[i], f.items[j] = f.items[j], f.items[i]
	f.items[i].index[f.order], f.items[j].index[f.order] = i, j
}
func (f *frontier) Push(x any) {
	it := x.(*item)
	it.index[f.order] = len(f.items)
	f.items = append(f.items, it)
}
func (f *frontier) Pop() any {
	it := f.items[len(f.items)-1]
	f.items = f.items[:len(f.items)-1]
	return it
}
