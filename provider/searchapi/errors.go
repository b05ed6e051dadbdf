package searchapi

import (
	"errors"

	"github.com/linkrot/relink/provider/internal/apiclient"
)

// Errors every search client returns; match them with errors.Is. They are
// the same values for every engine (the engine packages add only their
// own), and the archive clients (provider/wayback, provider/memento)
// return the HTTP ones too, so one check covers them all. Their messages
// carry no package prefix because they always come wrapped in an error
// that begins with the engine's name ("brave: GET ...: rate limited").
var (
	// ErrMissingKey means New was given no key for an API that needs one
	// (Engine.KeyHeader or Engine.KeyParam set).
	ErrMissingKey = errors.New("missing API key")
	// ErrUnsupportedQuery means a query the API cannot express (a
	// disjunction where it has no OR, a query over its length limits); it
	// is returned before any request, rather than run as another query.
	ErrUnsupportedQuery = errors.New("query not supported by the service")

	// ErrRateLimited means the service answered 429 Too Many Requests on
	// the last attempt, or asked for a wait longer than Transport.MaxWait
	// (a quota spent); the StatusError says how long to wait, when the
	// service said. An engine may add answers of its own that mean the
	// same (Mojeek's "Daily Limit Reached").
	ErrRateLimited = apiclient.ErrRateLimited
	// ErrUnauthorized means the service answered 401 Unauthorized or 403
	// Forbidden: a missing, wrong or spent key, or a plan without the
	// feature. An engine may add answers of its own that mean the same
	// (Google's 400 "API key not valid").
	ErrUnauthorized = apiclient.ErrUnauthorized
	// ErrMalformed means a 2xx answer that is not the JSON the API
	// documents: an HTML page, a cut body, empty, null, or a field the
	// engine needs that is not what it should be (a hit count that is not
	// a number). The error quotes a short snippet.
	ErrMalformed = apiclient.ErrMalformed
	// ErrTooLarge means an answer longer than DefaultMaxAnswer.
	ErrTooLarge = apiclient.ErrTooLarge
	// ErrTimeout means an attempt took longer than Transport.Timeout
	// while the caller's context was not done.
	ErrTimeout = apiclient.ErrTimeout
	// ErrTooManyRedirects means an attempt met more than ten redirects (a
	// loop); it is not tried again.
	ErrTooManyRedirects = apiclient.ErrTooManyRedirects
	// ErrStopped means the Client sent nothing because an earlier answer
	// stopped it (Engine.Stop: Brave's spent quota, SearXNG's limiter),
	// for good or until the time the error names; the error also wraps
	// that answer's *StatusError.
	ErrStopped = apiclient.ErrStopped
	// ErrRedirectRefused means an answer redirected to another host, or
	// from https to http, and Transport.CrossHostRedirects was off:
	// nothing was sent there.
	ErrRedirectRefused = apiclient.ErrRedirectRefused
)

// Error is the error of a failed request, which every failed Search and
// HitCount wraps: Service (the engine's name), Method and URL (the query
// in it, the key and any password redacted), Attempts (how many were
// made) and Err, the cause (a *StatusError, an error wrapping one of the
// Err variables, the context's error or a network error). Its message and
// everything it wraps never show the key.
type Error = apiclient.Error

// StatusError is the cause of an Error when the service's final answer was
// not 2xx: Status, RetryAfter (the wait the service asked for, when it
// said), Snippet (the start of the body, printable and redacted) and
// Header. It matches ErrRateLimited for 429 and ErrUnauthorized for 401
// and 403.
type StatusError = apiclient.StatusError

// Redacted stands for a secret wherever a Client prints one: in an error's
// URL and message, and in the engine packages' printed Options.
const Redacted = apiclient.Redacted
