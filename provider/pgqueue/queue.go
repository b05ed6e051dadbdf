package pgqueue

import (
	"context"
	"errors"
	"fmt"
	"runtime"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/linkrot/relink/provider/postgres"
)

// Schema is the PostgreSQL schema that holds the queue: river's tables
// and the runs, results, cache records and rate limits. It is apart from
// the store's tables, so that the store's schema holds only the store.
const Schema = "relink_work"

// Queue is the work shared by many processes through one PostgreSQL
// database: runs, their items as river jobs, their results, cache records
// and rate limits. A Queue is safe for concurrent use.
type Queue struct {
	dsn  postgres.DSN
	pool *pgxpool.Pool
	// inserter is an insert-only river client.
	inserter *river.Client[pgx.Tx]
}

// ErrOpen wraps the errors of Open.
var ErrOpen = errors.New("pgqueue: open")

// Open connects to the database dsn names and makes or updates the
// queue's schema there (river's migrations and the queue's tables, under
// an advisory lock, so that processes starting at once do it once). The
// password in dsn is never part of an error.
func Open(ctx context.Context, dsn postgres.DSN) (*Queue, error) {
	q, err := open(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %w", ErrOpen, dsn, dsn.Scrub(err))
	}
	return q, nil
}

func open(ctx context.Context, dsn postgres.DSN) (*Queue, error) {
	cfg, err := pgxpool.ParseConfig(string(dsn))
	if err != nil {
		return nil, err
	}
	cfg.MaxConns = int32(max(8, 4*runtime.NumCPU()))
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	q := &Queue{dsn: dsn, pool: pool}
	if err := q.setup(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	q.inserter, err = river.NewClient(riverpgxv5.New(pool), &river.Config{Schema: Schema})
	if err != nil {
		pool.Close()
		return nil, err
	}
	return q, nil
}

// Close closes the Queue's connections.
func (q *Queue) Close() { q.pool.Close() }

// lockSetup is the advisory lock key (with lockClass) held while the
// schema is made.
const (
	lockClass = 0x72656c6b // "relk"
	lockSetup = 1
)

// SchemaVersion is the version of the queue's own tables (runs, results,
// records, limits; river versions its tables itself): the number of
// migrations. Open applies the missing ones and refuses a database of a
// later version with ErrSchema.
const SchemaVersion = 1

// ErrSchema is returned, wrapped, by Open for a queue whose tables are of
// a later version than SchemaVersion.
var ErrSchema = errors.New("pgqueue: unknown schema version")

// migrations[i] makes version i+1 of the queue's tables from version i,
// in one transaction. Version 1 creates the tables only where they are
// missing: queues made before the tables were versioned hold them already.
// Keys of records are bytes: a cache key may hold a NUL byte, which text
// cannot.
var migrations = [][]string{{
	`CREATE TABLE IF NOT EXISTS ` + Schema + `.runs (
		id text PRIMARY KEY,
		settings text[] NOT NULL,
		total integer NOT NULL,
		created timestamptz NOT NULL DEFAULT now())`,
	`CREATE SEQUENCE IF NOT EXISTS ` + Schema + `.result_seq`,
	`CREATE TABLE IF NOT EXISTS ` + Schema + `.results (
		run text NOT NULL REFERENCES ` + Schema + `.runs ON DELETE CASCADE,
		idx integer NOT NULL,
		key text NOT NULL,
		value text NOT NULL,
		final boolean NOT NULL,
		seq bigint NOT NULL,
		updated timestamptz NOT NULL DEFAULT now(),
		PRIMARY KEY (run, idx))`,
	`CREATE INDEX IF NOT EXISTS results_seq ON ` + Schema + `.results (run, seq)`,
	`CREATE TABLE IF NOT EXISTS ` + Schema + `.records (
		kind text NOT NULL,
		key bytea NOT NULL,
		value bytea NOT NULL,
		stored timestamptz NOT NULL,
		PRIMARY KEY (kind, key))`,
	`CREATE TABLE IF NOT EXISTS ` + Schema + `.limits (
		key text PRIMARY KEY,
		next_at timestamptz NOT NULL)`,
}}

// migrate brings the queue's own tables to SchemaVersion, each migration
// in a transaction that records its version in the table queue_version.
// The caller holds the setup lock.
func migrate(ctx context.Context, conn *pgxpool.Conn) error {
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS `+Schema+`.queue_version (version integer NOT NULL)`); err != nil {
		return err
	}
	var v int
	err := conn.QueryRow(ctx, `SELECT version FROM `+Schema+`.queue_version`).Scan(&v)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		if _, err := conn.Exec(ctx, `INSERT INTO `+Schema+`.queue_version (version) VALUES (0)`); err != nil {
			return err
		}
	case err != nil:
		return err
	case v > SchemaVersion:
		return fmt.Errorf("%w: %d (this package knows up to %d)", ErrSchema, v, SchemaVersion)
	}
	for i := v; i < SchemaVersion; i++ {
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			for _, stmt := range migrations[i] {
				if _, err := tx.Exec(ctx, stmt); err != nil {
					return err
				}
			}
			_, err := tx.Exec(ctx, `UPDATE `+Schema+`.queue_version SET version = $1`, i+1)
			return err
		})
		if err != nil {
			return fmt.Errorf("migration %d: %w", i+1, err)
		}
	}
	return nil
}

// setup makes the schema, river's tables and the queue's, holding an
// advisory lock: river's migrations run one transaction each (one adds an
// enum value that a later one uses, which one transaction cannot do).
func (q *Queue) setup(ctx context.Context) error {
	conn, err := q.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1, $2)`, lockClass, lockSetup); err != nil {
		return err
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1, $2)`, lockClass, lockSetup)
	if _, err := conn.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+Schema); err != nil {
		return err
	}
	m, err := rivermigrate.New(riverpgxv5.New(q.pool), &rivermigrate.Config{Schema: Schema, Logger: quietLogger()})
	if err != nil {
		return err
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("river's migrations: %w", err)
	}
	return migrate(ctx, conn)
}
