package store

import (
	"context"
	"fmt"

	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/provider/internal/ingest"
)

// WithMissing returns a view of the store in which the given URIs are
// missing, on top of those the store already counts as missing: Fetch
// answers 404 for them, and they are never returned as backlinks, since a
// missing page's links cannot be read. They stay in the search index and in
// document frequencies, as in the paper, where the search engine still held
// the page (BENCHMARK.md, "What the numbers mean"). URIs are canonicalized;
// ones that cannot be are ignored.
//
// The view shares the database, caches and persisted missing set with s
// and costs one small map, so an experiment can evaluate every target in
// its own view, concurrently. Closing any view closes the database.
func (s *Store) WithMissing(uris ...string) *Store {
	return &Store{db: s.db, missing: ingest.WithMissing(s.missing, uris)}
}

// IsMissing reports whether uri counts as missing in this view: marked by
// WithMissing or MarkMissing.
func (s *Store) IsMissing(uri string) bool {
	c, err := canon.Canonicalize(uri)
	if err != nil {
		return false
	}
	return s.isMissing(c)
}

// isMissing is IsMissing for a canonical URI.
func (s *Store) isMissing(uri string) bool {
	return ingest.IsMissing(s.missing, s.persist.Load(), uri)
}

// MarkMissing records uris as missing in the database, for every view of
// the store and for later Opens (the command-line way of setting up a
// missing page). URIs are canonicalized; one that cannot be is an error and
// nothing is recorded.
func (s *Store) MarkMissing(ctx context.Context, uris ...string) error {
	return s.updateMissing(ctx, uris, `INSERT OR IGNORE INTO missing (uri) VALUES (?)`)
}

// ClearMissing removes uris from the missing set recorded by MarkMissing;
// with no URIs it removes every one. Views made by WithMissing keep their
// own URIs.
func (s *Store) ClearMissing(ctx context.Context, uris ...string) error {
	if len(uris) == 0 {
		w, err := s.writer()
		if err != nil {
			return err
		}
		if _, err := w.ExecContext(ctx, `DELETE FROM missing`); err != nil {
			return fmt.Errorf("store: clear missing: %w", err)
		}
		return s.loadMissing(ctx)
	}
	return s.updateMissing(ctx, uris, `DELETE FROM missing WHERE uri = ?`)
}

// Missing returns the URIs recorded by MarkMissing and those of this view,
// sorted.
func (s *Store) Missing() []string {
	return ingest.MissingList(s.missing, s.persist.Load())
}

// updateMissing runs stmt for each canonical URI in one transaction and
// reloads the persisted set.
func (s *Store) updateMissing(ctx context.Context, uris []string, stmt string) error {
	w, err := s.writer()
	if err != nil {
		return err
	}
	canonical := make([]string, len(uris))
	for i, u := range uris {
		if canonical[i], err = canon.Canonicalize(u); err != nil {
			return fmt.Errorf("store: missing: %w", err)
		}
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: missing: %w", err)
	}
	defer tx.Rollback()
	for _, u := range canonical {
		if _, err := tx.ExecContext(ctx, stmt, u); err != nil {
			return fmt.Errorf("store: missing %s: %w", u, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: missing: %w", err)
	}
	return s.loadMissing(ctx)
}

// loadMissing reads the persisted missing set.
func (s *Store) loadMissing(ctx context.Context) error {
	rows, err := s.read.QueryContext(ctx, `SELECT uri FROM missing`)
	if err != nil {
		return fmt.Errorf("store: read missing: %w", err)
	}
	defer rows.Close()
	m := map[string]bool{}
	for rows.Next() {
		var u string
		if err := rows.Scan(&u); err != nil {
			return fmt.Errorf("store: read missing: %w", err)
		}
		m[u] = true
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: read missing: %w", err)
	}
	s.persist.Store(&m)
	return nil
}
