package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"

	"github.com/linkrot/relink/internal/filelock"
)

// One ingest writes a store at a time, and a reader can tell a finished
// store from one whose ingest is running or was interrupted.
//
// The writer lock is an advisory lock (flock on Unix) on the file
// path+"-lock", which the first ingest creates and leaves in place (a
// lock file removed while another process opens it would let two writers
// in). The kernel drops the lock when the process ends, however it ends:
// a writer killed with SIGKILL leaves no stale lock, unlike a "writer"
// row with a process id, which outlives its process and names a process id
// the system may give to another. SQLite's own locks cannot serve: a
// transaction held for the whole ingest would undo the per-batch commits
// that let an interrupted ingest resume. flock locks belong to the open
// file, so two Stores of one process exclude each other too; on network
// file systems that emulate flock with record locks it still excludes.
//
// The ingest marks, in meta, 'ingest' (the kind of ingest running) when it
// starts, committed before any data; finish deletes the mark in the
// transaction that brings the derived data up to date. A killed ingest
// leaves the mark, as does a failed or cancelled one.

// lockFile takes the writer lock on the file at path, creating it, and
// returns the function that releases it; an error wrapping
// filelock.ErrHeld when another open file holds it. The lock ends with the
// process however it ends (package filelock).
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := filelock.TryLock(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		filelock.Unlock(f)
		f.Close()
	}, nil
}

// beginIngest takes the writer lock for an ingest of kind ("manifest",
// "warc", "wat") and marks the store as being ingested. It fails with
// ErrLocked when another ingest holds the lock, through this Store or not.
// The caller calls end when the ingest returns, finished or not.
func (s *Store) beginIngest(ctx context.Context, w *sql.DB, kind string) (end func(), err error) {
	if !s.ingestMu.TryLock() {
		return nil, fmt.Errorf("store: %s: %w (through this Store)", s.path, ErrLocked)
	}
	unlock, err := lockFile(s.path + "-lock")
	if err != nil {
		s.ingestMu.Unlock()
		if errors.Is(err, filelock.ErrHeld) {
			return nil, fmt.Errorf("store: %s: %w (%s-lock is held)", s.path, ErrLocked, s.path)
		}
		return nil, fmt.Errorf("store: %s: writer lock: %w", s.path, err)
	}
	end = func() {
		unlock()
		s.ingestMu.Unlock()
	}
	if _, err := w.ExecContext(ctx, `INSERT OR REPLACE INTO meta (key, value) VALUES ('ingest', ?)`, kind); err != nil {
		end()
		return nil, fmt.Errorf("store: ingest: %w", err)
	}
	return end, nil
}

// CheckComplete returns nil when the store's last ingest finished, and
// otherwise an error wrapping ErrIncomplete that says why and what to do:
// an ingest is running (wait for it), one did not finish (run it again: it
// resumes where it stopped), or none has filled the store. Open with
// Options.ReadOnly refuses such a store; a writable Open, which an ingest
// needs, does not, and its caller may call CheckComplete before reading.
//
// The check reads the state of the moment: a Store opened while the store
// was complete sees the batches of an ingest that starts later as they
// commit. CheckComplete is safe for concurrent use.
func (s *Store) CheckComplete(ctx context.Context) error {
	if err := s.incomplete(ctx); err != nil {
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	return nil
}

// incomplete is CheckComplete without the store's name.
func (s *Store) incomplete(ctx context.Context) error {
	var kind sql.NullString
	var derived, filled bool
	err := s.read.QueryRowContext(ctx, `SELECT
		(SELECT value FROM meta WHERE key = 'ingest'),
		EXISTS (SELECT 1 FROM meta WHERE key = 'derived'),
		EXISTS (SELECT 1 FROM sources)`).Scan(&kind, &derived, &filled)
	if err != nil {
		return err
	}
	switch {
	case kind.Valid && filelock.Held(s.path+"-lock"):
		return fmt.Errorf("%w: an ingest (%s) is running; open the store when it has finished", ErrIncomplete, kind.String)
	case kind.Valid || (!derived && filled):
		what := "the last ingest"
		if kind.Valid {
			what += " (" + kind.String + ")"
		}
		return fmt.Errorf("%w: %s did not finish (interrupted, killed or failed); run the same ingest again, it resumes where it stopped", ErrIncomplete, what)
	case !derived:
		return fmt.Errorf("%w: no ingest has filled the store; run one", ErrIncomplete)
	}
	return nil
}
