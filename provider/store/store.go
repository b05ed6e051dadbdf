package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, FTS5 built in

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
)

var (
	_ backlink.Provider = (*Store)(nil)
	_ filter.Fetcher    = (*Store)(nil)
	_ lexsig.DF         = (*Store)(nil)
	_ lexsig.BatchDF    = (*Store)(nil)
	_ lexsig.Searcher   = (*Store)(nil)
)

// SchemaVersion is the version of the database layout this package writes.
// Version 2 added link sources: pages known only by their link records
// (IngestWAT). Open upgrades a version 1 file in place when it may write
// (adding the empty link tables, which takes milliseconds whatever the
// file's size), and reads one opened with Options.ReadOnly as it is, as a
// store without link sources. It refuses newer versions with ErrSchema.
const SchemaVersion = 2

// DefaultQueryCache is how many search results (summed over the cached
// answers, an empty answer counting as one) a Store keeps when
// Options.QueryCache is 0: about 50 MB for typical URIs and titles, 262
// answers of MaxResults results or many more short ones.
const DefaultQueryCache = 1 << 18

// ErrSchema is returned, wrapped, by Open for a store whose schema version
// this package does not know: one written by a later version of the
// package.
var ErrSchema = errors.New("store: unknown schema version")

// ErrNoStore is returned, wrapped, by Open with Options.ReadOnly when
// nothing exists at the path; the error matches fs.ErrNotExist too. A
// read-only Open never creates a file.
var ErrNoStore = errors.New("store: no store")

// ErrNotStore is returned, wrapped, by Open for a path that holds something
// other than a store: a directory, an empty file (read-only; a writable
// Open makes a new store of it), a file that is not SQLite, a truncated or
// corrupt one, or another program's SQLite database. Open leaves such a
// file as it found it.
var ErrNotStore = errors.New("store: not a store")

// ErrIncomplete is returned, wrapped, by Open with Options.ReadOnly and by
// CheckComplete for a store whose ingest has not finished: one is running,
// one was interrupted (cancelled, killed, failed), or none has run. The
// message says which and what to do; running the interrupted ingest again
// finishes the store.
var ErrIncomplete = errors.New("store: ingest not finished")

// ErrLocked is returned, wrapped, by the ingest methods when another
// ingest is writing the store: through another Store, in this process or
// another, or through this Store. Only one ingest writes a store at a
// time; the second fails at once and writes nothing.
var ErrLocked = errors.New("store: another ingest is writing the store")

// ErrRules is returned, wrapped, by Open for a store built by a relink
// whose link rules (backlink.Rules) or canonicalization rules (canon.Rules)
// differ from this build's: its navigation marks or its URI keys are not
// what this build would give. The message says to build it anew.
var ErrRules = errors.New("store: built under other rules")

// ErrReadOnly is returned, wrapped, by methods that write to a store opened
// with Options.ReadOnly.
var ErrReadOnly = errors.New("store: opened read-only")

// Options configures Open. The zero value is ready to use.
type Options struct {
	// ReadOnly opens an existing, complete store without creating or
	// writing any file, also where the user may not write: ingest and
	// MarkMissing fail with ErrReadOnly. Open refuses a store whose
	// ingest has not finished (ErrIncomplete).
	ReadOnly bool
	// QueryCache bounds the search results kept in memory, summed over the
	// cached answers (an empty answer counts as one), least recently used
	// answer dropped first; 0 means DefaultQueryCache and a negative value
	// disables the cache.
	QueryCache int
	// Readers bounds the connections that serve queries at once; 0 means
	// twice the number of CPUs. A ReadOnly store searches with
	// connections of its own besides, as many as CPUs and at most
	// Readers, which map the file into memory.
	Readers int
	// TitleWeight is the BM25 weight of the title column relative to the
	// text column in Search; 0 means DefaultTitleWeight.
	TitleWeight float64
}

// Store is a local web in one SQLite file: pages with their HTML, the links
// between them and a full-text index. It serves backlinks
// (backlink.Provider), pages (filter.Fetcher), document frequencies
// (lexsig.DF, lexsig.BatchDF) and search (lexsig.Searcher).
//
// A Store is safe for concurrent use by many goroutines; one ingest runs at
// a time (another fails with ErrLocked). WithMissing returns views that share the database and differ only
// in which pages count as missing.
type Store struct {
	*db
	missing map[string]bool // this view's own missing URIs; nil for none
}

// db is the state that a Store and its views share.
type db struct {
	path     string
	readOnly bool
	read     *sql.DB // the reader pool
	search   *sql.DB // a read-only store's search pool; nil to search with read
	write    *sql.DB // one connection, for ingest and the missing table
	ingestMu sync.Mutex

	stmts       statements
	linkStmts   *linkStatements // nil for a version 1 file opened read-only
	titleWeight float64
	cache       *queryCache
	index       atomic.Pointer[postingsIndex] // the postings last found fresh (Store.postings)
	docs        atomic.Int64                  // cached page count; -1 unknown
	persist     atomic.Pointer[map[string]bool]
	opened      bool // the file is a store and every statement is prepared
	closeErr    error
	closed      sync.Once
}

// Open opens the store in the file at path, creating the file and its
// schema when they do not exist (unless opts.ReadOnly). A nil opts means
// the zero Options. The caller must Close the Store.
//
// Open refuses, with ErrNotStore, a path that holds something else (a
// directory, a file that is not SQLite, a truncated or corrupt file,
// another program's database) and leaves it unchanged. With
// opts.ReadOnly it neither creates nor changes any file: a missing path is
// ErrNoStore, an empty file ErrNotStore, and a store whose ingest has not
// finished (one is running, or was interrupted) is ErrIncomplete; it reads
// a store in a directory or on a disk the user cannot write. A store whose
// schema is newer than this package's is ErrSchema.
func Open(path string, opts *Options) (*Store, error) {
	if opts == nil {
		opts = &Options{}
	}
	if err := checkFile(path, opts.ReadOnly); err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	d := &db{path: path, readOnly: opts.ReadOnly, titleWeight: opts.TitleWeight}
	if d.titleWeight <= 0 {
		d.titleWeight = DefaultTitleWeight
	}
	d.docs.Store(-1)
	s, err := d.open(opts)
	if err != nil {
		d.closeAll()
		return nil, fmt.Errorf("store: open %s: %w", path, classify(err))
	}
	return s, nil
}

// open opens the connection pools, checks or writes the schema, prepares
// the statements and loads the missing set.
func (d *db) open(opts *Options) (*Store, error) {
	var err error
	if !opts.ReadOnly {
		d.write, err = sql.Open("sqlite", dsn(d.path, roleWriter))
		if err != nil {
			return nil, err
		}
		d.write.SetMaxOpenConns(1)
		if err := migrate(d.write); err != nil {
			return nil, err
		}
		// The file is a store: now it may change journal mode. Readers
		// never wait for the writer in WAL mode; Close leaves it.
		if _, err := d.write.Exec(`PRAGMA journal_mode = WAL`); err != nil {
			return nil, err
		}
	}
	readers := opts.Readers
	if readers <= 0 {
		readers = 2 * runtime.NumCPU()
	}
	v := SchemaVersion
	if opts.ReadOnly {
		var role connRole
		if d.read, role, v, err = openReader(d.path, readers); err != nil {
			return nil, err
		}
		// Searches have their own connections, which map the file into
		// memory and read the pages of the full-text index there, rather
		// than copying each page that misses a connection's page cache
		// with a system call; no more of them than CPUs, since each maps
		// the pages it reads (they count in the process's resident
		// memory, once per connection), and apart from the readers, whose
		// caches the pages of fetched bodies and links would fill.
		if d.search, err = sql.Open("sqlite", dsn(d.path, role, "mmap_size("+strconv.Itoa(mmapSize)+")")); err != nil {
			return nil, err
		}
		searchers := min(readers, runtime.NumCPU())
		d.search.SetMaxOpenConns(searchers)
		d.search.SetMaxIdleConns(searchers)
	} else {
		if d.read, err = sql.Open("sqlite", dsn(d.path, roleReader)); err != nil {
			return nil, err
		}
		d.read.SetMaxOpenConns(readers)
		d.read.SetMaxIdleConns(readers)
	}
	if err := d.stmts.prepare(d.read, d.search); err != nil {
		return nil, err
	}
	if v >= 2 {
		d.linkStmts = &linkStatements{}
		if err := d.linkStmts.prepare(d.read); err != nil {
			return nil, err
		}
	}
	size := opts.QueryCache
	if size == 0 {
		size = DefaultQueryCache
	}
	d.cache = newQueryCache(size)
	if opts.ReadOnly {
		// The postings are read through the readers: the search
		// connections map the file, and would count the pages and URL
		// tables, read whole once, in the resident memory.
		made, err := postingsMade(context.Background(), d.read)
		if err != nil {
			return nil, err
		}
		if made != "" {
			d.index.Store(newPostingsIndex(d.read, d.titleWeight, made))
		}
	}
	d.opened = true
	s := &Store{db: d}
	if opts.ReadOnly {
		if err := s.incomplete(context.Background()); err != nil {
			return nil, err
		}
	}
	if err := s.checkRules(context.Background()); err != nil {
		return nil, err
	}
	if err := s.loadMissing(context.Background()); err != nil {
		return nil, err
	}
	return s, nil
}

// connRole says how a connection may use the file.
type connRole int

const (
	roleWriter    connRole = iota // the one write connection
	roleReader                    // a reader of a writable Store
	roleReadOnly                  // a reader of a read-only Store: mode=ro
	roleImmutable                 // the same, immutable=1 (openReader says when)
)

// mmapSize is how much of a read-only store's file its search connections
// map into memory: 1 GiB.
const mmapSize = 1 << 30

// dsn returns the driver's data source name for path. Every connection
// uses a busy timeout instead of immediate SQLITE_BUSY errors and
// synchronous=NORMAL, which in WAL mode keeps the database consistent
// after a crash and loses at most the last transactions. The writer
// switches the file to WAL journaling once it knows the file is a store
// (Open), and its transactions take the write lock when they begin.
// Readers are query_only; those of a read-only store also open the file
// read-only (mode=ro), so that nothing is ever created or written, and
// immutable ones take no locks and need no -shm file. pragmas are set on
// every connection besides.
func dsn(path string, role connRole, pragmas ...string) string {
	q := url.Values{}
	switch role {
	case roleReadOnly:
		q.Add("mode", "ro")
	case roleImmutable:
		q.Add("mode", "ro")
		q.Add("immutable", "1")
	}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "cache_size(-32768)")
	q.Add("_pragma", "temp_store(MEMORY)")
	for _, p := range pragmas {
		q.Add("_pragma", p)
	}
	if role == roleWriter {
		q.Add("_txlock", "immediate")
	} else {
		q.Add("_pragma", "query_only(1)")
	}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// Close closes the database. It closes it for every view of the store; call
// it once, when no view is in use any more.
func (s *Store) Close() error {
	s.closed.Do(func() { s.closeErr = s.closeAll() })
	return s.closeErr
}

// closeAll closes the statements and both pools.
func (d *db) closeAll() error {
	var errs []error
	errs = append(errs, d.stmts.close())
	if d.linkStmts != nil {
		errs = append(errs, d.linkStmts.close())
	}
	if d.search != nil {
		errs = append(errs, d.search.Close())
	}
	if d.read != nil {
		errs = append(errs, d.read.Close())
	}
	if d.write != nil && d.opened {
		if _, err := d.write.Exec("PRAGMA optimize"); err != nil {
			errs = append(errs, err)
		}
		restMode(d.write)
	}
	if d.write != nil {
		errs = append(errs, d.write.Close())
	}
	return errors.Join(errs...)
}

// Path returns the file name the store was opened with.
func (s *Store) Path() string { return s.path }

// writer returns the write pool, or ErrReadOnly.
func (d *db) writer() (*sql.DB, error) {
	if d.write == nil {
		return nil, fmt.Errorf("store: %s: %w", d.path, ErrReadOnly)
	}
	return d.write, nil
}

// schema creates the tables of version 1; linkSchema adds those of
// version 2. The comments are the reference for what each column holds.
const schema = `
CREATE TABLE IF NOT EXISTS meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
) WITHOUT ROWID;

-- Every URI the store knows, as a page, a redirect or a link target, in the
-- form canon.Canonicalize gives. Other tables refer to URIs by id.
CREATE TABLE IF NOT EXISTS urls (
	id  INTEGER PRIMARY KEY,
	uri TEXT NOT NULL UNIQUE
);

-- One row per page; id is the page's urls.id and the rowid of its full-text
-- row.
CREATE TABLE IF NOT EXISTS pages (
	id           INTEGER PRIMARY KEY,
	address      TEXT NOT NULL,     -- the URI as published or captured: Fetch reports it
	site         TEXT NOT NULL,
	title        TEXT NOT NULL,
	status       INTEGER NOT NULL,  -- HTTP status to replay
	content_type TEXT NOT NULL,
	header       BLOB,              -- HTTP header to replay (WARC); NULL: synthesize
	words        INTEGER NOT NULL,  -- visible words (backlink.Words)
	inlinks      INTEGER NOT NULL DEFAULT 0, -- distinct other pages linking here
	content_inlinks INTEGER NOT NULL DEFAULT 0, -- the same, navigation links left out
	source       TEXT NOT NULL      -- the file or WARC record it came from
);

-- The page's bytes as served, compressed with DEFLATE.
CREATE TABLE IF NOT EXISTS bodies (
	id   INTEGER PRIMARY KEY,
	data BLOB NOT NULL
);

-- The links of each page in page order (a and area elements with an href
-- that resolves to an http(s) URI).
CREATE TABLE IF NOT EXISTS links (
	src    INTEGER NOT NULL,  -- pages.id
	pos    INTEGER NOT NULL,  -- 0, 1, ... in page order
	dst    INTEGER NOT NULL,  -- urls.id of the canonical target
	anchor TEXT NOT NULL,     -- the anchor's words, joined by spaces
	nav    INTEGER NOT NULL,  -- 1 for a navigation link
	area   INTEGER NOT NULL,  -- 1 for an image-map <area>
	PRIMARY KEY (src, pos)
) WITHOUT ROWID;
-- An ingest into a store without links drops this index and finish
-- builds it (linksIndex).
` + linksIndex + `;

-- Redirect stubs and HTTP redirects: id (urls.id) redirects to target.
CREATE TABLE IF NOT EXISTS redirects (
	id     INTEGER PRIMARY KEY,
	target TEXT NOT NULL,
	status INTEGER NOT NULL,
	source TEXT NOT NULL
);

-- Every file or record an ingest finished with, so that a rerun skips it.
-- A WAT file (IngestWAT) has one row, "wat:" and its path, whose outcome is
-- "next N" while records 0..N-1 are done and "done N" once its N records
-- are.
CREATE TABLE IF NOT EXISTS sources (
	source TEXT PRIMARY KEY,
	outcome TEXT NOT NULL  -- "page", "redirect" or a skip reason
) WITHOUT ROWID;

-- Files and records that are not pages, and why.
CREATE TABLE IF NOT EXISTS skipped (
	source TEXT PRIMARY KEY,
	reason TEXT NOT NULL,
	detail TEXT NOT NULL
) WITHOUT ROWID;

-- URIs marked missing with MarkMissing.
CREATE TABLE IF NOT EXISTS missing (
	uri TEXT PRIMARY KEY
) WITHOUT ROWID;

-- The full-text index of each page's title and visible words. Contentless:
-- the text is not stored twice, and bm25 needs only the index.
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5 (
	title, body,
	content = '',
	tokenize = "unicode61 remove_diacritics 0 categories 'L* N* M*'"
);
CREATE VIRTUAL TABLE IF NOT EXISTS fts_vocab USING fts5vocab (fts, 'row');

-- Document frequencies copied from fts_vocab when an ingest finishes:
-- fts_vocab counts a term's documents by reading its whole posting list,
-- this table answers with one lookup. Valid while meta holds 'derived'.
CREATE TABLE IF NOT EXISTS df (
	term TEXT PRIMARY KEY,
	docs INTEGER NOT NULL
) WITHOUT ROWID;
`

// linksIndex creates the index of the links by target, which Backlinks
// and the in-degrees read.
const linksIndex = `CREATE INDEX IF NOT EXISTS links_dst ON links (dst, area, nav, src)`

// linkSchema creates what version 2 added: link sources, pages the store
// holds no copy of, known by their link records (a crawl's link data such
// as Common Crawl's WAT files). A URI is a page or a link source, never
// both: a page ingested later takes the place of the link source, whose
// records its own links replace. The triggers keep that so, and keep the
// in-degrees of pages and link sources counting each other's links; ranks
// holds the statements that recompute them, which IngestWAT runs too.
const linkSchema = `
-- One row per link source; id is its urls.id.
CREATE TABLE IF NOT EXISTS link_sources (
	id              INTEGER PRIMARY KEY,
	fetched         INTEGER NOT NULL,  -- when the crawler fetched the page, Unix seconds; 0 unknown
	inlinks         INTEGER NOT NULL DEFAULT 0, -- distinct other pages and link sources linking here
	content_inlinks INTEGER NOT NULL DEFAULT 0, -- the same, pages' navigation links left out
	source          TEXT NOT NULL      -- the WAT file and record it came from, "wat:<path>#<record>"
);

-- The links of each link source in page order: <a href> links to http(s)
-- URIs other than the source itself.
CREATE TABLE IF NOT EXISTS link_records (
	src    INTEGER NOT NULL,  -- link_sources.id
	pos    INTEGER NOT NULL,  -- 0, 1, ... in page order
	dst    INTEGER NOT NULL,  -- urls.id of the canonical target
	anchor TEXT NOT NULL,     -- the anchor text, white space normalised
	PRIMARY KEY (src, pos)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS link_records_dst ON link_records (dst, src);

CREATE TRIGGER IF NOT EXISTS page_replaces_link_source AFTER INSERT ON pages BEGIN
	DELETE FROM link_records WHERE src = NEW.id;
	DELETE FROM link_sources WHERE id = NEW.id;
END;

-- An ingest of pages marks its derived data fresh last (meta 'derived'):
-- recount the in-degrees with the link sources' links in.
CREATE TRIGGER IF NOT EXISTS rank_link_sources AFTER INSERT ON meta
WHEN NEW.key = 'derived' AND EXISTS (SELECT 1 FROM link_sources) BEGIN
` + ranks + `
END;
`

// ranks recomputes the in-degree of every page and link source: the
// distinct other pages linking to it (image-map links left out; for
// content_inlinks navigation links too) plus the distinct link sources
// linking to it (whose links are all counted, a WAT file not saying where
// on the page a link sits). The two sets never overlap, a URI being a page
// or a link source but not both.
const ranks = `
	UPDATE pages SET
		inlinks = (SELECT count(DISTINCT src) FROM links WHERE dst = pages.id AND area = 0 AND src <> pages.id)
			+ (SELECT count(DISTINCT src) FROM link_records WHERE dst = pages.id),
		content_inlinks = (SELECT count(DISTINCT src) FROM links WHERE dst = pages.id AND area = 0 AND nav = 0 AND src <> pages.id)
			+ (SELECT count(DISTINCT src) FROM link_records WHERE dst = pages.id);
	UPDATE link_sources SET
		inlinks = (SELECT count(DISTINCT src) FROM links WHERE dst = link_sources.id AND area = 0)
			+ (SELECT count(DISTINCT src) FROM link_records WHERE dst = link_sources.id AND src <> link_sources.id),
		content_inlinks = (SELECT count(DISTINCT src) FROM links WHERE dst = link_sources.id AND area = 0 AND nav = 0)
			+ (SELECT count(DISTINCT src) FROM link_records WHERE dst = link_sources.id AND src <> link_sources.id);
`

// migrate creates or upgrades the schema, in one transaction: a file
// killed while it ran holds the old schema or the new one. A file that
// holds tables but no schema version is another program's database, which
// it refuses with ErrNotStore and leaves alone.
func migrate(w *sql.DB) error {
	// A current store needs no write lock, which an ingest may hold.
	if v, err := version(w); err != nil || v == SchemaVersion {
		return err
	}
	tx, err := w.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var tables int
	if err := tx.QueryRow(`SELECT count(*) FROM sqlite_master`).Scan(&tables); err != nil {
		return err
	}
	v := 0
	if tables > 0 {
		if v, err = version(tx); err != nil {
			return err
		}
		if v == 0 {
			return fmt.Errorf("%w: an SQLite database without a store's schema", ErrNotStore)
		}
	}
	switch {
	case v == SchemaVersion:
		return nil
	case v > SchemaVersion:
		return fmt.Errorf("%w: %d (this package knows up to %d)", ErrSchema, v, SchemaVersion)
	}
	// A new file (v == 0) gets every version's tables; an older one the
	// tables of the versions after its own.
	steps := []string{schema, linkSchema} // steps[i] makes version i+1
	if v < 0 || v > len(steps) {
		return fmt.Errorf("%w: %d", ErrSchema, v)
	}
	for _, q := range steps[v:] {
		if _, err := tx.Exec(q); err != nil {
			return err
		}
	}
	if v == 0 {
		// A new file: its links will be classified by this build's rules,
		// its URIs canonicalized by this build's canonicalization.
		if err := setRules(tx, "link_rules", backlink.Rules); err != nil {
			return err
		}
		if err := setRules(tx, "canon_rules", canonRules); err != nil {
			return err
		}
	}
	if _, err := tx.Exec(`INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)`, strconv.Itoa(SchemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
}

// canonRules is the version of the canonicalization rules under which
// this build stores URIs, recorded by a new store (meta 'canon_rules').
const canonRules = canon.Rules

// checkRules returns an error wrapping ErrRules when the store's link or
// canonicalization rules are not this build's.
func (s *Store) checkRules(ctx context.Context) error {
	for _, r := range []struct {
		key, what, name string
		want            int
	}{
		{"link_rules", "link", "backlink.Rules", backlink.Rules},
		{"canon_rules", "canonicalization", "canon.Rules", canonRules},
	} {
		v, err := s.rules(ctx, r.key)
		if err != nil {
			return err
		}
		if v != r.want {
			return fmt.Errorf("%w: %s rules %d, this relink uses %d (%s): delete the store and build it again", ErrRules, r.what, v, r.want, r.name)
		}
	}
	return nil
}

// setRules records, in meta, the version of the rules named key under
// which the store's data is made.
func setRules(tx *sql.Tx, key string, v int) error {
	_, err := tx.Exec(`INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)`, key, strconv.Itoa(v))
	return err
}

// rules reads the version of the rules named key; 1 when none was
// recorded, by a store older than the record.
func (s *Store) rules(ctx context.Context, key string) (int, error) {
	var v string
	err := s.read.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 1, nil
	}
	if err != nil {
		return 0, fmt.Errorf("store: %s: %w", key, err)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("store: %s: %q is not a version", key, v)
	}
	return n, nil
}

// LinkRules returns the version of the link rules (backlink.Rules) under
// which the store's links were classified when it was built: its
// navigation marks are those rules' verdicts. A store built before the
// version was recorded answers 1. When it differs from backlink.Rules,
// the store's navigation marks (BacklinkOptions.ExcludeNav, content
// inlinks) are not what this build would give: build the store anew.
func (s *Store) LinkRules(ctx context.Context) (int, error) {
	return s.rules(ctx, "link_rules")
}

// CanonRules returns the version of the canonicalization rules under
// which the store's URIs were canonicalized when it was built. A store
// built before the version was recorded answers 1. When it differs from
// the version this build canonicalizes with, a URI given to the store may
// not match the form it holds: build the store anew.
func (s *Store) CanonRules(ctx context.Context) (int, error) {
	return s.rules(ctx, "canon_rules")
}

// querier is what version and the postings' checks need of a *sql.DB or a
// *sql.Tx.
type querier interface {
	QueryRow(query string, args ...any) *sql.Row
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// version reads the schema version; 0 means none (or no meta table).
func version(q querier) (int, error) {
	var tables int
	if err := q.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).Scan(&tables); err != nil || tables == 0 {
		return 0, err
	}
	var s string
	err := q.QueryRow(`SELECT value FROM meta WHERE key = 'schema_version'`).Scan(&s)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%w: %q", ErrSchema, s)
	}
	return v, nil
}

// checkVersion checks, for a read-only store, that the file holds a
// schema version this package reads, 1 to SchemaVersion, and returns it.
func checkVersion(r *sql.DB) (int, error) {
	v, err := version(r)
	switch {
	case err != nil:
		return 0, err
	case v < 1:
		return 0, fmt.Errorf("%w: an SQLite database without a store's schema", ErrNotStore)
	case v > SchemaVersion:
		return 0, fmt.Errorf("%w: %d (this package reads 1 to %d)", ErrSchema, v, SchemaVersion)
	}
	return v, nil
}
