package atomicfile_test

import (
	"crypto/rand"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/internal/atomicfile"
	"github.com/linkrot/relink/internal/testuser"
)

// The tests of issue 23, item 1: Write replaces a regular file only;
// anything else at the path is written as it is.

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

// TestWriteFIFO writes into a FIFO whose reader is open: the reader gets
// the bytes, and the FIFO is still a FIFO.
func TestWriteFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.fifo")
	require.NoError(t, syscall.Mkfifo(path, 0o600))
	// Opened without blocking, the reader is there before the writer, and
	// the few bytes wait in the pipe for it.
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK, 0)
	require.NoError(t, err)
	r := os.NewFile(uintptr(fd), path)
	defer r.Close()
	require.NoError(t, atomicfile.Write(path, 0o644, writeString("to the reader\n")))
	b, err := io.ReadAll(r)
	require.NoError(t, err)
	require.Equal(t, "to the reader\n", string(b))
	fi, err := os.Lstat(path)
	require.NoError(t, err)
	require.Equal(t, fs.ModeNamedPipe, fi.Mode().Type(), "still a FIFO")
}

// TestWriteCharDevice writes into a null device made in the test's own
// directory (root only: mknod): it stays a device, and nothing is left
// beside it.
func TestWriteCharDevice(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mknod of a character device needs root")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "null")
	// 1, 3 is Linux's /dev/null.
	require.NoError(t, syscall.Mknod(path, syscall.S_IFCHR|0o666, 1<<8|3))
	require.NoError(t, atomicfile.Write(path, 0o644, writeString("discarded\n")))
	fi, err := os.Lstat(path)
	require.NoError(t, err)
	require.Equal(t, fs.ModeDevice|fs.ModeCharDevice, fi.Mode().Type(), "still a character device")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)
}

// TestWriteOpenFile writes to /dev/fd/N, an open pipe of the process (as
// -out /dev/stdout does): the bytes go down the pipe, which stays open.
func TestWriteOpenFile(t *testing.T) {
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	fd := w.Fd()
	for _, path := range []string{fmt.Sprintf("/dev/fd/%d", fd), fmt.Sprintf("/proc/self/fd/%d", fd)} {
		require.NoError(t, atomicfile.Write(path, 0o644, writeString(path+"\n")), path)
	}
	_, err = io.WriteString(w, "still open\n")
	require.NoError(t, err, "the caller's file is not closed")
	w.Close()
	b, err := io.ReadAll(r)
	require.NoError(t, err)
	require.Equal(t, fmt.Sprintf("/dev/fd/%d\n/proc/self/fd/%d\nstill open\n", fd, fd), string(b))
}

// TestWriteSymlink writes through a symbolic link: the link stays, its
// target (a regular file, in another directory) is replaced and keeps its
// mode; a dangling link's target is created.
func TestWriteSymlink(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	target := filepath.Join(other, "results.jsonl")
	require.NoError(t, os.WriteFile(target, []byte("old\n"), 0o600))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(target, link))
	require.NoError(t, atomicfile.Write(link, 0o644, writeString("new\n")))
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	require.Equal(t, fs.ModeSymlink, fi.Mode().Type(), "still a link")
	require.Equal(t, "new\n", readFile(t, target))
	fi, err = os.Stat(target)
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o600), fi.Mode())
	require.Empty(t, temporaries(t, dir))
	require.Empty(t, temporaries(t, other))

	// A relative link to a link to a file not there yet.
	require.NoError(t, os.Symlink("link2", filepath.Join(dir, "link1")))
	require.NoError(t, os.Symlink(filepath.Join(other, "new.jsonl"), filepath.Join(dir, "link2")))
	require.NoError(t, atomicfile.Write(filepath.Join(dir, "link1"), 0o644, writeString("created\n")))
	require.Equal(t, "created\n", readFile(t, filepath.Join(other, "new.jsonl")))

	// A loop is an error, not a hang.
	require.NoError(t, os.Symlink("loop", filepath.Join(dir, "loop")))
	require.Error(t, atomicfile.Write(filepath.Join(dir, "loop"), 0o644, writeString("x")))
}

// TestWriteKeepsMode replaces a 0600 file: it stays 0600.
func TestWriteKeepsMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.jsonl")
	require.NoError(t, os.WriteFile(path, []byte("secret\n"), 0o600))
	require.NoError(t, atomicfile.Write(path, 0o644, writeString("new secret\n")))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o600), fi.Mode())
}

// TestWriteUmask creates a new file with the permission bits less the
// umask.
func TestWriteUmask(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "results.jsonl")
	require.NoError(t, atomicfile.Write(path, 0o666, writeString("x\n")))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o640), fi.Mode())
}

// TestWriteKeepsOwner replaces, as root, a file owned by another user
// and group, setuid: the replacement keeps owner, group and mode (issue
// 23, item 5).
func TestWriteKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	for _, mode := range []fs.FileMode{0o640, 0o755 | fs.ModeSetuid, 0o750 | fs.ModeSetgid} {
		t.Run(mode.String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "page.md")
			require.NoError(t, os.WriteFile(path, []byte("old\n"), 0o600))
			require.NoError(t, os.Chown(path, 65534, 65533))
			require.NoError(t, os.Chmod(path, mode))
			require.NoError(t, atomicfile.Write(path, 0o644, writeString("new\n")))
			fi, err := os.Stat(path)
			require.NoError(t, err)
			st := fi.Sys().(*syscall.Stat_t)
			require.Equal(t, [2]uint32{65534, 65533}, [2]uint32{st.Uid, st.Gid}, "owner and group kept")
			require.Equal(t, mode, fi.Mode())
			require.Equal(t, "new\n", readFile(t, path))
		})
	}
}

// TestWriteManyConcurrentTemporaries checks that the temporary names do
// not collide.
func TestWriteTemporaryNames(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	for i := range 20 {
		s := fmt.Sprintf("%d %x\n", i, rand.Text())
		require.NoError(t, atomicfile.Write(path, 0o644, writeString(s)))
		require.Equal(t, s, readFile(t, path))
	}
	require.Empty(t, temporaries(t, dir))
}

// TestWriteOwnerNotKept has a user other than root replace files whose
// owner or group it cannot give the replacement: another user's file, and
// its own file in root's group, setgid. Each is left as it was, with
// ErrOwner: no file changes owner or keeps setgid for another group
// (issue 23, item 5).
func TestWriteOwnerNotKept(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Chmod(filepath.Dir(dir), 0o711)) // the test's own, root's
	require.NoError(t, os.Chmod(dir, 0o777))
	files := []struct {
		name     string
		uid, gid int
		mode     fs.FileMode
	}{
		{"other.md", 65533, 65533, 0o666},
		{"setgid.md", 65534, 0, 0o666 | fs.ModeSetgid},
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		require.NoError(t, os.WriteFile(p, []byte("old\n"), 0o600))
		require.NoError(t, os.Chown(p, f.uid, f.gid))
		require.NoError(t, os.Chmod(p, f.mode))
	}
	var errs []error
	testuser.As(t, 65534, 65534, func() {
		for _, f := range files {
			errs = append(errs, atomicfile.Write(filepath.Join(dir, f.name), 0o644, writeString("new\n")))
		}
	})
	for i, f := range files {
		require.ErrorIs(t, errs[i], atomicfile.ErrOwner, f.name)
		require.ErrorContains(t, errs[i], "operation not permitted; left as it was")
		p := filepath.Join(dir, f.name)
		require.Equal(t, "old\n", readFile(t, p))
		fi, err := os.Stat(p)
		require.NoError(t, err)
		st := fi.Sys().(*syscall.Stat_t)
		require.Equal(t, [2]uint32{uint32(f.uid), uint32(f.gid)}, [2]uint32{st.Uid, st.Gid}, f.name)
		require.Equal(t, f.mode, fi.Mode(), f.name)
	}
	require.Empty(t, temporaries(t, dir))
}
