package cache

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// ErrUnsafe is matched (errors.Is) by Open's error for a directory that
// another user could write: a record planted there would be served as an
// answer.
var ErrUnsafe = errors.New("cache: directory another user can write")

// UnsafeError is Open's error for a directory that another user could
// write: why, and what to do. It matches ErrUnsafe.
type UnsafeError struct {
	// Path is the directory as given to Open.
	Path string
	// Reason says what makes it unsafe: "mode 0777 lets others write
	// it", "owned by uid 65534".
	Reason string
}

func (e *UnsafeError) Error() string {
	return fmt.Sprintf("cache: %s: %s, so a record planted there would be served as an answer: "+
		"remove it (records may have been planted while others could write it; relink makes it anew, mode 0700) or choose another directory", e.Path, e.Reason)
}

// Is reports whether target is ErrUnsafe.
func (e *UnsafeError) Is(target error) bool { return target == ErrUnsafe }

// Open returns the Dir at path as New does, after making sure that no
// other user can write in it, as ssh does with its files: the directory
// (made with mode 0700 when missing, its parents too) and the
// subdirectories Put makes in it (kinds, and the prefixes of records'
// names) must be owned by the user running the process (or the
// superuser) and give no write permission to group or others, and none
// may be a symbolic link; else the error is an *UnsafeError (errors.Is
// ErrUnsafe). It checks neither the directory's parents nor the record
// files.
func Open(path string, maxAge time.Duration) (*Dir, error) {
	if err := os.MkdirAll(path, 0o700); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("cache: %s is not a directory", path)
	}
	if why := unsafe(fi); why != "" {
		return nil, &UnsafeError{Path: path, Reason: why}
	}
	err = filepath.WalkDir(path, func(p string, e fs.DirEntry, err error) error {
		if err != nil || p == path {
			return err
		}
		rel, err := filepath.Rel(path, p)
		if err != nil {
			return err
		}
		depth := strings.Count(filepath.ToSlash(rel), "/") + 1
		if !e.IsDir() && e.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		why := unsafe(info)
		if e.Type()&fs.ModeSymlink != 0 {
			why = "a symbolic link"
		}
		if why != "" {
			return &UnsafeError{Path: path, Reason: rel + " in it is " + why}
		}
		if depth >= 2 {
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		if errors.Is(err, ErrUnsafe) {
			return nil, err
		}
		return nil, fmt.Errorf("cache: %w", err)
	}
	return New(path, maxAge), nil
}

// unsafe says why another user could write the file fi: "mode 0777 lets
// others write it", or "" when no one else can.
func unsafe(fi fs.FileInfo) string {
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Sprintf("mode %#o lets others write it", perm)
	}
	return foreignOwner(fi)
}

// tmpPrefix starts the names of the files Put writes before renaming
// them into place.
const tmpPrefix = ".tmp-"

// staleTemp is the age past which Prune removes a temporary file: a Put
// that was killed left it.
const staleTemp = time.Hour

// PruneStats counts what Prune found and removed.
type PruneStats struct {
	// Expired are the records removed for being older than MaxAge,
	// Oldest those removed to bring the directory under the bound, and
	// Temporary the files killed writers left.
	Expired, Oldest, Temporary int
	// RemovedBytes is the size of the files removed.
	RemovedBytes int64
	// Kept and KeptBytes are the records left and their size.
	Kept      int
	KeptBytes int64
}

// Prune removes the records older than MaxAge, then the oldest records
// until those left take at most max bytes (max zero or less: no bound),
// and the temporary files that writers killed mid-Put left (older than an
// hour). It removes only files named as Dir names them, in the
// subdirectories of kinds, and never another file. A directory that does
// not exist holds nothing. Records written while it runs may be counted
// or not; a record removed under a reader is a miss.
func (d *Dir) Prune(max int64) (PruneStats, error) {
	var st PruneStats
	type record struct {
		path string
		size int64
		mod  time.Time
	}
	var records []record
	now := d.now()
	err := filepath.WalkDir(d.path, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel(d.path, path)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if e.IsDir() {
			// The Dir itself, a kind, and the two-letter prefixes.
			if rel == "." || len(parts) == 1 && validKind(parts[0]) || len(parts) == 2 && isHex(parts[1], 2) {
				return nil
			}
			return filepath.SkipDir
		}
		if len(parts) != 3 || !e.Type().IsRegular() {
			return nil
		}
		name := parts[2]
		info, err := e.Info()
		if err != nil {
			return nil // removed meanwhile
		}
		switch {
		case strings.HasPrefix(name, tmpPrefix):
			if now.Sub(info.ModTime()) > staleTemp && os.Remove(path) == nil {
				st.Temporary++
				st.RemovedBytes += info.Size()
			}
		case isHex(name, 64) && name[:2] == parts[1]:
			if age := now.Sub(info.ModTime()); age > d.maxAge || age < -d.maxAge {
				if os.Remove(path) == nil {
					st.Expired++
					st.RemovedBytes += info.Size()
				}
				return nil
			}
			records = append(records, record{path, info.Size(), info.ModTime()})
			st.KeptBytes += info.Size()
		}
		return nil
	})
	if err != nil {
		return st, fmt.Errorf("cache: prune: %w", err)
	}
	slices.SortFunc(records, func(a, b record) int { return a.mod.Compare(b.mod) })
	kept := records
	for max > 0 && st.KeptBytes > max && len(kept) > 0 {
		r := kept[0]
		kept = kept[1:]
		if err := os.Remove(r.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return st, fmt.Errorf("cache: prune: %w", err)
		}
		st.Oldest++
		st.RemovedBytes += r.size
		st.KeptBytes -= r.size
	}
	st.Kept = len(kept)
	return st, nil
}

// isHex reports whether s is n lowercase hexadecimal digits.
func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
