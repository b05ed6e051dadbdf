package searchapi

import (
	"net/http"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/provider/internal/apiclient"
)

// Transport says how a Client sends its requests: through which HTTP
// client, how fast, how often it tries again, how long it waits and where
// it may be redirected. Every engine package's Options embeds it, so these
// fields mean the same for every engine:
//
//	c, err := brave.New(brave.Options{Key: key, Transport: searchapi.Transport{Attempts: 3}})
//
// The zero value is ready to use: every zero field means the default
// its comment names. A Transport holds no secret.
type Transport struct {
	// HTTP carries the requests; nil means a client of the package's own
	// that uses no proxy. Its CheckRedirect, when set, is asked after the
	// Client's own redirect policy, which it cannot loosen; its Timeout,
	// when set, applies besides Timeout.
	HTTP *http.Client
	// UserAgent is sent with every request; empty means relink's, the
	// User-Agent provider/web sends for pages.
	UserAgent string

	// Rate is how many requests per second may start, Burst how many may
	// start at once after a quiet spell; every attempt counts, and the
	// requests of one Client share them (share one Client per key, so
	// that the key's quota holds). Zero means 1/s and 1, the most the
	// free plans of the search APIs allow; rate.Inf turns the limit off.
	Rate  rate.Limit
	Burst int

	// Attempts is how many times a request is tried; zero means 5 (as
	// many as provider/web tries a page, the paper's five, §3.1), and 1
	// turns retries off. Network errors, timeouts, cut bodies and the
	// statuses 408, 429 and 5xx (but 501 and 505) are tried again; any
	// other answer is final.
	Attempts int
	// Backoff is the wait before the second attempt, doubled before each
	// later one up to MaxBackoff, drawn at random from the upper half.
	// Zero means 1 s and 30 s.
	Backoff    time.Duration
	MaxBackoff time.Duration
	// MaxWait caps a wait the service asks for (Retry-After, or what the
	// engine reads instead, such as Brave's X-RateLimit-Reset) that is
	// obeyed; a longer one, such as a day's quota spent, makes the answer
	// final at once, an error matching ErrRateLimited whose StatusError
	// says how long. Zero means 1 min.
	MaxWait time.Duration

	// Timeout bounds one attempt, from connecting to the last byte of the
	// body (a metasearch engine such as SearXNG waits for its slowest
	// engine first); an attempt cut off fails with ErrTimeout. Zero means
	// 30 s. The caller's context bounds the whole call, waits included.
	Timeout time.Duration

	// CrossHostRedirects lets an answer redirect to another host (or
	// port) than the base URL's, or from https to http. Off, the default,
	// such an answer is an error wrapping ErrRedirectRefused and nothing
	// is sent there. On, the redirect is followed without the key (its
	// header or query parameter), the base URL's credentials,
	// Authorization and Cookie. No request ever carries a Referer, which
	// would name the key.
	CrossHostRedirects bool
}

// client returns the apiclient.Client that sends the requests for t.
func (t Transport) client() *apiclient.Client {
	return &apiclient.Client{
		HTTP:               t.HTTP,
		UserAgent:          t.UserAgent,
		Rate:               t.Rate,
		Burst:              t.Burst,
		Attempts:           t.Attempts,
		Backoff:            t.Backoff,
		MaxBackoff:         t.MaxBackoff,
		MaxWait:            t.MaxWait,
		Timeout:            t.Timeout,
		CrossHostRedirects: t.CrossHostRedirects,
	}
}
