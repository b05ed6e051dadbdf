package google

import (
	"errors"

	"github.com/linkrot/relink/provider/internal/apiclient"
)

// Errors a Client returns; match them with errors.Is. All but
// ErrMissingEngine are the same values in every relink search-API package,
// so one check covers them all.
var (
	// ErrMissingKey means New was given no API key.
	ErrMissingKey = apiclient.ErrMissingKey
	// ErrMissingEngine means New was given no search engine ID (cx).
	ErrMissingEngine = errors.New("google: missing search engine ID (cx)")
	// ErrRateLimited means Google answered 429 on every attempt: the
	// per-minute rate or the daily quota of the key is spent.
	ErrRateLimited = apiclient.ErrRateLimited
	// ErrUnauthorized means Google answered 401 or 403: a wrong or
	// restricted key, an API not enabled for the project, or a daily limit
	// Google reports as 403.
	ErrUnauthorized = apiclient.ErrUnauthorized
	// ErrMalformed means a 2xx answer that is not the JSON Google
	// documents, or a hit count that is not a number.
	ErrMalformed = apiclient.ErrMalformed
	// ErrTimeout means an attempt took longer than Options.Timeout.
	ErrTimeout = apiclient.ErrTimeout
)

// Error is the error of a failed request: the service, the request with
// the key redacted, the number of attempts and the cause.
type Error = apiclient.Error

// StatusError is the cause of an Error when Google's final answer was not
// 2xx: the status, a Retry-After wait, a safe snippet of the body (Google's
// error JSON names the reason, such as "rateLimitExceeded") and the header.
type StatusError = apiclient.StatusError
