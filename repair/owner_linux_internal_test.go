package repair

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/internal/atomicfile"
	"github.com/linkrot/relink/internal/testuser"
)

// TestRewriteOwnerNotKept rewrites, as a user other than root, a tree
// with one of its own files and one of another user that it may write
// but cannot give a replacement: that one is left as it was, its owner
// kept, and the summary says so and why (issue 23, item 5).
func TestRewriteOwnerNotKept(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Chmod(filepath.Dir(dir), 0o711)) // the test's own, root's
	require.NoError(t, os.Chmod(dir, 0o777))
	for name, uid := range map[string]int{"mine.md": 65534, "theirs.md": 65533} {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(atomicOld), 0o666))
		require.NoError(t, os.Chmod(p, 0o666))
		require.NoError(t, os.Chown(p, uid, uid))
	}
	var rep *Report
	var err error
	testuser.As(t, 65534, 65534, func() {
		rep, err = (&Rewriter{Moves: atomicMoves, Write: true}).Dir(dir)
	})
	require.NoError(t, err)
	require.ErrorIs(t, rep.Err(), atomicfile.ErrOwner)
	sum := rep.Summary()
	require.Equal(t, 1, sum.Files)
	require.Len(t, sum.LeftAlone, 1)
	require.Equal(t, "theirs.md", sum.LeftAlone[0].Path)
	require.Contains(t, sum.LeftAlone[0].Why, "cannot keep the file's owner and group (uid 65533, gid 65533)")
	require.Equal(t, atomicNew, readFile(t, filepath.Join(dir, "mine.md")))
	require.Equal(t, atomicOld, readFile(t, filepath.Join(dir, "theirs.md")))
	fi, err := os.Stat(filepath.Join(dir, "theirs.md"))
	require.NoError(t, err)
	require.Equal(t, uint32(65533), fi.Sys().(*syscall.Stat_t).Uid)
	require.Empty(t, leftovers(t, dir))
}
