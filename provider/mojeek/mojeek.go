package mojeek

import (
	"fmt"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/provider/searchapi"
)

const (
	// DefaultBaseURL is the endpoint of Mojeek's search API.
	DefaultBaseURL = "https://api.mojeek.com/search"
	// KeyEnv is the environment variable the example programs read the key
	// from; the package itself never reads it.
	KeyEnv = "MOJEEK_API_KEY"
	// KeyParam is the query parameter that carries the key.
	KeyParam = "api_key"
	// DefaultPageSize is the number of results asked for per request,
	// Mojeek's documented default for t.
	DefaultPageSize = 10
	// MaxResults is the most results one query yields: the depth the paper
	// scored (§3.2), since Mojeek documents no limit of its own.
	MaxResults = 1000
	// DefaultRate is the request rate a Client keeps to: one per second.
	DefaultRate rate.Limit = 1
)

// Options configures a Client: Key, required, BaseURL, PageSize, and the
// Transport of its requests, whose zero fields mean searchapi's defaults.
type Options struct {
	// Key is the API key; required. It is sent as the KeyParam query
	// parameter and never appears in errors or printed output.
	Key string
	// BaseURL replaces DefaultBaseURL, for tests and proxies. Query
	// parameters in it are kept and sent with every request (rb, lb or
	// site, say).
	BaseURL string
	// PageSize is the t parameter, results per request; zero means
	// DefaultPageSize (10). Larger pages spend fewer requests of the
	// key's quota, if the key's plan allows them.
	PageSize int
	searchapi.Transport
}

// Format prints o with its Key redacted, whatever the verb.
func (o Options) Format(f fmt.State, verb rune) { searchapi.FormatOptions(f, o, "") }

// Client searches Mojeek's own index and answers its hit counts, with the
// methods of searchapi.Counter: Search asks for pages of PageSize results
// (fewer for the last) until the total count is reached, up to
// MaxResults, and refuses a disjunctive query of several terms; HitCount
// is response.head.results. An answer whose response.status is not OK is
// an error wrapping ErrStatus.
type Client struct{ *searchapi.Counter }

// New returns a Client for o, or the error of searchapi.New: o.Key is
// required, o.BaseURL must be empty or an http or https URL.
func New(o Options) (*Client, error) {
	return searchapi.NewCounter[Client](engine(o.PageSize), o.BaseURL, o.Key, o.Transport)
}
