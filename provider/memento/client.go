package memento

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/internal/apiclient"
	"github.com/linkrot/relink/provider/wayback"
	"github.com/linkrot/relink/provider/web"
)

// Defaults of the Client fields.
const (
	// LocalMemGator is where a MemGator server listens when started with
	// its defaults ("memgator server": host localhost, port 1208), the
	// address to give as Client.BaseURL for one run on the same machine.
	// It is no default: a Client needs a BaseURL.
	LocalMemGator = "http://localhost:1208"
	// DefaultRate is how many requests per second a Client starts: one.
	DefaultRate rate.Limit = 1
	// DefaultTimeout bounds one attempt of a request to the service: 90
	// seconds. MemGator asks every archive at once and answers when the
	// last has answered or timed out, after up to 60 s for each (its
	// --restimeout; 30 s for the headers, --hdrtimeout; 5 s to connect):
	// a shorter timeout cuts an answer on its way and sends the whole
	// fan-out again.
	DefaultTimeout = 90 * time.Second
	// DefaultMaxTries is how many mementos Fetch reads at most, newest
	// first, looking for one that is a 2xx HTML page.
	DefaultMaxTries = 10
)

// Errors of the answers, the same values relink's other web API clients
// return, so that one errors.Is check covers them all.
var (
	// ErrRateLimited means the service answered 429 Too Many Requests on
	// every attempt.
	ErrRateLimited = apiclient.ErrRateLimited
	// ErrMalformed means an answer that is not what the API documents:
	// not JSON (an HTML error page, binary bytes, a cut body), or JSON of
	// another shape (a memento without a datetime or a URI).
	ErrMalformed = apiclient.ErrMalformed
	// ErrTimeout means a request took longer than Client.Timeout.
	ErrTimeout = apiclient.ErrTimeout
	// ErrTooLarge means an API answer longer than Client.MaxBody.
	ErrTooLarge = apiclient.ErrTooLarge
	// ErrTooManyRedirects means the service redirected a lookup more than
	// ten times (a loop, say). A memento's redirects are Pages' to follow:
	// the Client's own fetcher fails with web.ErrTooManyRedirects.
	ErrTooManyRedirects = apiclient.ErrTooManyRedirects
)

// StatusError is the cause of an error when the final answer to an API
// request was not 2xx (nor the 404 that means no memento): it carries the
// status, any Retry-After wait, and a snippet of the body. Match it with
// errors.As.
type StatusError = apiclient.StatusError

// Errors of this package, matchable with errors.Is.
var (
	// ErrNoMemento means no archive the service knows holds a memento of
	// the URI (the API answers 404 Not Found). It is the value
	// wayback.ErrNoCapture and ccindex.ErrNoCapture are, so that one
	// errors.Is check covers every archive; its message is "no capture".
	ErrNoMemento = apiclient.ErrNoCapture
	// ErrBadURI means the URI asked about is not an absolute http or https
	// URI; wayback.ErrBadURI and ccindex.ErrBadURI are the same value.
	ErrBadURI = apiclient.ErrBadURI
	// ErrNoBaseURL means the Client has no BaseURL. There is no public
	// aggregator to fall back on: the Memento project's Time Travel
	// service (timetravel.mementoweb.org), this package's default before,
	// was shut down in 2025. Run MemGator (github.com/oduwsdl/MemGator,
	// "memgator server", or its Docker image oduwsdl/memgator) and set
	// BaseURL to its address, such as LocalMemGator.
	ErrNoBaseURL = errors.New("memento: no aggregator URL (the Memento Time Travel service shut down in 2025; run MemGator, github.com/oduwsdl/MemGator, and set BaseURL, e.g. to " + LocalMemGator + ")")
	// ErrOffsiteRedirect means the service answered a lookup with a
	// redirect to another host, which the Client does not follow unless
	// AllowPrivate is set: it cannot know where that host leads before it
	// connects.
	ErrOffsiteRedirect = errors.New("memento: service redirected to another host")
)

// ErrPrivateAddress means a memento's URI-M, or a redirect from it, led to
// a private, loopback, link-local or other non-public address, which the
// Client refuses unless AllowPrivate is set. It is provider/web's value, so
// that one errors.Is check covers both packages.
var ErrPrivateAddress = web.ErrPrivateAddress

// Error is the error every method returns, the type provider/wayback and
// provider/ccindex return too (match it with errors.As): the Archive
// ("memento"), the Op ("lookup", "timemap" or "fetch"), the URI asked
// about, and the cause Err, which errors.Is and errors.As see through it:
// ErrNoMemento, ErrBadURI, an error wrapping ErrMalformed, or the error of
// a request (which wraps ErrRateLimited, ErrTimeout, a *StatusError, a
// network error or the context's error). Its message is
// "memento: OP URI: CAUSE".
type Error = apiclient.ArchiveError

// opError returns the *Error of the operation op on uri.
func opError(op, uri string, err error) error {
	return &Error{Archive: "memento", Op: op, URI: uri, Err: err}
}

// Client asks a Memento aggregator (MemGator) which archives hold mementos
// (archived copies) of a URI, and fetches them. The zero value has the
// defaults named in the field comments but no BaseURL, which it needs.
//
// A Client is safe for concurrent use by many goroutines, which then share
// its rate limit. Set the fields before the first request and do not change
// or copy the Client afterwards.
type Client struct {
	// BaseURL is the aggregator's address: a MemGator server (such as
	// LocalMemGator), or another service with the Time Travel API at
	// BaseURL/api/json/ (MemGator serves it too), with any path prefix
	// (MemGator's --root) and without a trailing slash. Required: a
	// Client without it fails every call with ErrNoBaseURL. Tests point
	// it at an httptest server.
	BaseURL string

	// Pages fetches mementos from the archives that hold them. Nil means a
	// *web.Client of the Client's own, built from UserAgent, Rate, Burst,
	// Attempts, Backoff, Timeout, MaxBody and AllowPrivate: it refuses
	// private and loopback addresses (unless AllowPrivate) for the URI-M
	// and for every redirect from it, checked as each connection is made,
	// and it does not read the archives' robots.txt, as the Client did not
	// before it had Pages. A Pages of the caller's keeps out of private
	// networks only if it does so itself (a *web.Client does unless its own
	// AllowPrivate is set); AllowPrivate has no effect on it.
	Pages filter.Fetcher

	// AllowPrivate lets the Client reach private (RFC 1918, RFC 4193),
	// loopback, link-local and the other non-public addresses that
	// web.Client.AllowPrivate lists, when it fetches a memento and when it
	// follows the service's redirects. By default it refuses them: the
	// URI-Ms come from the service's answer, not from the caller, and an
	// answer naming an internal address must not make the Client fetch it
	// (the error wraps ErrPrivateAddress). BaseURL itself is never
	// checked, since the caller chose it (a MemGator server on the
	// local network, or an httptest server in tests, works without
	// AllowPrivate); but a redirect of the service to another host is not
	// followed without AllowPrivate (ErrOffsiteRedirect), because where a
	// host leads is known only when the connection is made.
	AllowPrivate bool

	// HTTP carries the requests to the service (BaseURL); nil means a
	// client of the Client's own that uses no proxy. Its CheckRedirect is
	// replaced: the Client follows at most ten redirects of the service,
	// within its host unless AllowPrivate is set. Mementos never go
	// through HTTP but through Pages, so that no Transport can bypass the
	// private-address guard.
	HTTP *http.Client
	// UserAgent is sent with every request; empty means relink's (that of
	// provider/web).
	UserAgent string
	// Rate is how many requests per second may start to the service, and
	// to each archive when Pages is nil, Burst how many at once after a
	// quiet spell. Zero or less means DefaultRate (1/s) and a burst of 1;
	// rate.Inf turns the limit off.
	Rate  rate.Limit
	Burst int
	// Attempts is how many times a request is tried after network errors,
	// timeouts, 429 and 5xx answers; zero or less means five, and 1 turns
	// retries off. Backoff is the wait before the second attempt, doubled
	// before each later one (zero or less means one second); a Retry-After
	// header replaces it, up to a minute.
	Attempts int
	Backoff  time.Duration
	// Timeout bounds one attempt, from connecting to the last byte of the
	// body. Zero or less means DefaultTimeout (90 s) for the service,
	// which asks many archives before it answers and so can take a
	// minute, and provider/web's default (30 s) for a memento.
	Timeout time.Duration
	// MaxBody caps the bytes read of an answer; zero or less means 10 MiB.
	// An API answer that is longer is an error wrapping ErrTooLarge; a
	// memento that is longer is cut, and its Page is marked with the header
	// web.TruncatedHeader.
	MaxBody int64
	// MaxTries is how many mementos Fetch reads at most, newest first,
	// looking for a 2xx HTML one; zero or less means DefaultMaxTries.
	MaxTries int

	once  sync.Once
	api   *apiclient.Client
	pages filter.Fetcher // Pages, or the guarded *web.Client made for it
	own   *web.Client    // the Client's own fetcher of mementos, or nil
}

var _ filter.Fetcher = (*Client)(nil)

// maxServiceRedirects is how many redirects of the service one lookup
// follows, as many as net/http's own client.
const maxServiceRedirects = 10

// client returns the HTTP layer, built from c's fields on first use, and
// the fetcher of mementos.
func (c *Client) client() *apiclient.Client {
	c.once.Do(func() {
		r := c.Rate
		if r <= 0 {
			r = DefaultRate
		}
		hc := &http.Client{}
		if c.HTTP != nil {
			h := *c.HTTP
			hc = &h
		}
		hc.CheckRedirect = c.checkRedirect
		timeout := c.Timeout
		if timeout <= 0 {
			timeout = DefaultTimeout
		}
		c.api = &apiclient.Client{
			Service: "memento",
			Transport: apiclient.Transport{
				HTTP:      hc,
				UserAgent: c.UserAgent,
				Rate:      r,
				Burst:     c.Burst,
				Attempts:  c.Attempts,
				Backoff:   c.Backoff,
				Timeout:   timeout,
				// Another host is followed only when private addresses are
				// allowed; the service's answer then says where it went.
				CrossHostRedirects: c.AllowPrivate,
			},
			MaxBody: c.MaxBody,
		}
		c.pages = c.Pages
		if c.pages == nil {
			c.own = &web.Client{
				UserAgent:    c.UserAgent,
				Attempts:     c.Attempts,
				Backoff:      c.Backoff,
				Timeout:      c.Timeout,
				MaxBody:      c.MaxBody,
				Rate:         r,
				Burst:        c.Burst,
				IgnoreRobots: true,
				AllowPrivate: c.AllowPrivate,
			}
			c.pages = c.own
		}
	})
	return c.api
}

// checkRedirect is the CheckRedirect of the service's requests: at most
// maxServiceRedirects redirects, and none to another host (scheme and
// port may change) unless AllowPrivate is set. A redirect not followed is
// the answer, which lookup turns into ErrOffsiteRedirect.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > maxServiceRedirects {
		return fmt.Errorf("%w (%d)", ErrTooManyRedirects, maxServiceRedirects)
	}
	if !c.AllowPrivate && !strings.EqualFold(req.URL.Hostname(), via[0].URL.Hostname()) {
		return http.ErrUseLastResponse
	}
	return nil
}

// CloseIdleConnections closes the connections kept open for later requests.
func (c *Client) CloseIdleConnections() {
	c.client().CloseIdleConnections()
	if c.own != nil {
		c.own.CloseIdleConnections()
	}
}

// base returns BaseURL without a trailing slash, after checking that it
// is an absolute http(s) URL.
func (c *Client) base() (string, error) {
	if c.BaseURL == "" {
		return "", ErrNoBaseURL
	}
	if _, err := apiclient.ParseBaseURL("memento", c.BaseURL, ""); err != nil {
		return "", err
	}
	return strings.TrimRight(c.BaseURL, "/"), nil
}

// Memento is one moment in a URI's past as the archives hold it.
type Memento struct {
	// Time is the memento's archival datetime, in UTC.
	Time time.Time
	// URIs are the addresses of the mementos of that datetime (URI-Ms),
	// one per archive that holds one, in the service's order.
	URIs []string
}

// Mementos is the aggregator's answer for a URI and a datetime:
// the mementos around it, across archives. A field is nil when the service
// names none (there is no Prev before the first memento).
type Mementos struct {
	// Original is the URI asked about (URI-R), as the service names it.
	Original string
	// First and Last are the earliest and latest mementos.
	First, Last *Memento
	// Prev and Next are the mementos just before and after Closest.
	Prev, Next *Memento
	// Closest is the memento closest to the datetime asked for.
	Closest *Memento
	// TimeGate is the service's TimeGate for the URI (RFC 7089), empty
	// when it names none.
	TimeGate string
	// TimeMapJSON and TimeMapLink are the URI's TimeMap in JSON and in
	// link format, empty when the service names none.
	TimeMapJSON, TimeMapLink string
}

// jsonAnswer is the JSON answer of the API.
type jsonAnswer struct {
	OriginalURI string `json:"original_uri"`
	Mementos    *struct {
		First   *jsonMemento `json:"first"`
		Last    *jsonMemento `json:"last"`
		Prev    *jsonMemento `json:"prev"`
		Next    *jsonMemento `json:"next"`
		Closest *jsonMemento `json:"closest"`
	} `json:"mementos"`
	TimeGateURI string `json:"timegate_uri"`
	TimeMapURI  struct {
		JSONFormat string `json:"json_format"`
		LinkFormat string `json:"link_format"`
	} `json:"timemap_uri"`
}

// jsonMemento is one memento of the JSON answer.
type jsonMemento struct {
	Datetime string  `json:"datetime"`
	URI      uriList `json:"uri"`
}

// uriList is the "uri" of a memento: a list of strings, or one string.
type uriList []string

// UnmarshalJSON accepts a JSON array of strings or a single string.
func (l *uriList) UnmarshalJSON(data []byte) error {
	var one string
	if err := json.Unmarshal(data, &one); err == nil {
		*l = uriList{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(data, &many); err != nil {
		return err
	}
	*l = many
	return nil
}

// Lookup asks the aggregator for the mementos of uri around at (a zero at
// means now), with the JSON API BaseURL/api/json/<YYYYMMDDhhmmss>/<uri>
// that MemGator serves as an alias of its /memento/json/ and Time Travel
// served. A URI no archive holds gives an *Error wrapping ErrNoMemento.
// Errors are *Error values, with Op "lookup".
func (c *Client) Lookup(ctx context.Context, uri string, at time.Time) (*Mementos, error) {
	m, err := c.lookup(ctx, uri, at)
	if err != nil {
		return nil, opError("lookup", uri, err)
	}
	return m, nil
}

// lookup is Lookup without the *Error.
func (c *Client) lookup(ctx context.Context, uri string, at time.Time) (*Mementos, error) {
	uri, err := checkURI(uri)
	if err != nil {
		return nil, err
	}
	if at.IsZero() {
		at = time.Now()
	}
	var a jsonAnswer
	if err := c.getJSON(ctx, "/api/json/"+wayback.Timestamp(at)+"/"+uri, &a); err != nil {
		return nil, err
	}
	return a.convert(uri)
}

// getJSON asks the service for path (after BaseURL) and decodes its JSON
// answer into v. A 404 is ErrNoMemento: MemGator answers it ("404 page
// not found") when no archive holds the URI, as Time Travel did.
func (c *Client) getJSON(ctx context.Context, path string, v any) error {
	base, err := c.base()
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrBadURI, err)
	}
	if err := c.client().GetJSON(ctx, req, v); err != nil {
		var se *StatusError
		switch {
		case errors.As(err, &se) && se.Status == http.StatusNotFound:
			return ErrNoMemento
		case se != nil && filter.IsRedirect(se.Status) && se.Header.Get("Location") != "":
			return fmt.Errorf("%w: %s", ErrOffsiteRedirect, se.Header.Get("Location"))
		case errors.Is(err, apiclient.ErrRedirectRefused):
			return fmt.Errorf("%w: %w", ErrOffsiteRedirect, err)
		}
		return err
	}
	return nil
}

// convert checks the answer a to a lookup of uri and returns its mementos.
func (a *jsonAnswer) convert(uri string) (*Mementos, error) {
	if a.Mementos == nil {
		return nil, ErrNoMemento
	}
	m := &Mementos{
		Original:    a.OriginalURI,
		TimeGate:    a.TimeGateURI,
		TimeMapJSON: a.TimeMapURI.JSONFormat,
		TimeMapLink: a.TimeMapURI.LinkFormat,
	}
	if m.Original == "" {
		m.Original = uri
	}
	for _, f := range []struct {
		name string
		in   *jsonMemento
		out  **Memento
	}{
		{"first", a.Mementos.First, &m.First},
		{"last", a.Mementos.Last, &m.Last},
		{"prev", a.Mementos.Prev, &m.Prev},
		{"next", a.Mementos.Next, &m.Next},
		{"closest", a.Mementos.Closest, &m.Closest},
	} {
		if f.in == nil {
			continue
		}
		mem, err := f.in.parse()
		if err != nil {
			return nil, fmt.Errorf("%w: mementos.%s: %w", ErrMalformed, f.name, err)
		}
		*f.out = mem
	}
	if m.Closest == nil && m.Last == nil && m.First == nil {
		return nil, ErrNoMemento
	}
	return m, nil
}

// parse checks a memento of the answer. URIs that are not absolute
// http(s) are dropped; a memento left without any is an error.
func (j *jsonMemento) parse() (*Memento, error) {
	t, err := parseDatetime(j.Datetime)
	if err != nil {
		return nil, err
	}
	m := &Memento{Time: t}
	for _, u := range j.URI {
		if _, err := checkURI(u); err == nil {
			m.URIs = append(m.URIs, u)
		}
	}
	if len(m.URIs) == 0 {
		return nil, fmt.Errorf("no http(s) URI in %q", []string(j.URI))
	}
	return m, nil
}

// parseDatetime parses a memento datetime: ISO 8601 in UTC as the service
// writes it ("2013-01-15T10:19:13Z"), an HTTP date as the Memento protocol
// writes it, or a 14-digit Wayback timestamp.
func parseDatetime(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), nil
	}
	if t, err := http.ParseTime(s); err == nil {
		return t.UTC(), nil
	}
	if t, err := wayback.ParseTimestamp(s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("datetime %q is not ISO 8601, an HTTP date or 14 digits", s)
}

// Closest returns the memento of uri closest to at, across the archives
// the service knows. Errors are Lookup's.
func (c *Client) Closest(ctx context.Context, uri string, at time.Time) (*Memento, error) {
	m, err := c.Lookup(ctx, uri, at)
	if err != nil {
		return nil, err
	}
	if m.Closest == nil {
		return nil, opError("lookup", uri, ErrNoMemento)
	}
	return m.Closest, nil
}

// Last returns the latest memento of uri, across the archives the service
// knows: the answer's Last, or its Closest to now when it names no Last.
// Errors are Lookup's.
func (c *Client) Last(ctx context.Context, uri string) (*Memento, error) {
	m, err := c.Lookup(ctx, uri, time.Time{})
	if err != nil {
		return nil, err
	}
	if m.Last != nil {
		return m.Last, nil
	}
	if m.Closest != nil {
		return m.Closest, nil
	}
	return nil, opError("lookup", uri, ErrNoMemento)
}

// checkURI returns uri without its fragment when it is an absolute http or
// https URI, and an error wrapping ErrBadURI otherwise.
func checkURI(uri string) (string, error) { return apiclient.WebURI(uri) }
