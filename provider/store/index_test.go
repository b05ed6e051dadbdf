package store_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/provider/store"
)

// linksIndex reports, through a connection of its own, whether the store
// at path holds the index of the links by target, and its definition.
func linksIndex(t *testing.T, path string) (bool, string) {
	t.Helper()
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var def string
	err = raw.QueryRow(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'links_dst'`).Scan(&def)
	if errors.Is(err, sql.ErrNoRows) {
		return false, ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return true, def
}

// TestLinksIndex checks when an ingest builds the index of the links by
// target: one that starts on a store without links drops it and builds it
// when it finishes, also when it was interrupted and another ingest (of
// pages, or of a WAT file) finishes the store; one that adds to a store
// with links keeps it all along. The index built is the one a new store's
// schema makes.
func TestLinksIndex(t *testing.T) {
	ctx := context.Background()
	root, m := store.FixtureWeb(t)
	dir := t.TempDir()

	// A new store has the index until an ingest starts.
	path := filepath.Join(dir, "index.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	has, schemaDef := linksIndex(t, path)
	if !has {
		t.Fatal("a new store has no index links_dst")
	}
	cctx, cancel := context.WithCancel(ctx)
	during := map[bool]int{}
	_, err = s.IngestManifest(cctx, m, store.IngestOptions{Workers: 1, BatchSize: 2, Progress: func(p store.Progress) {
		has, _ := linksIndex(t, path)
		during[has]++
		if p.Files >= 6 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted IngestManifest: %v, want context.Canceled", err)
	}
	if during[true] != 0 || during[false] == 0 {
		t.Errorf("the first ingest of a store: index seen %d times, not seen %d times; want it dropped all along", during[true], during[false])
	}
	if has, _ := linksIndex(t, path); has {
		t.Error("an interrupted first ingest left the index: it should be built when the store is finished")
	}
	// The unfinished store answers without the index.
	if _, err := s.Backlinks(ctx, fi, 0); err != nil {
		t.Errorf("Backlinks on an unfinished store without the index: %v", err)
	}

	// An ingest of a WAT file finishes the store: it builds the index.
	wat := filepath.Join(dir, "links.wat.gz")
	writeWATFixture(t, wat)
	if _, err := s.IngestWAT(ctx, []string{wat}, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if has, def := linksIndex(t, path); !has || def != schemaDef {
		t.Errorf("after IngestWAT finished the store: index %v, %q; want %q", has, def, schemaDef)
	}

	// Resuming the interrupted ingest adds to a store with links: the
	// index stays all along.
	clear(during)
	st, err := s.IngestManifest(ctx, m, store.IngestOptions{Workers: 1, BatchSize: 2, Progress: func(store.Progress) {
		has, _ := linksIndex(t, path)
		during[has]++
	}})
	if err != nil {
		t.Fatal(err)
	}
	if st.Resumed == 0 || st.Pages == 0 {
		t.Errorf("resumed ingest: %d resumed, %d pages; want some of each", st.Resumed, st.Pages)
	}
	if during[false] != 0 || during[true] == 0 {
		t.Errorf("an ingest into a store with links: index not seen %d times, seen %d times; want it kept", during[false], during[true])
	}
	if has, def := linksIndex(t, path); !has || def != schemaDef {
		t.Errorf("after the resumed ingest: index %v, %q; want %q", has, def, schemaDef)
	}
	if err := s.CheckComplete(ctx); err != nil {
		t.Fatal(err)
	}

	// A store built in one run ends with the same index.
	one := filepath.Join(dir, "one.db")
	s1, err := store.Open(one, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s1.Close()
	if _, err := s1.IngestDir(ctx, filepath.Join(root, "dirsite"), "https://dir.example.net/en/1.0/", store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if has, def := linksIndex(t, one); !has || def != schemaDef {
		t.Errorf("after one ingest: index %v, %q; want %q", has, def, schemaDef)
	}
}

// degrees returns each page's in-degrees, as PageInfo gives them.
func degrees(t *testing.T, s *store.Store) map[string][2]int {
	t.Helper()
	got := map[string][2]int{}
	for p, err := range s.Pages(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		got[p.URI] = [2]int{p.Backlinks, p.ContentBacklinks}
	}
	return got
}

// TestInDegrees checks the in-degrees that a store's first ingest counts
// as it writes the links against those the links table gives, counted by
// a query through a connection of its own, and against those of a store
// whose first ingest was interrupted, which the ingest that finishes it
// counts with queries.
func TestInDegrees(t *testing.T) {
	ctx := context.Background()
	_, m := store.FixtureWeb(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "one.db")
	one, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	if _, err := one.IngestManifest(ctx, m, store.IngestOptions{Workers: 1, BatchSize: 2}); err != nil {
		t.Fatal(err)
	}
	got := degrees(t, one)

	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	rows, err := raw.Query(`SELECT u.uri,
		(SELECT count(DISTINCT src) FROM links WHERE dst = p.id AND area = 0 AND src <> p.id),
		(SELECT count(DISTINCT src) FROM links WHERE dst = p.id AND area = 0 AND nav = 0 AND src <> p.id)
		FROM pages p JOIN urls u ON u.id = p.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	want := map[string][2]int{}
	linked := 0
	for rows.Next() {
		var uri string
		var d [2]int
		if err := rows.Scan(&uri, &d[0], &d[1]); err != nil {
			t.Fatal(err)
		}
		want[uri] = d
		if d[0] > 0 {
			linked++
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if linked == 0 {
		t.Fatal("no page of the fixture has a backlink: the test checks nothing")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("in-degrees counted by the first ingest (-query +store):\n%s", diff)
	}

	// Interrupted, then finished by a second ingest.
	two, err := store.Open(filepath.Join(dir, "two.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer two.Close()
	ingestCut(t, two, m, 6)
	if _, err := two.IngestManifest(ctx, m, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, degrees(t, two)); diff != "" {
		t.Errorf("in-degrees of a store finished by a second ingest (-one ingest +two):\n%s", diff)
	}
}

// ingestCut ingests m into s, two files a batch, and cancels the ingest
// once n files are written.
func ingestCut(t *testing.T, s *store.Store, m *store.Manifest, n int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := s.IngestManifest(ctx, m, store.IngestOptions{Workers: 1, BatchSize: 2, Progress: func(p store.Progress) {
		if p.Files >= n {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted IngestManifest: %v, want context.Canceled", err)
	}
}
