package ingest

import (
	"bytes"
	"testing"

	"github.com/linkrot/relink/provider/corpus"
	"github.com/linkrot/relink/provider/internal/ingest/fixture"
)

// FixtureWeb copies the fixture web (fixture.Web) and returns it with its
// manifest.
func FixtureWeb(t testing.TB) (string, *corpus.Manifest) {
	t.Helper()
	root := fixture.Web(t, "../../store/testdata/web")
	m, err := corpus.ParseManifest(bytes.NewReader(fixture.ManifestJSON(root)))
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
