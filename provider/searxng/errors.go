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
	// ErrNoHitCount means the answer holds no hit count: SearXNG dropped
	// number_of_results from its JSON on 2026-05-25 (commit dd27fce3b,
	// #6130), so an instance of that date or later never reports one, and
	// before it the field was 0 when no engine reported a count. Take DF
	// from another source (a DF table, a local index, Google or Mojeek).
	ErrNoHitCount = errors.New("searxng: no hit count (SearXNG no longer reports number_of_results; take DF from another source)")
	// ErrLimiter means the instance's limiter refused the request: a 429
	// whose body is SearXNG's own "Too Many Requests" (or its block list's)
	// without a Retry-After. Its bot detection and its rate limit (which
	// allows an address 4 requests an hour in a format other than HTML)
	// answer alike. The answer is not retried, and the Client stops for
	// an hour (for good after the block list's); turn the limiter off
	// (server.limiter: false in settings.yml) or list the client's
	// address under pass_ip in limiter.toml. The error also matches
	// searchapi.ErrRateLimited and searchapi.ErrStopped.
	ErrLimiter = errors.New("searxng: refused by the instance's limiter (bot detection or its 4 API requests an hour; set server.limiter: false or pass_ip in limiter.toml)")
)
