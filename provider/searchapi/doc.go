// Package searchapi is the one search client behind relink's web search
// engines (provider/google, provider/brave, provider/marginalia,
// provider/mojeek and provider/searxng): what they share and what a
// program names when it uses any of them. Each engine package is a
// description of its API (an Engine) and a constructor; the Client here
// runs every description with the same code.
//
//	c, err := brave.New(brave.Options{Key: key, Transport: searchapi.Transport{Attempts: 3}})
//	...
//	results, err := c.Search(ctx, sig.Query(lexsig.Conjunctive), 100)
//	if errors.Is(err, searchapi.ErrRateLimited) { ... } // the same for every engine
//
// # What every engine shares
//
// Transport: how requests are sent (HTTP client, User-Agent, rate limit,
// retries, backoff, timeouts, redirects), embedded in every engine's
// Options. Client and Counter: Search, HitCount (for the APIs that report
// hit counts), String, Format and CloseIdleConnections, which every
// engine's Client gets by embedding. The errors: ErrMissingKey,
// ErrUnsupportedQuery, ErrRateLimited, ErrUnauthorized, ErrMalformed,
// ErrTooLarge, ErrTimeout, ErrTooManyRedirects, ErrRedirectRefused and ErrStopped,
// matched with errors.Is whatever the engine, and *Error and *StatusError,
// found with errors.As. An engine package declares only errors of its own
// (Google's missing engine ID, Mojeek's status, SearXNG's failed engines),
// and says which of these its errors also match.
//
// # What a Client does
//
// It sends the engine's requests with retries (after network errors,
// timeouts, 408, 429 and most 5xx answers, waiting as the service asks
// when it says, up to Transport.MaxWait), one rate limit per Client, a
// timeout per attempt and a cap on the answer (DefaultMaxAnswer), so a
// hanging or hostile server ends in an error, not a hang. It pages through
// the results as the Engine's Paging says, drops repeats and URLs that are
// not absolute http or https (or longer than MaxURLLen), and never lets
// the key (or a password of the base URL) into an error, a printed Client
// or a request to another host: no Referer, and a redirect to another
// host is refused unless Transport.CrossHostRedirects allows it, and then
// followed without the key.
//
// # Describing an engine
//
// An Engine names the API's endpoint, where the key goes (a header or a
// query parameter), the parameters that ask for a page, how results are
// paged, which queries it cannot express, and how its decoded JSON answer
// becomes hits and a hit count: data and small functions, no HTTP. New or
// NewCounter turn it into a Client. Engine.Decode runs the decoding alone,
// for fuzz tests.
//
// # What it does not do
//
// It reads no environment variables (Engine.KeyEnv only names one in an
// error), caches no answers (wrap HitCount in a DF cache), obeys no
// robots.txt and refuses no private addresses: a base URL comes from the
// program, not from a page on the web.
package searchapi
