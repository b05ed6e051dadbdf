package corpus_test

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/linkrot/relink/provider/corpus"
)

// FuzzParseManifest: any bytes give a manifest that validates, or an error
// wrapping corpus.ErrManifest; never a panic (issue 12: every parser of
// untrusted input is fuzzed).
func FuzzParseManifest(f *testing.F) {
	for _, path := range []string{"../../lab/corpus/ci.json", "../../lab/corpus/dev.json"} {
		if b, err := os.ReadFile(path); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"name": "tea", "version": 1, "sites": [{"name": "tea", "roots": [{"dir": "/srv/tea", "base": "https://tea.example/", "style": "dir"}], "aliases": ["http://tea.example/"], "include": "\\.html$", "exclude": "(^|/)_static/"}]}`))
	f.Add([]byte(`{"version": 1, "sites": [{"roots": [{"dir": "d", "base": "ftp://x/"}]}]}`))
	f.Add([]byte(`{"version": 1, "sites": [{"roots": [{"dir": "d", "base": "https://x/"}], "include": "(("}]}`))
	f.Add([]byte(`{"version": 2}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := corpus.ParseManifest(bytes.NewReader(b))
		if err != nil {
			if !errors.Is(err, corpus.ErrManifest) {
				t.Fatalf("ParseManifest: %v does not wrap ErrManifest", err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("ParseManifest accepted a manifest that Validate rejects: %v", err)
		}
	})
}
