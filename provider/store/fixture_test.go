package store

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/linkrot/relink/provider/internal/ingest/fixture"
)

// The fixture web (testdata/web) holds two small manuals that link to each
// other: filesite, served "file" style under https://files.example.org/docs/,
// and dirsite, served "dir" style under https://dir.example.net/en/1.0/. Its
// .html files name absolute local paths as {{ROOT}}, which FixtureWeb
// replaces with the temporary directory it copies them to.
const (
	FileBase = fixture.FileBase
	DirBase  = fixture.DirBase
)

// FixtureWeb copies testdata/web into a temporary directory
// (fixture.Web) and returns it with the manifest of the two sites.
func FixtureWeb(t testing.TB) (string, *Manifest) {
	t.Helper()
	root := fixture.Web(t, filepath.Join("testdata", "web"))
	return root, FixtureManifest(root)
}

// FixtureManifest returns the manifest of the fixture web that FixtureWeb
// copied to root: a process that did not copy it (a child process of a
// test) can ingest it too.
func FixtureManifest(root string) *Manifest {
	m, err := ParseManifest(bytes.NewReader(fixture.ManifestJSON(root)))
	if err != nil {
		panic(err) // the fixture's manifest is valid
	}
	return m
}
