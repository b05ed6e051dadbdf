package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"slices"
	"strings"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/web"
)

// liveConfig is what the command line says about the services that stand
// in for the web: where pages are fetched, which engine searches, where
// document frequencies and archived copies come from. find and fix share
// it, flags and checks alike.
type liveConfig struct {
	search, searchURL, key, cx          string
	dfKind, dfTable, dfCache            string
	archive, archiveURL, archiveDataURL string
	fetch, userAgent                    string
	docs                                int64
	rate                                float64
	allowPrivate, ignoreRobots          bool
}

// register adds the live services' flags to fs.
func (c *liveConfig) register(fs *flag.FlagSet) {
	fs.StringVar(&c.search, "search", "store", "search `engine`: "+strings.Join(engineNames, ", "))
	fs.StringVar(&c.searchURL, "search-url", "", "the search service's base `URL`, replacing its own")
	fs.StringVar(&c.key, "key", "", "API `key` of -search (default from the environment, see above)")
	fs.StringVar(&c.cx, "cx", "", "Google's Programmable Search Engine `ID` (default $GOOGLE_CSE_ID)")
	fs.StringVar(&c.dfKind, "df", "store", "document frequencies: store, search (the engine's hit counts) or table")
	fs.StringVar(&c.dfTable, "df-table", "", "with -df table, a term-count table `FILE` (provider/dftable)")
	fs.Int64Var(&c.docs, "docs", DefaultDocs, "with -df search, |D|: the `number` of pages hit counts are out of")
	fs.StringVar(&c.dfCache, "df-cache", "", "keep document frequencies in `FILE`, shared by runs (provider/dfcache)")
	fs.StringVar(&c.archive, "archive", "none", "web archive of past copies: "+strings.Join(archiveNames, ", "))
	fs.StringVar(&c.archiveURL, "archive-url", "", "the archive's base `URL`, replacing its own (for ccindex, the index server's)")
	fs.StringVar(&c.archiveDataURL, "archive-data-url", "", "with -archive ccindex, the `URL` of the server captures are read from, replacing data.commoncrawl.org")
	fs.Float64Var(&c.rate, "rate", 0, "`requests` per second to each web service (search, archive) and, with -fetch web, to each host; 0 means the service's default (1, the Wayback Machine's CDX 0.4), inf no limit")
	fs.StringVar(&c.fetch, "fetch", "store", "where pages come from: store (replayed) or web (fetched live)")
	fs.StringVar(&c.userAgent, "user-agent", web.DefaultUserAgent, "User-Agent for -fetch web, search APIs and archives")
	fs.BoolVar(&c.allowPrivate, "allow-private", false, "with -fetch web and archives, allow private and loopback addresses")
	fs.BoolVar(&c.ignoreRobots, "ignore-robots", false, "with -fetch web, do not honour robots.txt")
}

// check refuses live flags that do not fit together.
func (c *liveConfig) check(set map[string]bool) error {
	if !slices.Contains(engineNames, c.search) {
		return usagef("unknown -search %s: want one of %s", quoteArg(c.search), strings.Join(engineNames, ", "))
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
		{"archive-data-url", c.archive == "ccindex", "-archive-data-url is for -archive ccindex"},
	} {
		if set[r.flag] && !r.ok {
			return usagef("%s", r.why)
		}
	}
	switch {
	case c.dfKind == "table" && c.dfTable == "":
		return usagef("-df table needs -df-table FILE")
	case c.docs <= 0:
		return usagef("bad -docs %d: want the positive number of pages the engine indexes", c.docs)
	case c.rate < 0 || math.IsNaN(c.rate):
		return usagef("bad -rate %v: want 0 (the default), a positive number or inf", c.rate)
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
	// fetcher fetches pages: the store, or the live web.
	fetcher filter.Fetcher
	// searcher answers queries: the store, or eng's client.
	searcher lexsig.Searcher
	web      *web.Client // the live fetcher, nil with -fetch store
}

// dial makes the live clients c names: the search engine and the archive.
// Their errors are usage errors (a missing key, a bad URL), found before
// any file is opened or any request sent.
func (c *liveConfig) dial() (*services, error) {
	reqRate := rate.Limit(c.rate) // +Inf ("inf") means no limit to the providers
	sv := &services{}
	if c.search != "store" {
		eng, err := newEngine(engineConfig{name: c.search, baseURL: c.searchURL, key: c.key, cx: c.cx, userAgent: c.userAgent, rate: reqRate})
		if err != nil {
			return nil, err
		}
		sv.eng = eng
	}
	arch, err := newArchive(archiveConfig{name: c.archive, baseURL: c.archiveURL, dataURL: c.archiveDataURL, userAgent: c.userAgent, rate: reqRate, allowPrivate: c.allowPrivate})
	if err != nil {
		sv.close()
		return nil, err
	}
	sv.arch = arch
	return sv, nil
}

// attach completes sv with what the store view serves, or the live web
// replaces: document frequencies, the fetcher and the searcher. storePath
// names the store's numbers in a DF cache. A nil view (no store) leaves
// to the live services what they replace; the command line must have
// named them all. sv.close releases them.
func (sv *services) attach(ctx context.Context, c *liveConfig, view storeView, storePath string) error {
	dfs, err := openDF(ctx, dfConfig{kind: c.dfKind, table: c.dfTable, docs: c.docs, cache: c.dfCache, storePath: storePath}, view, sv.eng)
	if err != nil {
		return err
	}
	sv.dfs = dfs
	if view != nil {
		sv.fetcher, sv.searcher = view, view
	}
	if sv.eng != nil {
		sv.searcher = sv.eng.client
	}
	if c.fetch == "web" {
		// -rate, when given, is each host's rate too (its default is
		// the web client's: one request a second).
		sv.web = &web.Client{UserAgent: c.userAgent, Rate: rate.Limit(c.rate), AllowPrivate: c.allowPrivate, IgnoreRobots: c.ignoreRobots}
		sv.fetcher = unreachableFirst(sv.web)
	}
	return nil
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
	if sv.dfs != nil {
		if err := sv.dfs.close(); err != nil {
			return fmt.Errorf("-df-cache: %w", err)
		}
		sv.dfs = nil
	}
	return nil
}
