package searxng

import "errors"

// Errors of SearXNG's own a Client returns; match them with errors.Is. Its
// other errors are searchapi's (see the package documentation).
var (
	// ErrMissingBaseURL means New was given no instance URL.
	ErrMissingBaseURL = errors.New("searxng: missing instance URL")
	// ErrJSONDisabled means the instance answered 403 Forbidden, which is
	// SearXNG's answer when the JSON format is not enabled: add json to
	// search.formats in its settings.yml. The error also matches
	// searchapi.ErrUnauthorized.
	ErrJSONDisabled = errors.New("searxng: JSON format not enabled on the instance (add json to search.formats in settings.yml)")
	// ErrEnginesFailed means an answer with no results in which SearXNG
	// lists unresponsive engines: the search failed, rather than found
	// nothing.
	ErrEnginesFailed = errors.New("searxng: every engine failed")
	// ErrNoHitCount means the engines behind the instance reported no hit
	// count for a query that has results.
	ErrNoHitCount = errors.New("searxng: no hit count reported")
)
