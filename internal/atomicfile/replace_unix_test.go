//go:build unix

package atomicfile_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/internal/atomicfile"
)

// TestReplaceChanged reads a file, changes it behind the reader's back
// keeping its size and modification time, and replaces it: refused, as
// is an append, a file put in its place, and a symbolic link put in its
// place (issue 23, item 11).
func TestReplaceChanged(t *testing.T) {
	tests := []struct {
		name   string
		change func(path string) error
	}{
		{"same size and time", func(path string) error {
			fi, err := os.Stat(path)
			if err != nil {
				return err
			}
			if err := os.WriteFile(path, bytes.ToUpper([]byte(readFileErr(path))), 0o644); err != nil {
				return err
			}
			return os.Chtimes(path, fi.ModTime(), fi.ModTime())
		}},
		{"append", func(path string) error {
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.WriteString("appended\n")
			return err
		}},
		{"another file", func(path string) error {
			tmp := path + ".other"
			if err := os.WriteFile(tmp, []byte(readFileErr(path)), 0o644); err != nil {
				return err
			}
			return os.Rename(tmp, path)
		}},
		{"symbolic link", func(path string) error {
			other := filepath.Join(filepath.Dir(path), "other")
			if err := os.WriteFile(other, []byte(readFileErr(path)), 0o644); err != nil {
				return err
			}
			os.Remove(path)
			return os.Symlink(other, path)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "page.md")
			require.NoError(t, os.WriteFile(path, []byte("old content\n"), 0o644))
			src, snap, err := atomicfile.ReadFile(path, 1<<20)
			require.NoError(t, err)
			require.Equal(t, "old content\n", string(src))
			hook := func(stage atomicfile.Stage) error {
				if stage == atomicfile.Written {
					return tt.change(path)
				}
				return nil
			}
			err = atomicfile.Replace(snap, []byte("new content\n"), hook)
			require.ErrorIs(t, err, atomicfile.ErrChanged)
			require.NotEqual(t, "new content\n", readFile(t, path), "the change is kept")
			require.Empty(t, temporaries(t, filepath.Dir(path)))
		})
	}
}

// TestReplaceDuringRename writes to the file after the last check, just
// before the rename: the write cannot be kept, but it is not lost
// silently.
func TestReplaceDuringRename(t *testing.T) {
	path := filepath.Join(t.TempDir(), "page.md")
	require.NoError(t, os.WriteFile(path, []byte("old content\n"), 0o644))
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	defer f.Close()
	_, snap, err := atomicfile.ReadFile(path, 1<<20)
	require.NoError(t, err)
	err = atomicfile.Replace(snap, []byte("new content\n"), func(stage atomicfile.Stage) error {
		if stage == atomicfile.Renaming {
			_, err := f.WriteString("appended\n")
			return err
		}
		return nil
	})
	require.ErrorIs(t, err, atomicfile.ErrWrittenDuring)
	require.NotErrorIs(t, err, atomicfile.ErrChanged, "the file was replaced")
	require.ErrorContains(t, err, "9 bytes")
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

func readFileErr(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

func temporaries(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var tmp []string
	for _, e := range entries {
		if strings.Contains(e.Name(), ".relink-") {
			tmp = append(tmp, e.Name())
		}
	}
	return tmp
}
