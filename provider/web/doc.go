// Package web fetches pages from the live web for relink: a Client is a
// filter.Fetcher that behaves as a polite, careful crawler, for the
// backlink pages the paper downloaded (§3.1) and the soft 404 probes of
// filter.Filters.
//
//	c := &web.Client{}                      // the defaults below
//	page, err := c.Fetch(ctx, "https://example.com/old/page.html")
//	// err != nil: no answer at all (or robots.txt forbids it)
//	// page.Status may be anything: a 404 is a Page, not an error
//
// # What a Client does
//
// Retries: up to five attempts per URI, as in the paper (§3.1 "HTTP Status
// Codes"), after network errors, timeouts, cut bodies and the answers 408,
// 429 and 5xx (but 501 and 505, which say "never"), with exponential backoff and jitter (1 s, 2 s, 4 s, 8 s, at
// most 30 s), or the wait a Retry-After header asks for (at most a
// minute). When every attempt fails, the last answer is returned as a Page
// with its status; when there was none, an error.
//
// Politeness: by default one request at a time and one request per second
// to each host, any number of hosts in parallel. robots.txt is obeyed
// (RFC 9309) for the product token of the User-Agent, "relink" by
// default: fetched once per origin and kept for a day; a robots.txt that
// answers 4xx allows everything, one that answers 5xx or 429, or cannot be
// reached after every attempt, disallows everything for ten minutes. A
// Crawl-delay slower than the Client's rate is honoured. A refused URI is
// an error wrapping ErrDisallowed, not a Page: no request was made.
//
// Bounds: 10 s to connect, 10 s for a TLS handshake, 20 s for the response
// header and 30 s for a whole request, so a server that never answers or
// trickles its body ends by the deadline; at most 10 redirects (then
// ErrTooManyRedirects); at most 10 MiB of body after decompression, so a
// 129.8 MB page (the paper's largest, §3.1 "File size") or a decompression
// bomb is cut, and the cut Page is marked with the header TruncatedHeader
// ("X-Relink-Truncated: true"). A cut page is still a Page because the
// filters must still judge it: 10 MiB of HTML is more than enough to tell
// its language, size and type.
//
// Safety: by default no connection is made to a private, loopback,
// link-local, unspecified or otherwise non-public address, checked on
// every address a name resolves to at the moment of connecting, so that a
// link or redirect to http://169.254.169.254/ or a DNS answer that changes
// between lookups cannot reach the crawler's own network
// (ErrPrivateAddress). Programs that fetch from their own machine, and
// tests against httptest servers, set AllowPrivate.
//
// Proxies: Client.Proxy sends requests through an HTTP proxy (plain
// requests for http, CONNECT for https), and Client.RootCAs trusts the
// certificate authorities a program names instead of the system's, such as
// those of a test proxy that answers for real hosts (relink's lab serves a
// store as the web this way). The proxy's own address may be anywhere, a
// loopback port included, since the program chose it; the hosts of the
// pages stay guarded: a request through a proxy to localhost, a name below
// it or a non-public IP address is refused before it is sent
// (ErrPrivateAddress). The proxy resolves names, so a name that resolves
// to a private address is the proxy's to refuse.
//
// Bodies: only gzip and deflate are asked for (Accept-Encoding), and they
// are undone; the bytes are otherwise kept exactly as received. The charset
// is not decoded: Page.Header carries the Content-Type, and package backlink
// decodes the bytes when it renders them (header, BOM, meta, detection).
// Decoding here too would decode twice.
//
// # What the caller must do
//
// Use one Client for a whole crawl, so that the per-host limits and the
// robots.txt cache hold across goroutines; set its fields before the first
// Fetch. Give each Fetch a context: it bounds the waits for the rate limit
// and between attempts, which Timeout does not. Call CloseIdleConnections
// when done. Treat errors.Is(err, ErrDisallowed) as "not ours to fetch",
// not as a broken link.
//
// # What it does not do
//
// It sends GET only, keeps no cookies, runs no scripts and reads no
// environment variables or proxy settings (Proxy names the proxy). It
// does not decode brotli or zstd (the standard library has neither, so it
// does not ask for them). It does not cache pages, canonicalize URIs
// (package canon does) or judge pages (package filter does). Its per-host
// state lives in one process; crawlers sharing a host across machines must
// coordinate their rates themselves.
package web
