// Package filelock takes advisory, exclusive locks on open files: one
// writer at a time for a file several processes may open, such as a
// store's writer lock or fix's -state journal.
//
// On Unix the lock is flock(2) on the open file: the kernel drops it when
// the file is closed or the process ends, however it ends, so a writer
// killed with SIGKILL leaves no stale lock; two opens of one file in one
// process exclude each other too. On other systems the lock excludes the
// opens of one process only, by the file's name.
//
// The lock is advisory: it keeps out only the programs that ask for it.
// The package does not wait for a lock: TryLock fails at once with
// ErrHeld, and the caller says what to do.
package filelock

import "errors"

// ErrHeld is returned by TryLock when another open file holds the lock.
var ErrHeld = errors.New("filelock: locked by another open file")
