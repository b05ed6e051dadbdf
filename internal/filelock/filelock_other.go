//go:build !unix

package filelock

import (
	"os"
	"sync"
)

// held holds the names of the files this process has locked.
var held sync.Map

// TryLock takes the lock named by f's name within this process, or
// returns ErrHeld when it is held. Unlock releases it; closing f does not.
func TryLock(f *os.File) error {
	if _, loaded := held.LoadOrStore(f.Name(), true); loaded {
		return ErrHeld
	}
	return nil
}

// Unlock releases the lock TryLock took on f.
func Unlock(f *os.File) { held.Delete(f.Name()) }

// Held reports whether this process holds the lock named path.
func Held(path string) bool {
	_, ok := held.Load(path)
	return ok
}
