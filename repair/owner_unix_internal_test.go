//go:build unix

package repair

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWriteKeepsOwnerAsRoot rewrites, as root, files of another user:
// each keeps its owner, group and mode, setuid and setgid bits included
// (issue 23, item 5).
func TestWriteKeepsOwnerAsRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	dir := t.TempDir()
	modes := map[string]fs.FileMode{"a.md": 0o640, "b.md": 0o755 | fs.ModeSetuid, "c.md": 0o750 | fs.ModeSetgid}
	for name, mode := range modes {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(atomicOld), 0o600))
		require.NoError(t, os.Chown(p, 65534, 65533))
		require.NoError(t, os.Chmod(p, mode))
	}
	rep, err := (&Rewriter{Moves: atomicMoves, Write: true}).Dir(dir)
	require.NoError(t, err)
	require.NoError(t, rep.Err())
	for name, mode := range modes {
		p := filepath.Join(dir, name)
		require.Equal(t, atomicNew, readFile(t, p))
		fi, err := os.Stat(p)
		require.NoError(t, err)
		st := fi.Sys().(*syscall.Stat_t)
		require.Equal(t, [2]uint32{65534, 65533}, [2]uint32{st.Uid, st.Gid}, "%s: owner and group kept", name)
		require.Equal(t, mode, fi.Mode(), name)
	}
}
