package brave

import (
	"fmt"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/provider/searchapi"
)

const (
	// DefaultBaseURL is the endpoint of Brave's web search.
	DefaultBaseURL = "https://api.search.brave.com/res/v1/web/search"
	// KeyEnv is the environment variable the example programs read the key
	// from; the package itself never reads it.
	KeyEnv = "BRAVE_API_KEY"
	// KeyHeader is the request header that carries the key.
	KeyHeader = "X-Subscription-Token"
	// MaxCount is the most results one request returns (Brave's count
	// parameter).
	MaxCount = 20
	// MaxOffset is the highest offset Brave accepts, counted in pages of
	// count results.
	MaxOffset = 9
	// MaxResults is the most results one query can yield: MaxOffset+1
	// pages of MaxCount.
	MaxResults = (MaxOffset + 1) * MaxCount
	// MaxQueryLen and MaxQueryWords are Brave's limits on q.
	MaxQueryLen   = 400
	MaxQueryWords = 50
	// DefaultRate is the request rate a Client keeps to: one per second,
	// the free plan's limit.
	DefaultRate rate.Limit = 1
)

// Options configures a Client: Key, required, BaseURL, and the Transport
// of its requests, whose zero fields mean searchapi's defaults. Its
// MaxWait also caps the wait Brave's X-RateLimit-Reset asks for, so that a
// month's quota spent ends a search at once.
type Options struct {
	// Key is the subscription token; required. It is sent in the
	// KeyHeader header and never appears in errors or printed output.
	Key string
	// BaseURL replaces DefaultBaseURL, for tests and proxies. Query
	// parameters in it are kept and sent with every request (country or
	// safesearch, say).
	BaseURL string
	searchapi.Transport
}

// Format prints o with its Key redacted, whatever the verb.
func (o Options) Format(f fmt.State, verb rune) { searchapi.FormatOptions(f, o, "") }

// Client searches Brave's own index, with the methods of
// searchapi.Client: Search asks for pages of min(limit, MaxCount) results
// at offsets up to MaxOffset while Brave says more results are available,
// up to MaxResults, and refuses a query over Brave's length limits
// (MaxQueryLen, MaxQueryWords). Brave reports no hit count, so a Client
// has no HitCount.
type Client struct{ *searchapi.Client }

// New returns a Client for o, or the error of searchapi.New: o.Key is
// required, o.BaseURL must be empty or an http or https URL.
func New(o Options) (*Client, error) {
	return searchapi.New[Client](engine, o.BaseURL, o.Key, o.Transport)
}
