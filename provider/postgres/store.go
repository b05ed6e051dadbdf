package postgres

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/internal/ingest"
)

var (
	_ backlink.Provider        = (*Store)(nil)
	_ backlink.ContentProvider = (*Store)(nil)
	_ filter.Fetcher           = (*Store)(nil)
	_ lexsig.DF                = (*Store)(nil)
	_ lexsig.BatchDF           = (*Store)(nil)
	_ lexsig.Searcher          = (*Store)(nil)
)

// Errors of Open and of the ingest, matching those of provider/store.
var (
	// ErrSchema is returned, wrapped, by Open for a database whose schema
	// version is later than SchemaVersion.
	ErrSchema = errors.New("postgres: unknown schema version")
	// ErrNotStore is returned, wrapped, by Open for a database (or schema)
	// that holds tables but not a store's; Open leaves it as it is.
	ErrNotStore = errors.New("postgres: not a store")
	// ErrNoStore is returned, wrapped, by Open with Options.ReadOnly for a
	// database that holds no store.
	ErrNoStore = errors.New("postgres: no store")
	// ErrIncomplete is returned, wrapped, by Open with Options.ReadOnly and
	// by CheckComplete when an ingest is running, one did not finish, or
	// none has run. The message says which.
	ErrIncomplete = errors.New("postgres: ingest not finished")
	// ErrRules is returned, wrapped, by Open for a store built under other
	// link rules (backlink.Rules) or canonicalization rules (canon.Rules).
	ErrRules = errors.New("postgres: built under other rules")
	// ErrReadOnly is returned, wrapped, by methods that write to a store
	// opened with Options.ReadOnly.
	ErrReadOnly = errors.New("postgres: opened read-only")
	// ErrLocked is returned, wrapped, by an ingest method called while
	// another ingest runs through the same Store. Other Stores, in this
	// process or others, may ingest into the database at the same time.
	ErrLocked = errors.New("postgres: another ingest is running through this Store")
	// ErrNotFound is returned, wrapped, by PageInfo for a URI that is not a
	// page of the store.
	ErrNotFound = errors.New("postgres: no such page")
	// ErrTooManyRedirects is returned, wrapped, by Fetch for a redirect
	// loop or a chain longer than MaxRedirects.
	ErrTooManyRedirects = errors.New("postgres: too many redirects")
)

// Ranking names a way Search orders pages.
type Ranking string

// Rankings.
const (
	// RankBM25 is Okapi BM25 (k1 = 1.2, b = 0.75), as SQLite's FTS5
	// computes it for provider/store: document frequencies from the terms
	// table, term frequencies from the page's tsvector (a title word
	// counting TitleWeight times), document length in indexed words.
	RankBM25 Ranking = "bm25"
	// RankCD is PostgreSQL's ts_rank_cd (cover density) with its default
	// weights, the title's words weighing 1.0 and the text's 0.1.
	RankCD Ranking = "ts_rank_cd"
)

// Defaults, as provider/store's.
const (
	// DefaultTitleWeight is how much more a title word counts than a text
	// word in BM25.
	DefaultTitleWeight = 3.0
	// MaxResults is the most results Search returns.
	MaxResults = 1000
	// MaxRedirects is the most redirects Fetch follows.
	MaxRedirects = 10
)

// Options configures Open. The zero value is ready to use.
type Options struct {
	// ReadOnly opens an existing, complete store with connections that
	// cannot write (default_transaction_read_only): ingest and MarkMissing
	// fail with ErrReadOnly, and Open refuses a store whose ingest has not
	// finished (ErrIncomplete).
	ReadOnly bool
	// Conns bounds the connections of the pool; 0 means four times the
	// number of CPUs (at least 8).
	Conns int
	// TitleWeight is the BM25 weight of a title word relative to a text
	// word; 0 means DefaultTitleWeight.
	TitleWeight float64
	// Ranking orders Search's results; "" means RankBM25.
	Ranking Ranking
	// Schema is the PostgreSQL schema that holds the store; "" means the
	// first schema of the connection's search_path (public by default, or
	// what the DSN's options set). One database holds several stores in
	// schemas of their own, as the experiment's evaluation modes do. Open
	// creates the schema when it is missing, unless ReadOnly, and sets
	// every connection's search_path to it alone.
	Schema string
}

// Store is relink's local web in a PostgreSQL database: pages with their
// HTML, the links between them and a full-text index. It serves backlinks
// (backlink.Provider), pages (filter.Fetcher), document frequencies
// (lexsig.DF, lexsig.BatchDF) and search (lexsig.Searcher), exactly as
// provider/store's Store does for an SQLite file.
//
// A Store is safe for concurrent use. WithMissing returns views that share
// the connection pool and differ only in which pages count as missing.
type Store struct {
	*db
	missing map[string]bool // this view's own missing URIs
}

// db is the state that a Store and its views share.
type db struct {
	dsn         DSN
	pool        *pgxpool.Pool
	readOnly    bool
	titleWeight float64
	ranking     Ranking
	schema      string // the schema that holds the store
	lockClass   int32  // the first key of the schema's advisory locks (schemaLock)
	ingestMu    sync.Mutex
	persist     atomic.Pointer[map[string]bool] // MarkMissing's set
	closeOnce   sync.Once
}

// Open connects to the PostgreSQL database dsn names (a postgres:// URL or
// a key=value string) and returns its store, creating or upgrading the
// schema unless opts.ReadOnly says to read only. A later schema is
// ErrSchema; tables that are not a store's, ErrNotStore; a store built
// under other rules, ErrRules. No error repeats the DSN's password.
func Open(ctx context.Context, dsn DSN, opts *Options) (*Store, error) {
	if opts == nil {
		opts = &Options{}
	}
	s, err := open(ctx, dsn, opts)
	if err != nil {
		return nil, fmt.Errorf("postgres: open %s: %w", dsn, dsn.scrub(err))
	}
	return s, nil
}

// open is Open without the wrapping of its errors.
func open(ctx context.Context, dsn DSN, opts *Options) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(string(dsn))
	if err != nil {
		return nil, err
	}
	cfg.MaxConns = int32(opts.Conns)
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = int32(max(8, 4*runtime.NumCPU()))
	}
	if opts.ReadOnly {
		cfg.ConnConfig.RuntimeParams["default_transaction_read_only"] = "on"
	}
	if opts.Schema != "" {
		cfg.ConnConfig.RuntimeParams["search_path"] = pgx.Identifier{opts.Schema}.Sanitize()
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	d := &db{dsn: dsn, pool: pool, readOnly: opts.ReadOnly, titleWeight: opts.TitleWeight, ranking: opts.Ranking}
	if d.schema, d.lockClass, err = schemaLock(ctx, pool, opts.Schema, opts.ReadOnly); err != nil {
		pool.Close()
		return nil, err
	}
	if d.titleWeight <= 0 {
		d.titleWeight = DefaultTitleWeight
	}
	switch d.ranking {
	case "":
		d.ranking = RankBM25
	case RankBM25, RankCD:
	default:
		pool.Close()
		return nil, fmt.Errorf("unknown ranking %q", opts.Ranking)
	}
	s := &Store{db: d}
	if err := s.check(ctx, opts.ReadOnly); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// check migrates or checks the schema, the rules and (read-only) that the
// store is complete, and loads the missing set.
func (s *Store) check(ctx context.Context, readOnly bool) error {
	if readOnly {
		v, err := version(ctx, s.pool)
		switch {
		case err != nil:
			return err
		case v == 0:
			return fmt.Errorf("%w: the database holds no store (build one with relink corpus)", ErrNoStore)
		case v > SchemaVersion:
			return fmt.Errorf("%w: %d (this package reads up to %d)", ErrSchema, v, SchemaVersion)
		case v < SchemaVersion:
			return fmt.Errorf("%w: %d is older than %d: open it once with write access to upgrade it", ErrSchema, v, SchemaVersion)
		}
		if err := s.incomplete(ctx); err != nil {
			return err
		}
	} else if err := migrate(ctx, s.pool, s.lockClass); err != nil {
		return err
	}
	if err := s.checkRules(ctx); err != nil {
		return err
	}
	return s.loadMissing(ctx)
}

// Close closes the connection pool, for every view of the store; call it
// once, when no view is in use any more.
func (s *Store) Close() error {
	s.closeOnce.Do(s.pool.Close)
	return nil
}

// DSN returns the connection string the store was opened with; its String
// method hides the password.
func (s *Store) DSN() DSN { return s.dsn }

// Schema returns the name of the PostgreSQL schema that holds the store:
// Options.Schema, or the first schema of the connection's search_path.
func (s *Store) Schema() string { return s.schema }

// checkRules returns an error wrapping ErrRules when the store's link or
// canonicalization rules are not this build's.
func (s *Store) checkRules(ctx context.Context) error {
	for _, r := range []struct {
		key, what, name string
		want            int
	}{
		{"link_rules", "link", "backlink.Rules", backlink.Rules},
		{"canon_rules", "canonicalization", "canon.Rules", canon.Rules},
	} {
		v, err := s.rules(ctx, r.key)
		if err != nil {
			return err
		}
		if v != r.want {
			return fmt.Errorf("%w: %s rules %d, this relink uses %d (%s): drop the store and build it again", ErrRules, r.what, v, r.want, r.name)
		}
	}
	return nil
}

// rules reads the version of the rules named key.
func (s *Store) rules(ctx context.Context, key string) (int, error) {
	var v string
	if err := s.pool.QueryRow(ctx, `SELECT value FROM meta WHERE key = $1`, key).Scan(&v); err != nil {
		return 0, fmt.Errorf("postgres: %s: %w", key, err)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("postgres: %s: %q is not a version", key, v)
	}
	return n, nil
}

// LinkRules returns the version of the link rules (backlink.Rules) under
// which the store's links were classified.
func (s *Store) LinkRules(ctx context.Context) (int, error) { return s.rules(ctx, "link_rules") }

// CanonRules returns the version of the canonicalization rules (canon.Rules)
// under which the store's URIs were canonicalized.
func (s *Store) CanonRules(ctx context.Context) (int, error) { return s.rules(ctx, "canon_rules") }

// WithMissing returns a view of the store in which the given URIs are
// missing, on top of those MarkMissing recorded: Fetch answers 404 for
// them and they are never backlinks, but they stay in the search index and
// in document frequencies, as in the paper. URIs are canonicalized; ones
// that cannot be are ignored. The view shares the pool with s.
func (s *Store) WithMissing(uris ...string) *Store {
	return &Store{db: s.db, missing: ingest.WithMissing(s.missing, uris)}
}

// IsMissing reports whether uri counts as missing in this view.
func (s *Store) IsMissing(uri string) bool {
	c, err := canon.Canonicalize(uri)
	return err == nil && s.isMissing(c)
}

// isMissing is IsMissing for a canonical URI.
func (s *Store) isMissing(uri string) bool {
	return ingest.IsMissing(s.missing, s.persist.Load(), uri)
}

// Missing returns the URIs recorded by MarkMissing and those of this view,
// sorted.
func (s *Store) Missing() []string {
	return ingest.MissingList(s.missing, s.persist.Load())
}

// MarkMissing records uris as missing in the database, for every view and
// every later Open. URIs are canonicalized; one that cannot be is an error
// and nothing is recorded.
func (s *Store) MarkMissing(ctx context.Context, uris ...string) error {
	return s.updateMissing(ctx, uris, `INSERT INTO missing (uri) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING`)
}

// ClearMissing removes uris from the set MarkMissing recorded; with no
// URIs, every one.
func (s *Store) ClearMissing(ctx context.Context, uris ...string) error {
	if len(uris) == 0 {
		return s.updateMissing(ctx, nil, `DELETE FROM missing WHERE $1::text[] IS NOT NULL OR true`)
	}
	return s.updateMissing(ctx, uris, `DELETE FROM missing WHERE uri = ANY($1)`)
}

// updateMissing runs stmt with the canonical uris and reloads the set.
func (s *Store) updateMissing(ctx context.Context, uris []string, stmt string) error {
	if s.readOnly {
		return fmt.Errorf("postgres: missing: %w", ErrReadOnly)
	}
	canonical := make([]string, len(uris))
	for i, u := range uris {
		c, err := canon.Canonicalize(u)
		if err != nil {
			return fmt.Errorf("postgres: missing: %w", err)
		}
		canonical[i] = c
	}
	if _, err := s.pool.Exec(ctx, stmt, canonical); err != nil {
		return fmt.Errorf("postgres: missing: %w", err)
	}
	return s.loadMissing(ctx)
}

// loadMissing reads the persisted missing set.
func (s *Store) loadMissing(ctx context.Context) error {
	rows, _ := s.pool.Query(ctx, `SELECT uri FROM missing`)
	list, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("postgres: read missing: %w", err)
	}
	m := make(map[string]bool, len(list))
	for _, u := range list {
		m[u] = true
	}
	s.persist.Store(&m)
	return nil
}
