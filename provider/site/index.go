package site

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/internal/atomicfile"
	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/provider/warc"
)

// Defaults of the Index fields.
const (
	// DefaultMaxAge is how long a host's index is used before it is built
	// anew: a week, since sites reorganise over months and a week-old
	// index misses few pages; every answer is checked live anyway.
	DefaultMaxAge = 7 * 24 * time.Hour
	// DefaultIngestEvery is how many pages a crawl fetches between two
	// ingests into the host's store, each followed by the Confident
	// question. At one request a second an ingest of a few pages costs
	// far less than the five seconds the pages took to fetch.
	DefaultIngestEvery = 5
)

// Files of a host's directory.
const (
	storeFile = "site.db"
	stateFile = "state.json"
	// sitemapFile keeps the host's sitemap URLs, one a line, each with
	// its <lastmod> after a tab when it has one (RFC 3339; the URLs hold
	// no white space: url.URL.String escapes it).
	sitemapFile = "sitemap.txt"
	warcGlob    = "crawl-*.warc.gz"
)

// stateVersion is the version of state.json; a directory with another is
// built anew.
const stateVersion = 1

// ErrNoDir is the error of an Index without a Dir or a Crawler.
var ErrNoDir = errors.New("site: Index needs a Dir and a Crawler")

// Index keeps, in a directory, one store per host (package provider/store,
// in the store's own schema: titles, headings, text and links, in a
// full-text index), filled by crawling the host: the site of a dead link
// is the index in which its new address is searched, and its document
// frequencies are the site's. A host's directory holds the store
// (site.db), the WARC files of its crawls (crawl-*.warc.gz, from which
// the store is ingested, so a crawl cut short loses nothing fetched) and
// a small state file (state.json: when it was started and where the
// host's root redirected); a directory older than MaxAge is built anew.
//
// An Index is safe for concurrent use: crawls of different hosts run at
// once, crawls of one host one after the other, each reading what the
// ones before fetched without asking again. Close it once done. Several
// processes sharing one Dir crawl one host one at a time too (the store's
// lock); the one that meets a crawl under way fails with store.ErrLocked.
type Index struct {
	// Dir is the directory of the hosts' directories; it is created when
	// missing. Required.
	Dir string
	// MaxAge is how long a host's directory is used; zero means
	// DefaultMaxAge.
	MaxAge time.Duration
	// IngestEvery is how many pages are fetched between two ingests; zero
	// means DefaultIngestEvery.
	IngestEvery int
	// Crawler crawls the hosts. Required.
	Crawler *Crawler

	mu    sync.Mutex
	hosts map[string]*hostIndex
}

// hostIndex is one host's directory, open.
type hostIndex struct {
	mu    sync.Mutex // held by the crawl of the host
	dir   string
	store *store.Store
	state hostState
	// sitemap are the host's sitemap URLs, once read (Report.Sitemap).
	sitemap []SitemapURL
	// spent counts the requests of this Index's crawls of the host
	// (Job.HostBudget).
	spent int
	// noPage are the URIs this Index's crawls of the host fetched that
	// gave no page (Report.NoPage), not asked for again (Job.Skip).
	noPage map[string]bool
	// caughtUp reports that the WARC files found in dir when it was
	// opened have been ingested.
	caughtUp bool
}

// hostState is the content of state.json.
type hostState struct {
	Version int       `json:"version"`
	Created time.Time `json:"created"`
	// MovedTo is the host the root redirected to, crawled instead.
	MovedTo string `json:"moved_to,omitempty"`
}

// Site is a host's index after a crawl: its store, ready to search, to
// give document frequencies and to replay pages, and the crawl's report.
type Site struct {
	// Host is the dead link's host, whose directory holds the store.
	Host string
	// Store holds every page fetched from the host (or from the host its
	// root redirected to), this crawl's and the earlier ones'. It belongs
	// to the Index: do not close it.
	Store *store.Store
	// Report is what this crawl did.
	Report *Report
}

// Confident is asked, after each ingest, whether the store now answers
// well enough to stop crawling: a caller searches it for the missing page
// and judges the best result. It must not keep the store.
type Confident func(ctx context.Context, s *store.Store) bool

// Build crawls the host of job.Missing into its store (job.Visit,
// job.Known and job.Skip are the Index's own and are replaced; URIs an
// earlier crawl of the Index found no page at are not asked for again), and returns the store
// with the crawl's report. Pages the store holds are read from it, not
// fetched; every IngestEvery pages fetched are ingested and confident,
// when not nil, is asked whether to stop. A root that redirected to
// another host in an earlier crawl sends this one there at once.
//
// The error is a failure of the directory or the store (store.ErrLocked
// when another process crawls the host), ErrBadJob, or ctx's; a host
// that cannot be crawled (down, slow, disallowed) is not an error: its
// report says so, and its store may be empty.
func (x *Index) Build(ctx context.Context, job Job, confident Confident) (*Site, error) {
	if x.Dir == "" || x.Crawler == nil {
		return nil, ErrNoDir
	}
	u, err := url.Parse(job.Missing)
	if err != nil || !isHTTP(u) {
		return nil, fmt.Errorf("%w: missing page %q is not an absolute http(s) URI", ErrBadJob, job.Missing)
	}
	host := strings.ToLower(u.Host)
	h, err := x.open(host)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.state.MovedTo != "" && job.Host == "" {
		job.Host = h.state.MovedTo
	}
	if job.Sitemap == nil {
		job.Sitemap = h.sitemap
	}
	if !h.caughtUp {
		// A crawl of an earlier run cut short may have left pages not
		// yet in the store; later ingests read this run's files alone.
		paths, err := crawlFiles(h.dir)
		if err == nil {
			err = ingestFiles(ctx, h, paths)
		}
		if err != nil {
			return nil, err
		}
		h.caughtUp = true
	}
	if job.HostBudget > 0 {
		job.Budget = job.HostBudget - h.spent
		if job.Budget <= 0 {
			return &Site{Host: host, Store: h.store, Report: &Report{Host: host, Stopped: StopBudget}}, nil
		}
	}
	cr := &hostCrawl{x: x, h: h, confident: confident}
	job.Known = cr.known
	job.Visit = cr.visit
	job.Skip = func(uri string) bool { return h.noPage[uri] }
	rep, err := x.Crawler.Crawl(ctx, job)
	if cerr := cr.close(ctx); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	h.spent += rep.Requests
	for _, uri := range rep.NoPage {
		if h.noPage == nil {
			h.noPage = map[string]bool{}
		}
		h.noPage[uri] = true
	}
	if rep.Sitemap != nil {
		h.sitemap = rep.Sitemap
		if err := writeSitemap(h.dir, rep.Sitemap); err != nil {
			return nil, err
		}
	}
	if rep.MovedTo != "" && rep.MovedTo != h.state.MovedTo {
		h.state.MovedTo = rep.MovedTo
		if err := writeState(h.dir, h.state); err != nil {
			return nil, err
		}
	}
	return &Site{Host: host, Store: h.store, Report: rep}, nil
}

// Close closes every store the Index opened.
func (x *Index) Close() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	var errs []error
	for name, h := range x.hosts {
		h.mu.Lock()
		errs = append(errs, h.store.Close())
		h.mu.Unlock()
		delete(x.hosts, name)
	}
	return errors.Join(errs...)
}

// open returns host's open directory, made or made anew when missing,
// of another version or older than MaxAge.
func (x *Index) open(host string) (*hostIndex, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if h := x.hosts[host]; h != nil {
		return h, nil
	}
	dir := filepath.Join(x.Dir, hostDir(host))
	st, err := readState(dir)
	maxAge := x.MaxAge
	if maxAge <= 0 {
		maxAge = DefaultMaxAge
	}
	if err != nil || st.Version != stateVersion || time.Since(st.Created) > maxAge {
		if err := os.RemoveAll(dir); err != nil {
			return nil, fmt.Errorf("site: renew %s: %w", dir, err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("site: %w", err)
		}
		st = hostState{Version: stateVersion, Created: time.Now().UTC()}
		if err := writeState(dir, st); err != nil {
			return nil, err
		}
	}
	s, err := store.Open(filepath.Join(dir, storeFile), nil)
	if err != nil {
		return nil, fmt.Errorf("site: %s: %w", host, err)
	}
	if x.hosts == nil {
		x.hosts = map[string]*hostIndex{}
	}
	h := &hostIndex{dir: dir, store: s, state: st, sitemap: readSitemap(dir)}
	x.hosts[host] = h
	return h, nil
}

// hostDir returns the directory name of host: the host with its port
// after "_" (a colon is not allowed in Windows names), an IPv6 address's
// brackets and colons written "_".
func hostDir(host string) string {
	return strings.NewReplacer(":", "_", "/", "_", "\\", "_", "[", "_", "]", "_").Replace(host)
}

// readSitemap returns the sitemap URLs kept in dir, or nil when none were
// kept.
func readSitemap(dir string) []SitemapURL {
	b, err := os.ReadFile(filepath.Join(dir, sitemapFile))
	if err != nil {
		return nil
	}
	urls := []SitemapURL{} // read, and maybe none
	for line := range strings.Lines(string(b)) {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		u := SitemapURL{URI: f[0]}
		if len(f) > 1 {
			u.Modified, _ = time.Parse(time.RFC3339Nano, f[1])
		}
		urls = append(urls, u)
	}
	return urls
}

// writeSitemap keeps the host's sitemap URLs in dir, one a line.
func writeSitemap(dir string, urls []SitemapURL) error {
	return atomicfile.Write(filepath.Join(dir, sitemapFile), 0o644, func(w io.Writer) error {
		for _, u := range urls {
			line := u.URI
			if !u.Modified.IsZero() {
				line += "\t" + u.Modified.UTC().Format(time.RFC3339Nano)
			}
			if _, err := io.WriteString(w, line+"\n"); err != nil {
				return err
			}
		}
		return nil
	})
}

func readState(dir string) (hostState, error) {
	var st hostState
	b, err := os.ReadFile(filepath.Join(dir, stateFile))
	if err != nil {
		return st, err
	}
	return st, json.Unmarshal(b, &st)
}

func writeState(dir string, st hostState) error {
	return atomicfile.Write(filepath.Join(dir, stateFile), 0o644, func(w io.Writer) error {
		return json.NewEncoder(w).Encode(st)
	})
}

// hostCrawl is one crawl of a host into its store: the pages fetched go
// to a WARC file of their own, ingested every IngestEvery pages.
type hostCrawl struct {
	x         *Index
	h         *hostIndex
	confident Confident
	file      *os.File
	w         *warc.Writer
	pending   int // pages written since the last ingest
}

// known reads a page from the store: one an earlier crawl fetched.
func (cr *hostCrawl) known(ctx context.Context, uri string) (*filter.Page, bool) {
	p, err := cr.h.store.Fetch(ctx, uri)
	if err != nil || p.Status < 200 || p.Status > 299 {
		return nil, false
	}
	return p, true
}

// visit writes page to the crawl's WARC file, and every IngestEvery pages
// ingests and asks confident.
func (cr *hostCrawl) visit(ctx context.Context, page *filter.Page) (bool, error) {
	if cr.w == nil {
		name := fmt.Sprintf("crawl-%s.warc.gz", time.Now().UTC().Format("20060102T150405.000000000"))
		f, err := os.Create(filepath.Join(cr.h.dir, name))
		if err != nil {
			return false, fmt.Errorf("site: %w", err)
		}
		cr.file, cr.w = f, warc.NewWriter(f, true)
	}
	if err := cr.w.WriteResponse(page.URI, time.Now(), page.Status, page.Header, page.Body); err != nil {
		return false, fmt.Errorf("site: write %s: %w", page.URI, err)
	}
	cr.pending++
	every := cr.x.IngestEvery
	if every <= 0 {
		every = DefaultIngestEvery
	}
	if cr.pending < every {
		return false, nil
	}
	if err := cr.ingest(ctx); err != nil {
		return false, err
	}
	return cr.confident != nil && cr.confident(ctx, cr.h.store), nil
}

// ingest brings the store up to date with the crawl's WARC file. Only
// this file: the store checks every file it is given against the digest
// of what it read before, so giving it the host's every file would read
// them all again at each ingest.
func (cr *hostCrawl) ingest(ctx context.Context) error {
	cr.pending = 0
	return ingestFiles(ctx, cr.h, []string{cr.file.Name()})
}

// crawlFiles returns the paths of the crawls' WARC files in dir, oldest
// first (their names hold their start time). The names are matched, not
// the path: a directory's name may hold glob characters.
func crawlFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("site: %w", err)
	}
	var paths []string
	for _, e := range entries {
		if ok, _ := filepath.Match(warcGlob, e.Name()); ok && e.Type().IsRegular() {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(paths)
	return paths, nil
}

// ingestFiles ingests the WARC files paths into h's store; those already
// ingested and unchanged are passed over by the store.
func ingestFiles(ctx context.Context, h *hostIndex, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	if _, err := h.store.IngestWARC(ctx, paths, store.IngestOptions{Workers: 1}); err != nil {
		return fmt.Errorf("site: ingest %s: %w", h.dir, err)
	}
	return nil
}

// close ingests the pages not yet ingested and closes the WARC file.
func (cr *hostCrawl) close(ctx context.Context) error {
	if cr.file == nil {
		return nil
	}
	err := cr.file.Close()
	if err == nil && cr.pending > 0 {
		err = cr.ingest(context.WithoutCancel(ctx))
	}
	return err
}
