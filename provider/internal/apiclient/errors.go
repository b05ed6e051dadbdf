package apiclient

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Errors a Client returns, wrapped in an *Error; match them with errors.Is.
// Package provider/searchapi and the archive packages re-export them under
// their own names, so one value serves every service. Their messages carry
// no package prefix because they are always wrapped in an error that begins
// with the service's name ("brave: GET ...: request timed out").
var (
	// ErrRateLimited means the service answered 429 Too Many Requests on
	// the last attempt. The *StatusError it comes with tells how long the
	// service asked to wait, when it said.
	ErrRateLimited = errors.New("rate limited")
	// ErrUnauthorized means the service answered 401 Unauthorized or 403
	// Forbidden: a missing, wrong or exhausted key, or a feature the key
	// does not include.
	ErrUnauthorized = errors.New("unauthorized")
	// ErrMalformed means a 2xx answer whose body is not what was asked
	// for: not JSON (an HTML error page, binary bytes, a cut body), or
	// empty, or the JSON literal null. The error names a short snippet of
	// the body.
	ErrMalformed = errors.New("malformed response")
	// ErrTooLarge means a body longer than Client.MaxBody where the whole
	// body is needed (GetJSON).
	ErrTooLarge = errors.New("response too large")
	// ErrTimeout means an attempt took longer than Client.Timeout while
	// the caller's context was not done.
	ErrTimeout = errors.New("request timed out")
	// ErrTooManyRedirects means an attempt met more redirects than
	// Client.MaxRedirects.
	ErrTooManyRedirects = errors.New("too many redirects")
	// ErrRedirectRefused means an answer redirected to another host (or
	// port), or from https to http, and Client.CrossHostRedirects was not
	// set: nothing was sent there.
	ErrRedirectRefused = errors.New("redirect to another host refused")
)

// Error is the error every method of Client returns: which service, which
// request, how many attempts were made and why the last one failed. Its
// URL and message never hold a secret the Client was told about.
type Error struct {
	// Service names the API, as Client.Service.
	Service string
	// Method and URL are the request's, the URL with secrets redacted.
	Method string
	URL    string
	// Attempts is the number of attempts made; 0 when no request could be
	// sent (a bad request, or a context done before the first attempt).
	Attempts int
	// Err is the cause: a *StatusError, an error wrapping ErrMalformed,
	// ErrTooLarge, ErrTimeout, ErrTooManyRedirects or ErrRedirectRefused, the context's error,
	// or a network error (a *url.Error, its URL redacted).
	Err error
}

// Error returns a message of the form "service: GET URL: cause", naming
// the number of attempts when there were several.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Service != "" {
		b.WriteString(e.Service)
		b.WriteString(": ")
	}
	b.WriteString(e.Method)
	b.WriteString(" ")
	b.WriteString(e.URL)
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (%d attempts)", e.Attempts)
	}
	b.WriteString(": ")
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns e.Err.
func (e *Error) Unwrap() error { return e.Err }

// StatusError is the cause of an *Error when the final answer was not 2xx.
// errors.Is matches it with ErrRateLimited for 429 and ErrUnauthorized for
// 401 and 403.
type StatusError struct {
	// Status is the HTTP status code.
	Status int
	// RetryAfter is the wait the answer's Retry-After header asked for,
	// zero when it named none (or a time already past).
	RetryAfter time.Duration
	// Snippet is the start of the body, made safe to print: at most
	// SnippetLen runes on one line, invalid UTF-8 and control characters
	// replaced, secrets redacted.
	Snippet string
	// Header is the answer's header, for callers that read more of it
	// (a Link or Memento-Datetime header, say). It is not redacted: a
	// server that echoes a secret in a header shows it there.
	Header http.Header
}

// Error returns a message such as "HTTP 429 Too Many Requests (retry after
// 30s): snippet".
func (e *StatusError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP %d", e.Status)
	if text := http.StatusText(e.Status); text != "" {
		b.WriteString(" " + text)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " (retry after %v)", e.RetryAfter)
	}
	if e.Snippet != "" {
		b.WriteString(": " + e.Snippet)
	}
	return b.String()
}

// Is reports whether target is ErrRateLimited and the status is 429, or
// ErrUnauthorized and the status is 401 or 403.
func (e *StatusError) Is(target error) bool {
	switch target {
	case ErrRateLimited:
		return e.Status == http.StatusTooManyRequests
	case ErrUnauthorized:
		return e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden
	}
	return false
}

// malformedError is the cause for a body that GetJSON could not decode: it
// wraps ErrMalformed and names the decoder's complaint and a snippet.
type malformedError struct {
	reason  string
	snippet string
	cause   error // the decoder's error, or nil
}

func (e *malformedError) Error() string {
	msg := ErrMalformed.Error() + ": " + e.reason
	if e.snippet != "" {
		msg += ": body " + strconv.Quote(e.snippet)
	}
	return msg
}

func (e *malformedError) Unwrap() []error {
	if e.cause == nil {
		return []error{ErrMalformed}
	}
	return []error{ErrMalformed, e.cause}
}
