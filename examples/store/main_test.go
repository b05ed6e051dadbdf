package main

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/linkrot/relink/provider/store"
)

// TestRun builds a store of testdata/site, a five-page site, and looks for
// its sourdough guide: the guide's new home comes first, and the guide
// itself (the missing page) and its backlinks are left out of the
// candidates.
func TestRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "site.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.IngestDir(context.Background(), "testdata/site", "https://example.org/", store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	const missing = "https://example.org/guides/sourdough-starter.html"
	if err := run(context.Background(), path, missing, &out); err != nil {
		t.Fatal(err)
	}
	const want = `method: moved-link+rerank
backlink https://example.org/recipes/focaccia.html kept=true
backlink https://example.org kept=true
backlink https://example.org/blog/first-loaf.html kept=true
query: "sourdough starter"
query: guide schedule feeding sourdough
query: sourdough guide schedule feeding
query: sourdough OR starter
query: active alive
query: active alive bakery
1 https://example.org/guides/starter-care.html "Caring for a sourdough starter"
found https://example.org/guides/starter-care.html (confidence 1.00)
`
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}

// TestRunNoStore checks that a store that is not there is an error, and
// that none is created.
func TestRunNoStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.db")
	if err := run(context.Background(), path, "https://example.org/", &bytes.Buffer{}); err == nil {
		t.Error("run with no store: no error")
	}
	if _, err := store.Open(path, &store.Options{ReadOnly: true}); err == nil {
		t.Error("a store was created")
	}
}
