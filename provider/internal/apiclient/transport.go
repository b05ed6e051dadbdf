package apiclient

import (
	"net/http"
	"time"

	"golang.org/x/time/rate"
)

// Transport says how a Client sends its requests: through which HTTP
// client, how fast, how often it tries again, how long it waits and where
// it may be redirected. Client embeds it, and package provider/searchapi
// exports it as its Transport, which every search engine package's Options
// embeds, so that these fields are declared and documented once and mean
// the same for every service.
//
// The zero value is ready to use: a zero (or negative) field means the
// default its comment names. A Transport holds no secret.
type Transport struct {
	// HTTP carries the requests; nil means a client of the Client's own
	// that uses no proxy. Its CheckRedirect, when set, is asked after the
	// Client's own redirect policy (MaxRedirects, CrossHostRedirects, no
	// Referer), which it cannot loosen; its Timeout, when set, applies
	// besides Timeout.
	HTTP *http.Client
	// UserAgent is sent with every request that does not set its own;
	// empty means DefaultUserAgent, relink's, the one provider/web sends
	// for pages.
	UserAgent string

	// Rate is how many requests per second may start, Burst how many may
	// start at once after a quiet spell. Every attempt counts, and the
	// requests of one Client share them (share one Client per key, so that
	// the key's quota holds). Zero or less means DefaultRate (1/s) and
	// DefaultBurst (1), the most the free plans of the search APIs allow;
	// rate.Inf turns the limit off.
	Rate  rate.Limit
	Burst int

	// Attempts is how many times a request is tried; zero or less means
	// DefaultAttempts (5, as many as provider/web tries a page: the
	// paper's five, §3.1), and 1 turns retries off. Network errors,
	// timeouts, cut bodies and the statuses 408, 429 and 5xx (but 501 and
	// 505) are tried again; any other answer is final, and so are a
	// redirect loop, a host name that does not exist and a TLS failure.
	Attempts int
	// Backoff is the wait before the second attempt, doubled before each
	// later one up to MaxBackoff; each wait is drawn at random from its
	// upper half. Zero or less means DefaultBackoff (1 s) and
	// DefaultMaxBackoff (30 s).
	Backoff    time.Duration
	MaxBackoff time.Duration
	// MaxWait is the longest wait a service asks for that is obeyed: a
	// Retry-After header (seconds or an HTTP date), or what Client.Wait
	// reads instead (Brave's X-RateLimit-Reset); such a wait replaces the
	// backoff. A longer one (a day's quota spent, say) makes the answer
	// final at once, and its StatusError.RetryAfter says how long; for a
	// 429 the error matches ErrRateLimited. Zero or less means
	// DefaultMaxWait (1 min).
	MaxWait time.Duration

	// Timeout bounds one attempt, from connecting to the last byte of the
	// body, so that a server that never answers or trickles its body (or a
	// metasearch engine such as SearXNG waiting for its slowest engine) is
	// cut off, and the attempt fails with ErrTimeout. Zero or less means
	// DefaultTimeout (30 s). Waits for the rate limit and between attempts
	// are not part of it: the caller's context bounds those.
	Timeout time.Duration

	// CrossHostRedirects lets a redirect lead to another host (or port)
	// than the request's, or from https to http. Off, the default, such a
	// redirect ends the attempt with an error wrapping ErrRedirectRefused,
	// and nothing is sent there: an API's base URL names the one host the
	// user trusts with the key. On, the redirect is followed, but without
	// the headers and query parameters that carry the key (Client.Secrets),
	// the base URL's credentials, Authorization and Cookie, so that the key
	// still stays home (and the other host will likely refuse the
	// request). No request ever carries a Referer, which would name the
	// key.
	CrossHostRedirects bool
}
