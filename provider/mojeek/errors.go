package mojeek

import (
	"errors"

	"github.com/linkrot/relink/provider/internal/apiclient"
)

// Errors a Client returns; match them with errors.Is. All but ErrStatus
// are the same values in every relink search-API package, so one check
// covers them all.
var (
	// ErrMissingKey means New was given no key.
	ErrMissingKey = apiclient.ErrMissingKey
	// ErrStatus means Mojeek answered with a response.status other than
	// OK; the error quotes it.
	ErrStatus = errors.New("mojeek: status not OK")
	// ErrRateLimited means Mojeek answered 429 on every attempt, or with a
	// status that speaks of a limit ("ERROR: Daily Limit Reached").
	ErrRateLimited = apiclient.ErrRateLimited
	// ErrUnauthorized means Mojeek answered 401 or 403, or with a status
	// that speaks of the key.
	ErrUnauthorized = apiclient.ErrUnauthorized
	// ErrMalformed means a 2xx answer that is not the JSON Mojeek
	// documents.
	ErrMalformed = apiclient.ErrMalformed
	// ErrTimeout means an attempt took longer than Options.Timeout.
	ErrTimeout = apiclient.ErrTimeout
	// ErrUnsupportedQuery means a disjunctive query of several terms,
	// which Mojeek cannot express.
	ErrUnsupportedQuery = apiclient.ErrUnsupportedQuery
)

// Error is the error of a failed request: the service, the request with
// the key redacted, the number of attempts and the cause.
type Error = apiclient.Error

// StatusError is the cause of an Error when Mojeek's final HTTP answer was
// not 2xx: the status, a Retry-After wait, a safe snippet of the body and
// the header.
type StatusError = apiclient.StatusError
