package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/postgres"
	"github.com/linkrot/relink/provider/store"
)

// A -store is a file path (an SQLite store, package provider/store) or a
// postgres:// or postgresql:// URL (package provider/postgres); both serve
// the same interfaces. A URL is only ever shown through postgres.DSN,
// whose String hides the password.

// storeView is what the subcommands read from a store or a view of it.
type storeView interface {
	backlink.Provider
	filter.Fetcher
	lexsig.DF
	lexsig.Searcher
	Docs(ctx context.Context) (int64, error)
}

// openedStore is a store opened for reading.
type openedStore interface {
	storeView
	// WithMissing returns the view in which uris are missing.
	WithMissing(uris ...string) storeView
	Close() error
}

// sqliteStore and pgStore make the two stores openedStores.
type (
	sqliteStore struct{ *store.Store }
	pgStore     struct{ *postgres.Store }
)

func (s sqliteStore) WithMissing(uris ...string) storeView { return s.Store.WithMissing(uris...) }
func (s pgStore) WithMissing(uris ...string) storeView     { return s.Store.WithMissing(uris...) }

// isPostgres reports whether a -store value is a PostgreSQL URL.
func isPostgres(path string) bool { return postgres.IsURL(path) }

// storeName returns how messages name the store at path: the path, or the
// URL without its password.
func storeName(path string) string {
	if isPostgres(path) {
		return postgres.DSN(path).String()
	}
	return path
}

// storeLabel is the short name of the store at path that a DF cache
// records as the source of its numbers: the file's base name, or the
// database's host and name.
func storeLabel(path string) string {
	if isPostgres(path) {
		return postgres.DSN(path).Label()
	}
	return filepath.Base(path)
}

// openStore opens the store at path read-only, after checking that there
// is one: a reader never creates or changes a store. A missing file, a
// directory, an empty file, a file or database that is not a store, and a
// store whose ingest did not finish are errors that say so.
func openStore(ctx context.Context, path string) (openedStore, error) {
	if isPostgres(path) {
		s, err := postgres.Open(ctx, postgres.DSN(path), &postgres.Options{ReadOnly: true})
		if err != nil {
			return nil, fmt.Errorf("store cannot be read: %w", err)
		}
		return pgStore{s}, nil
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("store %s does not exist (build one with relink corpus)", path)
	case err != nil:
		return nil, fmt.Errorf("store %s: %w", path, err)
	case fi.IsDir():
		return nil, fmt.Errorf("store %s is a directory, not a store file", path)
	case fi.Size() == 0:
		return nil, fmt.Errorf("store %s is an empty file, not a store (build one with relink corpus)", path)
	}
	s, err := store.Open(path, &store.Options{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("store %s cannot be read: %w", path, err)
	}
	// Open reads little; a damaged file shows itself on the first query.
	if _, err := s.Docs(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("store %s cannot be read: %w", path, err)
	}
	return sqliteStore{s}, nil
}

// ingestStore is a store opened for relink corpus.
type ingestStore interface {
	IngestManifest(ctx context.Context, m *store.Manifest, opts store.IngestOptions) (store.Stats, error)
	IngestDir(ctx context.Context, dir, base string, opts store.IngestOptions) (store.Stats, error)
	IngestWARC(ctx context.Context, paths []string, opts store.IngestOptions) (store.Stats, error)
	IngestWAT(ctx context.Context, paths []string, opts store.IngestOptions) (store.LinkStats, error)
	Totals(ctx context.Context) (store.Stats, error)
	LinkTotals(ctx context.Context) (store.LinkStats, error)
	Close() error
}

// openIngestStore opens the store at path for writing, creating it when
// there is none.
func openIngestStore(ctx context.Context, path string) (ingestStore, error) {
	if isPostgres(path) {
		return postgres.Open(ctx, postgres.DSN(path), nil)
	}
	return store.Open(path, nil)
}
