// Package apiclient is the one HTTP layer under relink's clients of web
// APIs: provider/searchapi, which runs the search engines of
// provider/google, provider/brave, provider/marginalia, provider/mojeek and
// provider/searxng, and the web archive clients. A Client sends a request,
// retries what is worth retrying, decodes the answer and turns every
// failure into an error that a program can inspect and a person can read
// without seeing a secret.
//
//	c := &apiclient.Client{Service: "brave", Secrets: []string{"X-Subscription-Token"}}
//	req, err := http.NewRequest(http.MethodGet, "https://api.example.com/search?q=relink", nil)
//	...
//	var answer struct{ Results []struct{ URL string } }
//	err = c.GetJSON(ctx, req, &answer)
//	// errors.Is(err, apiclient.ErrRateLimited): HTTP 429 on every attempt
//	// errors.Is(err, apiclient.ErrMalformed): 2xx, but not JSON
//	// errors.As(err, new(*apiclient.StatusError)): any other final non-2xx
//
// The search engines are described, not programmed, in provider/searchapi
// (its Engine), which sends every request of every engine through a
// Client; its public names (Transport, the errors) are this package's
// fields and values under the names users may import.
//
// The archive clients (provider/wayback, provider/memento,
// provider/ccindex) share one error type, ArchiveError (each package's
// Error), and the sentinels ErrNoCapture and ErrBadURI, so that a program
// that asks several archives checks their answers once.
//
// # What a Client does
//
// Retries: up to five attempts (DefaultAttempts) after network errors,
// timeouts, cut bodies and the answers 408, 429 and 5xx other than 501 and
// 505, waiting between them with exponential backoff and jitter, or as long
// as a Retry-After header asks (seconds or an HTTP date). A Retry-After
// longer than MaxWait is not waited out: the answer is final at once and
// StatusError.RetryAfter tells the caller when to come back (an API that
// says "come back in an hour" has run out of quota, and four more requests
// would only spend more of it).
//
// An answer the service marks as final (Final: a quota spent, a bot
// detection's refusal) is not tried again, and one that says the service
// will refuse everything for a while (Stop) stops the Client: later
// requests fail at once with ErrStopped, unsent. A service that punishes
// clients which keep sending after a 429 (the Internet Archive) sets
// RateLimitPause, which pauses every request of the Client after a 429,
// and StopAfter, which stops it after that many 429s in a row.
//
// Politeness: one rate limit per Client (Rate, Burst), taken by every
// attempt, so that a program stays inside the quota the service grants a
// key. Share one Client for one key.
//
// Bounds: a timeout per attempt (from connecting to the last byte of the
// body), a cap on the bytes read (MaxBody) and on redirects (MaxRedirects),
// so a hanging server, a huge body or a redirect loop ends in an error, not
// a hang.
//
// Secrets: the values of the headers and query parameters named in
// Secrets, the literal values in Redact and the password of the URL's user
// information are replaced by "REDACTED" in every error the Client
// returns, escaped or base64-encoded forms included (a server may echo the
// Authorization header): in the URL it names, in a *url.Error it wraps,
// and in a snippet of the body.
//
// Redirects: no request carries a Referer (net/http would send the previous
// URL, key and all). A redirect to another host or port, or from https to
// http, is refused (ErrRedirectRefused) unless CrossHostRedirects is set,
// and even then the secrets, Authorization and Cookie stay behind.
//
// # What the caller must do
//
// Build the request (NewGet builds a GET from a base URL that ParseBaseURL
// checked, query parameters and headers); name the headers and parameters
// that carry secrets in Secrets, or the secret values in Redact when they
// travel elsewhere, such as in the URL path.
// Check what it decoded: GetJSON checks that the body is JSON, not that it
// holds the fields the service documents.
//
// Package apitest, beside this one, is the shared test suite of the search
// clients built on provider/searchapi.
//
// # What it does not do
//
// It does not read environment variables or proxy settings (give an HTTP
// client with a Transport for a proxy), refuse private addresses (API base
// URLs come from the program, not from links found on the web; use
// provider/web to fetch pages), obey robots.txt, or cache answers.
package apiclient
