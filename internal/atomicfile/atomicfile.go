// Package atomicfile writes the files relink produces: fix -out, review
// -state, and the files fix -rewrite -write edits. It is the one place
// that decides how a path is written, by what is there:
//
//   - nothing: a new regular file, created with the permission bits the
//     caller gives less the umask, whole or not at all (a temporary file
//     in the same directory, synced, renamed over the path);
//   - a regular file: replaced whole or not at all in the same way, the
//     replacement keeping the file's mode (setuid, setgid and sticky bits
//     included), owner and group. When the owner or group cannot be kept
//     (a user other than root replacing another user's file) the file is
//     left as it was and the error is ErrOwner, so that no file ever
//     changes owner, nor keeps a setuid or setgid bit for a new owner;
//   - a symbolic link: followed (up to 40 links), and its final target
//     written by these rules, a regular target replaced in the target's
//     own directory; the link stays a link;
//   - /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N: the
//     process's open file N, written at its offset as it is (as the
//     shell's redirection set it up; it is not closed);
//   - anything else (a FIFO, a device): opened for writing and written as
//     it is, neither truncated nor replaced; a FIFO's open waits for a
//     reader.
//
// A reader of a replaced file sees the old content or the new, never a
// part, and a process killed while writing leaves the old file as it was
// (and perhaps a temporary file, ".NAME.relink-*", beside it). A hard link
// to a replaced file keeps the old content; extended attributes and ACLs
// are not copied.
//
// ReadFile and Replace serve an editor: a file read, changed, and written
// back only when nobody else changed it meanwhile (ErrChanged).
//
// It does not lock: two writers of one path each replace the file whole,
// and the last rename wins.
package atomicfile

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrChanged is the error of a Replace whose file was changed by someone
// else since ReadFile read it (its identity, size, modification time,
// mode, owner or content differ, or it was being written to as it was
// compared); the file is left as it was.
var ErrChanged = errors.New("atomicfile: changed by someone else since it was read")

// ErrWrittenDuring is the error of a Replace that did replace the file,
// but saw it written to after its last check, during the rename: those
// writes went to the old file, which is no longer at the path, and are
// not in the new one.
var ErrWrittenDuring = errors.New("atomicfile: written to by someone else during the rename")

// ErrOwner is the error of a replacement that could not be given the
// owner and group of the file it replaces; the file is left as it was.
var ErrOwner = errors.New("atomicfile: cannot keep the file's owner and group")

// ErrNotRegular is the error of ReadFile for a path that is not a regular
// file (a symbolic link included).
var ErrNotRegular = errors.New("atomicfile: not a regular file")

// maxLinks is how many symbolic links Write follows, as Linux's
// path resolution does.
const maxLinks = 40

// Write writes what write writes to the file at path, as the package
// comment says for what is there. perm (such as 0o666) gives a new
// file's permission bits, less the umask; an existing file keeps its
// own. When write or any step fails, a regular file is left as it was,
// the temporary file is removed and the error is returned; a special
// file may have received part of the bytes.
func Write(path string, perm fs.FileMode, write func(io.Writer) error) error {
	target, info, fd, err := resolve(path)
	if err != nil {
		return err
	}
	switch {
	case fd >= 0:
		f, err := dupFile(fd, path)
		if err != nil {
			return err
		}
		defer f.Close()
		return writeBuffered(f, write)
	case info == nil || info.Mode().IsRegular():
		return replace(target, info, perm, write, nil, nil)
	}
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if now, err := f.Stat(); err == nil && now.Mode().IsRegular() {
		// A regular file was put in its place since the Lstat: replace it
		// rather than write over it.
		f.Close()
		return replace(target, now, perm, write, nil, nil)
	}
	if err := writeBuffered(f, write); err != nil {
		return err
	}
	return f.Close()
}

// CanWrite fails when Write could not write path for lack of a
// directory or permission to create its temporary file there (the
// directory of a symbolic link's target, for a link); it creates and
// removes one. A special file or an open file of the process is not
// tried: it is opened when written.
func CanWrite(path string) error {
	target, info, fd, err := resolve(path)
	if err != nil || fd >= 0 || info != nil && !info.Mode().IsRegular() {
		return err
	}
	f, err := createTemp(filepath.Dir(target), filepath.Base(target), 0o600)
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// writeBuffered runs write into f through a buffer.
func writeBuffered(f io.Writer, write func(io.Writer) error) error {
	bw := bufio.NewWriterSize(f, 64<<10)
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// resolve follows the symbolic links at path: it returns the path of the
// final target and its Lstat (nil when nothing is there), or fd >= 0 when
// a path on the way names an open file of the process.
func resolve(path string) (target string, info fs.FileInfo, fd int, err error) {
	p := path
	for range maxLinks {
		if fd, ok := openFileNumber(p); ok {
			return p, nil, fd, nil
		}
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil, -1, nil
		}
		if err != nil {
			return "", nil, -1, err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return p, fi, -1, nil
		}
		to, err := os.Readlink(p)
		if err != nil {
			return "", nil, -1, err
		}
		if !filepath.IsAbs(to) {
			// Not cleaned: a ".." after a linked directory is the
			// kernel's to resolve.
			to = filepath.Dir(p) + string(filepath.Separator) + to
		}
		p = to
	}
	return "", nil, -1, &fs.PathError{Op: "open", Path: path, Err: errors.New("too many levels of symbolic links")}
}

// openFileNumber returns N for a path that names the process's open file
// N: /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N (and its
// spellings with the process ID or thread-self).
func openFileNumber(path string) (int, bool) {
	if !canDup {
		return 0, false
	}
	p := filepath.ToSlash(filepath.Clean(path))
	switch p {
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	for _, dir := range []string{"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "/proc/" + strconv.Itoa(os.Getpid()) + "/fd/"} {
		if rest, ok := strings.CutPrefix(p, dir); ok {
			n, err := strconv.Atoi(rest)
			return n, err == nil && n >= 0 && rest == strconv.Itoa(n)
		}
	}
	return 0, false
}

// Stage is a step of a replacement at which a Hook is called.
type Stage int

// The stages of a replacement.
const (
	// Written: the new bytes are in the temporary file, not yet synced.
	Written Stage = iota + 1
	// Renaming: the checks are done; the rename is next.
	Renaming
)

// Hook, given to Replace by a test, is called at each Stage; an error
// fails the replacement (the file is left as it was).
type Hook func(Stage) error

// Snapshot is a regular file as ReadFile read it, for Replace to tell
// whether someone else changed it since.
type Snapshot struct {
	path string
	info fs.FileInfo // the open file's, before it was read
	size int64       // the bytes read
	sum  [sha256.Size]byte
}

// ReadFile reads at most max+1 bytes of the regular file at path (not a
// symbolic link: ErrNotRegular; nor one put in its place as it is opened:
// ErrChanged) and returns them with the Snapshot Replace needs. A caller
// that finds more than max bytes should not replace the file.
func ReadFile(path string, max int64) ([]byte, *Snapshot, error) {
	before, err := os.Lstat(path)
	if err != nil {
		return nil, nil, err
	}
	if !before.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%w: %s", ErrNotRegular, path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !os.SameFile(before, info) {
		return nil, nil, fmt.Errorf("%w: replaced as it was opened (by a symbolic link?)", ErrChanged)
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, nil, err
	}
	return b, &Snapshot{path: path, info: info, size: int64(len(b)), sum: sha256.Sum256(b)}, nil
}

// Replace replaces the file snap was read from with data, as Write
// replaces a regular file (mode, owner and group kept, ErrOwner when they
// cannot be), unless someone else changed it since it was read: then it
// is left as it was and the error is ErrChanged. The file is compared
// last just before the rename (identity, size, modification time, mode,
// owner, and its content's SHA-256); a write between that check and the
// end of the rename cannot be kept, and gives ErrWrittenDuring. A writer
// that opened the file before the rename and writes after Replace returns
// writes to the old file, unseen: only a lock the writer also takes could
// keep its bytes, and Replace takes none. hook is nil but in tests.
func Replace(snap *Snapshot, data []byte, hook Hook) error {
	return replace(snap.path, snap.info, 0, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, snap, hook)
}

// replace writes path whole by a temporary file renamed over it. orig is
// the regular file there (nil for none), whose mode, owner and group the
// new one takes; perm is a new file's mode, before the umask. With snap,
// the file at path must still be the one snap describes.
func replace(path string, orig fs.FileInfo, perm fs.FileMode, write func(io.Writer) error, snap *Snapshot, hook Hook) (err error) {
	if hook == nil {
		hook = func(Stage) error { return nil }
	}
	dir := filepath.Dir(path)
	if orig != nil {
		perm = 0o600 // until it has the owner it is for
	}
	tmp, err := createTemp(dir, filepath.Base(path), perm)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := writeBuffered(tmp, write); err != nil {
		return err
	}
	if err := hook(Written); err != nil {
		return err
	}
	if orig != nil {
		if err := keepOwner(tmp, orig); err != nil {
			return err
		}
		// After the chown, which may clear the setuid and setgid bits;
		// keepOwner made the owner the original's.
		if err := tmp.Chmod(orig.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
			return err
		}
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	var old *os.File
	var checked fs.FileInfo
	if snap != nil {
		if old, checked, err = snap.check(); err != nil {
			return err
		}
		defer old.Close()
	}
	if err := hook(Renaming); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // best effort: not every system syncs a directory
		d.Close()
	}
	if old != nil {
		if now, err := old.Stat(); err == nil && !sameState(checked, now) {
			return fmt.Errorf("%w (%d bytes more than at the check): they went to the old file, not the new one", ErrWrittenDuring, now.Size()-checked.Size())
		}
	}
	return nil
}

// check compares the file at the snapshot's path with the snapshot, last
// by a cheap Lstat just after the content's hash, and returns the file
// open (to see whether it is written to during the rename) and its state
// when checked.
func (s *Snapshot) check() (*os.File, fs.FileInfo, error) {
	changed := func(what string) error { return fmt.Errorf("%w (%s)", ErrChanged, what) }
	now, err := os.Lstat(s.path)
	if err != nil {
		return nil, nil, err
	}
	if !os.SameFile(s.info, now) {
		return nil, nil, changed("another file is at its path")
	}
	if now.Size() != s.size || !sameMeta(s.info, now) {
		return nil, nil, changed("its size or modification time differ")
	}
	f, err := os.Open(s.path)
	if err != nil {
		return nil, nil, err
	}
	h := sha256.New()
	_, err = io.Copy(h, io.LimitReader(f, s.size+1))
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !bytes.Equal(h.Sum(nil), s.sum[:]) {
		f.Close()
		return nil, nil, changed("its content differs")
	}
	last, err := os.Lstat(s.path)
	if err != nil || !os.SameFile(now, last) || !sameState(now, last) {
		f.Close()
		return nil, nil, changed("it is being written to")
	}
	return f, last, nil
}

// sameState reports whether a and b, two states of one file, agree in
// size, modification time, mode, owner and group.
func sameState(a, b fs.FileInfo) bool {
	return a.Size() == b.Size() && sameMeta(a, b)
}

// sameMeta is sameState but for the size.
func sameMeta(a, b fs.FileInfo) bool {
	if !a.ModTime().Equal(b.ModTime()) || a.Mode() != b.Mode() {
		return false
	}
	au, ag, ok1 := ownerOf(a)
	bu, bg, ok2 := ownerOf(b)
	return ok1 == ok2 && au == bu && ag == bg
}

// createTemp creates a new file ".BASE.relink-N" in dir with perm (less
// the umask, which the system applies).
func createTemp(dir, base string, perm fs.FileMode) (*os.File, error) {
	for range 10000 {
		name := filepath.Join(dir, "."+base+".relink-"+strconv.FormatUint(uint64(rand.Uint32()), 10))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, &fs.PathError{Op: "createtemp", Path: filepath.Join(dir, "."+base+".relink-*"), Err: fs.ErrExist}
}
