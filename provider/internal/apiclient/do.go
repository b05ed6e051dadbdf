package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/linkrot/relink/internal/retry"
)

// Response is one HTTP answer, read whole (up to Client.MaxBody).
type Response struct {
	// URL is the URL that answered, after redirects, with secrets
	// redacted.
	URL string
	// Status is the HTTP status code.
	Status int
	// Header is the answer's header.
	Header http.Header
	// Body is the body, decoded from any Content-Encoding net/http undid,
	// cut at Client.MaxBody.
	Body []byte
	// Truncated reports that the body was longer than Client.MaxBody and
	// was cut.
	Truncated bool
}

// Do sends req, with retries, and returns the final answer whatever its
// status: a 404 or a redirect (with MaxRedirects < 0) is a Response and a
// nil error, and so is a 429 or 5xx answer when every attempt got one or
// when its Retry-After asks for more than MaxWait. The error, an *Error,
// means no answer at all: a timeout, a network error, a redirect loop, the
// context done.
//
// req must be replayable: a GET or HEAD without body, or a request with
// GetBody set (http.NewRequest sets it for the usual body types). Its
// context is ignored: ctx bounds the whole call, waits included, and when
// it is done Do returns promptly with an error wrapping ctx.Err(), leaving
// no goroutine behind. req is not modified.
func (c *Client) Do(ctx context.Context, req *http.Request) (*Response, error) {
	resp, _, err := c.do(ctx, req)
	return resp, err
}

// GetBytes is Do for callers that want only a 2xx body: any other final
// answer is an *Error wrapping a *StatusError. A body longer than MaxBody
// is cut and the Response marked Truncated, not an error.
func (c *Client) GetBytes(ctx context.Context, req *http.Request) (*Response, error) {
	resp, n, err := c.do(ctx, req)
	if err != nil {
		return nil, err
	}
	if resp.Status < 200 || resp.Status > 299 {
		return nil, c.statusErr(req, n, resp)
	}
	return resp, nil
}

// GetJSON sends req like Do, with "Accept: application/json" unless req
// asks for something else, and decodes a 2xx body into v with
// encoding/json. Unknown fields are ignored; anything else that is not one
// JSON value, such as an HTML error page, an empty body or the literal
// null, is an error wrapping ErrMalformed (and the *json.SyntaxError or
// *json.UnmarshalTypeError) that quotes a short snippet. A body longer
// than MaxBody is ErrTooLarge. A final non-2xx answer is an error wrapping
// a *StatusError. Every error is an *Error.
func (c *Client) GetJSON(ctx context.Context, req *http.Request, v any) error {
	if req.Header.Get("Accept") == "" {
		r := *req
		r.Header = req.Header.Clone()
		if r.Header == nil {
			r.Header = make(http.Header)
		}
		r.Header.Set("Accept", "application/json")
		req = &r
	}
	resp, n, err := c.do(ctx, req)
	if err != nil {
		return err
	}
	if resp.Status < 200 || resp.Status > 299 {
		return c.statusErr(req, n, resp)
	}
	red := c.redactor(req)
	if resp.Truncated {
		err = fmt.Errorf("%w: more than %d bytes", ErrTooLarge, c.maxBody())
	} else if merr := unmarshal(resp.Body, v); merr != nil {
		merr.reason = red.text(merr.reason)
		merr.snippet = red.snippet(bytes.TrimSpace(resp.Body))
		err = merr
	}
	if err != nil {
		return &Error{Service: c.Service, Method: req.Method, URL: red.url(req.URL), Attempts: n, Err: err}
	}
	return nil
}

// DecodeJSON decodes body into v as GetJSON does: one JSON value, not
// empty and not null, else an error wrapping ErrMalformed (and the
// decoder's error) that quotes a snippet of body. The error names no
// request and is not redacted: it is for decoding a body the caller
// already holds, such as a fuzz test's.
func DecodeJSON(body []byte, v any) error {
	if err := unmarshal(body, v); err != nil {
		return err
	}
	return nil
}

// unmarshal decodes body into v as GetJSON does: one JSON value, not empty
// and not null. The error's reason and snippet are not yet redacted.
func unmarshal(body []byte, v any) *malformedError {
	body = bytes.TrimSpace(body)
	switch {
	case len(body) == 0:
		return &malformedError{reason: "empty body"}
	case bytes.Equal(body, []byte("null")):
		return &malformedError{reason: "body is null"}
	}
	if err := json.Unmarshal(body, v); err != nil {
		return &malformedError{reason: err.Error(), snippet: snippet(body), cause: err}
	}
	return nil
}

// redactor returns the redactor for req and the Client's secrets.
func (c *Client) redactor(req *http.Request) *redactor {
	return newRedactor(req, c.Secrets, c.Redact)
}

// statusErr returns the *Error for a final non-2xx answer after n attempts.
func (c *Client) statusErr(req *http.Request, n int, resp *Response) error {
	red := c.redactor(req)
	se := &StatusError{
		Status:  resp.Status,
		Snippet: red.snippet(resp.Body),
		Header:  resp.Header,
	}
	if d, ok := c.waitFor(resp.Header); ok {
		se.RetryAfter = d
	}
	var cause error = se
	if stop := c.stoppedBy(resp); stop != nil {
		cause = fmt.Errorf("%w: %w", se, ErrStopped)
		if stop.why != nil {
			cause = fmt.Errorf("%w: %w", stop.why, cause)
		}
	}
	return &Error{Service: c.Service, Method: req.Method, URL: red.url(req.URL), Attempts: n, Err: cause}
}

// do is Do, also returning the number of attempts made.
func (c *Client) do(ctx context.Context, req *http.Request) (*Response, int, error) {
	c.init()
	red := c.redactor(req)
	fail := func(n int, cause error) error {
		return &Error{Service: c.Service, Method: req.Method, URL: red.url(req.URL), Attempts: n, Err: cause}
	}
	if req.URL == nil {
		return nil, 0, fail(0, errors.New("apiclient: request without URL"))
	}
	if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
		return nil, 0, fail(0, errors.New("apiclient: request body cannot be sent again (no GetBody)"))
	}
	for n := 1; ; n++ {
		if err := c.stopped(); err != nil {
			return nil, n - 1, fail(n-1, err)
		}
		if err := c.paused(ctx); err != nil {
			return nil, n - 1, fail(n-1, err)
		}
		if err := c.wait(ctx); err != nil {
			return nil, n - 1, fail(n-1, err)
		}
		resp, err := c.attempt(ctx, req, red)
		if ctx.Err() != nil {
			return nil, n, fail(n, ctx.Err())
		}
		wait := noWait
		if err == nil {
			var stop bool
			if wait, stop = c.note(resp, red); stop {
				return resp, n, nil
			}
		}
		switch {
		case err != nil && final(err):
			return nil, n, fail(n, err)
		case err == nil && !retry.Status(resp.Status):
			return resp, n, nil
		case err == nil && c.Final != nil && c.Final(resp):
			return resp, n, nil
		case err == nil && wait > c.maxWait():
			return resp, n, nil
		}
		if n >= c.attempts() {
			if err != nil {
				return nil, n, fail(n, err)
			}
			return resp, n, nil
		}
		if err := retry.Sleep(ctx, c.delay(n, wait)); err != nil {
			return nil, n, fail(n, err)
		}
	}
}

// wait waits for the rate limiter. When ctx's deadline comes before the
// limiter would let the request go, it fails at once with an error wrapping
// context.DeadlineExceeded rather than wait in vain.
func (c *Client) wait(ctx context.Context) error {
	if err := c.limiter.Wait(ctx); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%w: the rate limit would wait past it", context.DeadlineExceeded)
	}
	return nil
}

// attempt sends req once, with its own timeout, and reads the body.
func (c *Client) attempt(ctx context.Context, req *http.Request, red *redactor) (*Response, error) {
	actx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	r := req.Clone(actx)
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, red.err(err)
		}
		r.Body = body
	}
	r.Header.Del("Referer")
	if r.Header.Get("User-Agent") == "" {
		ua := c.UserAgent
		if ua == "" {
			ua = DefaultUserAgent
		}
		r.Header.Set("User-Agent", ua)
	}
	hr, err := c.hc.Do(r)
	if err != nil {
		return nil, c.cause(actx, err, red)
	}
	defer hr.Body.Close()
	body, truncated, err := readBody(hr.Body, c.maxBody())
	if err != nil {
		return nil, fmt.Errorf("reading body: %w", c.cause(actx, err, red))
	}
	return &Response{
		URL:       red.url(hr.Request.URL),
		Status:    hr.StatusCode,
		Header:    hr.Header,
		Body:      body,
		Truncated: truncated,
	}, nil
}

// cause returns the error to report for err from an attempt whose context
// is actx: ErrTimeout when the attempt's own deadline passed, else err with
// its secrets scrubbed.
func (c *Client) cause(actx context.Context, err error, red *redactor) error {
	if errors.Is(actx.Err(), context.DeadlineExceeded) || isTimeout(err) {
		return fmt.Errorf("%w (after %v)", ErrTimeout, c.timeout())
	}
	return red.err(err)
}
