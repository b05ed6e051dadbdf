// Package mojeek searches the web with the Mojeek Search API, Mojeek's own
// independent index, as a lexsig.Searcher: the search engine of the
// paper's pipeline (§3.2 "Searching"), where the paper used Yahoo! BOSS,
// which no longer exists. It also answers hit counts for document
// frequencies (§2.1 "TFIDF").
//
//	c, err := mojeek.New(mojeek.Options{Key: os.Getenv(mojeek.KeyEnv)})
//	...
//	results, err := c.Search(ctx, sig.Query(lexsig.Conjunctive), 100)
//	df := lexsig.DFFunc(c.HitCount).WithDocs(mojeekSize)
//
// # The API
//
// A Client sends GET https://api.mojeek.com/search with the parameters
// api_key, q, fmt=json, s (the rank of the first result, 1 first) and t
// (results per page, DefaultPageSize, 10, unless Options.PageSize says
// otherwise), and reads response.results[] (url, title, desc) and
// response.head.results, the total count. Mojeek documents no largest t
// and no deepest result; a Search stops at MaxResults, 1000 (the depth the
// paper scored, §3.2), at the total count, or at an empty page.
//
// Mojeek puts the outcome in response.status: "OK", or "ERROR" and a
// message such as "ERROR: Daily Limit Reached", possibly with HTTP 200.
// Any status other than OK is an error wrapping ErrStatus, and also
// searchapi.ErrRateLimited when the message speaks of a limit, or
// searchapi.ErrUnauthorized when it speaks of the key.
//
// Queries: terms separated by spaces (Mojeek's default is every term) and
// a phrase in double quotes, as lexsig.Query.String renders them. Mojeek
// documents no OR operator, so a disjunctive query of more than one term
// is refused with searchapi.ErrUnsupportedQuery before any request rather than run
// as a different query.
//
// # Errors
//
// A failed request wraps a *searchapi.Error, and searchapi's
// ErrRateLimited (429), ErrUnauthorized (401 or 403), ErrMalformed (not
// Mojeek's JSON, or no response object), ErrTimeout, ErrTooLarge or a
// *searchapi.StatusError, the same for every engine. A status other than
// OK is this package's ErrStatus, which also matches ErrRateLimited or
// ErrUnauthorized as said above. A disjunctive query is
// searchapi.ErrUnsupportedQuery, a missing key searchapi.ErrMissingKey.
//
// # What the caller must do
//
// Get a key from Mojeek and pass it in Options.Key; the package never reads
// the environment (KeyEnv names the variable the example programs read).
// Share one Client per key, so its rate limit holds. For a DF from hit
// counts, choose |D|, an estimate of the size of Mojeek's index.
//
// # What it does not do
//
// It sends none of Mojeek's optional parameters (region or language
// boosts, date ranges, site restrictions; put them in BaseURL's query to
// send them with every request) and caches nothing.
package mojeek
