package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
)

// pgDatabase creates an empty database on the server RELINK_TEST_POSTGRES
// names (scripts/test.sh starts one with scripts/pg.sh), dropped when t
// ends, and returns its URL. Without a server the test skips, or fails
// when RELINK_REQUIRE_POSTGRES is set.
func pgDatabase(t *testing.T) string {
	t.Helper()
	server := os.Getenv("RELINK_TEST_POSTGRES")
	if server == "" {
		if os.Getenv("RELINK_REQUIRE_POSTGRES") != "" {
			t.Fatal("RELINK_REQUIRE_POSTGRES is set but RELINK_TEST_POSTGRES names no server")
		}
		t.Skip("no PostgreSQL server: set RELINK_TEST_POSTGRES (bash scripts/pg.sh start prints it)")
	}
	ctx := context.Background()
	name := fmt.Sprintf("relink_cmd_%d", os.Getpid())
	c, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(ctx, server)
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close(ctx)
		c.Exec(ctx, "DROP DATABASE "+name+" WITH (FORCE)")
	})
	u, err := url.Parse(server)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// TestPostgresStore builds the same store as a file and in PostgreSQL
// with relink corpus and checks that fix and find answer alike from both,
// and that the URL's password is never printed.
func TestPostgresStore(t *testing.T) {
	dsn := pgDatabase(t)
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
