package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lab/draw"
	"github.com/linkrot/relink/lab/internal/stats"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/postgres"
	"github.com/linkrot/relink/provider/store"
)

// The experiment runs on either store: -store is a file path (an SQLite
// store, package provider/store) or a postgres:// or postgresql:// URL
// (package provider/postgres). On PostgreSQL the paper's store is the one
// in the URL's database and search path (the schema public unless the
// URL's options say otherwise), and each mode's store is in a schema of
// its own beside it, named after the paper's schema and the mode
// ("public_moved", "public_migrated", "public_edited"), as the file
// FILE.moved lies beside FILE. A URL is only ever shown through
// postgres.DSN, whose String hides the password.

// labStore is what the experiment reads from, and builds, a store.
type labStore interface {
	backlink.Provider
	filter.Fetcher
	lexsig.DF
	lexsig.Searcher
	draw.Pager
	Totals(ctx context.Context) (store.Stats, error)
	IngestManifest(ctx context.Context, m *store.Manifest, opts store.IngestOptions) (store.Stats, error)
	Close() error
	// WithMissing returns the view of the store in which uris are missing.
	WithMissing(uris ...string) labStore
	// fresh removes the store of the mode name beside this one, if any,
	// and opens an empty one in its place, returning it and its name.
	fresh(ctx context.Context, name string) (labStore, string, error)
	// name is how messages and versions.txt name the store.
	name() string
}

// sqliteStore and pgStore make the two stores labStores. They embed the
// stores, so that what the evaluation asks of them by type assertion
// (lexsig.BatchDF, backlink.ContentProvider) is there.
type (
	sqliteStore struct{ *store.Store }
	pgStore     struct{ *postgres.Store }
)

func (s sqliteStore) WithMissing(uris ...string) labStore {
	return sqliteStore{s.Store.WithMissing(uris...)}
}

func (s pgStore) WithMissing(uris ...string) labStore { return pgStore{s.Store.WithMissing(uris...)} }

func (s sqliteStore) name() string { return s.Path() }

func (s pgStore) name() string { return s.DSN().String() + " schema " + s.Schema() }

func (s sqliteStore) fresh(_ context.Context, name string) (labStore, string, error) {
	path := s.Path() + "." + name
	for _, sfx := range []string{"", "-wal", "-shm", "-lock"} {
		if err := os.Remove(path + sfx); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, "", err
		}
	}
	ms, err := store.Open(path, &store.Options{QueryCache: -1})
	if err != nil {
		return nil, "", err
	}
	return sqliteStore{ms}, path, nil
}

func (s pgStore) fresh(ctx context.Context, name string) (labStore, string, error) {
	schema := s.Schema() + "_" + name
	conn, err := pgx.Connect(ctx, string(s.DSN()))
	if err != nil {
		return nil, "", s.DSN().Scrub(err)
	}
	_, err = conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+pgx.Identifier{schema}.Sanitize()+` CASCADE`)
	conn.Close(ctx)
	if err != nil {
		return nil, "", fmt.Errorf("drop schema %s: %w", schema, s.DSN().Scrub(err))
	}
	ms, err := postgres.Open(ctx, s.DSN(), &postgres.Options{Schema: schema})
	if err != nil {
		return nil, "", err
	}
	p := pgStore{ms}
	return p, p.name(), nil
}

// isPostgres reports whether a -store value is a PostgreSQL URL.
func isPostgres(path string) bool { return postgres.IsURL(path) }

// openLab opens the store at path (a file or a URL), read-only or to be
// built.
func openLab(ctx context.Context, path string, readOnly bool) (labStore, error) {
	if isPostgres(path) {
		s, err := postgres.Open(ctx, postgres.DSN(path), &postgres.Options{ReadOnly: readOnly})
		if err != nil {
			return nil, err
		}
		return pgStore{s}, nil
	}
	s, err := store.Open(path, &store.Options{QueryCache: -1, ReadOnly: readOnly}) // Evaluate keeps its own cache
	if err != nil {
		return nil, err
	}
	return sqliteStore{s}, nil
}

// storeName is how messages name the store at path: the path, or the URL
// without its password.
func storeName(path string) string {
	if isPostgres(path) {
		return postgres.DSN(path).String()
	}
	return path
}

// redactArgs returns the command line args with the password of every
// PostgreSQL URL in it hidden, as a flag's value on its own or after
// "-flag=".
func redactArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if isPostgres(a) {
			out[i] = postgres.DSN(a).String()
		} else if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") && isPostgres(v) {
			out[i] = k + "=" + postgres.DSN(v).String()
		}
	}
	return out
}

// latencyTerms are the query lengths whose latency the experiment
// reports.
var latencyTerms = []int{3, 4}

// timedSearcher is a lexsig.Searcher that records how long each search
// of the store took, by the query's number of terms. The evaluation asks
// each distinct query once (its search cache answers the repeats), from
// its workers at once, so the times are those of the store under the
// experiment's load.
type timedSearcher struct {
	lexsig.Searcher
	mu    sync.Mutex
	times map[int][]float64 // terms → milliseconds
}

// timeSearches returns a timedSearcher over s.
func timeSearches(s lexsig.Searcher) *timedSearcher {
	return &timedSearcher{Searcher: s, times: map[int][]float64{}}
}

// Search implements lexsig.Searcher.
func (t *timedSearcher) Search(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
	start := time.Now()
	res, err := t.Searcher.Search(ctx, q, limit)
	ms := float64(time.Since(start).Microseconds()) / 1000
	if err == nil {
		t.mu.Lock()
		t.times[len(q.Terms)] = append(t.times[len(q.Terms)], ms)
		t.mu.Unlock()
	}
	return res, err
}

// latency is the search latency of queries of one length.
type latency struct {
	Terms   int     `json:"terms"`
	Queries int     `json:"queries"`
	P50     float64 `json:"p50_ms"`
	P99     float64 `json:"p99_ms"`
}

// summary returns the latency of the queries of latencyTerms terms.
func (t *timedSearcher) summary() []latency {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []latency
	for _, n := range latencyTerms {
		ms := t.times[n]
		out = append(out, latency{Terms: n, Queries: len(ms), P50: stats.Quantile(ms, 0.5), P99: stats.Quantile(ms, 0.99)})
	}
	return out
}

// latencyLine renders the latencies on one line.
func latencyLine(ls []latency) string {
	var parts []string
	for _, l := range ls {
		parts = append(parts, fmt.Sprintf("%d terms p50 %.1f ms, p99 %.1f ms (%d queries)", l.Terms, l.P50, l.P99, l.Queries))
	}
	return strings.Join(parts, "; ")
}

// storeBase is the short name of the store at path that stands for the
// corpus when no manifest names it: the file's base name, or the
// database's host and name.
func storeBase(path string) string {
	if isPostgres(path) {
		return postgres.DSN(path).Label()
	}
	return filepath.Base(path)
}

// backendName names the kind of store at path: "postgres" or "sqlite".
func backendName(path string) string {
	if isPostgres(path) {
		return "postgres"
	}
	return "sqlite"
}
