package main

import (
	"bytes"
	"compress/flate"
	"context"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linkrot/relink/provider/store"
)

// site is a small site to ingest: pages with links, a redirect stub and a
// file that is not a page.
var site = map[string]string{
	"index.html": `<html><head><title>Home</title></head><body><nav><a href="a.html">A</a></nav><p>Welcome to the <a href="b/c.html">guide</a>.</p></body></html>`,
	"a.html":     `<html><head><title>Page A</title></head><body><p>Alpha words <a href="index.html">home</a> and <a href="https://other.example/x">out</a>.</p></body></html>`,
	"b/c.html":   `<html><head><title>Guide</title></head><body><h1>Guide</h1><p>Read <a href="../a.html#top">page A</a>.</p></body></html>`,
	"old.html":   `<html><head><meta http-equiv="refresh" content="0; url=a.html"></head><body></body></html>`,
	"empty.html": ``,
}

// build ingests site into a new store and returns its path.
func build(t *testing.T, dir, name string) string {
	t.Helper()
	web := filepath.Join(dir, "web")
	for p, body := range site {
		path := filepath.Join(web, p)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, name)
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.IngestDir(context.Background(), web, "https://site.example/", store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// storediff runs the command and returns its exit status and output.
func storediff(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	code, err := run(args, &out, io.Discard)
	if err != nil {
		t.Fatalf("storediff %v: %v", args, err)
	}
	return code, out.String()
}

func TestSameContent(t *testing.T) {
	dir := t.TempDir()
	a, b := build(t, dir, "a.db"), build(t, dir, "b.db")
	code, out := storediff(t, a, b)
	if code != 0 || !strings.Contains(out, "the stores hold the same content") {
		t.Fatalf("storediff of two builds of one site = %d:\n%s", code, out)
	}
	for _, want := range []string{"pages      3 and 3 rows, 0 differ", "links      5 and 5 rows, 0 differ", "redirects  1 and 1 rows, 0 differ", "skipped    1 and 1 rows, 0 differ"} {
		if !strings.Contains(out, want) {
			t.Errorf("storediff output lacks %q:\n%s", want, out)
		}
	}
}

// TestDifferences changes one store behind the store's back and checks
// that each change is reported in its part.
func TestDifferences(t *testing.T) {
	dir := t.TempDir()
	a, b := build(t, dir, "a.db"), build(t, dir, "b.db")
	db, err := sql.Open("sqlite", b)
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	w, _ := flate.NewWriter(&body, flate.BestCompression)
	w.Write([]byte("<p>another body</p>"))
	w.Close()
	for _, q := range []string{
		`UPDATE pages SET title = 'Changed' WHERE title = 'Guide'`,
		`UPDATE links SET anchor = 'changed' WHERE anchor = 'home'`,
		`UPDATE links SET nav = 1 - nav WHERE anchor = 'out'`,
		`DELETE FROM redirects`,
		`DELETE FROM skipped`,
		`INSERT INTO fts (rowid, title, body) SELECT id, 'extra', 'words' FROM pages WHERE title = 'Page A'`,
		`UPDATE bodies SET data = ? WHERE id = (SELECT id FROM pages WHERE title = 'Home')`,
	} {
		var args []any
		if strings.Contains(q, "?") {
			args = append(args, body.Bytes())
		}
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	code, out := storediff(t, "-max", "5", a, b)
	if code != 1 || !strings.Contains(out, "the stores differ") {
		t.Fatalf("storediff of a changed store = %d:\n%s", code, out)
	}
	for _, want := range []string{
		"pages      3 and 3 rows, 1 differ",
		`"https://site.example/b/c.html": A "https://site.example/b/c.html" "site.example" "Guide"`,
		"bodies     3 and 3 rows, 1 differ",
		"index      3 and 3 rows, 1 differ",
		"links      5 and 5 rows, 2 differ",
		`"changed"`,
		"redirects  1 and 0 rows, 1 differ",
		`only in A: "https://site.example/old.html" "https://site.example/a.html"`,
		"skipped    1 and 0 rows, 1 differ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("storediff output lacks %q:\n%s", want, out)
		}
	}
	if code, _ := storediff(t, "-index=false", a, b); code != 1 {
		t.Errorf("storediff -index=false of a changed store = %d, want 1", code)
	}
}

func TestBadArguments(t *testing.T) {
	dir := t.TempDir()
	notStore := filepath.Join(dir, "x.db")
	if err := os.WriteFile(notStore, []byte("not sqlite"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{},
		{"a.db"},
		{filepath.Join(dir, "absent.db"), filepath.Join(dir, "absent.db")},
		{notStore, notStore},
		{"-frobnicate", "a", "b"},
	} {
		var out bytes.Buffer
		if code, err := run(args, &out, io.Discard); code != 2 || err == nil {
			t.Errorf("storediff %q = %d, %v; want 2 and an error", args, code, err)
		}
	}
}
