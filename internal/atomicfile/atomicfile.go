// Package atomicfile writes a file whole or not at all: to a temporary
// file in the same directory, synced, then renamed over the path. A
// reader sees the old content or the new, never a part, and a process
// killed while writing leaves the old file as it was.
//
// It does not lock: two writers of one path each replace the file whole,
// and the last rename wins. It follows a symbolic link at path no more
// than rename does: the link itself is replaced.
package atomicfile

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces the file at path with what write writes, with the
// permission bits perm, set as given (the umask does not apply). When write or any step fails, path is left as it was, the
// temporary file is removed and the error is returned.
func Write(path string, perm fs.FileMode, write func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".relink-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // best effort: not every system syncs a directory
		d.Close()
	}
	return nil
}
