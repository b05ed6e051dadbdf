//go:build !unix

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
)

// canDup is false: open files are not named by paths here.
const canDup = false

// ownerOf reports no owner: files have none that this package keeps.
func ownerOf(fs.FileInfo) (uid, gid int, ok bool) { return 0, 0, false }

// keepOwner does nothing.
func keepOwner(*os.File, fs.FileInfo) error { return nil }

// dupFile is not supported.
func dupFile(int, string) (*os.File, error) {
	return nil, errors.New("atomicfile: open files are not named by paths on this system")
}
