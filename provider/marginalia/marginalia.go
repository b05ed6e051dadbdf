package marginalia

import (
	"fmt"

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
	// DefaultRate is the request rate a Client keeps to: one per second.
	DefaultRate rate.Limit = 1
)

// Options configures a Client: Key (PublicKey if nothing else), BaseURL,
// and the Transport of its requests, whose zero fields mean searchapi's
// defaults.
type Options struct {
	// Key is the API key, PublicKey for the shared one; required. It is
	// sent in the KeyHeader header and, unless it is PublicKey, never
	// appears in errors or printed output, nor goes to another host.
	Key string
	// BaseURL replaces DefaultBaseURL, for tests and proxies. Query
	// parameters in it are kept and sent with every request (dc or nsfw,
	// say).
	BaseURL string
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
	return searchapi.New[Client](engine, o.BaseURL, o.Key, o.Transport)
}
