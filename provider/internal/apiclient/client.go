package apiclient

import (
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/internal/retry"
	"github.com/linkrot/relink/internal/useragent"
)

// Defaults of the Client fields; a zero (or negative, where that has no
// meaning of its own) field means the default.
const (
	// DefaultAttempts is how many times a request is tried, as many as
	// provider/web tries a page (the paper's five, §3.1 "HTTP Status
	// Codes").
	DefaultAttempts = 5
	// DefaultBackoff is the wait before the second attempt; it doubles
	// before each later one, with jitter.
	DefaultBackoff = retry.DefaultFirst
	// DefaultMaxBackoff caps the wait between two attempts.
	DefaultMaxBackoff = retry.DefaultMax
	// DefaultMaxWait caps a Retry-After wait the Client will honour.
	DefaultMaxWait = time.Minute
	// DefaultTimeout bounds one attempt, from connecting to the last byte
	// of the body.
	DefaultTimeout = 30 * time.Second
	// DefaultMaxBody caps the bytes of a body read, 10 MiB: far more than
	// any page of search results, and as much as provider/web keeps of a
	// page, for archived captures.
	DefaultMaxBody int64 = 10 << 20
	// DefaultMaxRedirects is how many redirects one attempt follows, as
	// many as net/http's own client.
	DefaultMaxRedirects = 10
	// DefaultRate is how many requests per second a Client starts: one,
	// the most that the free plans of the search APIs allow.
	DefaultRate rate.Limit = 1
	// DefaultBurst is how many requests may start at once after a quiet
	// spell: one.
	DefaultBurst = 1
)

// DefaultUserAgent is the User-Agent a Client sends unless told otherwise:
// relink's, the one provider/web sends for pages.
const DefaultUserAgent = useragent.Default

// Client sends requests to one web API for one key. The zero value is ready
// to use with the defaults named in the field comments.
//
// A Client is safe for concurrent use by many goroutines, which then share
// its rate limit. Set the fields before the first request and do not change
// or copy the Client afterwards.
type Client struct {
	// Service names the API in errors ("brave", "wayback"); empty means
	// none.
	Service string

	// Transport holds the fields that say how requests are sent (HTTP,
	// UserAgent, Rate, Burst, Attempts, Backoff, MaxBackoff, MaxWait,
	// Timeout, CrossHostRedirects), declared once for every API client.
	Transport

	// MaxBody caps the bytes of a body read; zero or less means
	// DefaultMaxBody (10 MiB). A longer body is cut (Response.Truncated),
	// which GetJSON reports as ErrTooLarge.
	MaxBody int64
	// MaxRedirects is how many redirects one attempt follows; one more is
	// an error wrapping ErrTooManyRedirects. Zero means
	// DefaultMaxRedirects (10); a negative value follows none, and the
	// 3xx answer is the Response.
	MaxRedirects int

	// Secrets names the request headers and query parameters that carry
	// secrets ("X-Subscription-Token", "key"); names of query parameters
	// are case-sensitive, those of headers are not. Their values never
	// appear in an error, and the headers are not sent on to another host
	// by a redirect.
	Secrets []string
	// Redact lists further secret values, such as a key carried in the URL
	// path, that never appear in an error. The password of a URL's user
	// information is always treated as a secret.
	Redact []string

	// Wait reads from a 429 or 5xx answer's header how long the service
	// asks the Client to wait before the next attempt, as retry.After reads
	// Retry-After; ok is false when the header says nothing. Nil means the
	// Retry-After header alone. A service that says it elsewhere (Brave's
	// X-RateLimit-Reset) sets it.
	Wait func(h http.Header, now time.Time) (d time.Duration, ok bool)

	// Final reports whether an answer that would be tried again (408,
	// 429, 5xx) is final all the same, because the service says in it
	// that asking again will not help: a quota spent, a refusal of its bot
	// detection, an archived copy of an error page. Nil means none is.
	Final func(resp *Response) bool
	// Stop reports whether a non-2xx answer stops the Client, and why: a
	// non-nil why makes the answer final, and every later request fail at
	// once, without being sent, with an error wrapping ErrStopped, why and
	// the answer's *StatusError, until the time Stop returns (the zero
	// time: for the Client's life). The answer's own error wraps why and
	// ErrStopped too. Nil means no answer stops the Client.
	Stop func(resp *Response, now time.Time) (until time.Time, why error)
	// RateLimitPause, when positive, makes a 429 answer pause the whole
	// Client: no request of any goroutine starts until RateLimitPause has
	// passed, or the Retry-After wait when that is longer. A pause longer
	// than MaxWait is not waited out; requests fail at once with
	// ErrRateLimited until it ends. Zero means the request that got the
	// 429 alone waits, as for a 5xx answer.
	RateLimitPause time.Duration
	// StopAfter, when positive, stops the Client for its life after that
	// many 429 answers in a row (as Stop does): the Internet Archive, for
	// one, blocks an address that goes on sending after its 429s. Zero
	// means no count stops the Client.
	StopAfter int

	once    sync.Once
	limiter *rate.Limiter
	hc      *http.Client
	mu      sync.Mutex // guards gate
	gate    gate
}

// String names the Client's service and nothing else, so that printing a
// Client cannot show a secret.
func (c *Client) String() string {
	return fmt.Sprintf("apiclient.Client{Service: %q}", c.Service)
}

// Format prints the Client as String does, whatever the verb, so that no
// verb (%#v, %d, ...) can show a secret.
func (c *Client) Format(f fmt.State, verb rune) { fmt.Fprint(f, c.String()) }

// init builds the rate limiter and the http.Client once.
func (c *Client) init() {
	c.once.Do(func() {
		r, b := c.Rate, c.Burst
		switch {
		case r <= 0:
			r = DefaultRate
		case math.IsInf(float64(r), 1):
			r = rate.Inf // a parsed "inf": rate.Limiter lets +Inf through only by NaN arithmetic
		}
		if b <= 0 {
			b = DefaultBurst
		}
		c.limiter = rate.NewLimiter(r, b)

		var hc http.Client
		if c.HTTP != nil {
			hc = *c.HTTP
		} else {
			t := http.DefaultTransport.(*http.Transport).Clone()
			t.Proxy = nil
			hc.Transport = t
		}
		hc.CheckRedirect = c.checkRedirect(hc.CheckRedirect)
		c.hc = &hc
	})
}

// checkRedirect follows at most MaxRedirects redirects, never sends a
// Referer (net/http sets one to the previous URL, which may hold a key in
// its query), refuses a redirect to another host or from https to http
// unless CrossHostRedirects is set, and when it is, strips the secrets from
// the redirected request. A CheckRedirect of the caller's HTTP client is
// asked last.
func (c *Client) checkRedirect(user func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		req.Header.Del("Referer")
		most := c.MaxRedirects
		switch {
		case most < 0:
			return http.ErrUseLastResponse
		case most == 0:
			most = DefaultMaxRedirects
		}
		if len(via) > most {
			return fmt.Errorf("%w (%d)", ErrTooManyRedirects, most)
		}
		from := via[0].URL
		if !strings.EqualFold(req.URL.Host, from.Host) || (from.Scheme == "https" && req.URL.Scheme != "https") {
			if !c.CrossHostRedirects {
				return fmt.Errorf("%w: to %s://%s", ErrRedirectRefused, req.URL.Scheme, req.URL.Host)
			}
			c.strip(req)
		}
		if user != nil {
			return user(req, via)
		}
		return nil
	}
}

// strip removes from req the headers and query parameters named in
// Secrets, and the credentials net/http would forward to a host it deems
// related (a subdomain).
func (c *Client) strip(req *http.Request) {
	req.Header.Del("Authorization")
	req.Header.Del("Cookie")
	req.URL.User = nil
	q := req.URL.Query()
	changed := false
	for _, name := range c.Secrets {
		req.Header.Del(name)
		if q.Has(name) {
			q.Del(name)
			changed = true
		}
	}
	if changed {
		req.URL.RawQuery = q.Encode()
	}
}

// CloseIdleConnections closes the connections kept open for later requests;
// requests in flight are not affected.
func (c *Client) CloseIdleConnections() {
	c.init()
	c.hc.CloseIdleConnections()
}

func (c *Client) attempts() int          { return orDefault(c.Attempts, DefaultAttempts) }
func (c *Client) timeout() time.Duration { return orDefault(c.Timeout, DefaultTimeout) }
func (c *Client) maxBody() int64         { return orDefault(c.MaxBody, DefaultMaxBody) }
func (c *Client) maxWait() time.Duration { return orDefault(c.MaxWait, DefaultMaxWait) }

// waitFor returns the wait the answer's header asks for (see Client.Wait).
func (c *Client) waitFor(h http.Header) (time.Duration, bool) {
	if c.Wait != nil {
		return c.Wait(h, now())
	}
	return retry.After(h.Get("Retry-After"), now())
}

// orDefault returns v, or def when v is zero or negative.
func orDefault[T int | int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}
