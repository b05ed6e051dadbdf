package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/lexsig"
)

// TestReadOnlySearchMaps checks that a read-only store searches with
// connections of their own that map the file into memory, its other
// readers do not, and a writable store searches with its readers; both
// give the same answers.
func TestReadOnlySearchMaps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "maps.db")
	_, m := FixtureWeb(t)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := s.IngestManifest(ctx, m, IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	q := lexsig.Query{Terms: []string{"widget"}}
	want, err := s.Search(ctx, q, 0)
	s.Close()
	if err != nil || len(want) == 0 {
		t.Fatalf("Search(%q) = %v, %v: want results", q, want, err)
	}
	mapped := func(db *sql.DB) int64 {
		t.Helper()
		var size int64
		if err := db.QueryRow(`PRAGMA mmap_size`).Scan(&size); err != nil {
			t.Fatal(err)
		}
		return size
	}
	for _, readOnly := range []bool{false, true} {
		s, err := Open(path, &Options{ReadOnly: readOnly})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case readOnly && s.search == nil:
			t.Error("read-only store: no search connections")
		case readOnly && mapped(s.search) != mmapSize:
			t.Errorf("read-only store: search connections map %d bytes, want %d", mapped(s.search), mmapSize)
		case !readOnly && s.search != nil:
			t.Error("writable store: search connections of their own")
		}
		if n := mapped(s.read); n != 0 {
			t.Errorf("ReadOnly %v: readers map %d bytes, want 0", readOnly, n)
		}
		got, err := s.Search(ctx, q, 0)
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ReadOnly %v: Search(%q) (-want +got):\n%s", readOnly, q, diff)
		}
	}
}
