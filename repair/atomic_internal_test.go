package repair

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/internal/atomicfile"
)

var atomicMoves = map[string]string{"https://old.example/a": "https://new.example/a/"}

const (
	atomicOld = "# Title\n\n[A](https://old.example/a)\n" // long enough to be written in two halves
	atomicNew = "# Title\n\n[A](https://new.example/a/)\n"
)

// atomicTree writes a.md and b.md, both with a dead link.
func atomicTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range []string{"a.md", "b.md"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, n), []byte(atomicOld), 0o644))
	}
	return dir
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return string(b)
}

// leftovers lists the temporary files under dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	var tmp []string
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".relink-") {
			tmp = append(tmp, e.Name())
		}
	}
	return tmp
}

func TestWriteFailureKeepsOriginal(t *testing.T) {
	boom := errors.New("disk full")
	for _, stage := range []string{"written", "rename"} {
		t.Run(stage, func(t *testing.T) {
			dir := atomicTree(t)
			rw := &Rewriter{Moves: atomicMoves, Write: true, hook: func(s, path string) error {
				if s == stage && filepath.Base(path) == "a.md" {
					return boom
				}
				return nil
			}}
			rep, err := rw.Dir(dir)
			require.NoError(t, err)
			require.ErrorIs(t, rep.Err(), boom)
			require.Equal(t, atomicOld, readFile(t, filepath.Join(dir, "a.md")), "the failed file is as it was")
			require.Equal(t, atomicNew, readFile(t, filepath.Join(dir, "b.md")), "the next file is still written")
			require.Empty(t, leftovers(t, dir), "the temporary file is removed")
			require.False(t, rep.Files[0].Written)
			require.True(t, rep.Files[1].Written)
		})
	}
}

func TestConcurrentEditIsKept(t *testing.T) {
	dir := atomicTree(t)
	edited := atomicOld + "someone's new line\n"
	rw := &Rewriter{Moves: atomicMoves, Write: true, hook: func(s, path string) error {
		if s == "written" && filepath.Base(path) == "a.md" {
			return os.WriteFile(path, []byte(edited), 0o644)
		}
		return nil
	}}
	rep, err := rw.Dir(dir)
	require.NoError(t, err)
	require.ErrorContains(t, rep.Err(), "changed by someone else")
	require.Equal(t, edited, readFile(t, filepath.Join(dir, "a.md")))
	require.Empty(t, leftovers(t, dir))
}

// TestKilledRewrite runs a rewrite in a child process that dies (os.Exit,
// as a kill would stop it) in the middle of writing a.md: a.md must be
// whole, old.
func TestKilledRewrite(t *testing.T) {
	if stage := os.Getenv("RELINK_TEST_DIE_AT"); stage != "" {
		dir := os.Getenv("RELINK_TEST_DIR")
		rw := &Rewriter{Moves: atomicMoves, Write: true, hook: func(s, path string) error {
			if s == stage {
				os.Exit(3)
			}
			return nil
		}}
		rw.Dir(dir)
		os.Exit(0)
	}
	for _, stage := range []string{"written", "rename"} {
		t.Run(stage, func(t *testing.T) {
			dir := atomicTree(t)
			cmd := exec.Command(os.Args[0], "-test.run=^TestKilledRewrite$")
			cmd.Env = append(os.Environ(), "RELINK_TEST_DIE_AT="+stage, "RELINK_TEST_DIR="+dir)
			err := cmd.Run()
			var ee *exec.ExitError
			require.ErrorAs(t, err, &ee)
			require.Equal(t, 3, ee.ExitCode())
			require.Equal(t, atomicOld, readFile(t, filepath.Join(dir, "a.md")))
			require.Equal(t, atomicOld, readFile(t, filepath.Join(dir, "b.md")))
			tmp := leftovers(t, dir)
			require.Len(t, tmp, 1, "the killed run leaves its temporary file, never a half file")
			require.True(t, strings.HasPrefix(tmp[0], ".a.md.relink-"))
			if stage == "rename" {
				require.Equal(t, atomicNew, readFile(t, filepath.Join(dir, tmp[0])), "synced whole before the rename")
			}
			// A new run ignores the leftover (not a .md name) and
			// finishes the job.
			rep, err := (&Rewriter{Moves: atomicMoves, Write: true}).Dir(dir)
			require.NoError(t, err)
			require.NoError(t, rep.Err())
			require.Equal(t, atomicNew, readFile(t, filepath.Join(dir, "a.md")))
		})
	}
}

func TestWritePreservesMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.md")
	require.NoError(t, os.WriteFile(p, []byte(atomicOld), 0o600))
	require.NoError(t, os.Chmod(p, 0o751))
	rep, err := (&Rewriter{Moves: atomicMoves, Write: true}).Dir(dir)
	require.NoError(t, err)
	require.NoError(t, rep.Err())
	fi, err := os.Stat(p)
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o751), fi.Mode().Perm())
}

// TestConcurrentSameSizeEditIsKept changes a.md while it is rewritten,
// keeping its size and modification time: the content's hash tells, and
// the edit is kept (issue 23, item 11).
func TestConcurrentSameSizeEditIsKept(t *testing.T) {
	dir := atomicTree(t)
	edited := strings.ToUpper(atomicOld)
	rw := &Rewriter{Moves: atomicMoves, Write: true, hook: func(s, path string) error {
		if s != "written" || filepath.Base(path) != "a.md" {
			return nil
		}
		fi, err := os.Stat(path)
		if err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
			return err
		}
		return os.Chtimes(path, fi.ModTime(), fi.ModTime())
	}}
	rep, err := rw.Dir(dir)
	require.NoError(t, err)
	require.ErrorIs(t, rep.Err(), atomicfile.ErrChanged)
	require.Equal(t, edited, readFile(t, filepath.Join(dir, "a.md")))
	require.Equal(t, atomicNew, readFile(t, filepath.Join(dir, "b.md")))
	require.Empty(t, leftovers(t, dir))
}

// TestAppendDuringRenameIsReported appends to a.md after the last check,
// just before the rename, through a file opened before: the line cannot
// be kept in the new file, but the report says so rather than lose it
// silently (issue 23, item 11).
func TestAppendDuringRenameIsReported(t *testing.T) {
	dir := atomicTree(t)
	f, err := os.OpenFile(filepath.Join(dir, "a.md"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	defer f.Close()
	rw := &Rewriter{Moves: atomicMoves, Write: true, hook: func(s, path string) error {
		if s == "rename" && filepath.Base(path) == "a.md" {
			_, err := f.WriteString("a line appended\n")
			return err
		}
		return nil
	}}
	rep, err := rw.Dir(dir)
	require.NoError(t, err)
	require.ErrorIs(t, rep.Err(), atomicfile.ErrWrittenDuring)
	require.ErrorContains(t, rep.Err(), "a.md")
	require.True(t, rep.Files[0].Written, "a.md was replaced")
	require.Contains(t, rep.Summary().LeftAlone[0].Why, "during the rename (16 bytes more")
}

// TestReportCounts fails the write of a.md and skips a link, a binary
// file and a large one: the summary counts the one link replaced in the
// one file written, of the two read, and lists each file left alone with
// why (issue 23, item 10).
func TestReportCounts(t *testing.T) {
	dir := atomicTree(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bin.md"), []byte(atomicOld+"\x00"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "big.md"), []byte(atomicOld+strings.Repeat("x", 100)), 0o644))
	require.NoError(t, os.Symlink("b.md", filepath.Join(dir, "link.md")))
	boom := errors.New("disk full")
	rw := &Rewriter{Moves: atomicMoves, Write: true, MaxSize: 64, hook: func(s, path string) error {
		if s == "written" && filepath.Base(path) == "a.md" {
			return boom
		}
		return nil
	}}
	rep, err := rw.Dir(dir)
	require.NoError(t, err)
	require.Equal(t, 1, rep.Changed(), "the links of a.md were not replaced")
	got := rep.Summary()
	want := Summary{Scanned: 2, Files: 1, Links: 1, LeftAlone: []LeftAlone{
		{Path: "a.md", Why: "disk full"},
		{Path: "big.md", Why: "too large: 136 bytes, over the limit of 64"},
		{Path: "bin.md", Why: "binary (it holds a NUL byte)"},
		{Path: "link.md", Why: "symbolic link, not followed"},
	}}
	require.Equal(t, want, got)
	b, err := json.Marshal(got)
	require.NoError(t, err)
	require.JSONEq(t, `{"scanned": 2, "files": 1, "links": 1, "links_left": 0, "left_alone": [
		{"path": "a.md", "why": "disk full"},
		{"path": "big.md", "why": "too large: 136 bytes, over the limit of 64"},
		{"path": "bin.md", "why": "binary (it holds a NUL byte)"},
		{"path": "link.md", "why": "symbolic link, not followed"}]}`, string(b))
}
