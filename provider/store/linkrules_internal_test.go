package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/linkrot/relink/backlink"
)

// TestLinkRules: a new store records the link rules it classifies links
// under; a store from before the version was recorded answers 1.
func TestLinkRules(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rules.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.LinkRules(ctx); err != nil || got != backlink.Rules {
		t.Errorf("LinkRules of a new store = %d, %v, want %d", got, err, backlink.Rules)
	}
	// What a store built before the rules were recorded holds.
	if _, err := s.write.Exec(`DELETE FROM meta WHERE key = 'link_rules'`); err != nil {
		t.Fatal(err)
	}
	if got, err := s.LinkRules(ctx); err != nil || got != 1 {
		t.Errorf("LinkRules of an older store = %d, %v, want 1", got, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Opening it again does not claim the current rules for old links.
	s, err = Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got, err := s.LinkRules(ctx); err != nil || got != 1 {
		t.Errorf("LinkRules reopened = %d, %v, want 1", got, err)
	}
}
