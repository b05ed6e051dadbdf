package main

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/linkrot/relink/internal/pgtest"
)

// TestPostgresStore builds the same store as a file and in PostgreSQL
// with relink corpus and checks that fix and find answer alike from both,
// and that the URL's password is never printed.
func TestPostgresStore(t *testing.T) {
	dsn := pgtest.Database(t)
	password, _ := mustURL(t, dsn).User.Password()
	file := filepath.Join(t.TempDir(), "site.db")
	noPassword := func(r ran) {
		t.Helper()
		if password != "" && strings.Contains(r.stdout+r.stderr, password) {
			t.Errorf("the password was printed: %q %q", r.stdout, r.stderr)
		}
	}
	for _, s := range []string{file, dsn} {
		r := runArgs(t, "corpus", "-dir", "testdata/fixsite", "-base", "https://example.org/", "-store", s)
		if r.code != 0 {
			t.Fatalf("relink corpus -store %s: exit %d, %s", storeName(s), r.code, r.stderr)
		}
		noPassword(r)
		if !strings.Contains(r.stdout, "pages") {
			t.Errorf("corpus printed %q, want its summary", r.stdout)
		}
	}
	lite, _ := fixResults(t, fixURLs, "-store", file)
	pg, stderr := fixResults(t, fixURLs, "-store", dsn)
	noPassword(ran{stderr: stderr})
	if d := cmp.Diff(lite, pg); d != "" {
		t.Errorf("fix results differ (-file +postgres):\n%s", d)
	}
	if len(pg) != 5 {
		t.Errorf("fix gave %d results, want 5", len(pg))
	}
	a := runArgs(t, "find", "-store", file, "-json", fixMoved)
	b := runArgs(t, "find", "-store", dsn, "-json", fixMoved)
	noPassword(b)
	if a.code != 0 || b.code != 0 {
		t.Fatalf("find: exits %d and %d: %s %s", a.code, b.code, a.stderr, b.stderr)
	}
	// The same answer, but for the time taken and the name of the store
	// the document frequencies came from.
	same := func(s string) []string {
		var out []string
		for line := range strings.Lines(s) {
			if !strings.Contains(line, `"seconds"`) && !strings.Contains(line, "store:") {
				out = append(out, line)
			}
		}
		return out
	}
	if d := cmp.Diff(same(a.stdout), same(b.stdout)); d != "" {
		t.Errorf("find -json differs (-file +postgres):\n%s", d)
	}
	if !strings.Contains(b.stdout, "store:") {
		t.Errorf("find -json does not name the store's database: %s", b.stdout)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
