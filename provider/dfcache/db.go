package dfcache

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Defaults of the Options fields.
const (
	// DefaultLockTimeout is how long Open waits for another process (or
	// another DB of the same process) to release the file: one second.
	DefaultLockTimeout = time.Second
	// DefaultBatchDelay is how long a write waits for others to join its
	// transaction: bbolt's own default, 10 ms.
	DefaultBatchDelay = 10 * time.Millisecond
	// MaxTermBytes is the longest term the file stores, bbolt's largest
	// key. Longer terms (and the empty term) are passed to the underlying
	// DF every time.
	MaxTermBytes = bolt.MaxKeySize
	// Format names the layout of the file, stored in it; Open refuses a
	// file that names another.
	Format = "relink-dfcache/1"
)

// Errors of Open and of lookups, matchable with errors.Is. They reach the
// caller wrapped in an *Error.
var (
	// ErrLocked means another process, or another open DB of this
	// process, holds the file and did not release it within
	// Options.LockTimeout.
	ErrLocked = errors.New("dfcache: file is in use by another process")
	// ErrFormat means the file is not a DF cache: not a bbolt file, a
	// damaged one, or a bbolt file of another program or layout.
	ErrFormat = errors.New("dfcache: not a DF cache file")
	// ErrCorrupt means a stored value does not have the layout of a cached
	// document frequency.
	ErrCorrupt = errors.New("dfcache: corrupt cache entry")
	// ErrClosed means the DB was used after Close.
	ErrClosed = errors.New("dfcache: cache is closed")
	// ErrNotCached means a Source without an underlying DF was asked for a
	// value the file does not hold (or holds only past Options.MaxAge).
	ErrNotCached = errors.New("dfcache: not in cache")
)

// Error records a failed operation on a cache file. errors.Is and errors.As
// see the cause through it.
type Error struct {
	// Op is the operation: "open", "read", "write" or "close".
	Op string
	// Path is the cache file.
	Path string
	// Err is the cause: one of the package's sentinel errors, often
	// wrapping bbolt's or the operating system's error.
	Err error
}

// Error returns "dfcache: OP PATH: ERR".
func (e *Error) Error() string {
	return fmt.Sprintf("dfcache: %s %s: %v", e.Op, e.Path, trimPrefix(e.Err))
}

// Unwrap returns e.Err.
func (e *Error) Unwrap() error { return e.Err }

// trimPrefix renders err without a leading "dfcache: ", which Error
// already says.
func trimPrefix(err error) string {
	s := err.Error()
	if len(s) > len("dfcache: ") && s[:len("dfcache: ")] == "dfcache: " {
		return s[len("dfcache: "):]
	}
	return s
}

// Options configure Open. The zero value (and a nil *Options) opens the file
// for reading and writing, waits DefaultLockTimeout for it, and keeps values
// forever.
type Options struct {
	// LockTimeout is how long Open waits when another process holds the
	// file; then it fails with ErrLocked. Zero means DefaultLockTimeout;
	// a negative value tries once and does not wait.
	LockTimeout time.Duration
	// ReadOnly opens an existing file without writing to it. Several
	// processes may hold one file read-only at once, but not while a
	// process holds it for writing. Values the file lacks are still asked
	// of the underlying DF, and not stored.
	ReadOnly bool
	// MaxAge is how long a stored value is trusted. An older value is asked
	// for again, and the new answer replaces it. Zero or less means values
	// never expire, as the paper assumed of its Yahoo! DF values over the
	// two weeks of its experiment (§2.1 "TFIDF").
	MaxAge time.Duration
	// BatchDelay is how long a write waits for concurrent writes to join
	// its transaction (bbolt's DB.MaxBatchDelay). Zero or less means
	// DefaultBatchDelay.
	BatchDelay time.Duration
}

// DB is a cache file of document frequencies, shared by runs and, one at a
// time, by processes. Wrap puts it in front of a DF. A DB is safe for
// concurrent use by goroutines.
type DB struct {
	bolt     *bolt.DB
	path     string
	readOnly bool
	maxAge   time.Duration
	now      func() time.Time // time.Now, replaced by tests

	mu      sync.Mutex
	flights map[flightKey]*flight

	stats counters
}

// Stats counts the term lookups a DB or a Source has answered. Lookups of
// |D| (Docs) are not counted.
type Stats struct {
	// Hits counts lookups answered from the file.
	Hits int64
	// Misses counts lookups that went to the underlying DF, failed ones
	// included (or, for a Source without one, failed with ErrNotCached).
	Misses int64
	// Expired counts the Misses of terms the file held past MaxAge.
	Expired int64
	// Shared counts lookups that waited for the same term's lookup in
	// flight in another goroutine, and took its answer.
	Shared int64
	// Stored counts values written to the file.
	Stored int64
}

// counters are the atomic counts behind a Stats.
type counters struct {
	hits, misses, expired, shared, stored atomic.Int64
}

// snapshot returns the counts as a Stats.
func (c *counters) snapshot() Stats {
	return Stats{
		Hits:    c.hits.Load(),
		Misses:  c.misses.Load(),
		Expired: c.expired.Load(),
		Shared:  c.shared.Load(),
		Stored:  c.stored.Load(),
	}
}

// Names of the buckets and keys of the file's layout (see the package
// documentation).
var (
	metaBucket    = []byte("meta")
	formatKey     = []byte("format")
	sourcesBucket = []byte("sources")
	termsBucket   = []byte("terms")
	docsKey       = []byte("docs")
)

// Open opens the cache file at path, creating it (but not its directory)
// unless opts.ReadOnly is set. A nil opts means the zero Options.
//
// A cache file is held by one process at a time, with an advisory lock
// (flock) taken by bbolt: a second process that opens the same file waits
// up to opts.LockTimeout and then gets an error wrapping ErrLocked; the same
// happens to a second Open of the file within one process. Read-only opens
// share the file with one another but not with a writer. The lock is not
// reliable on network file systems.
//
// Open fails with an error wrapping ErrFormat when the file is not a DF
// cache. Errors are *Error values with Op "open".
func Open(path string, opts *Options) (*DB, error) {
	if opts == nil {
		opts = &Options{}
	}
	timeout := opts.LockTimeout
	switch {
	case timeout == 0:
		timeout = DefaultLockTimeout
	case timeout < 0:
		timeout = time.Nanosecond // bbolt gives up after one try
	}
	bdb, err := bolt.Open(path, 0o644, &bolt.Options{Timeout: timeout, ReadOnly: opts.ReadOnly})
	if err != nil {
		return nil, &Error{Op: "open", Path: path, Err: openError(err)}
	}
	if opts.BatchDelay > 0 {
		bdb.MaxBatchDelay = opts.BatchDelay
	} else {
		bdb.MaxBatchDelay = DefaultBatchDelay
	}
	if err := initLayout(bdb, opts.ReadOnly); err != nil {
		bdb.Close()
		return nil, &Error{Op: "open", Path: path, Err: err}
	}
	return &DB{
		bolt:     bdb,
		path:     path,
		readOnly: opts.ReadOnly,
		maxAge:   opts.MaxAge,
		now:      time.Now,
		flights:  make(map[flightKey]*flight),
	}, nil
}

// openError maps an error of bolt.Open to the package's sentinels.
func openError(err error) error {
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return ErrLocked
	case errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrChecksum),
		errors.Is(err, bolterrors.ErrVersionMismatch), errors.Is(err, bolterrors.ErrInvalidMapping):
		return fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return err
}

// initLayout checks that bdb holds a DF cache, and for a writable bdb
// creates the layout in a new file. A file with buckets but no format
// record belongs to another program and is left alone.
func initLayout(bdb *bolt.DB, readOnly bool) error {
	check := func(tx *bolt.Tx) error {
		meta := tx.Bucket(metaBucket)
		if meta == nil {
			empty := true
			tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
			if empty {
				return errEmpty
			}
			return fmt.Errorf("%w: no %q record", ErrFormat, formatKey)
		}
		if f := meta.Get(formatKey); string(f) != Format {
			return fmt.Errorf("%w: format %q, want %q", ErrFormat, f, Format)
		}
		if tx.Bucket(sourcesBucket) == nil {
			return fmt.Errorf("%w: no %q bucket", ErrFormat, sourcesBucket)
		}
		return nil
	}
	err := bdb.View(check)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errEmpty) && readOnly:
		return nil // a new, empty file: every lookup misses
	case !errors.Is(err, errEmpty):
		return err
	}
	return bdb.Update(func(tx *bolt.Tx) error {
		meta, err := tx.CreateBucketIfNotExists(metaBucket)
		if err != nil {
			return err
		}
		if err := meta.Put(formatKey, []byte(Format)); err != nil {
			return err
		}
		_, err = tx.CreateBucketIfNotExists(sourcesBucket)
		return err
	})
}

// errEmpty is initLayout's note that the file has no buckets yet.
var errEmpty = errors.New("dfcache: empty file")

// Close closes the file, after the transactions in progress end. Lookups
// made after Close fail with an error wrapping ErrClosed. Close is safe to
// call more than once; later calls return nil.
func (db *DB) Close() error {
	if err := db.bolt.Close(); err != nil {
		return &Error{Op: "close", Path: db.path, Err: err}
	}
	return nil
}

// Path returns the path of the cache file, as given to Open.
func (db *DB) Path() string { return db.path }

// Stats returns the counts of term lookups of every Source of db so far, in
// this process.
func (db *DB) Stats() Stats { return db.stats.snapshot() }

// Sources returns the names of the sources the file holds values of, sorted.
func (db *DB) Sources() ([]string, error) {
	var names []string
	err := db.view(func(sources *bolt.Bucket) error {
		return sources.ForEach(func(k, _ []byte) error {
			names = append(names, string(k))
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	return names, nil
}

// Len returns the number of terms whose document frequency the file holds
// for source, expired ones included. An unknown source holds none.
func (db *DB) Len(source string) (int, error) {
	n := 0
	err := db.view(func(sources *bolt.Bucket) error {
		if b := sourceTerms(sources, source); b != nil {
			n = b.Stats().KeyN
		}
		return nil
	})
	return n, err
}

// view runs fn in a read transaction with the sources bucket, which is nil
// only in an empty file opened read-only.
func (db *DB) view(fn func(sources *bolt.Bucket) error) error {
	err := db.bolt.View(func(tx *bolt.Tx) error {
		sources := tx.Bucket(sourcesBucket)
		if sources == nil {
			return nil
		}
		return fn(sources)
	})
	if err != nil {
		return db.wrap("read", err)
	}
	return nil
}

// update runs fn in a batched write transaction with the sources bucket.
func (db *DB) update(fn func(sources *bolt.Bucket) error) error {
	err := db.bolt.Batch(func(tx *bolt.Tx) error {
		return fn(tx.Bucket(sourcesBucket))
	})
	if err != nil {
		return db.wrap("write", err)
	}
	return nil
}

// wrap returns err as an *Error of op on db's file, mapping a closed
// database to ErrClosed.
func (db *DB) wrap(op string, err error) error {
	if errors.Is(err, bolterrors.ErrDatabaseNotOpen) {
		err = ErrClosed
	}
	return &Error{Op: op, Path: db.path, Err: err}
}

// sourceTerms returns the terms bucket of source, or nil when the file has
// none.
func sourceTerms(sources *bolt.Bucket, source string) *bolt.Bucket {
	b := sources.Bucket([]byte(source))
	if b == nil {
		return nil
	}
	return b.Bucket(termsBucket)
}
