package localweb_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/linkrot/relink/lab/localweb"
	"github.com/linkrot/relink/provider/store"
)

// Bases of the fixture sites.
const (
	pyBase   = "https://docs.python.org/3.11/"
	wikiBase = "https://en.wikipedia.org/wiki/"
)

// page returns a small HTML page.
func page(title, body string) string {
	return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + title + "</title></head><body><h1>" + title + "</h1>\n" + body + "\n</body></html>\n"
}

// sites is the fixture web: a Python manual and a wiki citing it. old
// adds the pages only the archive holds.
func sites(old bool) map[string]map[string]string {
	py := map[string]string{
		"index.html": page("Python 3.11 documentation", `<p>Welcome. See the <a href="library/os.html">os module</a>, the <a href="library/json.html">json module</a> and the <a href="tutorial/index.html">tutorial</a>.</p>`),
		"library/os.html": page("os — Miscellaneous operating system interfaces",
			`<p>This module provides a portable way of using operating system dependent functionality such as reading environment variables.</p><p>See also <a href="json.html">json</a>.</p>`),
		"library/json.html": page("json — JSON encoder and decoder",
			`<p>JSON (JavaScript Object Notation) is a lightweight data interchange format inspired by JavaScript object literal syntax.</p><p>Back to <a href="../index.html">the index</a>.</p>`),
		"library/old.html": `<html><head><meta http-equiv="refresh" content="0; url=os.html"><title>Moved</title></head><body>Moved.</body></html>`,
		"tutorial/index.html": page("The Python Tutorial",
			`<p>Python is an easy to learn, powerful programming language with efficient high-level data structures.</p>`),
	}
	if old {
		py["library/removed.html"] = page("removed — A module that was removed",
			`<p>This deprecated module was removed in Python 3.12; see <a href="os.html">os</a>.</p>`)
	}
	wiki := map[string]string{
		"Python_(programming_language).html": page("Python (programming language) - Wikipedia",
			`<p>Python is a high-level programming language. Its standard library has <a href="https://docs.python.org/3.11/library/os.html">os</a> and <a href="https://docs.python.org/3.11/library/json.html">json</a>.</p>`),
		"JSON.html": page("JSON - Wikipedia",
			`<p>JSON is a data format. Python reads it with <a href="https://docs.python.org/3.11/library/json.html">the json module</a>.</p>`),
	}
	return map[string]map[string]string{pyBase: py, wikiBase: wiki}
}

// newStore writes the fixture sites to a directory and ingests them into
// a new store, which closes when t ends.
func newStore(t testing.TB, old bool) *store.Store {
	t.Helper()
	dir := t.TempDir()
	m := &store.Manifest{Name: "fixture", Version: store.ManifestVersion}
	names := map[string]string{pyBase: "python", wikiBase: "wikipedia"}
	for base, files := range sites(old) {
		root := filepath.Join(dir, names[base])
		for name, body := range files {
			p := filepath.Join(root, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		m.Sites = append(m.Sites, store.Site{Name: names[base], Roots: []store.Root{{Dir: root, Base: base, Style: store.StyleFile}}})
	}
	s, err := store.Open(filepath.Join(dir, "web.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.IngestManifest(context.Background(), m, store.IngestOptions{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	return s
}

// start starts a Server for o on loopback, closed when t ends. o.Web and
// o.Archive default to fixture stores (the tutorial missing from the
// current web).
func start(t testing.TB, o localweb.Options) *localweb.Server {
	t.Helper()
	if o.Web == nil {
		o.Web = newStore(t, false).WithMissing(pyBase + "tutorial/index.html")
	}
	if o.Archive == nil {
		o.Archive = newStore(t, true)
	}
	srv, err := localweb.New(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}
