// Package google searches the web with Google Programmable Search (the
// Custom Search JSON API) as a lexsig.Searcher, the search engine of the
// paper's pipeline (§3.2 "Searching") where the paper used Yahoo! BOSS,
// which no longer exists, and answers hit counts for document frequencies
// (§2.1 "TFIDF").
//
//	c, err := google.New(google.Options{Key: os.Getenv(google.KeyEnv), CX: os.Getenv(google.CXEnv)})
//	...
//	results, err := c.Search(ctx, sig.Query(lexsig.Conjunctive), 100)
//	df := lexsig.DFFunc(c.HitCount).WithDocs(webSize)
//
// # The end of the API
//
// Google has closed the Custom Search JSON API to new customers, and has
// told existing customers that it ends on 1 January 2027: they must move to
// Vertex AI Search (which searches a customer's own sites, up to 50
// domains, not the whole web) or ask Google for its paid whole-web offer
// before then. "Search the entire web" can no longer be switched on for a
// new search engine. This package serves those who still have a key and a
// whole-web engine until then; provider/brave, provider/mojeek,
// provider/marginalia and provider/searxng do not depend on Google.
//
// # The API
//
// A Client sends GET https://www.googleapis.com/customsearch/v1 with the
// parameters key, cx (the Programmable Search Engine ID), q, start (1
// first) and num (1 to MaxNum, 10), and reads items[] (link, title). Google
// returns at most the first MaxResults, 100, results of a query: start +
// num - 1 may not pass 100, so a Search makes at most ten requests, and
// each counts against the key's quota (100 queries a day free). The hit
// count is searchInformation.totalResults, a decimal string, Google's
// estimate of the number of matching pages.
//
// Queries: lexsig.Query.String renders the query as Google expects it:
// terms separated by spaces (every term required), " OR " between the
// terms of a disjunctive query, a phrase in double quotes. Google ignores
// words past the 32nd.
//
// # Errors
//
// The errors are searchapi's, the same for every engine, and
// ErrQuotaExceeded: a failed request wraps a *searchapi.Error, and
// ErrRateLimited (429: the per-minute quota, tried again after a wait, or
// the day's), ErrUnauthorized (401 or 403: a wrong or restricted key, an
// API not enabled for the project; and Google's 400 "API key not valid"),
// ErrMalformed (not Google's JSON, or a hit count that is not a number),
// ErrTimeout, ErrTooLarge or a *searchapi.StatusError (its Snippet quotes
// Google's reason, such as "rateLimitExceeded"). New fails with
// ErrMissingEngine or searchapi.ErrMissingKey.
//
// The day's quota spent is a 429 RESOURCE_EXHAUSTED whose message names
// the limit "Queries per day" (an ErrorInfo detail names its quota_limit,
// DefaultPerDayPerProject), as recorded from the API; the older form is a
// 403 dailyLimitExceeded. Either is not tried again: the Client stops for
// its life, and every later Search and HitCount fails at once with
// ErrQuotaExceeded, without a request (the quota resets at midnight
// Pacific Time, which the answer does not say).
//
// # What the caller must do
//
// Pass the API key and the engine ID in Options (and Options.Transport for
// other rates, retries or timeouts); the package never reads
// the environment (KeyEnv and CXEnv name the variables the example
// programs read). Share one Client per key, so its rate limit holds. For a
// DF from hit counts, choose |D|: the paper took an estimate of the size
// of the indexed web from worldwidewebsize.com (§2.1).
//
// # What it does not do
//
// It sends no language, country, safe-search or site restrictions (the
// engine's own settings apply), asks for web results only (no image
// search) and caches nothing: wrap HitCount in a DF cache for repeated
// terms.
package google
