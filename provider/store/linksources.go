package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/provider/corpus"
)

// linkStatements are the prepared queries that read link sources, for
// files of schema version 2 and later.
type linkStatements struct {
	target, backlinks, anchors, links, source *sql.Stmt
}

// queries maps each statement to its SQL.
func (st *linkStatements) queries() map[**sql.Stmt]string {
	return map[**sql.Stmt]string{
		&st.target: `SELECT id FROM urls WHERE uri = ?1`,
		// ?1 target id, ?2 1 to count image-map links, ?3 1 to count
		// navigation links. A page or link source that links to the
		// target, its in-degree, and whether it is a link source.
		&st.backlinks: `
			SELECT u.uri, b.src, coalesce(p.inlinks, s.inlinks, 0) AS rank, s.id IS NOT NULL
			FROM (SELECT src FROM links WHERE dst = ?1 AND area <= ?2 AND nav <= ?3
			      UNION
			      SELECT src FROM link_records WHERE dst = ?1) b
			JOIN urls u ON u.id = b.src
			LEFT JOIN pages p ON p.id = b.src
			LEFT JOIN link_sources s ON s.id = b.src
			WHERE b.src <> ?1 AND (p.id IS NOT NULL OR s.id IS NOT NULL)
			ORDER BY rank DESC, u.uri`,
		// ?1 target id, ?2 link source id.
		&st.anchors: `SELECT anchor FROM link_records WHERE dst = ?1 AND src = ?2 ORDER BY pos`,
		&st.links: `
			SELECT d.uri, r.anchor
			FROM urls u JOIN link_records r ON r.src = u.id JOIN urls d ON d.id = r.dst
			WHERE u.uri = ?1 ORDER BY r.pos`,
		&st.source: `
			SELECT u.uri, s.fetched, s.inlinks, s.content_inlinks, s.source,
			       (SELECT count(*) FROM link_records r WHERE r.src = s.id)
			FROM urls u JOIN link_sources s ON s.id = u.id WHERE u.uri = ?1`,
	}
}

// prepare prepares every statement on db.
func (st *linkStatements) prepare(db *sql.DB) error {
	for p, q := range st.queries() {
		s, err := db.Prepare(q)
		if err != nil {
			return err
		}
		*p = s
	}
	return nil
}

// close closes the prepared statements.
func (st *linkStatements) close() error {
	var errs []error
	for p := range st.queries() {
		if *p != nil {
			errs = append(errs, (*p).Close())
		}
	}
	return errors.Join(errs...)
}

// backlinksWith answers BacklinksWith from pages and link sources: the
// target c's backlinks in rank order, the anchor texts of link sources
// filled in.
func (s *Store) backlinksWith(ctx context.Context, c string, limit int, area, nav int) ([]backlink.Backlink, error) {
	out := []backlink.Backlink{}
	var target int64
	err := s.linkStmts.target.QueryRowContext(ctx, c).Scan(&target)
	if errors.Is(err, sql.ErrNoRows) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	rows, err := s.linkStmts.backlinks.QueryContext(ctx, target, area, nav)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var sources map[int]int64 // index in out -> link source id
	for rows.Next() && (limit <= 0 || len(out) < limit) {
		var (
			u      string
			src    int64
			rank   int
			remote bool
		)
		if err := rows.Scan(&u, &src, &rank, &remote); err != nil {
			return nil, err
		}
		if s.isMissing(u) {
			continue
		}
		if remote {
			if sources == nil {
				sources = map[int]int64{}
			}
			sources[len(out)] = src
		}
		out = append(out, backlink.Backlink{URI: u, Rank: len(out) + 1, Level: 1})
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	for i, src := range sources {
		if out[i].Anchors, err = s.anchors(ctx, target, src); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// anchors returns the anchor texts of the links of link source src to
// target, in page order.
func (s *Store) anchors(ctx context.Context, target, src int64) ([]string, error) {
	rows, err := s.linkStmts.anchors.QueryContext(ctx, target, src)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// LinkSource is corpus.LinkSource: a page the store holds no copy of,
// known by its link records (IngestWAT).
type LinkSource = corpus.LinkSource

// LinkSource returns what the store knows about the link source at uri,
// or an error wrapping ErrNotFound when uri is not one (a page of the
// store is not a link source: see PageInfo).
func (s *Store) LinkSource(ctx context.Context, uri string) (LinkSource, error) {
	c, err := canon.Canonicalize(uri)
	if err != nil {
		return LinkSource{}, fmt.Errorf("store: link source: %w", err)
	}
	if s.linkStmts == nil {
		return LinkSource{}, fmt.Errorf("store: link source %s: %w", c, ErrNotFound)
	}
	var ls LinkSource
	var fetched int64
	err = s.linkStmts.source.QueryRowContext(ctx, c).Scan(&ls.URI, &fetched, &ls.Backlinks, &ls.ContentBacklinks, &ls.Source, &ls.Links)
	if errors.Is(err, sql.ErrNoRows) {
		return LinkSource{}, fmt.Errorf("store: link source %s: %w", c, ErrNotFound)
	}
	if err != nil {
		return LinkSource{}, fmt.Errorf("store: link source %s: %w", c, err)
	}
	if fetched != 0 {
		ls.Fetched = time.Unix(fetched, 0).UTC()
	}
	return ls, nil
}

// LinkTotals counts the link sources and link records the store holds, in
// the form of a link ingest's LinkStats (the other fields are zero; the
// malformed WAT records an ingest recorded are in Totals' Skipped).
func (s *Store) LinkTotals(ctx context.Context) (LinkStats, error) {
	var st LinkStats
	if s.linkStmts == nil {
		return st, nil
	}
	err := s.read.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM link_sources), (SELECT count(*) FROM link_records)`).
		Scan(&st.Sources, &st.Links)
	if err != nil {
		return st, fmt.Errorf("store: link totals: %w", err)
	}
	return st, nil
}
