package memento

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/internal/apiclient"
)

// Headers a Page of a memento carries besides those the archive sent.
const (
	// MementoDatetimeHeader holds the memento's datetime in HTTP date
	// format (RFC 7089).
	MementoDatetimeHeader = "Memento-Datetime"
	// ContentLocationHeader holds the address the memento's bytes were
	// read from: its raw form, where the archive has one, after any
	// redirect the archive answered with.
	ContentLocationHeader = "Content-Location"
)

// noRawHosts are archives whose URI-Ms look like Wayback ones but that
// have no raw (id_) replay: the archive.today family.
var noRawHosts = map[string]bool{
	"archive.today": true, "archive.is": true, "archive.ph": true, "archive.md": true,
	"archive.li": true, "archive.vn": true, "archive.fo": true,
}

// RawURI returns the address of the raw form of the memento at urim, the
// bytes as archived without the archive's banner or rewritten links, where
// the archive offers one. Archives that run the Wayback software or pywb
// (the Internet Archive, Archive-It, arquivo.pt, many national libraries)
// write URI-Ms as .../<14-digit timestamp>[flag]/<original URI> and replay
// the raw capture when the flag is id_, so RawURI sets that flag. Any other
// URI-M, and those of the archive.today family, are returned unchanged.
func RawURI(urim string) string {
	u, err := url.Parse(urim)
	if err != nil || noRawHosts[strings.ToLower(strings.TrimPrefix(u.Hostname(), "www."))] {
		return urim
	}
	// Find "/<14 digits>[flag]/http" after the host, in the URI as written.
	start := strings.Index(urim, "://")
	if start < 0 {
		return urim
	}
	slash := strings.IndexByte(urim[start+3:], '/')
	if slash < 0 {
		return urim
	}
	for i := start + 3 + slash; i < len(urim); {
		j := i + 1
		for j < len(urim) && j-i-1 < 14 && urim[j] >= '0' && urim[j] <= '9' {
			j++
		}
		if j-i-1 == 14 {
			k := j
			for k < len(urim) && (urim[k] == '_' || urim[k] >= 'a' && urim[k] <= 'z') {
				k++
			}
			rest := urim[k:]
			if strings.HasPrefix(rest, "/http:") || strings.HasPrefix(rest, "/https:") {
				return urim[:j] + "id_" + rest
			}
		}
		next := strings.IndexByte(urim[i+1:], '/')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return urim
}

// Fetch returns the latest memento of uri that is a 2xx HTML page, as a
// Page, so that a Client can stand in for the live web as a
// filter.Fetcher. It reads the URI's TimeMap (one request of the
// service, see TimeMap) and fetches its mementos newest first, each in
// its raw form (RawURI), until one answers 2xx with an HTML media type (or
// none named and a body that sniffs as HTML), at most MaxTries of them. A
// memento dated in the future is skipped unfetched: an archive's date is
// wrong, not the page's. The memento the service names last is not
// enough: for a page that died it is usually the archived 404, and the
// page as it was comes before it.
//
// The Page's URI is the original URI, its Status, Header and Body those
// of the archive's answer, and its Header also holds
// MementoDatetimeHeader and ContentLocationHeader, replacing any the
// archive sent; a body longer than MaxBody is cut and marked with
// web.TruncatedHeader. When no memento read is a 2xx HTML page, the Page
// is the newest answer read (the archived 404, say). A 429 or 5xx answer
// without a Memento-Datetime header is the archive failing, not a
// memento, and the next memento is tried; one with the header is an
// archived error page and is a Page like any other.
//
// Every URI-M is fetched with Pages, by default a fetcher that refuses
// private and loopback addresses unless AllowPrivate is set (see Pages):
// the URI-Ms are the service's answer, and an answer naming an internal
// address fails with an error wrapping ErrPrivateAddress.
//
// A URI no archive holds, or only with dates in the future, is a Page
// with status 404 Not Found and an empty body, as a web server answers
// for a page it does not have. An error means no answer at all: the
// service or every memento tried failed (the error of the last, a
// *StatusError for an archive's own 429 or 5xx), or uri is not http(s).
func (c *Client) Fetch(ctx context.Context, uri string) (*filter.Page, error) {
	p, err := c.fetch(ctx, uri)
	if errors.Is(err, ErrNoMemento) {
		return &filter.Page{URI: uri, Status: http.StatusNotFound, Header: http.Header{}}, nil
	}
	if err != nil {
		return nil, opError("fetch", uri, err)
	}
	return p, nil
}

// fetch is Fetch without the 404 Page and the *Error.
func (c *Client) fetch(ctx context.Context, uri string) (*filter.Page, error) {
	uri, err := checkURI(uri)
	if err != nil {
		return nil, err
	}
	ms, err := c.timeMap(ctx, uri)
	if err != nil {
		return nil, err
	}
	// Newest first; mementos of one datetime keep the service's order.
	slices.SortStableFunc(ms, func(a, b Memento) int { return b.Time.Compare(a.Time) })
	now := time.Now()
	var (
		newest  *filter.Page
		lastErr error
		tries   int
	)
	for _, m := range ms {
		if m.Time.After(now) {
			continue
		}
		for _, urim := range m.URIs {
			if tries == c.maxTries() {
				break
			}
			tries++
			p, err := c.read(ctx, uri, m.Time, urim)
			if err != nil {
				if ctx.Err() != nil {
					return nil, err
				}
				lastErr = err
				continue
			}
			if isGood(p) {
				return p, nil
			}
			if newest == nil {
				newest = p
			}
		}
	}
	switch {
	case newest != nil:
		return newest, nil
	case lastErr != nil:
		return nil, lastErr
	}
	return nil, ErrNoMemento // every memento dated in the future
}

// read fetches the memento of uri at urim, archived at t, in its raw form,
// as the Page Fetch returns.
func (c *Client) read(ctx context.Context, uri string, t time.Time, urim string) (*filter.Page, error) {
	raw := RawURI(urim)
	p, err := c.get(ctx, raw)
	if err != nil {
		return nil, err
	}
	h := p.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Set(MementoDatetimeHeader, t.UTC().Format(http.TimeFormat))
	loc := p.URI // after any redirect
	if loc == "" {
		loc = raw
	}
	h.Set(ContentLocationHeader, loc)
	return &filter.Page{URI: uri, Status: p.Status, Header: h, Body: p.Body}, nil
}

// isGood reports whether a memento is the page as it was: a 2xx answer
// whose media type is HTML or XHTML, or, without a Content-Type, whose
// body sniffs as HTML.
func isGood(p *filter.Page) bool {
	if !filter.IsSuccess(p.Status) {
		return false
	}
	if ct := p.Header.Get("Content-Type"); ct != "" {
		return apiclient.IsHTML(ct)
	}
	return apiclient.IsHTML(http.DetectContentType(p.Body))
}

// maxTries returns MaxTries or its default.
func (c *Client) maxTries() int {
	if c.MaxTries <= 0 {
		return DefaultMaxTries
	}
	return c.MaxTries
}

// get fetches a memento with Pages, or with the Client's own guarded
// fetcher. An answer of the archive itself rather than of a memento (see
// archiveFailed) is an error, not a Page.
func (c *Client) get(ctx context.Context, uri string) (*filter.Page, error) {
	c.client()
	p, err := c.pages.Fetch(ctx, uri)
	if err != nil {
		return nil, err
	}
	if archiveFailed(p) {
		return nil, &StatusError{Status: p.Status, Header: p.Header}
	}
	return p, nil
}

// archiveFailed reports whether p is the archive failing rather than a
// memento: a 429 or 5xx answer without the Memento-Datetime header that
// RFC 7089 (§2.1.1) requires of every memento. An archived page that was a
// 429 or 5xx when it was captured is replayed with its status and that
// header, and is a memento like any other.
func archiveFailed(p *filter.Page) bool {
	return (p.Status == http.StatusTooManyRequests || p.Status >= 500) && p.Header.Get(MementoDatetimeHeader) == ""
}
