package repair_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/repair"
)

// treeMoves are the repairs of the docs tree: one page moved to another
// site, one moved within the site the tree is served at.
var treeMoves = map[string]string{
	"https://old.example/a":                "https://new.example/a/",
	"https://site.example/docs/old/b.html": "https://site.example/docs/new/b/",
}

const treeBase = "https://site.example/docs" // the slash is added

// treeFiles is a docs tree: name → content (and mode 0644 unless perms
// says otherwise). The tree also gets symbolic links, made by makeTree.
var treeFiles = map[string]string{
	"index.md": "# Docs\n\nSee [A](https://old.example/a#intro) and [B](old/b.html).\n\nUnchanged [C](https://c.example/).\n" +
		strings.Repeat("filler line\n", 8) + "Last [A](https://Old.example:443/a/).\n",
	"guide/intro.md": "Intro\r\n\r\n[B](../old/b.html#sec)\r\n[A](<https://OLD.example/a/>)\r\n",
	"api/index.html": "<!doctype html>\n<p><a href=\"../old/b.html\">b</a> <a href=https://old.example/a>a</a></p>\n",
	"api/ref.rst":    "Ref\n===\n\nSee `B <../old/b.html>`_ and https://old.example/a.\n",
	"notes.txt":      "[A](https://old.example/a)\n",
	"binary.md":      "[A](https://old.example/a)\x00\x01\x02",
	"big.md":         "[A](https://old.example/a)\n" + strings.Repeat("x", 5000) + "\n",
	".git/HEAD.md":   "[A](https://old.example/a)\n",
	"perms.md":       "[A](https://old.example/a)",
}

// treeAfter is the content of the files the Rewriter changes.
var treeAfter = map[string]string{
	"index.md": "# Docs\n\nSee [A](https://new.example/a/#intro) and [B](new/b/).\n\nUnchanged [C](https://c.example/).\n" +
		strings.Repeat("filler line\n", 8) + "Last [A](https://new.example/a/).\n",
	"guide/intro.md": "Intro\r\n\r\n[B](../new/b/#sec)\r\n[A](<https://new.example/a/>)\r\n",
	"api/index.html": "<!doctype html>\n<p><a href=\"../new/b/\">b</a> <a href=https://new.example/a/>a</a></p>\n",
	"api/ref.rst":    "Ref\n===\n\nSee `B <../new/b/>`_ and https://new.example/a/.\n",
	"perms.md":       "[A](https://new.example/a/)",
}

const outsideContent = "[A](https://old.example/a)\n"

// makeTree writes treeFiles under root/docs, a file with a dead link
// under root/outside, and under docs a symbolic link to that file, one to
// the outside directory and one to a file inside the tree.
func makeTree(t *testing.T) (docs, outside string) {
	t.Helper()
	root := t.TempDir()
	docs = filepath.Join(root, "docs")
	outside = filepath.Join(root, "outside")
	for name, content := range treeFiles {
		p := filepath.Join(docs, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	require.NoError(t, os.Chmod(filepath.Join(docs, "perms.md"), 0o640))
	require.NoError(t, os.MkdirAll(outside, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret.md"), []byte(outsideContent), 0o644))
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(docs, "outside.md")))
	require.NoError(t, os.Symlink(outside, filepath.Join(docs, "linked")))
	require.NoError(t, os.Symlink("index.md", filepath.Join(docs, "alias.md")))
	return docs, outside
}

// summary is a FileReport in a comparable form.
type summary struct {
	Path    string
	Changes int
	Skipped string
	Written bool
	Err     bool
}

func summarize(r *repair.Report) []summary {
	var s []summary
	for _, f := range r.Files {
		s = append(s, summary{f.Path, len(f.Changes), f.Skipped, f.Written, f.Err != nil})
	}
	return s
}

func wantSummary(written bool) []summary {
	return []summary{
		{Path: "alias.md", Skipped: "symbolic link, not followed"},
		{Path: "api/index.html", Changes: 2, Written: written},
		{Path: "api/ref.rst", Changes: 2, Written: written},
		{Path: "big.md", Skipped: "too large: 5028 bytes, over the limit of 4096"},
		{Path: "binary.md", Skipped: "binary (it holds a NUL byte)"},
		{Path: "guide/intro.md", Changes: 2, Written: written},
		{Path: "index.md", Changes: 3, Written: written},
		{Path: "linked", Skipped: "symbolic link, not followed"},
		{Path: "outside.md", Skipped: "symbolic link, not followed"},
		{Path: "perms.md", Changes: 1, Written: written},
	}
}

func TestRewriterDir(t *testing.T) {
	docs, outside := makeTree(t)
	var diff bytes.Buffer
	rw := &repair.Rewriter{Moves: treeMoves, Base: treeBase, MaxSize: 4096, Diff: &diff}
	rep, err := rw.Dir(docs)
	require.NoError(t, err)
	require.NoError(t, rep.Err())
	if d := cmp.Diff(wantSummary(false), summarize(rep)); d != "" {
		t.Errorf("report (-want +got):\n%s", d)
	}
	require.Equal(t, 10, rep.Changed())
	require.Equal(t, 5, rep.Scanned, "index, intro, html, rst, perms")
	golden(t, "tree.diff", diff.Bytes())
	for name, content := range treeFiles { // nothing written without Write
		got, err := os.ReadFile(filepath.Join(docs, filepath.FromSlash(name)))
		require.NoError(t, err)
		require.Equal(t, content, string(got), name)
	}

	// With Write: the same report and diff, and the files changed.
	var diff2 bytes.Buffer
	rw.Write, rw.Diff = true, &diff2
	rep, err = rw.Dir(docs)
	require.NoError(t, err)
	require.NoError(t, rep.Err())
	if d := cmp.Diff(wantSummary(true), summarize(rep)); d != "" {
		t.Errorf("report with Write (-want +got):\n%s", d)
	}
	require.Equal(t, diff.String(), diff2.String())
	for name, content := range treeFiles {
		want := content
		if after, ok := treeAfter[name]; ok {
			want = after
		}
		got, err := os.ReadFile(filepath.Join(docs, filepath.FromSlash(name)))
		require.NoError(t, err)
		require.Equal(t, want, string(got), name)
	}
	got, err := os.ReadFile(filepath.Join(outside, "secret.md"))
	require.NoError(t, err)
	require.Equal(t, outsideContent, string(got), "a file outside the tree, linked from it, is not touched")
	fi, err := os.Lstat(filepath.Join(docs, "outside.md"))
	require.NoError(t, err)
	require.True(t, fi.Mode()&fs.ModeSymlink != 0, "the link is still a link")
	fi, err = os.Stat(filepath.Join(docs, "perms.md"))
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o640), fi.Mode().Perm(), "permission bits kept")
	noTemporaryFiles(t, docs)

	// A second run finds nothing left to do.
	var diff3 bytes.Buffer
	rw.Diff = &diff3
	rep, err = rw.Dir(docs)
	require.NoError(t, err)
	require.Zero(t, rep.Changed())
	require.Empty(t, diff3.String())
}

// noTemporaryFiles fails when a temporary file of the Rewriter is left
// under dir.
func noTemporaryFiles(t *testing.T, dir string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".relink-") {
			t.Errorf("temporary file left: %s", p)
		}
		return err
	}))
}

func TestRewriterDirRootSymlink(t *testing.T) {
	docs, _ := makeTree(t)
	link := filepath.Join(t.TempDir(), "docs-link")
	require.NoError(t, os.Symlink(docs, link))
	rep, err := (&repair.Rewriter{Moves: treeMoves, Base: treeBase, MaxSize: 4096}).Dir(link)
	require.NoError(t, err)
	require.Equal(t, 10, rep.Changed(), "the directory itself may be a link")
}

func TestRewriterDirErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := (&repair.Rewriter{Moves: treeMoves, Base: "/docs/"}).Dir(dir)
	require.ErrorIs(t, err, repair.ErrBase)
	_, err = (&repair.Rewriter{Moves: treeMoves}).Dir(filepath.Join(dir, "missing"))
	require.ErrorIs(t, err, fs.ErrNotExist)
	file := filepath.Join(dir, "f.md")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	_, err = (&repair.Rewriter{Moves: treeMoves}).Dir(file)
	require.ErrorContains(t, err, "not a directory")
}

func TestRewriterDirUnreadable(t *testing.T) {
	if os.Geteuid() == 0 || runtime.GOOS == "windows" {
		t.Skip("root reads every file")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "secret.md")
	require.NoError(t, os.WriteFile(p, []byte("[A](https://old.example/a)\n"), 0o000))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ok.md"), []byte("[A](https://old.example/a)\n"), 0o644))
	rep, err := (&repair.Rewriter{Moves: treeMoves, Write: true}).Dir(dir)
	require.NoError(t, err)
	require.Error(t, rep.Err())
	require.Equal(t, 1, rep.Changed(), "one unreadable file does not stop the others")
}
