package atomicfile_test

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/internal/atomicfile"
)

func ExampleWrite() {
	dir, err := os.MkdirTemp("", "atomicfile")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "state.json")
	err = atomicfile.Write(path, 0o644, func(w io.Writer) error {
		_, err := io.WriteString(w, "{}\n")
		return err
	})
	if err != nil {
		log.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	fmt.Printf("%q\n", b)
	// Output:
	// "{}\n"
}

func TestWriteFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o600))
	boom := errors.New("boom")
	err := atomicfile.Write(path, 0o600, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	require.ErrorIs(t, err, boom)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "old", string(b))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "the temporary file is removed")
}

// TestWriteReplacesKeepingMode replaces a file: the new content, the old
// mode (perm is for a new file).
func TestWriteReplacesKeepingMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(path, []byte("old content"), 0o644))
	require.NoError(t, atomicfile.Write(path, 0o600, func(w io.Writer) error {
		_, err := io.WriteString(w, "new")
		return err
	}))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "new", string(b))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o644), fi.Mode().Perm())
}

func TestWriteNoDirectory(t *testing.T) {
	err := atomicfile.Write(filepath.Join(t.TempDir(), "none", "f"), 0o644, func(io.Writer) error { return nil })
	require.Error(t, err)
}
