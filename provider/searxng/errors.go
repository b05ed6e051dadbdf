package searxng

import (
	"errors"

	"github.com/linkrot/relink/provider/internal/apiclient"
)

// Errors a Client returns; match them with errors.Is. ErrRateLimited,
// ErrUnauthorized, ErrMalformed and ErrTimeout are the same values in
// every relink search-API package, so one check covers them all.
var (
	// ErrMissingBaseURL means New was given no instance URL.
	ErrMissingBaseURL = errors.New("searxng: missing instance URL")
	// ErrJSONDisabled means the instance answered 403 Forbidden, which is
	// SearXNG's answer when the JSON format is not enabled: add json to
	// search.formats in its settings.yml. The error also matches
	// ErrUnauthorized.
	ErrJSONDisabled = errors.New("searxng: JSON format not enabled on the instance (add json to search.formats in settings.yml)")
	// ErrEnginesFailed means an answer with no results in which SearXNG
	// lists unresponsive engines: the search failed, rather than found
	// nothing.
	ErrEnginesFailed = errors.New("searxng: every engine failed")
	// ErrNoHitCount means the engines behind the instance reported no hit
	// count for a query that has results.
	ErrNoHitCount = errors.New("searxng: no hit count reported")
	// ErrRateLimited means the instance answered 429 on every attempt (its
	// limiter plugin refused the client).
	ErrRateLimited = apiclient.ErrRateLimited
	// ErrUnauthorized means the instance answered 401 or 403.
	ErrUnauthorized = apiclient.ErrUnauthorized
	// ErrMalformed means a 2xx answer that is not SearXNG's JSON, such as
	// its HTML result page.
	ErrMalformed = apiclient.ErrMalformed
	// ErrTimeout means an attempt took longer than Options.Timeout.
	ErrTimeout = apiclient.ErrTimeout
)

// Error is the error of a failed request: the service, the request, the
// number of attempts and the cause.
type Error = apiclient.Error

// StatusError is the cause of an Error when the instance's final answer
// was not 2xx: the status, a Retry-After wait, a safe snippet of the body
// and the header.
type StatusError = apiclient.StatusError
