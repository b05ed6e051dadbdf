package backlink

import (
	"context"
	"strings"

	"github.com/linkrot/relink/canon"
)

// ContentProvider is a Provider that can also list only the pages whose
// link to a URI is not navigation (sidebars, tables of contents,
// next/previous), as provider/store does from its link verdicts.
type ContentProvider interface {
	Provider
	// ContentBacklinks is Backlinks for the pages that link to uri with
	// at least one link that is not navigation.
	ContentBacklinks(ctx context.Context, uri string, limit int) ([]Backlink, error)
}

// ContentOnly returns the Provider of p's content backlinks when p is a
// ContentProvider, and p itself otherwise (a caller then tells navigation
// links apart on the pages, as relink's Finder does). The result folds
// schemes when p does (SchemeFolder).
func ContentOnly(p Provider) Provider {
	cp, ok := p.(ContentProvider)
	if !ok {
		return p
	}
	return contentOnly{cp}
}

type contentOnly struct{ p ContentProvider }

func (c contentOnly) Backlinks(ctx context.Context, uri string, limit int) ([]Backlink, error) {
	return c.p.ContentBacklinks(ctx, uri, limit)
}

func (c contentOnly) FoldsSchemes() bool { return FoldsSchemes(c.p) }

// SchemeFolder is a Provider that answers for http and https variants of a
// URI together, so that a page linked to as http://host/a and as
// https://host/a has all its backlinks under either.
type SchemeFolder interface {
	Provider
	// FoldsSchemes reports whether Backlinks answers for both schemes.
	FoldsSchemes() bool
}

// FoldsSchemes reports whether p says it folds the http and https variants
// of a URI (SchemeFolder).
func FoldsSchemes(p Provider) bool {
	f, ok := p.(SchemeFolder)
	return ok && f.FoldsSchemes()
}

// BothSchemes returns a Provider that asks p about both scheme variants of
// an http or https URI: the URI as given first, then, when that gave fewer
// than limit pages, its other variant (http for https, https for http),
// whose pages follow, without repeats (by canonical URI), cut to limit and
// ranked anew. The web often links to a page by its old scheme: a page that
// moved to https keeps backlinks that say http. Other URIs are asked once.
// A Provider that folds schemes itself (FoldsSchemes) is returned as is.
func BothSchemes(p Provider) Provider {
	if FoldsSchemes(p) {
		return p
	}
	return bothSchemes{p}
}

type bothSchemes struct{ p Provider }

func (b bothSchemes) FoldsSchemes() bool { return true }

func (b bothSchemes) Backlinks(ctx context.Context, uri string, limit int) ([]Backlink, error) {
	first, err := b.p.Backlinks(ctx, uri, limit)
	if err != nil || len(first) >= limit {
		return first, err
	}
	other, ok := otherScheme(uri)
	if !ok {
		return first, nil
	}
	second, err := b.p.Backlinks(ctx, other, limit)
	if err != nil {
		return nil, err
	}
	if len(second) == 0 {
		return first, nil
	}
	out := make([]Backlink, 0, min(limit, len(first)+len(second)))
	seen := map[string]bool{}
	for _, l := range append(first, second...) {
		if len(out) == limit {
			break
		}
		key, err := canon.Canonicalize(l.URI)
		if err != nil {
			key = l.URI
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		l.Rank = len(out) + 1
		out = append(out, l)
	}
	return out, nil
}

// otherScheme returns uri with http and https swapped.
func otherScheme(uri string) (string, bool) {
	switch {
	case strings.HasPrefix(uri, "https://"):
		return "http://" + strings.TrimPrefix(uri, "https://"), true
	case strings.HasPrefix(uri, "http://"):
		return "https://" + strings.TrimPrefix(uri, "http://"), true
	}
	return "", false
}
