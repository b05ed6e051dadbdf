package backlink

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrNoLink is returned by Extract and Locate when the page holds no link to
// the target (links inside image maps do not count).
var ErrNoLink = errors.New("backlink: no link to target")

// Radius is how many words around each link to the target Extract draws, on
// each side, beyond the anchor words themselves (the paper, §3.2 "Radius").
// The paper's four settings are Anchor, Radius(5), Radius(10) and Page.
type Radius int

const (
	// Anchor draws the anchor words of each link alone.
	Anchor Radius = 0
	// Page draws every visible word of the page.
	Page Radius = -1
)

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

// ErrBadRadius is returned by ParseRadius for text that names no radius.
var ErrBadRadius = errors.New("backlink: bad radius")

// ParseRadius reads a radius as a person or a method name writes it:
// "anchor", "page", "five", "ten", or a number of words ("5"). Case is
// ignored. Anything else returns an error wrapping ErrBadRadius.
func ParseRadius(s string) (Radius, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "anchor":
		return Anchor, nil
	case "page":
		return Page, nil
	case "five":
		return 5, nil
	case "ten":
		return 10, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%w %q: want anchor, page or a number of words", ErrBadRadius, s)
	}
	return Radius(n), nil
}
