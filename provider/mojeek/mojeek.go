package mojeek

import (
	"fmt"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/lexsig"
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

// Client searches with the Mojeek Search API and answers Mojeek's hit
// counts, with the methods of searchapi.Counter. Search asks for pages of
// PageSize results (fewer for the last) until the total count is reached,
// up to MaxResults; it refuses a disjunctive query of several terms with
// searchapi.ErrUnsupportedQuery before any request; results carry no
// score. HitCount is response.head.results, the number of documents Mojeek
// says match. An answer whose response.status is not OK is an error
// wrapping ErrStatus. It is safe for concurrent use; its requests share
// one rate limit.
type Client struct {
	*searchapi.Counter
}

var _ lexsig.Searcher = (*Client)(nil)

// New returns a Client for o. It fails with an error wrapping
// searchapi.ErrMissingKey when o.Key is empty, and when o.BaseURL is not
// an absolute http or https URL.
func New(o Options) (*Client, error) {
	size := o.PageSize
	if size <= 0 {
		size = DefaultPageSize
	}
	c, err := searchapi.NewCounter(engine(size), o.BaseURL, o.Key, o.Transport)
	if err != nil {
		return nil, err
	}
	return &Client{c}, nil
}
