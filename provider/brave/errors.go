package brave

import "github.com/linkrot/relink/provider/internal/apiclient"

// Errors a Client returns; match them with errors.Is. They are the same
// values in every relink search-API package, so one check covers them all.
var (
	// ErrMissingKey means New was given no key.
	ErrMissingKey = apiclient.ErrMissingKey
	// ErrRateLimited means Brave answered 429 on every attempt: the
	// per-second rate or the monthly quota of the key is spent.
	ErrRateLimited = apiclient.ErrRateLimited
	// ErrUnauthorized means Brave answered 401 or 403: a wrong key, or a
	// plan without web search.
	ErrUnauthorized = apiclient.ErrUnauthorized
	// ErrMalformed means a 2xx answer that is not the JSON Brave documents.
	ErrMalformed = apiclient.ErrMalformed
	// ErrTimeout means an attempt took longer than Options.Timeout.
	ErrTimeout = apiclient.ErrTimeout
	// ErrUnsupportedQuery means a query Brave would refuse: longer than
	// 400 characters or 50 words.
	ErrUnsupportedQuery = apiclient.ErrUnsupportedQuery
)

// Error is the error of a failed request: the service, the request with
// the key redacted, the number of attempts and the cause.
type Error = apiclient.Error

// StatusError is the cause of an Error when Brave's final answer was not
// 2xx: the status, a Retry-After wait, a safe snippet of the body and the
// header (Brave's X-RateLimit-* headers tell the quota left).
type StatusError = apiclient.StatusError
