//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// canDup is set where an open file of the process can be duplicated.
const canDup = true

// ownerOf returns the owner and group of fi.
func ownerOf(fi fs.FileInfo) (uid, gid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return int(st.Uid), int(st.Gid), true
}

// keepOwner gives f the owner and group of orig, or returns ErrOwner.
func keepOwner(f *os.File, orig fs.FileInfo) error {
	uid, gid, ok := ownerOf(orig)
	if !ok {
		return nil
	}
	cur, err := f.Stat()
	if err != nil {
		return err
	}
	cuid, cgid, _ := ownerOf(cur)
	if cuid == uid && cgid == gid {
		return nil
	}
	u, g := uid, gid
	if cuid == uid {
		u = -1
	}
	if cgid == gid {
		g = -1
	}
	if err := f.Chown(u, g); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the temporary file's name says nothing
		}
		return fmt.Errorf("%w (uid %d, gid %d): %w; left as it was", ErrOwner, uid, gid, err)
	}
	return nil
}

// dupFile returns a new file on the process's open file fd, to be closed
// by the caller without closing fd.
func dupFile(fd int, name string) (*os.File, error) {
	d, err := syscall.Dup(fd)
	if err != nil {
		return nil, &fs.PathError{Op: "dup", Path: name, Err: err}
	}
	syscall.CloseOnExec(d)
	return os.NewFile(uintptr(d), name), nil
}
