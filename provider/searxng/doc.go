// Package searxng searches the web through a SearXNG instance, a
// metasearch engine one runs oneself, as a lexsig.Searcher: the search
// engine of the paper's pipeline (§3.2 "Searching"), where the paper used
// Yahoo! BOSS, which no longer exists.
//
//	c, err := searxng.New(searxng.Options{BaseURL: os.Getenv(searxng.URLEnv)})
//	...
//	results, err := c.Search(ctx, sig.Query(lexsig.Conjunctive), 100)
//
// # The API
//
// A Client sends GET {BaseURL}/search with the parameters q, format=json
// and pageno (1 first), and reads results[] (url, title, content, score)
// and, where an instance older than 2026-05-25 still sends it,
// number_of_results. The JSON format must be enabled on the instance
// (json among search.formats in its settings.yml): an instance without it
// answers 403 Forbidden, which a Client reports as an error wrapping
// ErrJSONDisabled that says so. Many public instances have it disabled, and
// ask not to be used by programs: run your own.
//
// The limiter: SearXNG's limiter (server.limiter in settings.yml, on in
// its Docker setup) runs bot detection on every /search request and
// answers 429 with the body "Too Many Requests" to one whose Accept does
// not name text/html, whose Accept-Encoding names neither gzip nor
// deflate, that has no Accept-Language, says "Connection: close" or
// whose User-Agent looks like a bot's or a library's (curl, python,
// Go-http-client, ...). A Client sends "Accept: application/json,
// text/html;q=0.5", an Accept-Language (Options.Language, or "*"), Go's
// "Accept-Encoding: gzip" and relink's User-Agent, which all pass. The
// limiter's rate limit answers the same 429, and it allows an address
// only 4 requests an hour in a format other than HTML (ip_limit's
// API_MAX in an API_WINDOW of 3600 s), so an instance with the limiter on
// is of no use to a program: turn it off, or list the program's address
// under pass_ip in limiter.toml. A Client does not retry the limiter's
// 429 (retrying would only count against it): it reports ErrLimiter and
// stops for an hour. A 429 that is not the limiter's (a proxy's, with a
// Retry-After or another body) is rate limiting like any engine's, and is
// retried.
//
// The instance decides how many results a page holds (about ten for each
// engine it asks) and pages often overlap, so a Client drops a URL it has
// already seen and ranks the distinct URLs in order. A Search stops at
// limit, at MaxResults, 1000 (the depth the paper scored, §3.2), after
// MaxPages pages (Options.MaxPages), or at a page that brings no new URL.
// The rank order is SearXNG's merge of its engines' rankings, not any one
// engine's.
//
// When every engine fails (time-outs, CAPTCHAs, bans) SearXNG answers with
// no results and lists them in unresponsive_engines; a Client reports that
// as an error wrapping ErrEnginesFailed, not as "no results", so that an
// evaluation does not count a failure as a miss.
//
// Queries: lexsig.Query.String renders the query: terms separated by
// spaces, " OR " between the terms of a disjunctive query, a phrase in
// double quotes. SearXNG passes the text on to its engines as it is, so OR
// and quotes mean what each engine makes of them (Google, Bing, Brave and
// DuckDuckGo read both).
//
// Hit counts: number_of_results was what the engines that report one said,
// and most did not; SearXNG removed the field from its JSON on
// 2026-05-25 (commit dd27fce3b, "drop meaningless field", #6130). HitCount
// returns it where an older instance sends a count, and fails with
// ErrNoHitCount when there is none: the field missing (then the Client
// remembers, and every later HitCount fails at once, without a request),
// or zero beside results. A DF is never built from missing counts.
//
// # Errors
//
// A failed request wraps a *searchapi.Error, and searchapi's
// ErrRateLimited (429: the instance's limiter, or a proxy, refused the
// client),
// ErrUnauthorized (401 or 403), ErrMalformed (not SearXNG's JSON, such as
// its HTML result page), ErrTimeout, ErrTooLarge or a
// *searchapi.StatusError, the same for every engine. This package adds
// ErrMissingBaseURL (from New), ErrJSONDisabled (a 403, which also matches
// ErrUnauthorized), ErrLimiter (which also matches ErrRateLimited and
// searchapi.ErrStopped), ErrEnginesFailed and ErrNoHitCount.
//
// # What the caller must do
//
// Run an instance (or get permission to use one), enable the JSON format,
// choose its engines, and pass its URL in Options.BaseURL; the package
// never reads the environment (URLEnv names the variable the example
// programs read). An instance behind basic authentication takes the
// credentials in the URL (https://user:password@host/); they never appear
// in an error or in String, not even base64-encoded as an instance that
// echoes the Authorization header shows them. Other authentication needs
// an Options.HTTP whose Transport adds the credentials.
//
// # What it does not do
//
// It chooses no categories, engines or language unless Options says so,
// and caches nothing.
package searxng
