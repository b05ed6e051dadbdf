package filter

import (
	"context"
	"net/http"
)

// Page is one fetched representation of a URI.
type Page struct {
	// URI is the URI the representation came from, after redirects.
	URI string
	// Status is the HTTP status code of the final answer.
	Status int
	// Header is the final answer's header; it may be nil.
	Header http.Header
	// Body is the representation's bytes, possibly cut at the fetcher's size
	// limit.
	Body []byte
}

// Fetcher retrieves representations of URIs.
type Fetcher interface {
	// Fetch retrieves uri. Any HTTP answer, whatever its status, is a Page
	// and a nil error; an error means no answer at all (DNS failure, refused
	// connection, timeout, cancelled context). Implementations must be safe
	// for concurrent use and return promptly when ctx is done.
	Fetch(ctx context.Context, uri string) (*Page, error)
}

// FetcherFunc adapts a function to a Fetcher.
type FetcherFunc func(ctx context.Context, uri string) (*Page, error)

// Fetch returns f(ctx, uri).
func (f FetcherFunc) Fetch(ctx context.Context, uri string) (*Page, error) {
	return f(ctx, uri)
}
