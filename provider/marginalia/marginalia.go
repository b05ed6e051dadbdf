package marginalia

import (
	"errors"
	"fmt"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/provider/searchapi"
)

const (
	// DefaultBaseURL is the endpoint of Marginalia's search API.
	DefaultBaseURL = "https://api2.marginalia-search.com/search"
	// KeyEnv is the environment variable the example programs read the key
	// from; the package itself never reads it.
	KeyEnv = "MARGINALIA_API_KEY"
	// KeyHeader is the request header that carries the key.
	KeyHeader = "API-Key"
	// PublicKey is the key Marginalia leaves open for trying the API,
	// shared by all its users and often rate limited.
	PublicKey = "public"
	// MaxCount is the most results one request returns (the count
	// parameter).
	MaxCount = 100
	// MaxResults is the most results one query yields: the depth the paper
	// scored (§3.2), since Marginalia documents no limit of its own.
	MaxResults = 1000
	// MaxPerDomain is the most results of one domain a page may hold that
	// Marginalia accepts (the dc parameter, documented as 1 to 100). Left
	// out, dc is 2, which hides a site's other pages: the ones relink
	// looks for when a page moved within its site.
	MaxPerDomain = 100
	// DefaultPerDomain is the dc a Client sends when Options.PerDomain is
	// zero: MaxPerDomain.
	DefaultPerDomain = MaxPerDomain
	// DefaultRate is the request rate a Client keeps to: one per second.
	DefaultRate rate.Limit = 1
	// DefaultRateLimitPause is how long every request of a Client waits
	// after Marginalia answered that the key's queries a minute are spent
	// ("QPM Limit Exceeded", a 429 that names no wait): a minute, the
	// window in which the limit refills.
	DefaultRateLimitPause = time.Minute
)

// ErrDailyLimit means Marginalia answered that the key's queries of the
// day are spent: a 429 "Daily Limit Exceeded", with the header
// API-Event-Type OverLimitBlock (and API-Remaining-Daily-Capacity 0).
// Asking again that day only fails again, so the answer is not retried
// and the Client stops: every later Search fails at once, without a
// request, for the Client's life (Marginalia names no reset; its API
// server refills the day's queries at 08:00 UTC). The error also matches
// searchapi.ErrRateLimited and searchapi.ErrStopped.
var ErrDailyLimit = errors.New("marginalia: the key's queries of the day are spent")

// Options configures a Client: Key (PublicKey if nothing else), BaseURL,
// PerDomain, RateLimitPause, and the Transport of its requests, whose zero
// fields mean searchapi's defaults.
type Options struct {
	// Key is the API key, PublicKey for the shared one; required. It is
	// sent in the KeyHeader header and, unless it is PublicKey, never
	// appears in errors or printed output, nor goes to another host.
	Key string
	// BaseURL replaces DefaultBaseURL, for tests and proxies. Query
	// parameters in it are kept and sent with every request (nsfw, say),
	// but for those a Client sets itself (query, count, page, dc).
	BaseURL string
	// PerDomain is the most results of one domain a page holds (dc).
	// Zero or less means DefaultPerDomain; more than MaxPerDomain means
	// MaxPerDomain, as Marginalia itself reads it.
	PerDomain int
	// RateLimitPause is how long every request of the Client waits after
	// a 429 that is not the day's limit (the minute's queries spent).
	// Zero or less means DefaultRateLimitPause. A pause longer than the
	// Transport's MaxWait is not waited: Searches fail at once with
	// searchapi.ErrRateLimited until it ends.
	RateLimitPause time.Duration
	searchapi.Transport
}

// Format prints o with its Key redacted (unless it is PublicKey), whatever the verb.
func (o Options) Format(f fmt.State, verb rune) { searchapi.FormatOptions(f, o, PublicKey) }

// Client searches Marginalia's index of the small web, with the methods
// of searchapi.Client: Search asks for pages of min(limit, MaxCount)
// results until one comes back short, up to MaxResults, and refuses a
// disjunctive query of several terms. Marginalia reports no hit count, so
// a Client has no HitCount.
type Client struct{ *searchapi.Client }

// New returns a Client for o, or the error of searchapi.New: o.Key is
// required (PublicKey is a key anyone may use), o.BaseURL must be empty or
// an http or https URL.
func New(o Options) (*Client, error) {
	return searchapi.New[Client](engine(o.PerDomain, o.RateLimitPause), o.BaseURL, o.Key, o.Transport)
}
