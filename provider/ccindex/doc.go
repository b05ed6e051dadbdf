// Package ccindex finds a missing page in Common Crawl: it asks the Common
// Crawl index server (index.commoncrawl.org) which crawls captured a URI,
// and reads a capture's WARC record by an HTTP range request from
// data.commoncrawl.org, so that the page's last good capture (2xx HTML)
// can stand in for it, as package wayback's does. A Client is a
// filter.Fetcher.
//
//	c := &ccindex.Client{}
//	page, err := c.LastGood(ctx, "http://example.com/old/page.html")
//	// page.Body: the HTML as crawled; page.Header.Get("Memento-Datetime"): when
//
// # The services
//
// Collections reads collinfo.json, the list of the crawls the index
// serves, newest first: {"id": "CC-MAIN-2025-43", "name", "timegate",
// "cdx-api", "from", "to"}. Captures asks one crawl's CDX API, a pywb CDX
// server (API-compatible with pywb 0.33), at IndexURL/<id>-index?url=
// <uri>&output=json, whose answer is JSON lines, one object of strings per
// capture: urlkey, timestamp (14 digits), url, mime, mime-detected,
// status, digest, length, offset, filename, and languages, encoding or
// charset, redirect where known. A crawl that holds no capture of the URI
// answers 404 with {"message": "No Captures found for: <uri>"}, which is
// no error here but an empty answer. A line that cannot be a capture is
// skipped (and given to the caller's OnSkip), not the end of the answer.
//
// Read fetches a capture: length bytes at offset of the file filename
// under DataURL, by a request with "Range: bytes=<offset>-<offset+length
// -1>", which is one gzip member holding one WARC response record; package
// warc reads it and replays its HTTP response (chunked and gzip codings
// undone).
//
// Redirects lists a URI's redirect captures (3xx with a redirect field)
// in the newest crawl that captured it, from the index alone: where the
// page led when it was last crawled, a strong hint of where it went.
//
// # Politeness
//
// Common Crawl asks that its index server not be overloaded: it serves
// about 100,000 lookups an hour for everyone, limits the requests of an
// address, answers 503 when it is overloaded and stops answering an
// address that does not slow down then (its staff in
// commoncrawl/cc-index-server issues 15 and 16, and to waymore's
// maintainer). A Client sends at most DefaultRate index requests a second
// and DefaultDataRate range requests (separately), backs off after 503s,
// pauses every request a minute after a 429 and stops for good at a second
// in a row (ErrStopped). LastGood asks at most MaxCollections crawls, one
// request each, newest first, and reads one capture.
//
// # Errors
//
// Every method returns an *Error naming the operation and URI. ErrNoCapture
// means no crawl asked holds a good capture; ErrMalformed an answer that is
// not the documented format (collinfo.json that is not a list, a CDX
// answer with no usable line, a range that is not one WARC record of the
// capture); ErrRateLimited, ErrStopped, ErrTimeout, ErrTooLarge and
// *StatusError come from the HTTP layer shared by relink's web API
// clients.
//
// # What the caller must do
//
// Use one Client for a whole run, so that its rate limits hold across
// goroutines, and give each call a context. Expect seconds per call.
//
// # What it does not do
//
// It does not use the paged index (showNumPages), the columnar index
// (Athena) or S3, query by prefix or domain, read WAT or WET files (see
// package commoncrawl for WAT link records), or cache answers. It talks
// only to IndexURL and DataURL: the cdx-api URLs and file names in the
// answers are never followed to another host.
package ccindex
