package store

import (
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// sqliteMagic opens every SQLite database file (the file format's header,
// https://sqlite.org/fileformat.html, section 1.3).
const sqliteMagic = "SQLite format 3\x00"

// checkFile checks, before any connection touches it, that path can hold a
// store: a missing path or an empty file only when Open may create one,
// otherwise an SQLite file whose header is whole and whose size is the one
// the header gives.
func checkFile(path string, readOnly bool) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if readOnly {
			return fmt.Errorf("%w: %w", ErrNoStore, fs.ErrNotExist)
		}
		return nil
	case err != nil:
		return err
	case fi.IsDir():
		return fmt.Errorf("%w: a directory", ErrNotStore)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%w: not a regular file", ErrNotStore)
	case fi.Size() == 0:
		if readOnly {
			return fmt.Errorf("%w: an empty file", ErrNotStore)
		}
		return nil // a new store
	}
	return checkHeader(path, fi.Size())
}

// checkHeader reads the 100-byte database header of the file at path,
// whose size is size, and refuses a file that is not SQLite, has an
// impossible page size, or is shorter than the pages its header counts
// (a truncated copy). The count is trusted only when the header says it is
// current (the change counter and the version-valid-for number agree) and
// no write-ahead log holds pages not yet written back.
func checkHeader(path string, size int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var h [100]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("%w: %d bytes, too short for an SQLite file", ErrNotStore, size)
		}
		return err
	}
	if string(h[:len(sqliteMagic)]) != sqliteMagic {
		return fmt.Errorf("%w: not an SQLite file", ErrNotStore)
	}
	pageSize := int64(binary.BigEndian.Uint16(h[16:18]))
	if pageSize == 1 {
		pageSize = 65536
	}
	if pageSize < 512 || pageSize > 65536 || pageSize&(pageSize-1) != 0 {
		return fmt.Errorf("%w: corrupt SQLite header (page size %d)", ErrNotStore, pageSize)
	}
	pages := int64(binary.BigEndian.Uint32(h[28:32]))
	current := binary.BigEndian.Uint32(h[24:28]) == binary.BigEndian.Uint32(h[92:96])
	if current && pages > 0 && size < pages*pageSize && !walPending(path) {
		return fmt.Errorf("%w: truncated, %d of %d bytes", ErrNotStore, size, pages*pageSize)
	}
	return nil
}

// walPending reports whether the write-ahead log of the database at path
// holds anything: pages that only a connection able to write the -shm
// file can read.
func walPending(path string) bool {
	fi, err := os.Stat(path + "-wal")
	return err == nil && fi.Size() > 0
}

// sqliteCode returns the primary result code of an SQLite error, or 0.
func sqliteCode(err error) int {
	var e *sqlite.Error
	if errors.As(err, &e) {
		return e.Code() & 0xff
	}
	return 0
}

// classify wraps ErrNotStore around the errors SQLite gives for a file
// that is not a database or is corrupt.
func classify(err error) error {
	switch sqliteCode(err) {
	case sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT:
		if !errors.Is(err, ErrNotStore) {
			return fmt.Errorf("%w: %w", ErrNotStore, err)
		}
	}
	return err
}

// openReader opens the reader pool of a read-only store and returns it with
// the role its connections take and the file's schema version. It opens the file read-only (mode=ro), which
// creates nothing and, in the rollback-journal mode in which Close leaves a
// store, needs nothing but read access to the file.
//
// A file left in WAL mode (by a writer that was killed, or by a version of
// this package from before Close changed the mode) needs its -shm file:
// where the user cannot create it (a directory or disk they cannot write)
// SQLite answers "attempt to write a readonly database". When the
// write-ahead log holds nothing, the file alone is the whole database and
// openReader opens it immutable (immutable=1: no locks, no -shm). Such a
// reader takes the file as fixed: it must not stay open while someone who
// may write the directory runs an ingest into it, which it would not see
// and which could confuse it. When the log holds pages, the error says to
// open the store once with write access.
func openReader(path string, readers int) (*sql.DB, connRole, int, error) {
	open := func(role connRole) (*sql.DB, connRole, int, error) {
		r, err := sql.Open("sqlite", dsn(path, role))
		if err != nil {
			return nil, role, 0, err
		}
		r.SetMaxOpenConns(readers)
		r.SetMaxIdleConns(readers)
		v, err := checkVersion(r)
		if err != nil {
			r.Close()
			return nil, role, 0, err
		}
		return r, role, v, nil
	}
	r, role, v, err := open(roleReadOnly)
	if code := sqliteCode(err); code == sqlite3.SQLITE_READONLY || code == sqlite3.SQLITE_CANTOPEN {
		if walPending(path) {
			return nil, role, 0, fmt.Errorf("%w (its write-ahead log %s-wal holds changes that a reader can apply only with write access to the directory: open the store once with write access)", err, path)
		}
		return open(roleImmutable)
	}
	return r, role, v, err
}

// restMode leaves the file in rollback-journal mode when the writer is the
// last connection to it, as Close does: the file is then the whole
// database, with no -wal or -shm file beside it, and a reader that may not
// write the directory can read it. When another connection has the file
// open the change fails at once (no busy wait) and the file stays in WAL
// mode, which the next writer's Open sets again anyway.
func restMode(w *sql.DB) {
	if _, err := w.Exec(`PRAGMA busy_timeout = 0`); err != nil {
		return
	}
	w.Exec(`PRAGMA journal_mode = DELETE`)
}
