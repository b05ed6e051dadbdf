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
// page, 1 to MaxCount, 100), page (1 first) and dc (results of one domain
// a page may hold, 1 to MaxPerDomain; Options.PerDomain, by default 100:
// Marginalia's own default of 2 hides a site's other pages), and reads
// results[] (url, title, description). Marginalia documents no deepest
// page; a Search stops at MaxResults, 1000 (the depth the paper scored,
// §3.2), at a page shorter than count, or at an empty page. Marginalia
// reports no total hit count, so this package offers no HitCount.
//
// Keys: the key PublicKey ("public") is open to everyone for trying the
// API; it is shared by all its users and often rate limited. A key of
// one's own comes from Marginalia by e-mail (2,000 queries a day for a
// free one, in its API server's source); the results are licensed
// CC-BY-NC-SA 4.0 unless agreed otherwise. The older API form,
// api.marginalia.nu/{key}/search/{query}, carried the key in the path;
// this package uses the header form.
//
// Queries: terms separated by spaces (Marginalia matches every term) and a
// phrase in double quotes, which makes Marginalia read the query as
// literally as it can, as lexsig.Query.String renders them. Marginalia has
// no OR operator, so a disjunctive query of more than one term is refused
// with searchapi.ErrUnsupportedQuery before any request rather than run as a
// different query.
//
// # Limits
//
// Marginalia counts a key's queries a minute and a day, and answers 429
// when either is spent, without Retry-After (its API server, ApiV2): the
// minute's with the body "QPM Limit Exceeded"; the day's with "Daily
// Limit Exceeded" and the headers API-Event-Type: OverLimitBlock and
// API-Remaining-Daily-Capacity: 0. A Client waits the minute out: every
// request of the Client pauses for Options.RateLimitPause (a minute), then
// the request is tried again. The day's limit is final: the Client stops
// for its life, and every later Search fails at once with ErrDailyLimit,
// without a request. A 503 comes only from the API's filter updates past
// the minute's limit, which a Client does not make; like any 5xx it is
// tried again.
//
// # Errors
//
// The errors are searchapi's, the same for every engine, and
// ErrDailyLimit: a failed request wraps a *searchapi.Error, and
// ErrRateLimited (429: the minute's limit past its pause, or the day's,
// which also matches ErrDailyLimit and ErrStopped), ErrUnauthorized (401
// or 403: a wrong key), ErrMalformed, ErrTimeout, ErrTooLarge or a
// *searchapi.StatusError (a 500 or 504: the query failed or took too
// long). A disjunctive query is searchapi.ErrUnsupportedQuery, a missing
// key searchapi.ErrMissingKey.
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
// It sends none of the other optional parameters (nsfw, filter, timeout,
// lang; put them in BaseURL's query to send them with every request),
// uses neither the unranked search nor the site information endpoints,
// and caches nothing. Marginalia indexes a small part of the web, mostly text-heavy
// personal and academic sites: many missing pages will not be in it.
package marginalia
