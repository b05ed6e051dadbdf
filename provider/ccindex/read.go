package ccindex

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/internal/apiclient"
	"github.com/linkrot/relink/provider/warc"
	"github.com/linkrot/relink/provider/web"
)

// Headers a Page of a capture carries besides those the crawl recorded.
const (
	// MementoDatetimeHeader holds the capture time in HTTP date format, as
	// in the Memento protocol (RFC 7089), as package wayback's pages do.
	MementoDatetimeHeader = "Memento-Datetime"
	// ContentLocationHeader holds the file the capture was read from
	// (DataURL/filename), and WARCRangeHeader the bytes of it.
	ContentLocationHeader = "Content-Location"
	WARCRangeHeader       = "X-Relink-Warc-Range"
)

// Read fetches capture's WARC record, Length bytes at Offset of Filename
// under DataURL, with one range request, and replays the HTTP response it
// holds as a Page: the Page's URI is capture.URL, its Status, Header and
// Body those recorded (chunked and gzip codings undone, the body cut at
// MaxBody and marked with web.TruncatedHeader), and its Header also holds
// MementoDatetimeHeader, ContentLocationHeader and WARCRangeHeader.
//
// An answer that is not the range asked for, or whose bytes are not one
// WARC record of capture.URL, is an error wrapping ErrMalformed; a capture
// longer than MaxBody is ErrTooLarge, without a request. Errors are *Error
// values, Op "read".
func (c *Client) Read(ctx context.Context, capture Capture) (*filter.Page, error) {
	p, err := c.read(ctx, capture)
	if err != nil {
		return nil, opError("read", capture.URL, err)
	}
	return p, nil
}

// read is Read without the *Error.
func (c *Client) read(ctx context.Context, cp Capture) (*filter.Page, error) {
	if !validFilename(cp.Filename) || cp.Length <= 0 || cp.Offset < 0 {
		return nil, fmt.Errorf("%w: no WARC record: filename %q, offset %d, length %d", ErrMalformed, cp.Filename, cp.Offset, cp.Length)
	}
	if cp.Length > c.maxBody() {
		return nil, fmt.Errorf("%w: a record of %d bytes, more than %d", ErrTooLarge, cp.Length, c.maxBody())
	}
	b, err := base(c.DataURL, DefaultDataURL)
	if err != nil {
		return nil, err
	}
	loc := b + "/" + cp.Filename
	req, err := http.NewRequest(http.MethodGet, loc, nil)
	if err != nil {
		return nil, err
	}
	rng := fmt.Sprintf("bytes=%d-%d", cp.Offset, cp.Offset+cp.Length-1)
	req.Header.Set("Range", rng)
	_, data := c.clients()
	resp, err := data.GetBytes(ctx, req)
	if err != nil {
		return nil, err
	}
	if resp.Status != http.StatusPartialContent || int64(len(resp.Body)) != cp.Length {
		return nil, fmt.Errorf("%w: asked for %s of %s, got HTTP %d and %d bytes", ErrMalformed, rng, cp.Filename, resp.Status, len(resp.Body))
	}
	a, err := warc.NewArchive(ctx, bytes.NewReader(resp.Body))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	a.MaxBody, a.MaxRedirects = c.maxBody(), -1
	if !a.Has(cp.URL) {
		return nil, fmt.Errorf("%w: %s of %s holds no response record of %s", ErrMalformed, rng, cp.Filename, cp.URL)
	}
	p, err := a.Fetch(ctx, cp.URL)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	p.URI = cp.URL
	if p.Header == nil {
		p.Header = http.Header{}
	}
	p.Header.Set(MementoDatetimeHeader, cp.Time.UTC().Format(http.TimeFormat))
	p.Header.Set(ContentLocationHeader, loc)
	p.Header.Set(WARCRangeHeader, rng)
	if int64(len(p.Body)) >= c.maxBody() {
		p.Header.Set(web.TruncatedHeader, "true")
	}
	return p, nil
}

// LastGood returns the last good capture of uri: of the crawls in
// Crawls (or the newest MaxCollections of collinfo.json), newest
// first, the first that holds a capture of uri with a 2xx status and an
// HTML media type (as the server named it, or as the crawler detected
// it), its latest such capture, read with Read. One index request per
// crawl asked, and one range request.
//
// A URI no crawl asked holds a good capture of gives an *Error wrapping
// ErrNoCapture; a crawl's failure ends the search with its error. Errors
// are *Error values, Op "last good capture".
func (c *Client) LastGood(ctx context.Context, uri string) (*filter.Page, error) {
	p, err := c.lastGood(ctx, uri)
	if err != nil {
		return nil, opError("last good capture", uri, err)
	}
	return p, nil
}

// lastGood is LastGood without the *Error.
func (c *Client) lastGood(ctx context.Context, uri string) (*filter.Page, error) {
	var best *Capture
	err := c.eachCrawl(ctx, uri, func(caps []Capture) bool {
		for i, cp := range caps {
			if filter.IsSuccess(cp.Status) && (apiclient.IsHTML(cp.MIME) || apiclient.IsHTML(cp.MIMEDetected)) && (best == nil || cp.Time.After(best.Time)) {
				best = &caps[i]
			}
		}
		return best != nil
	})
	switch {
	case err != nil:
		return nil, err
	case best == nil:
		return nil, ErrNoCapture
	}
	return c.read(ctx, *best)
}

// eachCrawl gives uri's captures in each crawl LastGood asks, newest
// first, to enough until it returns true. A crawl's failure ends it with
// its error.
func (c *Client) eachCrawl(ctx context.Context, uri string, enough func(caps []Capture) bool) error {
	uri, err := checkURI(uri)
	if err != nil {
		return err
	}
	ids, err := c.collectionIDs(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		caps, err := c.captures(ctx, id, uri)
		if err != nil {
			return err
		}
		if enough(caps) {
			return nil
		}
	}
	return nil
}

// collectionIDs returns the crawls LastGood asks, newest first.
func (c *Client) collectionIDs(ctx context.Context) ([]string, error) {
	most := c.MaxCollections
	if most <= 0 {
		most = DefaultMaxCollections
	}
	if c.Crawls != nil {
		return c.Crawls[:min(most, len(c.Crawls))], nil
	}
	colls, err := c.Collections(ctx)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return nil, e.Err
		}
		return nil, err
	}
	ids := make([]string, 0, most)
	for _, col := range colls[:min(most, len(colls))] {
		ids = append(ids, col.ID)
	}
	return ids, nil
}

// Fetch returns the last good capture of uri, as LastGood does, so that a
// Client can stand in for the live web as a filter.Fetcher. A URI no crawl
// asked holds a good capture of is a Page with status 404 Not Found and an
// empty body; an error means a service gave no usable answer (or uri is
// not http(s)).
func (c *Client) Fetch(ctx context.Context, uri string) (*filter.Page, error) {
	p, err := c.lastGood(ctx, uri)
	switch {
	case errors.Is(err, ErrNoCapture):
		return &filter.Page{URI: uri, Status: http.StatusNotFound, Header: http.Header{}}, nil
	case err != nil:
		return nil, opError("fetch", uri, err)
	}
	return p, nil
}
