// Package localweb serves a relink store as the web, on loopback, for
// end-to-end tests and demonstrations: relink's live clients (provider/web,
// the search engines, provider/wayback, a Common Crawl index client, a
// MediaWiki client) run unchanged against it, configured only with a proxy,
// a trusted CA or a base URL.
//
//	srv, err := localweb.New(localweb.Options{Web: current, Archive: before})
//	err = srv.Start("127.0.0.1:0")
//	defer srv.Close()
//	c := &web.Client{Proxy: http.ProxyURL(srv.ProxyURL()), RootCAs: srv.CA().Pool()}
//	page, err := c.Fetch(ctx, "https://docs.python.org/3.11/library/os.html")
//	b, err := brave.New(brave.Options{Key: "any", BaseURL: srv.URL("brave")})
//
// # The web
//
// A forward proxy answers for the pages' own URLs: plain requests for http
// URIs, and CONNECT to port 443 for https, which it ends with TLS under a
// certificate it issues for the host from its CA (ECDSA P-256, made at
// start, one leaf per host, kept). Inside, the store answers as a web
// server would: a page with its stored status, header and bytes; 404 for a
// URI it lacks or counts as missing (store.WithMissing, MarkMissing); a
// 301 to the end of the store's redirect chains, and to a page's published
// address when that adds a final slash. CONNECT to another port is
// refused (403), as proxies refuse tunnels to ports that are not https.
//
// # Sitemaps
//
// The hosts Options.Sitemaps chooses publish what a crawler looks for
// first: /robots.txt ("User-agent: *", "Allow: /" and a Sitemap line) and
// /sitemap.xml, which lists the host's current pages (those the view does
// not count as missing) on the scheme asked, as a <urlset> up to
// SitemapPart URLs (50,000, the sitemaps.org limit) and past it as a
// sitemap index of gzipped parts, /sitemap-1.xml.gz and on. With an
// archive, each page is dated (<lastmod>) as a site that dates its pages
// truthfully would: SitemapAge before the archive's captures for a page
// the archive holds, SitemapAge after them for one it does not (published
// since, as the moved mode's new addresses are). Other hosts answer 404
// there, as many real sites do; lab/cmd/localweb's -sitemaps flag (all,
// none or HOST,...) chooses them.
//
// # The services
//
// Each service listens on a port of its own at its documented paths
// (Endpoints, URL), and the proxy answers for its real host name too, so a
// client given only the proxy and the CA reaches it at its default
// address. Answers follow each service's documentation and its recorded
// answers:
//
//   - Brave web search, GET /res/v1/web/search (api.search.brave.com): key
//     in X-Subscription-Token, q, count (1 to 20), offset (0 to 9, in
//     pages); web.results[] with title, url, description (query words in
//     <strong>), meta_url; query.more_results_available. Errors are
//     ErrorResponse objects: 422 VALIDATION (no token, q over 400
//     characters or 50 words, count or offset out of range), 429
//     RATE_LIMITED or QUOTA_LIMITED. Every answer of a limited server
//     carries X-RateLimit-Limit, -Policy, -Remaining and -Reset for the
//     plan's two windows ("1, 2000", "1;w=1, 2000;w=2592000"); only
//     successful requests count.
//   - Google Custom Search JSON API, GET /customsearch/v1
//     (www.googleapis.com): key, cx, q, start, num (1 to 10, start+num-1
//     at most 100); items[] (title, htmlTitle, link, displayLink, snippet,
//     htmlSnippet), queries.request/nextPage/previousPage,
//     searchInformation.totalResults (a decimal string). Errors are Google
//     API error objects: 403 PERMISSION_DENIED without a key, 400
//     INVALID_ARGUMENT, 429 RESOURCE_EXHAUSTED (reason rateLimitExceeded,
//     "Queries per minute per user" or "Queries per day", with an
//     ErrorInfo detail naming the quota_limit, DefaultPerMinutePerUser or
//     DefaultPerDayPerProject, as recorded). Words past the 32nd are
//     ignored.
//   - Mojeek, GET /search (api.mojeek.com): api_key, q, fmt=json, s (1
//     first), t; response.status, response.head (query, words with their
//     document counts, start, return, results: the total) and
//     response.results[] (url, title, desc). A spent daily limit is
//     status "ERROR: Daily Limit Reached" with HTTP 200.
//   - Marginalia, GET /search (api2.marginalia-search.com): key in API-Key
//     ("public" shares one limit), query, count (1 to 100, default 20),
//     page (1 first), dc (results of one host at most, 1 to 100, default
//     2); license, query, page, results[] (url, title, description), and
//     the headers API-Event-Type (UnderLimit) and
//     API-Remaining-Daily-Capacity. A spent limit is 429 without
//     Retry-After, as its API server answers (ApiV2): "QPM Limit
//     Exceeded" for the minute's, "Daily Limit Exceeded" with
//     API-Event-Type OverLimitBlock and API-Remaining-Daily-Capacity 0 for
//     the day's.
//   - SearXNG, GET or POST {base}/search (searxng.localweb.test): q,
//     format (json or html; csv and rss are 403, as on an instance without
//     them), pageno; results[] (url, title, content, engine, score, ...)
//     ten a page, unresponsive_engines empty, no number_of_results (SearXNG
//     dropped it in 2026.5.29). Its limiter (searx/limiter.py) is on unless
//     relaxed: a request whose User-Agent matches the bot expression, whose
//     Accept lacks text/html, whose Accept-Encoding lacks gzip and deflate,
//     or without Accept-Language is answered 429 "Too Many Requests", and
//     so is one past 15 in 20 s, 150 in 10 min or, for formats other than
//     html, 4 an hour from one address (botdetection/ip_limit.py).
//   - Wayback, with an archive: GET /cdx/search/cdx (web.archive.org) with
//     url, matchType (or the * forms), output=json (an array of rows,
//     the field names first, [] for none), fl, filter ([!]field:regex,
//     matched whole), collapse (field[:N], adjacent rows), limit (negative
//     for the last), offset, from, to; the fields urlkey (SURT, as
//     canon.SURT writes it), timestamp, original, mimetype, statuscode,
//     digest (base 32 SHA-1 of the payload) and length (of the capture's
//     gzipped WARC record). GET /web/<timestamp>id_/<original> replays a
//     capture raw with Memento-Datetime; another timestamp is redirected
//     (302) to the capture's; a redirect capture answers 301 with its
//     Location inside the archive and X-Archive-Orig-Location. GET
//     /wayback/available (archive.org) answers the availability API. The
//     CDX API allows 24 requests a minute from an address and answers 429
//     past it.
//   - Common Crawl, with an archive: GET /collinfo.json
//     (index.commoncrawl.org) lists one collection (id CC-MAIN-YYYY-WW of
//     the archive's time, name, timegate, cdx-api, from, to); GET
//     /<id>-index answers pywb's CDX API: output=json gives JSON lines with
//     urlkey, timestamp, url, mime, mime-detected, status, digest, length,
//     offset, filename and encoding, otherwise CDXJ lines; filter
//     ([!][=|~]field:value), fl, limit, matchType, page and showNumPages;
//     404 {"message": "No Captures found for: ..."} when nothing matches.
//     GET /crawl-data/... (data.commoncrawl.org) serves the WARC files the
//     rows name: every page of the archive captured once, a hundred
//     records a file, each one gzip member holding a WARC response record
//     written with provider/warc; Range: bytes=offset-(offset+length-1)
//     answers 206 with that record alone. The index answers 503 past 1
//     request a second from an address, the data front 503 SlowDown (an S3
//     error document) past 10.
//   - MediaWiki, GET or POST /w/api.php (en.wikipedia.org) with
//     action=query&list=exturlusage&format=json: the pages citing a URL, as
//     the store's links say, from the pages of sites whose host or name
//     holds "wiki" (all pages when there are none). euquery matches as
//     Special:LinkSearch does (a host, *. for it and its subdomains, and a
//     path prefix); euprotocol empty means http and https; eulimit 1 to
//     500 or max (10 by default; more is cut with a warning); eucontinue;
//     euprop; formatversion 1 or 2. Errors are MediaWiki error objects
//     with HTTP 200 and MediaWiki-API-Error; maxlag answers the maxlag
//     error (Retry-After, X-Database-Lag) when Options.WikiLag exceeds it
//     (a maxlag of -1 always does). Anonymous requests past 500 an hour
//     from an address get 429 with Retry-After.
//
// Search runs the store's full-text search (store.Search, conjunctive)
// with the query syntax relink's clients send: terms, "quoted phrases",
// OR between terms; a query that mixes AND and OR runs as the
// conjunctions of its choices (at most MaxExpansions), merged by score.
// Titles are the store's; snippets are SnippetWords words of the page
// around the first query word.
//
// # Rate limits
//
// The limits above are on by default (DefaultLimits, Options.Limits) and
// all off with Options.Relaxed. Where a service documents no number
// (Mojeek's daily limit depends on the plan, Marginalia's a minute and Common
// Crawl's are unpublished), the package chooses one and says so at the
// Limits field.
//
// # What it does not do
//
// It resolves no names and reaches nothing outside the stores: a host the
// store does not hold answers 404. It serves HTTP/1.1 only (inside tunnels
// too), does not rewrite archived pages for browsing (every replay is raw),
// does not block addresses that ignore 429s (the Wayback Machine does), and
// reads euquery, filters and queries as documented but not every operator
// of every engine (-word and site: are read as words).
package localweb
