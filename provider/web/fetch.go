package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/internal/retry"
	"github.com/linkrot/relink/provider/warc"
)

// fetchOptions are what differs between fetching a page and fetching a
// robots.txt.
type fetchOptions struct {
	limit     int64 // most decoded body bytes kept
	redirects int   // redirects followed per attempt; -1 for none
	robots    bool  // check robots.txt before each request
}

// fetch makes up to c.attempts() attempts at u and returns the final
// answer, or the number of attempts made and the last cause.
func (c *Client) fetch(ctx context.Context, u *url.URL, o fetchOptions) (*filter.Page, int, error) {
	var last *filter.Page
	var lastErr error
	attempts := c.attempts()
	n := 0
	for n < attempts {
		n++
		page, wait, err := c.attempt(ctx, u, o)
		if err != nil {
			wait = -1
		}
		switch {
		case err == nil && !retry.Status(page.Status):
			return page, n, nil
		case err == nil:
			last = page
		case ctx.Err() != nil && !errors.Is(err, ctx.Err()):
			return nil, n, fmt.Errorf("%w (%v)", ctx.Err(), err)
		case ctx.Err() != nil:
			return nil, n, err
		case final(err):
			return nil, n, err
		default:
			lastErr = err
		}
		if n == attempts {
			break
		}
		if err := retry.Sleep(ctx, c.delay(n, wait)); err != nil {
			return nil, n, err
		}
	}
	if last != nil {
		return last, n, nil
	}
	return nil, n, lastErr
}

// attempt fetches u once, following redirects. It returns the final
// answer with the wait its Retry-After header asks for (or -1), or an
// error when there was no answer.
func (c *Client) attempt(ctx context.Context, u *url.URL, o fetchOptions) (*filter.Page, time.Duration, error) {
	for hops := 0; ; hops++ {
		var crawlDelay time.Duration
		if o.robots {
			d, err := c.allowed(ctx, u)
			if err != nil {
				return nil, 0, err
			}
			crawlDelay = d
		}
		page, next, wait, err := c.request(ctx, u, crawlDelay, o)
		if err != nil || next == nil {
			return page, wait, err
		}
		if hops >= o.redirects {
			return nil, 0, fmt.Errorf("%w: more than %d, the last to %s", ErrTooManyRedirects, o.redirects, next)
		}
		u = next
	}
}

// request sends one GET for u within the host's limits and Timeout. It
// returns either the answer as a Page (with the wait a Retry-After header
// asks for, or -1), or the URI a redirect leads to, or an error.
func (c *Client) request(ctx context.Context, u *url.URL, crawlDelay time.Duration, o fetchOptions) (_ *filter.Page, next *url.URL, wait time.Duration, _ error) {
	release, err := c.acquire(ctx, u.Hostname(), crawlDelay)
	if err != nil {
		return nil, nil, 0, err
	}
	defer release()
	rctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	uri := u.String()
	req, err := http.NewRequestWithContext(rctx, http.MethodGet, uri, nil)
	if err != nil {
		return nil, nil, 0, err
	}
	req.Header.Set("User-Agent", c.userAgent())
	req.Header.Set("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8")
	req.Header.Set("Accept-Encoding", "gzip, deflate")
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, nil, 0, c.requestError(ctx, rctx, "get "+uri, err)
	}
	defer resp.Body.Close()

	if o.redirects >= 0 && filter.IsRedirect(resp.StatusCode) {
		// A redirect without a usable http(s) Location is itself the
		// final answer.
		if next, err := u.Parse(resp.Header.Get("Location")); err == nil && resp.Header.Get("Location") != "" && supported(next) {
			// Read a little of the body so that the connection can be
			// used again.
			io.CopyN(io.Discard, resp.Body, 4<<10)
			next.Fragment, next.RawFragment = "", ""
			return nil, next, 0, nil
		}
	}

	body, truncated, decoded, err := readBody(resp, o.limit)
	if err != nil {
		return nil, nil, 0, c.requestError(ctx, rctx, "read body of "+uri, err)
	}
	header := resp.Header.Clone()
	if header == nil {
		header = http.Header{}
	}
	if decoded {
		header.Del("Content-Encoding")
		header.Del("Content-Length")
	}
	if truncated {
		header.Set(TruncatedHeader, "true")
	}
	wait = -1
	if retry.Status(resp.StatusCode) {
		if d, ok := retry.After(resp.Header.Get("Retry-After"), time.Now()); ok {
			wait = d
		}
	}
	return &filter.Page{URI: uri, Status: resp.StatusCode, Header: header, Body: body}, nil, wait, nil
}

// requestError describes err, met while doing op under rctx (a child of
// ctx), without the url.Error layer net/http adds. A request that ran out
// of Timeout, or of a narrower timeout of the transport, wraps ErrTimeout.
func (c *Client) requestError(ctx, rctx context.Context, op string, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var ne net.Error
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("%s: %w", op, ctx.Err())
	case rctx.Err() != nil:
		return fmt.Errorf("%s: %w after %v", op, ErrTimeout, c.timeout())
	case errors.As(err, &ne) && ne.Timeout():
		// Not wrapped: net/http's timeout errors match
		// context.DeadlineExceeded, which would blame the caller's ctx.
		return fmt.Errorf("%s: %w: %v", op, ErrTimeout, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// readBody reads resp's body, undoing gzip and deflate Content-Encodings
// (warc.DecodeBody), and keeps at most limit bytes. It reports whether the
// body was cut and whether it was decoded. A body in another coding is
// read as it is.
func readBody(resp *http.Response, limit int64) (body []byte, truncated, decoded bool, err error) {
	decoded = resp.Header.Get("Content-Encoding") != ""
	body, err = warc.DecodeBody(resp.Header, resp.Body, limit+1)
	if errors.Is(err, warc.ErrUnsupportedEncoding) {
		// Nothing was read: keep the bytes as the server coded them.
		decoded = false
		body, err = io.ReadAll(io.LimitReader(resp.Body, limit+1))
	}
	if int64(len(body)) > limit {
		return body[:limit:limit], true, decoded, nil
	}
	return body, false, decoded, err
}
