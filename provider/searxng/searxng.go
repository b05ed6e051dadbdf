package searxng

import (
	"fmt"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/provider/searchapi"
)

const (
	// URLEnv is the environment variable the example programs read the
	// instance URL from; the package itself never reads it.
	URLEnv = "SEARXNG_URL"
	// MaxResults is the most results one query yields: the depth the paper
	// scored (§3.2).
	MaxResults = 1000
	// DefaultMaxPages is how many pages a Search asks for at most.
	DefaultMaxPages = 50
	// DefaultRate is the request rate a Client keeps to: one per second,
	// since every request fans out to the instance's engines, which rate
	// limit the instance in turn.
	DefaultRate rate.Limit = 1
)

// Options configures a Client: BaseURL, required, what to ask the
// instance for, and the Transport of its requests, whose zero fields mean
// searchapi's defaults (SearXNG waits for its slowest engine, its own
// request_timeout of a few seconds, within Transport.Timeout).
type Options struct {
	// BaseURL is the instance's URL, such as "http://localhost:8888" or
	// "https://search.example.org/searxng"; required. Requests go to its
	// path plus "/search". Query parameters in it are kept and sent with
	// every request. Credentials in it (https://user:password@host/) are
	// sent as basic authentication, never shown, and not sent to another
	// host.
	BaseURL string
	// Categories, Engines and Language, when not empty, are sent as the
	// categories, engines (comma-separated lists) and language parameters;
	// Language is also the Accept-Language header, "*" when empty.
	Categories string
	Engines    string
	Language   string
	// MaxPages caps the pages one Search asks for; zero means
	// DefaultMaxPages (50).
	MaxPages int
	searchapi.Transport
}

// Format prints o with any password of its BaseURL hidden, whatever the
// verb.
func (o Options) Format(f fmt.State, verb rune) { searchapi.FormatOptions(f, o, "") }

// Client searches through a SearXNG instance and answers the hit counts
// its engines report, with the methods of searchapi.Counter. Search asks
// for page after page (as many results as the instance gives) until a
// page brings no new URL, up to MaxPages pages and MaxResults results;
// results carry SearXNG's score. An answer without results whose engines
// all failed is an error wrapping ErrEnginesFailed on the first page, and
// the end of the search on a later one. HitCount is number_of_results; an
// answer without it (SearXNG since 2026-05-25 sends none) or with 0
// beside results fails with ErrNoHitCount, and after an answer without
// the field every HitCount fails so at once. A refusal of the instance's
// limiter is ErrLimiter, not retried, and stops the Client for an hour.
type Client struct{ *searchapi.Counter }

// New returns a Client for o. It fails with an error wrapping
// ErrMissingBaseURL when o.BaseURL is empty, and when it is not an absolute
// http or https URL.
func New(o Options) (*Client, error) {
	if o.BaseURL == "" {
		return nil, fmt.Errorf("%w (set Options.BaseURL, for example from $%s)", ErrMissingBaseURL, URLEnv)
	}
	return searchapi.NewCounter[Client](engine(o), o.BaseURL, "", o.Transport)
}
