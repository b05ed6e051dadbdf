//go:build unix

package cache

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// foreignOwner says why the file fi is owned by another user than the one
// running the process or the superuser (who can write anything anyway),
// or "" when it is not.
func foreignOwner(fi fs.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	if uid := os.Getuid(); int(st.Uid) != uid && st.Uid != 0 {
		return fmt.Sprintf("owned by uid %d, not by uid %d who runs relink", st.Uid, uid)
	}
	return ""
}
