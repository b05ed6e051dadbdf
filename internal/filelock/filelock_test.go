package filelock_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/linkrot/relink/internal/filelock"
)

// TestTryLock locks a file through one open and checks that a second open
// is refused with ErrHeld until the first is unlocked.
func TestTryLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	open := func() *os.File {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	a, b := open(), open()
	if filelock.Held(path) {
		t.Fatal("Held before any lock = true")
	}
	if err := filelock.TryLock(a); err != nil {
		t.Fatalf("TryLock(a) = %v", err)
	}
	if err := filelock.TryLock(b); !errors.Is(err, filelock.ErrHeld) {
		t.Fatalf("TryLock(b) while a holds it = %v, want ErrHeld", err)
	}
	if !filelock.Held(path) {
		t.Error("Held while a holds it = false")
	}
	filelock.Unlock(a)
	if err := filelock.TryLock(b); err != nil {
		t.Fatalf("TryLock(b) after Unlock(a) = %v", err)
	}
	filelock.Unlock(b)
}
