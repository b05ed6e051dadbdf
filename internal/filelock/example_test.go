package filelock_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/linkrot/relink/internal/filelock"
)

// A second writer of one file is refused at once.
func Example() {
	dir, _ := os.MkdirTemp("", "filelock")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "journal")
	first, _ := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	defer first.Close()
	second, _ := os.OpenFile(path, os.O_RDWR, 0o644)
	defer second.Close()
	fmt.Println(filelock.TryLock(first))
	fmt.Println(errors.Is(filelock.TryLock(second), filelock.ErrHeld))
	// Output:
	// <nil>
	// true
}
