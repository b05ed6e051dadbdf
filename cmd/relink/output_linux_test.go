package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/repair"
)

// TestFixOutSpecialFiles gives fix -out paths that are not regular files,
// and files whose mode matters (issue 23, item 1): a FIFO and an open pipe
// (as /dev/stdout is) get the results and stay what they were, a symbolic
// link stays a link and its target keeps its mode, a results file keeps
// 0600, a new one honours the umask, and (as root) a device stays a
// device.
func TestFixOutSpecialFiles(t *testing.T) {
	db := buildFixStore(t, "https://example.org/")
	const stdin = fixMoved + "\n"
	run := func(t *testing.T, out string) {
		t.Helper()
		mustRunIn(t, stdin, "fix", "-store", db, "-out", out)
	}
	holdsResults := func(t *testing.T, b []byte) {
		t.Helper()
		rs, err := repair.ReadResults(strings.NewReader(string(b)))
		require.NoError(t, err, "%q", b)
		require.Len(t, rs, 1)
		require.Equal(t, fixNewHome, rs[0].URI)
	}

	t.Run("fifo", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "results.fifo")
		require.NoError(t, syscall.Mkfifo(path, 0o600))
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK, 0)
		require.NoError(t, err)
		r := os.NewFile(uintptr(fd), path)
		defer r.Close()
		run(t, path) // one result fits in the pipe's buffer
		b, err := io.ReadAll(r)
		require.NoError(t, err)
		holdsResults(t, b)
		fi, err := os.Lstat(path)
		require.NoError(t, err)
		require.Equal(t, fs.ModeNamedPipe, fi.Mode().Type())
	})
	t.Run("open pipe", func(t *testing.T) {
		r, w, err := os.Pipe()
		require.NoError(t, err)
		defer r.Close()
		done := make(chan []byte)
		go func() { b, _ := io.ReadAll(r); done <- b }()
		run(t, fmt.Sprintf("/dev/fd/%d", w.Fd()))
		w.Close()
		holdsResults(t, <-done)
	})
	t.Run("symlink", func(t *testing.T) {
		dir, other := t.TempDir(), t.TempDir()
		target := filepath.Join(other, "results.jsonl")
		require.NoError(t, os.WriteFile(target, nil, 0o600))
		link := filepath.Join(dir, "results.jsonl")
		require.NoError(t, os.Symlink(target, link))
		run(t, link)
		fi, err := os.Lstat(link)
		require.NoError(t, err)
		require.Equal(t, fs.ModeSymlink, fi.Mode().Type(), "still a link")
		b, err := os.ReadFile(target)
		require.NoError(t, err)
		holdsResults(t, b)
		fi, err = os.Stat(target)
		require.NoError(t, err)
		require.Equal(t, fs.FileMode(0o600), fi.Mode())
	})
	t.Run("mode kept", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "results.jsonl")
		require.NoError(t, os.WriteFile(path, []byte("old\n"), 0o600))
		run(t, path)
		fi, err := os.Stat(path)
		require.NoError(t, err)
		require.Equal(t, fs.FileMode(0o600), fi.Mode())
	})
	t.Run("umask", func(t *testing.T) {
		old := syscall.Umask(0o077)
		defer syscall.Umask(old)
		path := filepath.Join(t.TempDir(), "results.jsonl")
		run(t, path)
		fi, err := os.Stat(path)
		require.NoError(t, err)
		require.Equal(t, fs.FileMode(0o600), fi.Mode())
	})
	t.Run("device", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("mknod of a character device needs root")
		}
		path := filepath.Join(t.TempDir(), "null")
		require.NoError(t, syscall.Mknod(path, syscall.S_IFCHR|0o666, 1<<8|3))
		run(t, path)
		fi, err := os.Lstat(path)
		require.NoError(t, err)
		require.Equal(t, fs.ModeDevice|fs.ModeCharDevice, fi.Mode().Type(), "still a device")
	})
}

// TestFixRewriteSummary rewrites a tree with a symbolic link, a binary
// file and a large one: the summary counts what was replaced and names
// each file left alone, and why (issue 23, item 10; the counts after a
// failed write are TestReportCounts' in repair).
func TestFixRewriteSummary(t *testing.T) {
	db := buildFixStore(t, "https://example.org/")
	dir := t.TempDir()
	const doc = "Feed it as the [guide](https://example.org/guides/sourdough-starter.html) says.\n"
	write := func(name, content string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	write("bread.md", doc)
	write("binary.md", doc+"\x00")
	write("big.md", doc+strings.Repeat("x", 9<<20))
	require.NoError(t, os.Symlink("bread.md", filepath.Join(dir, "alias.md")))
	summary := filepath.Join(t.TempDir(), "rewrite.json")
	r := mustRunIn(t, fixMoved+"\n", "fix", "-store", db, "-rewrite", dir, "-write", "-rewrite-json", summary)
	data, err := os.ReadFile(summary)
	require.NoError(t, err)
	require.JSONEq(t, `{"written": true, "scanned": 1, "files": 1, "links": 1, "links_left": 0, "left_alone": [
		{"path": "alias.md", "why": "symbolic link, not followed"},
		{"path": "big.md", "why": "too large: 9437264 bytes, over the limit of 8388608"},
		{"path": "binary.md", "why": "binary (it holds a NUL byte)"}]}`, string(data), "-rewrite-json")
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	require.Contains(t, r.stderr, "replaced 1 links in 1 of 1 files (0 links left alone, to edit by hand); 3 files left alone:\n")
	for _, want := range []string{
		"left alone alias.md: symbolic link, not followed",
		"left alone big.md: too large: 9437264 bytes, over the limit of 8388608",
		"left alone binary.md: binary (it holds a NUL byte)",
	} {
		require.Contains(t, r.stderr, want)
	}
	require.Len(t, lines, 5, "the verdicts, the rewrite, three files:\n%s", r.stderr)
}
