package marginalia

import "github.com/linkrot/relink/provider/internal/apiclient"

// Errors a Client returns; match them with errors.Is. They are the same
// values in every relink search-API package, so one check covers them all.
var (
	// ErrMissingKey means New was given no key; PublicKey is a key.
	ErrMissingKey = apiclient.ErrMissingKey
	// ErrRateLimited means Marginalia answered 429 on every attempt. (The
	// public key's limit is also answered with 503, which ends as a
	// *StatusError with Status 503.)
	ErrRateLimited = apiclient.ErrRateLimited
	// ErrUnauthorized means Marginalia answered 401 or 403: a wrong key.
	ErrUnauthorized = apiclient.ErrUnauthorized
	// ErrMalformed means a 2xx answer that is not the JSON Marginalia
	// documents.
	ErrMalformed = apiclient.ErrMalformed
	// ErrTimeout means an attempt took longer than Options.Timeout.
	ErrTimeout = apiclient.ErrTimeout
	// ErrUnsupportedQuery means a disjunctive query of several terms,
	// which Marginalia cannot express.
	ErrUnsupportedQuery = apiclient.ErrUnsupportedQuery
)

// Error is the error of a failed request: the service, the request, the
// number of attempts and the cause.
type Error = apiclient.Error

// StatusError is the cause of an Error when Marginalia's final answer was
// not 2xx: the status, a Retry-After wait, a safe snippet of the body and
// the header.
type StatusError = apiclient.StatusError
