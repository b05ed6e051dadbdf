package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/provider/corpus"
)

// ErrNotFound is returned, wrapped, by PageInfo for a URI that is not a
// page of the store.
var ErrNotFound = errors.New("store: no such page")

// BacklinkOptions is corpus.BacklinkOptions: which links make a page a
// backlink. The zero value counts every <a> link, navigation included.
type BacklinkOptions = corpus.BacklinkOptions

// PageInfo is corpus.PageInfo, what the store knows about one page.
type PageInfo = corpus.PageInfo

// Link is corpus.Link, one link of a stored page.
type Link = corpus.Link

// Backlinks returns at most limit pages that link to uri, in the store's
// stand-in for a search engine's backlink rank: pages with more distinct
// linking pages first (their in-degree, self-links and image-map links not
// counted, navigation links counted), then by URI. Every link counts,
// navigation included; image-map links do not. A limit that is not
// positive means no limit.
//
// Link sources (pages the store knows only by their link records, see
// IngestWAT) are backlinks like pages, ranked with them in the same order:
// the in-degree of a page or a link source counts the distinct pages and
// link sources linking to it, and ties are broken by URI. A link source's
// Backlink carries the anchor texts of its links to uri in Anchors, in
// page order (an image link's is ""), since Fetch cannot serve the page;
// a page's Anchors is nil.
//
// uri itself is never returned, and neither is a page that is missing in
// this view: its links cannot be read. A URI nobody links to returns an
// empty slice. Links to a redirect stub are links to the stub, not to its
// target, exactly as backlink.Extract sees them. uri is canonicalized
// first; one that cannot be returns an error. Backlinks is safe for
// concurrent use.
func (s *Store) Backlinks(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
	return s.BacklinksWith(ctx, uri, limit, BacklinkOptions{})
}

// BacklinksWith is Backlinks with the links that count chosen by opts.
// The backlink rank (in-degree, then URI) is the same for every opts.
// The options apply to the links of pages: a link source's links carry no
// navigation or image-map mark (a WAT file does not say where on the page
// a link sits, and holds no image-map links), so they count whatever opts.
func (s *Store) BacklinksWith(ctx context.Context, uri string, limit int, opts BacklinkOptions) ([]backlink.Backlink, error) {
	c, err := canon.Canonicalize(uri)
	if err != nil {
		return nil, fmt.Errorf("store: backlinks: %w", err)
	}
	area, nav := 0, 1
	if opts.Area {
		area = 1
	}
	if opts.ExcludeNav {
		nav = 0
	}
	if s.linkStmts != nil {
		out, err := s.backlinksWith(ctx, c, limit, area, nav)
		if err != nil {
			return nil, fmt.Errorf("store: backlinks of %s: %w", c, err)
		}
		return out, nil
	}
	// A version 1 file opened read-only: pages alone.
	rows, err := s.stmts.backlinks.QueryContext(ctx, c, area, nav)
	if err != nil {
		return nil, fmt.Errorf("store: backlinks of %s: %w", c, err)
	}
	defer rows.Close()
	out := []backlink.Backlink{}
	for rows.Next() && (limit <= 0 || len(out) < limit) {
		var u string
		if err := rows.Scan(&u); err != nil {
			return nil, fmt.Errorf("store: backlinks of %s: %w", c, err)
		}
		if s.isMissing(u) {
			continue
		}
		out = append(out, backlink.Backlink{URI: u, Rank: len(out) + 1, Level: 1})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: backlinks of %s: %w", c, err)
	}
	return out, nil
}

// Provider returns a backlink.Provider that answers with BacklinksWith and
// opts, for example the benchmark's runs without navigation links.
func (s *Store) Provider(opts BacklinkOptions) backlink.Provider {
	return backlink.ProviderFunc(func(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
		return s.BacklinksWith(ctx, uri, limit, opts)
	})
}

// PageInfo returns what the store knows about the page at uri, or an error
// wrapping ErrNotFound (for a link source too: see LinkSource). Missing
// pages are described like any other.
func (s *Store) PageInfo(ctx context.Context, uri string) (PageInfo, error) {
	c, err := canon.Canonicalize(uri)
	if err != nil {
		return PageInfo{}, fmt.Errorf("store: page: %w", err)
	}
	var p PageInfo
	err = s.stmts.pageInfo.QueryRowContext(ctx, c).Scan(&p.URI, &p.Site, &p.Title, &p.Words, &p.Backlinks, &p.ContentBacklinks, &p.Source)
	if errors.Is(err, sql.ErrNoRows) {
		return PageInfo{}, fmt.Errorf("store: page %s: %w", c, ErrNotFound)
	}
	if err != nil {
		return PageInfo{}, fmt.Errorf("store: page %s: %w", c, err)
	}
	return p, nil
}

// Pages yields every page of the store in URI order, for choosing the
// targets of an experiment. It stops at the first error, which it yields
// with a zero PageInfo.
func (s *Store) Pages(ctx context.Context) iter.Seq2[PageInfo, error] {
	return func(yield func(PageInfo, error) bool) {
		rows, err := s.read.QueryContext(ctx, `
			SELECT u.uri, p.site, p.title, p.words, p.inlinks, p.content_inlinks, p.source
			FROM pages p JOIN urls u ON u.id = p.id ORDER BY u.uri`)
		if err != nil {
			yield(PageInfo{}, fmt.Errorf("store: pages: %w", err))
			return
		}
		defer rows.Close()
		for rows.Next() {
			var p PageInfo
			if err := rows.Scan(&p.URI, &p.Site, &p.Title, &p.Words, &p.Backlinks, &p.ContentBacklinks, &p.Source); err != nil {
				yield(PageInfo{}, fmt.Errorf("store: pages: %w", err))
				return
			}
			if !yield(p, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(PageInfo{}, fmt.Errorf("store: pages: %w", err))
		}
	}
}

// Links returns the links of the page at uri in page order, as ingest
// recorded them; for a link source, its link records (Nav and Area false).
// A URI that is neither returns an empty slice.
func (s *Store) Links(ctx context.Context, uri string) ([]Link, error) {
	c, err := canon.Canonicalize(uri)
	if err != nil {
		return nil, fmt.Errorf("store: links: %w", err)
	}
	rows, err := s.stmts.links.QueryContext(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("store: links of %s: %w", c, err)
	}
	defer rows.Close()
	out := []Link{}
	for rows.Next() {
		var l Link
		if err := rows.Scan(&l.URI, &l.Anchor, &l.Nav, &l.Area); err != nil {
			return nil, fmt.Errorf("store: links of %s: %w", c, err)
		}
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: links of %s: %w", c, err)
	}
	if len(out) > 0 || s.linkStmts == nil {
		return out, nil
	}
	rows, err = s.linkStmts.links.QueryContext(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("store: links of %s: %w", c, err)
	}
	defer rows.Close()
	for rows.Next() {
		var l Link
		if err := rows.Scan(&l.URI, &l.Anchor); err != nil {
			return nil, fmt.Errorf("store: links of %s: %w", c, err)
		}
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: links of %s: %w", c, err)
	}
	return out, nil
}

// Totals counts everything the store holds, in the form of an ingest's
// Stats (Resumed and Duration are zero): pages, redirects, links by kind,
// and the files and records skipped, by reason (malformed WAT records
// included). Link sources and their link records are not pages and links
// of pages: LinkTotals counts them.
func (s *Store) Totals(ctx context.Context) (Stats, error) {
	var st Stats
	err := s.read.QueryRowContext(ctx, `
		SELECT (SELECT count(*) FROM pages), (SELECT count(*) FROM redirects),
		       count(*), coalesce(sum(nav), 0), coalesce(sum(area), 0)
		FROM links`).Scan(&st.Pages, &st.Redirects, &st.Links, &st.NavLinks, &st.AreaLinks)
	if err != nil {
		return st, fmt.Errorf("store: totals: %w", err)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT reason, count(*) FROM skipped GROUP BY reason`)
	if err != nil {
		return st, fmt.Errorf("store: totals: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r string
		var n int
		if err := rows.Scan(&r, &n); err != nil {
			return st, fmt.Errorf("store: totals: %w", err)
		}
		if st.Skipped == nil {
			st.Skipped = map[string]int{}
		}
		st.Skipped[r] = n
	}
	return st, rows.Err()
}
