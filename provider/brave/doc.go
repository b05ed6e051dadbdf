// Package brave searches the web with the Brave Search API, Brave's own
// independent index, as a lexsig.Searcher: the search engine of the paper's
// pipeline (§3.2 "Searching"), where the paper used Yahoo! BOSS, which no
// longer exists.
//
//	c, err := brave.New(brave.Options{Key: os.Getenv(brave.KeyEnv)})
//	...
//	results, err := c.Search(ctx, sig.Query(lexsig.Conjunctive), 100)
//
// # The API
//
// A Client sends GET https://api.search.brave.com/res/v1/web/search with
// the key in the X-Subscription-Token header and the parameters q, count
// (at most MaxCount, 20) and offset (pages of count results to skip, at
// most MaxOffset, 9), and reads web.results[] (url, title, description).
// So one query yields at most MaxResults, 200, results: ten pages of
// twenty. Brave says pages may overlap; a URL already seen on an earlier
// page is dropped, and ranks count the distinct URLs in order. Brave
// reports no total hit count, so this package offers no HitCount; use
// provider/google, provider/mojeek or a local index for document
// frequencies.
//
// Queries: lexsig.Query.String renders the query as Brave expects it:
// terms separated by spaces (Brave's default is every term), " OR "
// between the terms of a disjunctive query, a phrase in double quotes. A
// query longer than Brave's limit of 400 characters or 50 words is refused
// with searchapi.ErrUnsupportedQuery before any request.
//
// Quotas: Brave's free plan allows one request per second and a monthly
// quota; DefaultRate keeps to the first. Brave sends no Retry-After but
// X-RateLimit-Limit, -Remaining and -Reset, each a comma-separated list
// with one value per window of X-RateLimit-Policy ("1, 1419704": the
// second's and the month's), as its documentation's Response Headers page
// describes. A 429 for the second's rate (error code RATE_LIMITED) is
// retried after the reset of the spent window. A 429 for the quota (code
// QUOTA_LIMITED, or the month's window with nothing remaining) is not
// retried: it stops the Client until the month's reset, and every Search
// until then fails at once with ErrQuotaExceeded, without a request. Every
// page is one request; only successful requests count against the quota.
//
// # Errors
//
// The errors are searchapi's, the same for every engine: a failed request
// wraps a *searchapi.Error, and ErrRateLimited (429: the second's rate or
// the month's quota of the key is spent; the *searchapi.StatusError's
// Header holds Brave's X-RateLimit-* headers), ErrUnauthorized (401 or
// 403: a wrong key, or a plan without web search), ErrMalformed,
// ErrTimeout, ErrTooLarge or a *searchapi.StatusError. A query over
// Brave's limits is searchapi.ErrUnsupportedQuery, a missing key
// searchapi.ErrMissingKey. The package's own error is ErrQuotaExceeded,
// for a spent quota, which also matches ErrRateLimited and
// searchapi.ErrStopped.
//
// # What the caller must do
//
// Get a key from Brave's API dashboard and pass it in Options.Key; the
// package never reads the environment (KeyEnv names the variable the
// example programs read). Share one Client per key, so its rate limit holds.
//
// # What it does not do
//
// It asks for web results only (no news, videos or summaries), sends no
// country, language or safesearch parameters (Brave's defaults apply) and
// caches nothing.
package brave
