// Package wayback asks the Internet Archive's Wayback Machine about the past
// of a URI: which captures it holds (the CDX API), which capture is closest
// to a time (the availability API), what the page looked like when it was
// last captured in good health (a raw replay), and where it redirected.
// For a missing page, the last good capture gives the title and content that
// relink's title and content-signature methods need; its redirects may say
// where it went.
//
//	c := &wayback.Client{}
//	page, err := c.LastGood(ctx, "http://example.com/old/page.html")
//	// page.URI is the original URI; page.Body the HTML as captured;
//	// page.Header.Get("Memento-Datetime") when, and
//	// page.Header.Get("Content-Location") where in the archive.
//
// # The APIs
//
// Captures queries the CDX API (BaseURL/cdx/search/cdx?url=URI&output=json):
// its JSON answer is an array of rows of strings, the first row naming the
// fields (urlkey, timestamp, original, mimetype, statuscode, digest,
// length), and an empty array when there are none. Query sets the from and
// to bounds, filters ("statuscode:200", "!mimetype:warc/revisit"), collapse
// ("digest") and limit (negative for the latest captures).
//
// Available asks the availability API (archive.org/wayback/available?url=
// URI&timestamp=T) whose answer is {"archived_snapshots": {"closest":
// {"available", "url", "timestamp", "status"}}}, with no closest when there
// is no capture.
//
// LastGood (and Fetch, with which a Client is a filter.Fetcher) asks the CDX
// API for the latest capture with a 2xx status and an HTML media type and
// fetches it raw, in the id_ replay form BaseURL/web/<timestamp>id_/<original>,
// which gives the bytes as captured without the archive's banner or
// rewritten links. The Page's URI is the original URI; its header holds the
// capture time (Memento-Datetime, an HTTP date, as in RFC 7089) and the
// replay URL read (Content-Location).
//
// Redirects lists the captures with a 3xx status and follows each: the raw
// replay of a redirect capture answers with its redirect, whose Location
// (or X-Archive-Orig-Location, where the archive keeps the captured header)
// names the target, possibly rewritten into the archive's own replay URL,
// from which the original target is taken. The chain is followed through
// the archive's captures of each target near the same time, at most
// MaxHops hops, and a chain that returns to a URI it passed is marked as a
// loop.
//
// # Errors
//
// Every method returns an *Error naming the operation and URI. ErrNoCapture
// means the archive holds nothing that fits; ErrMalformed an answer not in
// the documented format (an HTML error page, a CDX header without a
// timestamp field); ErrRateLimited, ErrStopped, ErrTimeout, ErrTooLarge and
// *StatusError come from the HTTP layer shared by relink's web API clients,
// which retries 5xx answers, bounds each request's time and body, and keeps
// to the archive's limits.
//
// # Politeness
//
// The Wayback Machine allows an address 30 CDX (and TimeMap) requests a
// minute and 600 replays a minute, answers 429 beyond, and blocks at its
// firewall, for an hour and then twice as long each time, an address that
// goes on sending for more than a minute after its 429s (its staff,
// quoted in edgi-govdata-archiving/wayback issue 137; the limits as that
// client states them in v0.5.1). A Client keeps to 80% of each limit
// (DefaultRate for CDX and availability, DefaultReplayRate for replays,
// each with its own limiter). After a 429, which names no wait, every
// request of that kind waits RateLimitPause (a minute); a second 429 in a
// row stops it for good, and every later call fails at once with
// ErrStopped, without a request.
//
// A CDX row that cannot be a capture (the index holds timestamps such as
// "20000012170449") is skipped and given to Query.OnSkip as a *RowError;
// only an answer whose every row is bad is an error. The Wayback Machine
// sends Memento-Datetime with every replay of a capture and with none of
// its own answers, so the header tells the two apart. A replay that
// answers 429 or 5xx without it is the archive failing, an error wrapping
// a *StatusError; one with it is an archived error page, returned at once
// as a Page with its status, never retried. A redirect with it is a
// captured redirect, the answer (what Redirects reports); one without it
// is the archive's own redirect to the capture nearest a timestamp, which
// a Client follows when it replays the same resource (the same URI but
// for its scheme and a www. label) and otherwise returns unfollowed, never
// as a hop of Redirects.
//
// # What the caller must do
//
// Use one Client for a whole run, so that its rate limit holds across
// goroutines, and give each call a context. Expect calls to be slow: the
// Wayback Machine takes seconds to answer a CDX query, and Redirects makes a
// request per hop.
//
// # What it does not do
//
// It does not save pages to the archive (Save Page Now), page through
// results with resumption keys or the pagination API, resolve revisit
// records itself (the archive's replay does), query by prefix, host or
// domain, or cache answers. It trusts the archive's replay of a capture: it
// does not check the capture's digest. It talks only to BaseURL and
// AvailabilityURL: a redirect capture's target is recorded, never fetched
// from the live web, and a replay's redirect is read, not followed: the
// next request is built on BaseURL. So no answer can make a Client connect
// to another host, private or not.
package wayback
