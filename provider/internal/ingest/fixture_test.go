package ingest

import (
	"bytes"
	"testing"

	"github.com/linkrot/relink/provider/internal/ingest/fixture"
)

// FixtureWeb copies the fixture web (fixture.Web) and returns it with its
// manifest.
func FixtureWeb(t testing.TB) (string, *Manifest) {
	t.Helper()
	root := fixture.Web(t, "../../store/testdata/web")
	m, err := ParseManifest(bytes.NewReader(fixture.ManifestJSON(root)))
	if err != nil {
		t.Fatal(err)
	}
	return root, m
}

// The public URLs of the fixture's two sites.
const (
	FileBase = fixture.FileBase
	DirBase  = fixture.DirBase
)
