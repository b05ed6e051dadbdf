package postgres

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/canon"
)

// SchemaVersion is the version of the database layout this package
// writes: the number of migrations. Open applies the missing ones, in one
// transaction, and refuses a database of a later version with ErrSchema.
const SchemaVersion = 1

// migrations[i] makes version i+1 of the schema from version i.
//
// Every table that grows with the web is keyed by a canonical URI, the
// key Citus would distribute it by (see the package documentation): pages,
// redirects, uris and link sources by their own URI, links and link
// records by their target (dst), so that a target's page and its
// backlinks live together. The small tables
// (terms, corpus, meta, sources, skipped, missing, ingests) would be
// Citus reference tables.
var migrations = []string{
	// Version 1.
	`
CREATE TABLE meta (
	key   text PRIMARY KEY,
	value text NOT NULL
);

-- Every URI the store holds a page, a redirect or a link source at,
-- claimed by the ingest that wrote it: two ingests at once cannot both
-- write one URI. A page takes a link source's URI over.
CREATE TABLE uris (
	uri  text PRIMARY KEY,
	kind text NOT NULL  -- 'page', 'redirect' or 'source'
);

-- One row per page.
CREATE TABLE pages (
	uri             text PRIMARY KEY,  -- canonical (canon.Canonicalize)
	address         text NOT NULL,     -- the URI as published or captured: Fetch reports it
	site            text NOT NULL,
	title           text NOT NULL,
	status          integer NOT NULL,  -- HTTP status to replay
	content_type    text NOT NULL,
	header          bytea,             -- HTTP header to replay (WARC); NULL: synthesize
	words           integer NOT NULL,  -- visible words (backlink.Words)
	len             integer NOT NULL,  -- indexed words, title and text: BM25's document length
	tlen            integer NOT NULL,  -- indexed words of the title, at positions 1 to tlen of tsv
	inlinks         integer NOT NULL DEFAULT 0, -- distinct other pages linking here
	content_inlinks integer NOT NULL DEFAULT 0, -- the same, navigation links left out
	source          text NOT NULL,     -- the file or WARC record it came from
	body            bytea NOT NULL,    -- the page as served, DEFLATE-compressed
	-- The title's words with weight A and the text's with weight D, the
	-- words exactly as lexsig counts them (internal/words, lowercased).
	tsv             tsvector NOT NULL
);
CREATE INDEX pages_tsv ON pages USING gin (tsv);

-- The links of each page, keyed by their target.
CREATE TABLE links (
	dst    text NOT NULL,     -- canonical target
	src    text NOT NULL,     -- pages.uri
	pos    integer NOT NULL,  -- 0, 1, ... in page order
	anchor text NOT NULL,     -- the anchor's words, joined by spaces
	nav    boolean NOT NULL,  -- a navigation link
	area   boolean NOT NULL,  -- an image-map <area>
	PRIMARY KEY (dst, src, pos)
);
CREATE INDEX links_src ON links (src, pos);

-- Link sources: pages the store holds no copy of, known by their link
-- records (WAT files).
CREATE TABLE link_sources (
	uri             text PRIMARY KEY,
	fetched         bigint NOT NULL,  -- when the crawler fetched the page, Unix seconds; 0 unknown
	inlinks         integer NOT NULL DEFAULT 0, -- distinct other pages and link sources linking here
	content_inlinks integer NOT NULL DEFAULT 0, -- the same, pages' navigation links left out
	source          text NOT NULL     -- "wat:<path>#<record>"
);

-- The links of each link source, keyed by their target.
CREATE TABLE link_records (
	dst    text NOT NULL,     -- canonical target
	src    text NOT NULL,     -- link_sources.uri
	pos    integer NOT NULL,  -- 0, 1, ... in page order
	anchor text NOT NULL,     -- the anchor text, white space normalised
	PRIMARY KEY (dst, src, pos)
);
CREATE INDEX link_records_src ON link_records (src, pos);

-- Redirect stubs and HTTP redirects: uri redirects to target.
CREATE TABLE redirects (
	uri    text PRIMARY KEY,
	target text NOT NULL,
	status integer NOT NULL,
	source text NOT NULL
);

-- Document frequencies: the pages whose title or text holds each term,
-- kept exact by every batch an ingest commits.
CREATE TABLE terms (
	term text PRIMARY KEY,
	docs bigint NOT NULL
);

-- One row: the pages and the sum of their lengths (BM25's N and average
-- document length), kept by every batch, and the number of batches that
-- added pages or redirects (generation). The derived data (in-degrees)
-- is up to date when meta's 'derived' is the generation.
CREATE TABLE corpus (
	one        boolean PRIMARY KEY DEFAULT true CHECK (one),
	pages      bigint NOT NULL,
	length     bigint NOT NULL,
	generation bigint NOT NULL
);
INSERT INTO corpus (pages, length, generation) VALUES (0, 0, 0);

-- Every file or record an ingest finished with (its claim: another ingest
-- passes it over), and the progress through WARC files.
CREATE TABLE sources (
	source  text PRIMARY KEY,
	outcome text NOT NULL  -- 'page', 'redirect', a skip reason, or a file's progress
);

-- Files and records that are not pages, and why.
CREATE TABLE skipped (
	source text PRIMARY KEY,
	reason text NOT NULL,
	detail text NOT NULL
);

-- URIs marked missing with MarkMissing.
CREATE TABLE missing (
	uri text PRIMARY KEY
);

-- The ingests begun and not finished: a running one holds the session
-- advisory lock (lockClass, id) until it ends, however it ends.
CREATE TABLE ingests (
	id      bigserial PRIMARY KEY,
	kind    text NOT NULL,
	started timestamptz NOT NULL DEFAULT now()
);
`,
}

// lockClass is the first key of the advisory locks of a store in the
// schema public: (class, 0) serializes migrations and finishing, (class,
// id) is held by the running ingest of that id. A store in another schema
// has a class of its own (schemaLock), since ingest ids are counted per
// schema.
const lockClass = 0x72656c6b // "relk"

// schemaLock creates the schema name (unless readOnly, or name is "")
// and returns the connection's current schema, which holds the store, and
// the class of the store's advisory locks: lockClass for public, a hash of
// the schema's name for any other. A schema that does not exist is
// ErrNoStore.
func schemaLock(ctx context.Context, pool *pgxpool.Pool, name string, readOnly bool) (string, int32, error) {
	if name != "" && !readOnly {
		// Two Opens creating one schema at once would collide: the
		// database-wide lock (lockClass, 0) makes them take turns.
		err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, 0)`, lockClass); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{name}.Sanitize())
			return err
		})
		if err != nil {
			return "", 0, fmt.Errorf("create schema: %w", err)
		}
	}
	var current *string
	if err := pool.QueryRow(ctx, `SELECT current_schema()`).Scan(&current); err != nil {
		return "", 0, err
	}
	switch {
	case current == nil && name != "":
		return "", 0, fmt.Errorf("%w: there is no schema %q (build one with relink corpus)", ErrNoStore, name)
	case current == nil:
		return "", 0, fmt.Errorf("%w: no schema of the search_path exists", ErrNoStore)
	case *current == "public":
		return *current, lockClass, nil
	}
	h := fnv.New32a()
	h.Write([]byte("relink schema " + *current))
	return *current, int32(h.Sum32()), nil
}

// migrate creates or upgrades the schema in one transaction, holding an
// advisory lock so that Opens at once do it once. A database that holds
// tables but no schema_version table is another program's: ErrNotStore.
func migrate(ctx context.Context, pool *pgxpool.Pool, lockClass int32) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, 0)`, lockClass); err != nil {
		return err
	}
	v, err := version(ctx, tx)
	if err != nil {
		return err
	}
	switch {
	case v == SchemaVersion:
		return nil
	case v > SchemaVersion:
		return fmt.Errorf("%w: %d (this package knows up to %d)", ErrSchema, v, SchemaVersion)
	case v == 0:
		var tables int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()`).Scan(&tables); err != nil {
			return err
		}
		if tables > 0 {
			return fmt.Errorf("%w: the schema holds tables but no store", ErrNotStore)
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE schema_version (version integer NOT NULL)`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_version (version) VALUES (0)`); err != nil {
			return err
		}
	}
	for _, m := range migrations[v:] {
		if _, err := tx.Exec(ctx, m); err != nil {
			return err
		}
	}
	if v == 0 {
		// A new store: its links are classified by this build's rules, its
		// URIs canonicalized by this build's canonicalization.
		for key, r := range map[string]int{"link_rules": backlink.Rules, "canon_rules": canon.Rules} {
			if _, err := tx.Exec(ctx, `INSERT INTO meta (key, value) VALUES ($1, $2)`, key, strconv.Itoa(r)); err != nil {
				return err
			}
		}
	}
	if _, err := tx.Exec(ctx, `UPDATE schema_version SET version = $1`, SchemaVersion); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// querier is what version needs of a pool, a connection or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// version reads the schema version; 0 means none (no schema_version table
// in the current schema).
func version(ctx context.Context, q querier) (int, error) {
	var exists bool
	if err := q.QueryRow(ctx, `SELECT to_regclass('schema_version') IS NOT NULL`).Scan(&exists); err != nil || !exists {
		return 0, err
	}
	var v int
	err := q.QueryRow(ctx, `SELECT version FROM schema_version`).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("%w: an empty schema_version table", ErrSchema)
	}
	return v, err
}
