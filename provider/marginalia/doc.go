// Package marginalia searches the web with the Marginalia Search API, a
// small independent index of the non-commercial web, as a
// lexsig.Searcher: the search engine of the paper's pipeline (§3.2
// "Searching"), where the paper used Yahoo! BOSS, which no longer exists.
//
//	c, err := marginalia.New(marginalia.Options{Key: marginalia.PublicKey})
//	...
//	results, err := c.Search(ctx, sig.Query(lexsig.Conjunctive), 100)
//
// # The API
//
// A Client sends GET https://api2.marginalia-search.com/search with the key
// in the API-Key header and the parameters query, count (results per
// page, 1 to MaxCount, 100) and page (1 first), and reads results[] (url,
// title, description). Marginalia documents no deepest page; a Search
// stops at MaxResults, 1000 (the depth the paper scored, §3.2), at a page
// shorter than count, or at an empty page. Marginalia reports no total hit
// count, so this package offers no HitCount.
//
// Keys: the key PublicKey ("public") is open to everyone for trying the
// API; it is shared by all its users and often rate limited (an answer of
// 429 or 503, which a Client retries). A key of one's own comes from
// Marginalia by e-mail; the results are licensed CC-BY-NC-SA 4.0 unless
// agreed otherwise. The older API form, api.marginalia.nu/{key}/search/
// {query}, carried the key in the path; this package uses the header form.
//
// Queries: terms separated by spaces (Marginalia matches every term) and a
// phrase in double quotes, which makes Marginalia read the query as
// literally as it can, as lexsig.Query.String renders them. Marginalia has
// no OR operator, so a disjunctive query of more than one term is refused
// with searchapi.ErrUnsupportedQuery before any request rather than run as a
// different query.
//
// # Errors
//
// The errors are searchapi's, the same for every engine: a failed request
// wraps a *searchapi.Error, and ErrRateLimited (429; the public key's
// limit is also answered with 503, which ends as a *searchapi.StatusError
// with Status 503), ErrUnauthorized (401 or 403: a wrong key),
// ErrMalformed, ErrTimeout, ErrTooLarge or a *searchapi.StatusError. A
// disjunctive query is searchapi.ErrUnsupportedQuery, a missing key
// searchapi.ErrMissingKey. The package has no errors of its own.
//
// # What the caller must do
//
// Pass a key in Options.Key, PublicKey if nothing else; the package never
// reads the environment (KeyEnv names the variable the example programs
// read). Share one Client per key, so its rate limit holds. Keep to the
// licence of the results.
//
// # What it does not do
//
// It sends none of the optional parameters (dc, nsfw, filter, timeout; put
// them in BaseURL's query to send them with every request) and caches
// nothing. Marginalia indexes a small part of the web, mostly text-heavy
// personal and academic sites: many missing pages will not be in it.
package marginalia
