package store

import (
	"context"
	"path/filepath"
	"testing"
)

// TestReadOnlyMaps checks that the readers of a read-only store map the
// file into memory (dsn) and those of a writable store do not.
func TestReadOnlyMaps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "maps.db")
	_, m := FixtureWeb(t)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.IngestManifest(context.Background(), m, IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, readOnly := range []bool{false, true} {
		s, err := Open(path, &Options{ReadOnly: readOnly})
		if err != nil {
			t.Fatal(err)
		}
		var size int64
		err = s.read.QueryRow(`PRAGMA mmap_size`).Scan(&size)
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		want := int64(0)
		if readOnly {
			want = mmapSize
		}
		if size != want {
			t.Errorf("ReadOnly %v: mmap_size %d, want %d", readOnly, size, want)
		}
	}
}
