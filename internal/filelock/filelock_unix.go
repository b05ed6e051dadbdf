//go:build unix

package filelock

import (
	"errors"
	"os"
	"syscall"
)

// TryLock takes the exclusive lock on f, or returns ErrHeld at once when
// another open file holds it. Closing f, or Unlock, releases it.
func TryLock(f *os.File) error {
	if err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return ErrHeld
		}
		return &os.PathError{Op: "flock", Path: f.Name(), Err: err}
	}
	return nil
}

// Unlock releases the lock TryLock took on f.
func Unlock(f *os.File) {
	flock(f, syscall.LOCK_UN)
}

// Held reports whether a lock on the file at path is held now. It opens
// the file read-only and creates nothing, so a reader that may not write
// the directory can ask; a file that cannot be opened holds no lock.
func Held(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if err := flock(f, syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		return errors.Is(err, syscall.EWOULDBLOCK)
	}
	flock(f, syscall.LOCK_UN)
	return false
}

// flock calls flock(2), retrying when a signal interrupts it.
func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			return err
		}
	}
}
