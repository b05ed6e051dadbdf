//go:build !unix

package store

import "sync"

// Without flock (on systems other than Unix) the writer lock excludes the
// ingests of one process only: held names a lock file path while a Store
// of this process holds it.
var held sync.Map

// lockFile takes the lock named path within this process and returns the
// function that releases it; errLockHeld when it is held.
func lockFile(path string) (unlock func(), err error) {
	if _, loaded := held.LoadOrStore(path, true); loaded {
		return nil, errLockHeld
	}
	return func() { held.Delete(path) }, nil
}

// lockHeld reports whether a Store of this process holds the lock named
// path.
func lockHeld(path string) bool {
	_, ok := held.Load(path)
	return ok
}
