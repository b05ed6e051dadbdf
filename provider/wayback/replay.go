package wayback

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/internal/apiclient"
	"github.com/linkrot/relink/provider/web"
)

// Headers a Page of a capture carries besides those the archive replayed.
const (
	// MementoDatetimeHeader holds the capture time in HTTP date format, as
	// in the Memento protocol (RFC 7089).
	MementoDatetimeHeader = "Memento-Datetime"
	// ContentLocationHeader holds the archive address the capture's bytes
	// were read from (its raw id_ replay URL).
	ContentLocationHeader = "Content-Location"
)

// lastGoodFilters ask the CDX API for successful HTML captures.
var lastGoodFilters = []string{`statuscode:2..`, `mimetype:(text/html|application/xhtml\+xml)`}

// LastGood returns the last good capture of uri, the latest capture with a
// 2xx status and an HTML media type in the CDX index, fetched raw from the
// archive (its id_ replay: the bytes as captured, without the archive's
// banner or rewritten links), so that its title and content can stand in for
// the missing page.
//
// The Page's URI is the capture's original URI (as the index records it),
// its Status, Header and Body those of the replay, and its Header also holds
// MementoDatetimeHeader (the capture time) and ContentLocationHeader (the
// replay URL), replacing any the archive sent. A body longer than
// Client.MaxBody is cut and marked with web.TruncatedHeader. When the archive
// refuses to replay the capture (an excluded site answers 403, say), the
// Page has the replay's status; when it fails (a 429 or 5xx answer without
// a Memento-Datetime header, on every attempt), the error wraps a
// *StatusError.
//
// A URI with no such capture gives an *Error wrapping ErrNoCapture; revisit
// records, which the index lists without a status, are not considered.
func (c *Client) LastGood(ctx context.Context, uri string) (*filter.Page, error) {
	p, err := c.lastGood(ctx, uri)
	if err != nil {
		return nil, opError("last good capture", uri, err)
	}
	return p, nil
}

// lastGood is LastGood without the *Error.
func (c *Client) lastGood(ctx context.Context, uri string) (*filter.Page, error) {
	caps, err := c.captures(ctx, uri, &Query{Filters: lastGoodFilters, Limit: -1})
	if err != nil {
		return nil, err
	}
	var best *Capture
	for i, cp := range caps { // the server filtered; check, and take the latest
		if filter.IsSuccess(cp.Status) && apiclient.IsHTML(cp.MIMEType) && (best == nil || cp.Time.After(best.Time)) {
			best = &caps[i]
		}
	}
	if best == nil {
		return nil, ErrNoCapture
	}
	return c.replay(ctx, *best)
}

// Fetch returns the last good capture of uri, as LastGood does, so that a
// Client can stand in for the live web as a filter.Fetcher. A URI the
// archive holds no good capture of is a Page with status 404 Not Found and
// an empty body, as a web server answers for a page it does not have; an
// error means the archive gave no answer (or uri is not http(s)).
func (c *Client) Fetch(ctx context.Context, uri string) (*filter.Page, error) {
	p, err := c.LastGood(ctx, uri)
	if errors.Is(err, ErrNoCapture) {
		return &filter.Page{URI: uri, Status: http.StatusNotFound, Header: http.Header{}}, nil
	}
	return p, err
}

// replay fetches capture raw and returns it as a Page.
func (c *Client) replay(ctx context.Context, capture Capture) (*filter.Page, error) {
	resp, at, err := c.fetchRaw(ctx, capture.Timestamp(), capture.Original)
	if err != nil {
		return nil, err
	}
	h := resp.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	t := capture.Time
	if rt, err := ParseTimestamp(at.ts); err == nil {
		t = rt // the archive moved to another capture of the same URI
	}
	h.Set(MementoDatetimeHeader, t.UTC().Format(http.TimeFormat))
	h.Set(ContentLocationHeader, at.url)
	if resp.Truncated {
		h.Set(web.TruncatedHeader, "true")
	}
	return &filter.Page{URI: capture.Original, Status: resp.Status, Header: h, Body: resp.Body}, nil
}

// replayed names where a raw replay was read from.
type replayed struct {
	url string // the replay URL that answered
	ts  string // its timestamp
}

// fetchRaw fetches the raw replay of original at timestamp ts. It follows
// the archive's own redirects (without Memento-Datetime) to other captures
// of the same URI (the archive sends one when ts is not exactly a
// capture's, and may name the URI as another spelling of the same
// resource: https for http, a www. host), at most MaxHops of them, but
// never a capture of a redirect (with Memento-Datetime), which is the
// answer, returned as it is, even when it leads to the same URI. Every request goes to the archive
// (BaseURL), never to a host an answer names: a redirect is read, not
// followed, and the next request is built from its timestamp and URI.
// An answer of the archive itself (see archiveFailed) is a *StatusError.
func (c *Client) fetchRaw(ctx context.Context, ts, original string) (*apiclient.Response, replayed, error) {
	if _, err := c.check(); err != nil {
		return nil, replayed{}, err
	}
	api := c.replayClient()
	at := replayed{url: c.replayURL(ts, original), ts: ts}
	for hop := 0; ; hop++ {
		req, err := http.NewRequest(http.MethodGet, at.url, nil)
		if err != nil {
			return nil, at, err
		}
		resp, err := api.Do(ctx, req)
		if err != nil {
			return nil, at, err
		}
		if archiveFailed(resp) {
			return nil, at, &StatusError{Status: resp.Status, Header: resp.Header}
		}
		// A redirect with Memento-Datetime is a capture of a redirect,
		// the answer; one without is the archive's own, to the capture
		// nearest the timestamp, followed within the archive when it
		// replays the same URI.
		if !filter.IsRedirect(resp.Status) || isMemento(resp) || hop >= c.maxHops() {
			return resp, at, nil
		}
		next, ok := c.parseReplay(at.url, resp.Header.Get("Location"))
		if !ok || !sameResource(next.original, original) {
			return resp, at, nil
		}
		at = replayed{url: c.replayURL(next.ts, next.original), ts: next.ts}
	}
}

// archiveFailed reports whether resp is the archive failing rather than a
// capture: a 429 or 5xx answer without the Memento-Datetime header the
// Wayback Machine sends with every replay (RFC 7089 §2.1.1). A capture of
// a page that answered 429 or 5xx is replayed with that status and the
// header, and is a capture like any other.
func archiveFailed(resp *apiclient.Response) bool {
	return (resp.Status == http.StatusTooManyRequests || resp.Status >= 500) && resp.Header.Get(MementoDatetimeHeader) == ""
}

// replayRef is a replay URL of the archive taken apart.
type replayRef struct {
	ts       string // the timestamp, as written (1 to 14 digits)
	original string // the URI replayed
}

// parseReplay resolves loc against the URL from and, when it is a replay
// URL of the Client's archive (BaseURL/web/<timestamp>[flags]/<original>),
// returns its parts. The original is taken from loc as written, so that
// its escaping is the archive's, not url.URL's.
func (c *Client) parseReplay(from, loc string) (replayRef, bool) {
	if loc == "" {
		return replayRef{}, false
	}
	base, err := url.Parse(from)
	if err != nil {
		return replayRef{}, false
	}
	ref, err := url.Parse(loc)
	if err != nil || ref.User != nil {
		return replayRef{}, false
	}
	abs := base.ResolveReference(ref)
	archive, err := url.Parse(c.base())
	if err != nil || !strings.EqualFold(abs.Host, archive.Host) {
		return replayRef{}, false
	}
	var rest string // loc's path and query, as written
	switch {
	case ref.Scheme != "" || strings.HasPrefix(loc, "//"):
		rest = loc[len(ref.Scheme):]
		rest = strings.TrimPrefix(rest, ":")
		if !strings.HasPrefix(rest, "//") || !strings.EqualFold(rest[2:min(len(rest), 2+len(ref.Host))], ref.Host) {
			return replayRef{}, false
		}
		rest = rest[2+len(ref.Host):]
	case strings.HasPrefix(loc, "/"):
		rest = loc
	default:
		rest = abs.RequestURI()
	}
	rest, ok := strings.CutPrefix(rest, "/web/")
	if !ok {
		return replayRef{}, false
	}
	n := 0
	for n < len(rest) && n < 14 && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	ts := rest[:n]
	rest = rest[n:]
	for len(rest) > 0 && (rest[0] == '_' || rest[0] >= 'a' && rest[0] <= 'z') {
		rest = rest[1:]
	}
	if n == 0 || !strings.HasPrefix(rest, "/") {
		return replayRef{}, false
	}
	original, err := checkURI(fixScheme(rest[1:]))
	if err != nil {
		return replayRef{}, false
	}
	return replayRef{ts: ts, original: original}, true
}

// fixScheme restores the "//" that proxies and path cleaners collapse in an
// original URI inside a replay path ("http:/example.com/"), and adds the
// http scheme the archive leaves out for some URIs. A scheme is one in any
// case ("HTTP:").
func fixScheme(s string) string {
	for _, scheme := range []string{"http:", "https:"} {
		if len(s) >= len(scheme) && strings.EqualFold(s[:len(scheme)], scheme) {
			return scheme + "//" + strings.TrimLeft(s[len(scheme):], "/")
		}
	}
	return "http://" + s
}

// sameResource reports whether a and b name the same resource as the
// archive's index does, for its redirects to the nearest capture: equal
// as sameURI compares them, but for the scheme and a leading "www." (or
// "www2." ...) of the host, which a SURT key leaves out.
func sameResource(a, b string) bool { return looseKey(a) == looseKey(b) }

// looseKey returns key(uri) without its scheme and a leading www label.
func looseKey(uri string) string {
	k := key(uri)
	if _, rest, ok := strings.Cut(k, "://"); ok {
		k = rest
	}
	if label, rest, ok := strings.Cut(k, "."); ok && strings.HasPrefix(label, "www") && strings.Trim(label[3:], "0123456789") == "" && strings.Contains(rest, ".") {
		k = rest
	}
	return k
}

// sameURI reports whether a and b name the same URI as the archive sees
// it: equal but for the case of the scheme and host, a default port, an
// empty path and a fragment. (canon.Canonicalize would also drop a trailing
// slash, but a redirect that adds one is a redirect the archive recorded.)
func sameURI(a, b string) bool { return key(a) == key(b) }

// key returns uri in the form sameURI compares, and loop detection too.
func key(uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		return uri
	}
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	if port := u.Port(); port != "" && !(scheme == "http" && port == "80") && !(scheme == "https" && port == "443") {
		host += ":" + port
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" || u.ForceQuery {
		path += "?" + u.RawQuery
	}
	return scheme + "://" + host + path
}
