package store_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/linkrot/relink/provider/corpus"
	"github.com/linkrot/relink/provider/store"
)

// TestCorpusNames: the names this package keeps for code written before
// package corpus held them are corpus's, not copies: the same types, the
// same error values and the same constants.
func TestCorpusNames(t *testing.T) {
	var opts store.IngestOptions = corpus.IngestOptions{Workers: 1}
	var st corpus.Stats = store.Stats{Pages: opts.Workers}
	if st.Pages != 1 {
		t.Fatalf("Stats.Pages = %d, want 1", st.Pages)
	}
	_, err := store.ParseManifest(strings.NewReader(`{"version": 2}`))
	if !errors.Is(err, corpus.ErrManifest) || store.ErrManifest != corpus.ErrManifest {
		t.Fatalf("ParseManifest: %v, want an error wrapping corpus.ErrManifest", err)
	}
	if store.ReasonDuplicate != corpus.ReasonDuplicate || store.DropSelfLink != corpus.DropSelfLink {
		t.Fatal("store's reasons differ from corpus's")
	}
}
