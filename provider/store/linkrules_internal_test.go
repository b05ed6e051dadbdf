package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linkrot/relink/backlink"
)

// TestRules: a new store records the link rules and the canonicalization
// rules it is built under; a store from before a version was recorded
// answers 1, also when opened again.
func TestRules(t *testing.T) {
	tests := []struct {
		key  string
		get  func(*Store, context.Context) (int, error)
		want int
	}{
		{"link_rules", (*Store).LinkRules, backlink.Rules},
		{"canon_rules", (*Store).CanonRules, canonRules},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "rules.db")
			s, err := Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := tt.get(s, ctx); err != nil || got != tt.want {
				t.Errorf("%s of a new store = %d, %v, want %d", tt.key, got, err, tt.want)
			}
			// What a store built before the rules were recorded holds.
			if _, err := s.write.Exec(`DELETE FROM meta WHERE key = ?`, tt.key); err != nil {
				t.Fatal(err)
			}
			if got, err := tt.get(s, ctx); err != nil || got != 1 {
				t.Errorf("%s of an older store = %d, %v, want 1", tt.key, got, err)
			}
			if _, err := s.IngestWARC(ctx, nil, IngestOptions{}); err != nil { // a finished store
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			// Opening it again does not claim the current rules for old
			// data: the store is refused, read-only or not, with a message
			// that says to build it again.
			for _, ro := range []bool{true, false} {
				s, err = Open(path, &Options{ReadOnly: ro})
				if !errors.Is(err, ErrRules) || !strings.Contains(err.Error(), "build it again") {
					t.Errorf("Open(read-only %t) of a store under rules 1 = %v, want ErrRules saying to build it again", ro, err)
				}
				if err == nil {
					s.Close()
				}
			}
		})
	}
}
