package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/cache"
	"github.com/linkrot/relink/provider/mediawiki"
	"github.com/linkrot/relink/provider/web"
)

// backlinkSources are the values of -backlinks-from.
var backlinkSources = []string{"store", "mediawiki"}

// defaultCacheDir returns the -cache directory used unless the command line
// says otherwise: relink/live in the user's cache directory, or "" (no
// cache) when there is none.
func defaultCacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "relink", "live")
}

// defaultCacheMax is -cache-max unless the command line says otherwise.
const defaultCacheMax byteSize = 2 << 30

// liveConfig is what the command line says about the services that stand
// in for the web: where pages are fetched, which engine searches, where
// document frequencies and archived copies come from. find and fix share
// it, flags and checks alike.
type liveConfig struct {
	search, searchURL, key, cx          string
	dfKind, dfTable, dfCache            string
	archive, archiveURL, archiveDataURL string
	fetch, userAgent                    string
	proxy, caFile                       string
	docs                                int64
	rate, archiveRate                   float64
	allowPrivate, ignoreRobots          bool
	// cacheDir is -cache ("" for none), cacheAge -cache-age.
	// cacheMax is -cache-max: the bound on the directory's size.
	cacheDir string
	cacheAge time.Duration
	cacheMax byteSize
	noCache  bool
	// backlinksFrom is -backlinks-from; empty means the store's, when
	// there is a store.
	backlinksFrom               listFlag
	mediawikiAPI, mediawikiPath string
	// shared, set by relink worker, keeps the caches and rate limits in
	// the queue's database, shared by every worker; nil for a process
	// of its own.
	shared *shared
}

// register adds the live services' flags to fs.
func (c *liveConfig) register(fs *flag.FlagSet) {
	fs.StringVar(&c.search, "search", "store", "search `engine`: "+strings.Join(engineNames, ", "))
	fs.StringVar(&c.searchURL, "search-url", "", "the search service's base `URL`, replacing its own")
	fs.StringVar(&c.key, "key", "", "API `key` of -search (default from the environment, see above)")
	fs.StringVar(&c.cx, "cx", "", "Google's Programmable Search Engine `ID` (default $GOOGLE_CSE_ID)")
	fs.StringVar(&c.dfKind, "df", "store", "document frequencies: store, search (the engine's hit counts) or table")
	fs.StringVar(&c.dfTable, "df-table", "", "with -df table, a term-count table `FILE` (provider/dftable; default: the table relink ships, of 53,936 documentation pages)")
	fs.Int64Var(&c.docs, "docs", DefaultDocs, "with -df search, |D|: the `number` of pages hit counts are out of")
	fs.StringVar(&c.dfCache, "df-cache", "", "keep document frequencies in `FILE`, shared by runs (provider/dfcache)")
	fs.StringVar(&c.archive, "archive", "none", "web archive of past copies: "+strings.Join(archiveNames, ", "))
	fs.StringVar(&c.archiveURL, "archive-url", "", "the archive's base `URL`, replacing its own (for ccindex, the index server's)")
	fs.StringVar(&c.archiveDataURL, "archive-data-url", "", "with -archive ccindex, the `URL` of the server captures are read from, replacing data.commoncrawl.org")
	fs.Float64Var(&c.rate, "rate", 0, "`requests` per second to the search engine (and the wiki) and, with -fetch web, to each host; 0 means the service's default (1), inf no limit")
	fs.Float64Var(&c.archiveRate, "archive-rate", 0, "`requests` per second to the archive's API; 0 means the archive's default (the Wayback Machine's CDX 0.4: 24 of the 30 a minute it allows; memento and ccindex 1), inf no limit")
	fs.StringVar(&c.fetch, "fetch", "store", "where pages come from: store (replayed) or web (fetched live)")
	fs.StringVar(&c.userAgent, "user-agent", web.DefaultUserAgent, "User-Agent for -fetch web, search APIs and archives")
	fs.BoolVar(&c.allowPrivate, "allow-private", false, "with -fetch web and archives, allow private and loopback addresses")
	fs.BoolVar(&c.ignoreRobots, "ignore-robots", false, "with -fetch web, do not honour robots.txt")
	fs.StringVar(&c.proxy, "proxy", "", "send the live requests (pages, search, archives) through the HTTP proxy at `URL` (http://HOST:PORT); services on loopback are reached directly, and private page hosts stay refused")
	fs.StringVar(&c.caFile, "ca", "", "trust the certificate authorities of PEM `FILE` besides the system's, for every live request (an intercepting proxy's CA)")
	fs.StringVar(&c.cacheDir, "cache", defaultCacheDir(), "keep the live services' answers in `DIR`, shared by runs (\"\" for none)")
	fs.DurationVar(&c.cacheAge, "cache-age", cache.DefaultMaxAge, "use answers kept in -cache for this long")
	c.cacheMax = defaultCacheMax
	fs.Var(&c.cacheMax, "cache-max", "the most `bytes` -cache keeps (2GiB, 500MB, ...; 0 for no bound): on start, answers older than -cache-age are removed, then the oldest until the rest fit")
	fs.BoolVar(&c.noCache, "no-cache", false, "keep no answers (as -cache \"\")")
	fs.Var(&c.backlinksFrom, "backlinks-from", "where backlinks come from, a `list` of "+strings.Join(backlinkSources, ", ")+" (default: the store, when there is one)")
	fs.StringVar(&c.mediawikiAPI, "mediawiki-api", mediawiki.Wikipedia, "with -backlinks-from mediawiki, the wiki's api.php `URL`")
	fs.StringVar(&c.mediawikiPath, "mediawiki-article-path", "", "with -backlinks-from mediawiki, the wiki's article `URL` with $1 for the title (default: asked of the wiki)")
}

// cacheOn reports whether the command line keeps answers in a cache.
func (c *liveConfig) cacheOn() bool { return !c.noCache && c.cacheDir != "" }

// backlinksFromStore reports whether backlinks come from the store: by
// default, or when -backlinks-from names it.
func (c *liveConfig) backlinksFromStore() bool {
	return len(c.backlinksFrom) == 0 || slices.Contains(c.backlinksFrom, "store")
}

// check refuses live flags that do not fit together.
func (c *liveConfig) check(set map[string]bool) error {
	if !slices.Contains(engineNames, c.search) {
		return unknownEngine(c.search)
	}
	if !slices.Contains(dfKinds, c.dfKind) {
		return usagef("unknown -df %s: want one of %s", quoteArg(c.dfKind), strings.Join(dfKinds, ", "))
	}
	if !slices.Contains(archiveNames, c.archive) {
		return usagef("unknown -archive %s: want one of %s", quoteArg(c.archive), strings.Join(archiveNames, ", "))
	}
	if c.fetch != "store" && c.fetch != "web" {
		return usagef("bad -fetch %s: want store or web", quoteArg(c.fetch))
	}
	for _, r := range []struct {
		flag string
		ok   bool
		why  string
	}{
		{"search-url", c.search != "store", "-search-url needs a live -search engine"},
		{"key", c.search != "store" && c.search != "searxng", "-key is for -search google, brave, marginalia or mojeek"},
		{"cx", c.search == "google", "-cx is for -search google"},
		{"df-table", c.dfKind == "table", "-df-table needs -df table"},
		{"docs", c.dfKind == "search", "-docs is |D| for -df search"},
		{"archive-url", c.archive != "none", "-archive-url needs -archive wayback, memento or ccindex"},
		{"archive-rate", c.archive != "none", "-archive-rate needs -archive wayback, memento or ccindex"},
		{"archive-data-url", c.archive == "ccindex", "-archive-data-url is for -archive ccindex"},
		{"cache", !c.noCache, "-cache and -no-cache contradict each other"},
		{"mediawiki-api", slices.Contains(c.backlinksFrom, "mediawiki"), "-mediawiki-api needs -backlinks-from mediawiki"},
		{"mediawiki-article-path", slices.Contains(c.backlinksFrom, "mediawiki"), "-mediawiki-article-path needs -backlinks-from mediawiki"},
	} {
		if set[r.flag] && !r.ok {
			return usagef("%s", r.why)
		}
	}
	switch {
	case c.docs <= 0:
		return usagef("bad -docs %d: want the positive number of pages the engine indexes", c.docs)
	case c.rate < 0 || math.IsNaN(c.rate):
		return usagef("bad -rate %v: want 0 (the default), a positive number or inf", c.rate)
	case c.archiveRate < 0 || math.IsNaN(c.archiveRate):
		return usagef("bad -archive-rate %v: want 0 (the archive's default), a positive number or inf", c.archiveRate)
	case c.cacheAge <= 0:
		return usagef("bad -cache-age %v: want a positive duration, such as 720h", c.cacheAge)
	}
	for _, b := range c.backlinksFrom {
		if !slices.Contains(backlinkSources, b) {
			return usagef("unknown -backlinks-from %s: want a list of %s", quoteArg(b), strings.Join(backlinkSources, ", "))
		}
	}
	if p := c.mediawikiPath; p != "" {
		if u, err := url.Parse(p); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || !strings.Contains(p, "$1") {
			return usagef("bad -mediawiki-article-path %s: want an absolute http or https URL with $1 for the title", quoteArg(p))
		}
	}
	return nil
}

// services are the providers a run uses, made from a liveConfig: the live
// clients first (dial, whose errors are the command line's), then what
// the store serves (attach).
type services struct {
	eng  *engine  // the live search engine, nil for the store
	arch *archive // the archive, nil for none
	dfs  *dfSetup
	net  netConfig // -proxy and -ca
	// fetcher fetches pages: the store, or the live web.
	fetcher filter.Fetcher
	// searcher answers queries: the store, or eng's client.
	searcher lexsig.Searcher
	web      *web.Client // the live fetcher, nil with -fetch store
	// cache keeps the live services' answers: a directory, or the
	// queue's table for a worker; nil for none.
	cache cache.Records
	// probes fetches the soft-404 probes of live pages through the
	// cache's per-host verdicts; nil means the fetcher.
	probes filter.Fetcher
	// wiki lists the pages of a wiki citing a URI, behind the cache; nil
	// without -backlinks-from mediawiki.
	wiki   backlink.Provider
	wikiMW *mediawiki.Client
}

// dial is dialContext without a way to give up reading -ca.
func (c *liveConfig) dial() (*services, error) { return c.dialContext(context.Background()) }

// dialContext makes the live clients c names: the search engine and the
// archive. Their errors are usage errors (a missing key, a bad URL), found
// before any file is opened or any request sent; reading -ca gives up when
// ctx is done.
func (c *liveConfig) dialContext(ctx context.Context) (*services, error) {
	reqRate := rate.Limit(c.rate) // +Inf ("inf") means no limit to the providers
	nc, err := newNetConfig(ctx, c.proxy, c.caFile)
	if err != nil {
		return nil, err
	}
	if c.shared != nil {
		nc.wrap = c.shared.transport(c.rate)
	}
	sv := &services{net: nc}
	switch {
	case c.cacheOn() && c.shared != nil:
		sv.cache = c.shared.queue.Records(c.cacheAge)
	case c.cacheOn():
		// A directory another user can write is refused: a record
		// planted there would be an answer.
		d, err := cache.Open(c.cacheDir, c.cacheAge)
		switch {
		case errors.Is(err, cache.ErrUnsafe):
			return nil, fmt.Errorf("-cache: %w", err)
		case err != nil:
			return nil, fmt.Errorf("-cache: %w (choose another -cache, or -no-cache for none)", err)
		}
		if _, err := d.Prune(int64(c.cacheMax)); err != nil {
			return nil, fmt.Errorf("-cache-max: %w", err)
		}
		sv.cache = d
	}
	if c.search != "store" {
		eng, err := newEngine(engineConfig{name: c.search, baseURL: c.searchURL, key: c.key, cx: c.cx, userAgent: c.userAgent, rate: reqRate, net: nc})
		if err != nil {
			return nil, err
		}
		sv.eng = eng
	}
	// The archive keeps its own rate (-archive-rate), not the engine's:
	// -rate 1 would send the Wayback Machine 60 CDX requests a minute.
	anc := nc
	if c.shared != nil {
		anc.wrap = c.shared.transport(c.archiveRate)
	}
	arch, err := newArchive(archiveConfig{name: c.archive, baseURL: c.archiveURL, dataURL: c.archiveDataURL, userAgent: c.userAgent, rate: rate.Limit(c.archiveRate), allowPrivate: c.allowPrivate, net: anc})
	if err != nil {
		sv.close()
		return nil, err
	}
	sv.arch = arch
	if arch != nil && sv.cache != nil {
		arch.log.Fetcher = &cache.Fetcher{Dir: sv.cache, Kind: "archive", Name: c.archiveName(), Fetcher: arch.log.Fetcher}
	}
	if slices.Contains(c.backlinksFrom, "mediawiki") {
		if _, err := url.Parse(c.mediawikiAPI); err != nil || !strings.HasPrefix(c.mediawikiAPI, "http://") && !strings.HasPrefix(c.mediawikiAPI, "https://") {
			sv.close()
			return nil, usagef("bad -mediawiki-api %s: want an absolute http or https URL", quoteArg(c.mediawikiAPI))
		}
		sv.wikiMW = &mediawiki.Client{Endpoint: c.mediawikiAPI, ArticlePath: c.mediawikiPath, UserAgent: c.userAgent, Rate: reqRate}
		if c.shared != nil {
			// A worker keeps the wiki's rate with every other worker.
			sv.wikiMW.HTTP = (netConfig{wrap: nc.wrap}).serviceClient()
		}
		sv.wiki = &cache.Backlinks{Dir: sv.cache, Name: c.wikiName(), Provider: sv.wikiMW}
	}
	return sv, nil
}

// attach completes sv with what the store view serves, or the live web
// replaces: document frequencies, the fetcher and the searcher. storePath
// names the store's numbers in a DF cache. A nil view (no store) leaves
// to the live services what they replace; the command line must have
// named them all. sv.close releases them.
func (sv *services) attach(ctx context.Context, c *liveConfig, view storeView, storePath string) error {
	dc := dfConfig{kind: c.dfKind, table: c.dfTable, docs: c.docs, cache: c.dfCache, storePath: storePath}
	if c.shared != nil {
		// A worker keeps document frequencies with the other answers,
		// shared by every worker, not in a file of its own.
		dc.cache, dc.records, dc.named = "", sv.cache, c.cacheName
	}
	dfs, err := openDF(ctx, dc, view, sv.eng)
	if err != nil {
		return err
	}
	sv.dfs = dfs
	if view != nil {
		sv.fetcher, sv.searcher = view, view
	}
	if sv.eng != nil {
		var eng lexsig.Searcher = sv.eng.client
		if slices.Contains(noOrEngines, sv.eng.name) {
			eng = noOrSearcher{sv.eng.client}
		}
		sv.searcher = &cache.Searcher{Dir: sv.cache, Name: c.searchName(), Searcher: eng}
	}
	if c.fetch == "web" {
		// -rate, when given, is each host's rate too (its default is
		// the web client's: one request a second).
		sv.web = &web.Client{UserAgent: c.userAgent, Rate: rate.Limit(c.rate), AllowPrivate: c.allowPrivate, IgnoreRobots: c.ignoreRobots,
			Proxy: sv.net.webProxy(), RootCAs: sv.net.roots}
		if sv.cache != nil {
			sv.web.Robots = &cache.Robots{Dir: sv.cache, Name: c.webName()}
		}
		live := unreachableFirst(sv.web)
		if c.shared != nil {
			live = c.shared.pages(live, c.rate)
		}
		sv.fetcher = &cache.Fetcher{Dir: sv.cache, Name: c.webName(), Fetcher: live}
		if sv.cache != nil {
			// A probe's made-up URI is never asked again: the host's
			// verdict is kept, not the page.
			sv.probes = &cache.Probes{Dir: sv.cache, Name: c.webName(), Fetcher: live}
		}
	}
	return nil
}

// cacheName names the records of service (an engine, an archive, the
// web, with the address that tells it from others) in the cache: the
// service, then every setting of c that changes what a run may fetch
// (access). Every name of a record is made here, so that an answer
// fetched under one such setting (a private page, an archived copy of
// one, a page robots.txt forbids) never answers a run without it.
func (c *liveConfig) cacheName(service string) string {
	return strings.TrimSpace(service) + c.access()
}

// access is what the cache's names hold of the settings that change what
// a run may fetch: -allow-private, -ignore-robots, -user-agent (robots.txt
// rules are chosen by it), -ca (a certificate otherwise refused) and
// -proxy (a local web standing in for the web answers for the same URLs),
// each when not its default. The words are those names had before, so
// that a cache made by an older relink keeps its records.
func (c *liveConfig) access() string {
	var b strings.Builder
	if c.allowPrivate {
		b.WriteString(" allow-private")
	}
	if c.ignoreRobots {
		b.WriteString(" ignore-robots")
	}
	if c.userAgent != web.DefaultUserAgent {
		b.WriteString(" user-agent=" + c.userAgent)
	}
	if c.caFile != "" {
		b.WriteString(" ca=" + c.caFile)
	}
	if c.proxy != "" {
		b.WriteString(" proxy=" + c.proxy)
	}
	return b.String()
}

// webName names the live web's pages, robots.txt answers and soft-404
// verdicts in the cache.
func (c *liveConfig) webName() string { return c.cacheName("web") }

// archiveName names the archive's answers in the cache: its copies and
// its lists of historical redirects.
func (c *liveConfig) archiveName() string {
	return c.cacheName(strings.Join([]string{c.archive, c.archiveURL, c.archiveDataURL}, " "))
}

// searchName names the search engine's answers in the cache.
func (c *liveConfig) searchName() string { return c.cacheName(c.search + " " + c.searchURL) }

// wikiName names the wiki's backlink lists in the cache.
func (c *liveConfig) wikiName() string { return c.cacheName("mediawiki " + c.mediawikiAPI) }

// backlinks returns the backlink providers the command line names, in
// order: the store's (view, when there is one and -backlinks-from has it)
// and the wiki's. It returns nil for none.
func (sv *services) backlinks(c *liveConfig, view backlink.Provider) backlink.Provider {
	var ps sources
	if view != nil && c.backlinksFromStore() {
		ps = append(ps, view)
	}
	if sv.wiki != nil {
		ps = append(ps, sv.wiki)
	}
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// close closes the clients' idle connections and the DF cache's file. Its
// error is the DF cache's.
func (sv *services) close() error {
	if sv.eng != nil {
		sv.eng.client.CloseIdleConnections()
	}
	if sv.arch != nil {
		sv.arch.close()
	}
	if sv.web != nil {
		sv.web.CloseIdleConnections()
	}
	if sv.wikiMW != nil {
		sv.wikiMW.CloseIdleConnections()
	}
	if sv.dfs != nil {
		if err := sv.dfs.close(); err != nil {
			return fmt.Errorf("-df-cache: %w", err)
		}
		sv.dfs = nil
	}
	return nil
}
