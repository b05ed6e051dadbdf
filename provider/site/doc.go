// Package site makes a dead link's own site the index in which its new
// address is searched: it reads the site's sitemaps, crawls the site best
// first for pages like the missing one, and keeps what it fetched in a
// store per host (package provider/store), which search and document
// frequencies then run against as against any store. Most dead links
// point at a page that still exists on the same site after a
// reorganisation, so the site answers with no search engine, no key and
// no store built beforehand.
//
//	client := &web.Client{}                      // robots.txt, rate, private-address guard
//	x := &site.Index{Dir: cacheDir, Crawler: &site.Crawler{Fetcher: client}}
//	defer x.Close()
//	s, err := x.Build(ctx, site.Job{Missing: dead, Clues: clues, Seeds: links}, confident)
//	results, err := s.Store.Search(ctx, query, 10) // the site's pages
//	df, err := s.Store.DocFreq(ctx, "term")       // the site's frequencies
//
// # Sitemaps
//
// ParseSitemap reads one sitemap file by the sitemaps.org protocol: a
// <urlset>, a <sitemapindex> or a text file of URLs, gzipped or not. The
// protocol's limits hold while reading, so that neither a huge file nor a
// decompression bomb is ever held whole: at most 50,000 URLs
// (MaxSitemapURLs) and 50 MB uncompressed (MaxSitemapBytes) a file, and a
// gzip stream that expands more than MaxSitemapRatio times is cut; a cut
// keeps what came before it and records why (Sitemap.Cut). Only URLs on
// the sitemap's own host are kept ("all URLs in a Sitemap must be from a
// single host"); the protocol's narrower rule, URLs below the sitemap's
// own directory, is not applied, because many sites keep their sitemaps
// in a directory of their own and list the whole site. A crawl reads the
// files the robots.txt Sitemap lines name (when the Fetcher is a
// SitemapLister, as web.Client is), or /sitemap.xml, and the files a
// sitemap index lists, one level deep (an index in an index is cut, as the
// protocol allows none).
//
// # The crawl
//
// Crawler.Crawl fetches the home page first (a root that redirects to
// another host is a domain change: that host is crawled, and links to the
// old host move to it), then follows, best first, the links of the home
// page, of the sitemaps, of the pages that link to the missing one
// (Job.Seeds) and of every page fetched: the link whose anchor text and
// URL words weigh most against the clues (anchor phrases, signature, the
// missing URI's words, the archived title; a word counts once for each
// kind of clue that holds it) first. Every other fetch takes a sitemap
// URL instead, since a page moved to an address no page links to is
// reached through the sitemap alone: those whose <lastmod> is after
// Clues.Since (when the missing page was last seen alive; unknown, the
// newer half of the sitemap's dates) first, then by their words, then
// those no page fetched links to, then the newest; with Clues.Since
// known, the crawl ends once they are read (StopSitemapDone), and reads
// them, when the budget holds them, before a confident Visit ends it. ParseSitemap
// keeps each URL's <lastmod> (Sitemap.Modified). It stays on the host, within a page
// budget, and cuts crawl traps before any request, counting each cut
// with its reason (Report.Cut): files that are not pages, paths deeper
// than MaxDepth or repeating a segment, long queries, more than
// MaxQueryVariants queries of one path, more than MaxPerPattern URLs of
// one numbered shape (calendars, pagers), and session identifiers, which
// are removed. A host that fails MaxFailures times in a row (slow, down)
// is cut, with the failure recorded. The caller's Visit sees each page
// and may stop the crawl when an answer is confident.
//
// A URI is fetched in its canonical form (canon.Canonicalize), which has
// lost the slash that ends a directory's path; most servers redirect to
// it, and when one answers 404 the URI with the slash is asked for once.
//
// # The index
//
// Index keeps a directory per host in a cache directory: the store
// (site.db), the WARC files of the crawls (crawl-*.warc.gz, one per
// crawl, ingested every IngestEvery pages with store.IngestWARC, so that
// the pages are kept byte for byte and a crawl cut short loses nothing
// fetched), the sitemap URLs read (sitemap.txt) and state.json (when the
// directory was made, and where the host's root redirected). The pages
// are indexed in the store's own schema (title, headings, text, links),
// and the store's DocFreq and Docs are the site's document frequencies.
// Later crawls of the host, for its other dead links, read the pages the
// store holds without a request and the sitemap URLs without reading the
// sitemaps again; a directory older than MaxAge (a week) is built anew.
//
// # What the caller must do
//
// Give the Crawler a Fetcher that obeys robots.txt and a per-host rate and
// refuses private addresses: a web.Client, one for the whole run, so that
// its per-host limits hold across crawls; this package adds no politeness
// of its own and never fetches in parallel within one crawl. Check every
// answer live: the store holds pages as they were when fetched.
//
// # What it does not do
//
// It does not render scripts, submit forms, log in or keep cookies; it
// does not crawl other hosts, not even a host's other names (www.), and
// does not search: search and document frequencies are the store's. An
// Index remembers the URLs that gave no page (a 404, a file that is not
// HTML) for the crawls it runs, not across runs: a later run may ask for
// them again (through a caller's cache, as relink fix's, at no cost).
package site
