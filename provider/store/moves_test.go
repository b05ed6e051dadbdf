package store_test

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/store"
)

// TestIngestMoves checks IngestOptions.Moves, the experiment's "moved"
// mode: the page lives at its new URI, its old URI answers 404 and keeps
// its backlinks, and no one links to the new URI.
func TestIngestMoves(t *testing.T) {
	ctx := context.Background()
	_, m := store.FixtureWeb(t)
	s, err := store.Open(filepath.Join(t.TempDir(), "moved.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const (
		moved      = "https://files.example.org/relocated/a1b2.html"
		movedGuide = "https://files.example.org/relocated/c3d4.html"
	)
	st, err := s.IngestManifest(ctx, m, store.IngestOptions{Moves: map[string]string{
		"HTTPS://files.example.org/docs/guide/intro.html": moved, // canonicalized
		fg: movedGuide, // its "¶" permalink links to itself
	}})
	if err != nil {
		t.Fatal(err)
	}
	if st.Pages != fixtureStats.Pages || st.Links != fixtureStats.Links {
		t.Errorf("IngestManifest with a move: %d pages, %d links, want %d and %d", st.Pages, st.Links, fixtureStats.Pages, fixtureStats.Links)
	}
	tests := []struct {
		name   string
		uri    string
		status int
	}{
		{name: "old URI", uri: fi, status: 404},
		{name: "new URI", uri: moved, status: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := s.Fetch(ctx, tt.uri)
			if err != nil {
				t.Fatal(err)
			}
			if p.Status != tt.status {
				t.Errorf("Fetch(%q).Status = %d, want %d", tt.uri, p.Status, tt.status)
			}
		})
	}
	backlinks := func(uri string) []string {
		bs, err := s.Backlinks(ctx, uri, 0)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, b := range bs {
			out = append(out, b.URI)
		}
		return out
	}
	// The guide links to the intro from its new URI, where no one links
	// to it any more: it ranks last.
	if diff := cmp.Diff([]string{dt, d0, f0, movedGuide}, backlinks(fi)); diff != "" {
		t.Errorf("Backlinks of the old URI (-want +got):\n%s", diff)
	}
	if got := backlinks(moved); len(got) != 0 {
		t.Errorf("Backlinks of the new URI = %v, want none", got)
	}
	// The guide's links to itself moved with it: it is no backlink of its
	// old URI, and its self-links are not backlinks of the new one.
	for _, uri := range []string{fg, movedGuide} {
		for _, b := range backlinks(uri) {
			if b == movedGuide {
				t.Errorf("Backlinks(%s) holds the moved page itself", uri)
			}
		}
	}
	links, err := s.Links(ctx, movedGuide)
	if err != nil {
		t.Fatal(err)
	}
	self := 0
	for _, l := range links {
		if l.URI == fg {
			t.Errorf("the moved guide still links to its old URI: %+v", l)
		}
		if l.URI == movedGuide {
			self++
		}
	}
	if self == 0 {
		t.Errorf("the moved guide's permalink does not link to its new URI: %+v", links)
	}
	res, err := s.Search(ctx, lexsig.Query{Terms: []string{"introduction", "widgets"}}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := resultURIs(res); len(got) == 0 || got[0] != moved {
		t.Errorf("Search(introduction widgets) = %v, want %s first", got, moved)
	}
	if _, err := s.IngestManifest(ctx, m, store.IngestOptions{Moves: map[string]string{fi: "not a URI"}}); err == nil {
		t.Error("IngestManifest with a move to a relative URI: no error")
	}
}

// TestIngestMigrations checks IngestOptions.Migrations, the experiment's
// "migrated" mode: every page of the file site moves to a new host, its
// pages link to one another at their new URIs, every old URI answers 404,
// and the other site keeps its links to the old URIs.
func TestIngestMigrations(t *testing.T) {
	ctx := context.Background()
	_, m := store.FixtureWeb(t)
	s, err := store.Open(filepath.Join(t.TempDir(), "migrated.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const host = "https://manual.example.com/"
	moved := func(uri string) string { return host + uri[len("https://files.example.org/"):] }
	site := store.Migration{}
	for _, u := range []string{f0, fg, fi, fa} {
		site[u] = moved(u)
	}
	st, err := s.IngestManifest(ctx, m, store.IngestOptions{Migrations: []store.Migration{site}})
	if err != nil {
		t.Fatal(err)
	}
	if st.Pages != fixtureStats.Pages {
		t.Errorf("IngestManifest with a migration: %d pages, want %d", st.Pages, fixtureStats.Pages)
	}
	for _, u := range []string{f0, fg, fi, fa} {
		if p, err := s.Fetch(ctx, u); err != nil || p.Status != 404 {
			t.Errorf("Fetch(%s): %v, %v; want the old URI to answer 404", u, p, err)
		}
		if p, err := s.Fetch(ctx, moved(u)); err != nil || p.Status != 200 {
			t.Errorf("Fetch(%s): %v, %v; want the new URI to answer 200", moved(u), p, err)
		}
	}
	linksOf := func(uri string) []string {
		links, err := s.Links(ctx, uri)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, l := range links {
			out = append(out, l.URI)
		}
		return out
	}
	intro := linksOf(moved(fi))
	if !slices.Contains(intro, moved(f0)) || slices.Contains(intro, f0) {
		t.Errorf("the migrated intro links to %v: want its site's start at its new URI %s, not the old", intro, moved(f0))
	}
	if !slices.Contains(intro, dt) {
		t.Errorf("the migrated intro links to %v: want the other site's %s as written", intro, dt)
	}
	if tut := linksOf(dt); !slices.Contains(tut, fi) || slices.Contains(tut, moved(fi)) {
		t.Errorf("the other site's tutorial links to %v: want the old URI %s kept", tut, fi)
	}
	if _, err := s.IngestManifest(ctx, m, store.IngestOptions{Migrations: []store.Migration{{fi: "a"}, {fi: "b"}}}); err == nil {
		t.Error("IngestManifest with a page in two migrations: no error")
	}
}

// TestIngestEdit checks IngestOptions.Edit: the page stored is the one the
// edit returns, under the URI its file maps to.
func TestIngestEdit(t *testing.T) {
	ctx := context.Background()
	_, m := store.FixtureWeb(t)
	s, err := store.Open(filepath.Join(t.TempDir(), "edited.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var seen sync.Map
	edit := func(uri string, page []byte) []byte {
		seen.Store(uri, true)
		if uri != dt {
			return page
		}
		return bytes.Replace(page, []byte("<title>"), []byte("<title>Rewritten zebracrossing "), 1)
	}
	if _, err := s.IngestManifest(ctx, m, store.IngestOptions{Edit: edit}); err != nil {
		t.Fatal(err)
	}
	if _, ok := seen.Load(fi); !ok {
		t.Errorf("Edit was not given %s", fi)
	}
	res, err := s.Search(ctx, lexsig.Query{Terms: []string{"zebracrossing"}}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := resultURIs(res); !slices.Equal(got, []string{dt}) {
		t.Errorf("Search(zebracrossing) = %v, want [%s]: the edited page alone", got, dt)
	}
}
