package google

import (
	"fmt"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/provider/searchapi"
)

const (
	// DefaultBaseURL is the endpoint of the Custom Search JSON API.
	DefaultBaseURL = "https://www.googleapis.com/customsearch/v1"
	// KeyEnv and CXEnv are the environment variables the example programs
	// read the API key and the engine ID from; the package itself never
	// reads them.
	KeyEnv = "GOOGLE_API_KEY"
	CXEnv  = "GOOGLE_CSE_ID"
	// KeyParam is the query parameter that carries the key.
	KeyParam = "key"
	// MaxNum is the most results one request returns (the num parameter).
	MaxNum = 10
	// MaxResults is the most results Google returns for one query.
	MaxResults = 100
	// DefaultRate is the request rate a Client keeps to: one per second.
	// Google's quota is counted per day and per minute; a day's free quota
	// (100 queries) is spent in under two minutes at this rate.
	DefaultRate rate.Limit = 1
)

// Options configures a Client: Key and CX, both required, BaseURL, and the
// Transport of its requests (rate, retries, timeouts, redirects), whose
// zero fields mean searchapi's defaults.
type Options struct {
	// Key is the API key; required. It is sent as the KeyParam query
	// parameter and never appears in errors or printed output.
	Key string
	// CX is the Programmable Search Engine ID; required. To search the
	// whole web the engine must have "Search the entire web" on.
	CX string
	// BaseURL replaces DefaultBaseURL, for tests and proxies. Query
	// parameters in it are kept and sent with every request (lr, gl or
	// safe, say).
	BaseURL string
	searchapi.Transport
}

// Format prints o with its Key redacted, whatever the verb.
func (o Options) Format(f fmt.State, verb rune) { searchapi.FormatOptions(f, o, "") }

// Client searches the whole web through a Programmable Search Engine: it
// has the methods of searchapi.Counter, Search and HitCount among them.
// Search asks for pages of up to MaxNum results while Google names a next
// page, up to MaxResults. HitCount is searchInformation.totalResults,
// Google's estimate of the pages that match, and an answer without it, or
// with one that is not a number, is an error wrapping
// searchapi.ErrMalformed.
type Client struct{ *searchapi.Counter }

// New returns a Client for o. It fails with an error wrapping
// ErrMissingEngine when o.CX is empty, and as searchapi.New does when o.Key
// is empty or o.BaseURL is not an absolute http or https URL.
func New(o Options) (*Client, error) {
	if o.CX == "" {
		return nil, fmt.Errorf("%w (set Options.CX, for example from $%s)", ErrMissingEngine, CXEnv)
	}
	return searchapi.NewCounter[Client](engine(o.CX), o.BaseURL, o.Key, o.Transport)
}
