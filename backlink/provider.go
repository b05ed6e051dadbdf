package backlink

import (
	"context"
	"errors"
)

// ErrNoLink is returned by Extract and Locate when the page holds no link to
// the target (links inside image maps do not count).
var ErrNoLink = errors.New("backlink: no link to target")

// Backlink is a page that links to a target URI.
type Backlink struct {
	// URI is the backlink page's URI.
	URI string
	// Rank is the page's position in the provider's answer, 1 first. For a
	// level-2 backlink it is its position among all level-2 backlinks of the
	// walk, in walk order.
	Rank int
	// Level is 1 for a page that links to the target, 2 for a page that links
	// to a level-1 backlink.
	Level int
	// Via is the URI the page links to: the walk's target for a level-1
	// backlink, the level-1 backlink it was found through for a level-2 one
	// (the first, when several). Words for a level-2 page are drawn around
	// its links to Via. Providers may leave it empty; Neighborhood sets it.
	Via string
	// Anchors are the anchor texts of the page's links to the target (to
	// Via at level 2), in page order, "" for a link without text. They are
	// filled by providers that hold link records but no copy of the page
	// (a crawl's link data, such as Common Crawl's WAT files); empty means
	// unknown, and the page must be fetched to read its links. The Finder
	// uses them when the page itself cannot be fetched.
	Anchors []string
}

// Provider answers which pages link to a URI, like a search engine's backlink
// query (the paper used Yahoo! BOSS).
type Provider interface {
	// Backlinks returns at most limit pages that link to uri, best first, each
	// with Level 1 and Rank counting from 1. A URI nobody links to returns an
	// empty slice and a nil error. uri is canonical (canon.Canonicalize).
	// Implementations must be safe for concurrent use.
	Backlinks(ctx context.Context, uri string, limit int) ([]Backlink, error)
}

// ProviderFunc adapts a function to a Provider.
type ProviderFunc func(ctx context.Context, uri string, limit int) ([]Backlink, error)

// Backlinks returns f(ctx, uri, limit).
func (f ProviderFunc) Backlinks(ctx context.Context, uri string, limit int) ([]Backlink, error) {
	return f(ctx, uri, limit)
}
