package store

import (
	"context"

	"github.com/linkrot/relink/backlink"
)

var _ backlink.ContentProvider = (*Store)(nil)

// ContentBacklinks implements backlink.ContentProvider: Backlinks of the
// pages that link to uri with at least one link that is not navigation
// (BacklinksWith and BacklinkOptions{ExcludeNav: true}).
func (s *Store) ContentBacklinks(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
	return s.BacklinksWith(ctx, uri, limit, BacklinkOptions{ExcludeNav: true})
}
