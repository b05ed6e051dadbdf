package store

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fixture web (testdata/web) holds two small manuals that link to each
// other: filesite, served "file" style under https://files.example.org/docs/,
// and dirsite, served "dir" style under https://dir.example.net/en/1.0/. Its
// .html files name absolute local paths as {{ROOT}}, which FixtureWeb
// replaces with the temporary directory it copies them to.
const (
	FileBase = "https://files.example.org/docs/"
	DirBase  = "https://dir.example.net/en/1.0/"
)

// FixtureWeb copies testdata/web into a temporary directory and returns it
// with the manifest of the two sites. Besides the files in testdata it
// writes the ones that are awkward to keep in a repository:
//
//   - filesite/latin1.html: ISO-8859-1 text, undeclared (invalid UTF-8);
//   - filesite/binary.html: PNG bytes under an HTML name;
//   - filesite/empty.html: no bytes at all;
//   - filesite/broken.html: a symlink to nowhere (unreadable);
//   - shared/files and shared/dir: symlinks to the two roots, standing for
//     Debian's /usr/share/doc/... links between packages;
//   - dirsite/loop and dirsite/up: symlinks to the root itself and to "/",
//     which the walk must not follow.
func FixtureWeb(t testing.TB) (string, *Manifest) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join("testdata", "web")
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(root, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		b = []byte(strings.ReplaceAll(string(b), "{{ROOT}}", root))
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	write := func(rel string, b []byte) {
		if err := os.WriteFile(filepath.Join(root, rel), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("filesite/latin1.html", []byte("<html><head><title>Caf\xe9 cr\xe8me</title></head>"+
		"<body><p>Caf\xe9 cr\xe8me and na\xefve d\xe9j\xe0 vu, see the <a href=\"api.html\">API</a>.</p></body></html>"))
	write("filesite/binary.html", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"))
	write("filesite/empty.html", nil)
	links := map[string]string{
		"filesite/broken.html": filepath.Join(root, "nowhere.html"),
		"shared/files":         filepath.Join(root, "filesite"),
		"shared/dir":           filepath.Join(root, "dirsite"),
		"dirsite/loop":         filepath.Join(root, "dirsite"),
		"dirsite/up":           "/",
	}
	if err := os.MkdirAll(filepath.Join(root, "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	return root, FixtureManifest(root)
}

// FixtureManifest returns the manifest of the fixture web that FixtureWeb
// copied to root: a process that did not copy it (a child process of a
// test) can ingest it too.
func FixtureManifest(root string) *Manifest {
	return &Manifest{Name: "fixture", Version: ManifestVersion, Sites: []Site{
		{
			Name:    "files",
			Roots:   []Root{{Dir: filepath.Join(root, "filesite"), Base: FileBase, Style: StyleFile}},
			Aliases: []string{"https://files.example.org/latest/"},
			Exclude: `(^|/)_static/`,
		},
		{
			Name:    "dir",
			Roots:   []Root{{Dir: filepath.Join(root, "dirsite"), Base: DirBase, Style: StyleDir}},
			Aliases: []string{"https://dir.example.net/en/stable/"},
		},
	}}
}
