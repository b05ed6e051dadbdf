// Package memento asks a Memento aggregator which web archives hold copies
// (mementos, RFC 7089) of a URI, across archives, and fetches the latest
// of them that shows the page as it was, so that a missing page's last
// good archived copy can stand in for it: its title and content feed
// relink's title and content-signature methods.
//
//	c := &memento.Client{BaseURL: memento.LocalMemGator}
//	m, err := c.Last(ctx, "http://example.com/old/page.html")
//	// m.Time: when; m.URIs: where
//	page, err := c.Fetch(ctx, "http://example.com/old/page.html")
//	// page.Body: the latest 2xx HTML memento, raw where the archive allows it
//
// # The aggregator
//
// The Memento project's public aggregator, the Time Travel service
// (timetravel.mementoweb.org), which this package used by default, was
// shut down in 2025. Its successor is MemGator (github.com/oduwsdl/
// MemGator), an aggregator one runs oneself ("memgator server", or the
// Docker image oduwsdl/memgator), by default at LocalMemGator. A Client
// has no default: BaseURL is required, and a Client without it fails with
// ErrNoBaseURL, which says what to run.
//
// # The API
//
// Lookup asks BaseURL/api/json/<YYYYMMDDhhmmss>/<uri>, which MemGator
// serves as an alias of its /memento/json/ for Time Travel's clients. Its
// JSON answer names the original URI (original_uri), the mementos around
// the datetime (mementos.first, last, prev, next and closest, each with an
// RFC 3339 datetime and a URI-M: one string with MemGator, a list of one
// per archive with Time Travel; both are read), the TimeGate
// (timegate_uri) and the TimeMaps (timemap_uri.json_format and
// link_format). TimeMap asks MemGator's BaseURL/timemap/json/<uri> for
// every memento (mementos.list). MemGator answers 404 Not Found when no
// archive holds the URI, and 400 for a malformed request; the first is
// ErrNoMemento. Datetimes are read as RFC 3339 ("2013-01-15T10:19:13Z"),
// as MemGator writes them, or as HTTP dates or 14-digit timestamps.
//
// MemGator asks every archive it knows at once and answers when the last
// has answered or timed out: up to 60 seconds each (its --restimeout,
// with 30 s for the headers, --hdrtimeout). A Client so gives each
// request of the service DefaultTimeout, 90 s, rather than cut the answer
// short and send the whole fan-out again.
//
// # The latest good memento
//
// A TimeMap names no statuses, and the memento an aggregator names last
// is, for a page that died, usually the archived 404 (archives go on
// capturing a dead URI). Fetch so reads the TimeMap and fetches its
// mementos newest first, at most MaxTries, until one is a 2xx HTML page;
// a memento dated in the future (an archive's error) is skipped.
//
// # Raw mementos
//
// Archives show mementos with a banner and with links rewritten to point
// into the archive, which would add words the page never had. Fetch asks
// for the raw memento where the archive has one: RawURI turns the URI-M of
// an archive that runs the Wayback software or pywb
// (.../<timestamp>/<original>) into its id_ form. Other archives' mementos
// are fetched as they are.
//
// # Errors
//
// Every method returns an *Error naming the operation and URI. ErrNoMemento
// means no archive holds the URI; ErrMalformed an answer not in the
// documented format; ErrNoBaseURL a Client without BaseURL;
// ErrRateLimited, ErrTimeout, ErrTooLarge and
// *StatusError come from the HTTP layer shared by relink's web API clients,
// which retries 429 and 5xx answers (honouring Retry-After), bounds each
// request's time and body, and keeps to a rate (one request a second by
// default).
//
// # What the caller must do
//
// Use one Client for a whole run and give each call a context. Expect
// seconds per lookup: the service asks the archives it aggregates.
//
// # Private addresses
//
// The URI-Ms a lookup returns are the service's answer, not the caller's
// choice, so Fetch never fetches one through an unguarded connection: by
// default Pages is a *web.Client that refuses private, loopback and
// link-local addresses, for the URI-M and for every redirect from it, as
// each connection is made; the error wraps ErrPrivateAddress. The service
// at BaseURL is the caller's choice and is reached wherever it is, but its
// redirects to another host are not followed (ErrOffsiteRedirect).
// AllowPrivate is the only way around both: set it for an archive on the
// local network, or in tests, where every httptest server is on loopback.
// A Pages of the caller's keeps its own rules.
//
// # What it does not do
//
// It does not negotiate with TimeGates (Accept-Datetime), read the link or
// CDXJ forms of TimeMaps, say which archive is which, or cache answers.
// For the Internet Archive alone, with its capture index and redirects,
// use package wayback.
package memento
