package main

import (
	"crypto/sha256"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fixture is the files one case of the bad-input matrix runs against, each
// in the case's own directory.
type fixture struct {
	dir string
	// Stores: a good one, a missing path, an empty file, the good one cut
	// in half, bytes that are no database, and a directory.
	good, missing, empty, truncated, corrupt, directory string
	// site is a directory of HTML files; manifests for corpus.
	site, notJSON, noRoot string
	// closed is a loopback URL nothing listens on.
	closed string
}

// newFixture writes a fixture into a new directory.
func newFixture(t *testing.T, good []byte, closed string) *fixture {
	t.Helper()
	dir := t.TempDir()
	fx := &fixture{dir: dir, closed: closed}
	path := func(name string) string { return filepath.Join(dir, name) }
	write := func(name string, b []byte) string {
		p := path(name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fx.good = write("good.db", good)
	fx.missing = path("missing.db")
	fx.empty = write("empty.db", nil)
	fx.truncated = write("truncated.db", good[:len(good)/2])
	fx.corrupt = write("corrupt.db", []byte(strings.Repeat("this is not a database\n", 300)))
	fx.directory = path("dir.db")
	fx.site = path("site")
	for _, d := range []string{fx.directory, fx.site} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("site/index.html", []byte(`<html><head><title>Home</title></head><body><p><a href="a.html">the a page</a></p></body></html>`))
	fx.notJSON = write("not.json", []byte("sites: [this is not JSON"))
	fx.noRoot = write("noroot.json", []byte(`{"name": "x", "version": 1, "sites": [{"name": "x", "roots": [{"dir": "`+path("absent")+`", "base": "https://x.example/"}]}]}`))
	return fx
}

// dirState returns the names and contents' digests of the files in dir,
// sub-directories included.
func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		out[p] = fileState(t, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// fileState returns a file's size and digest, or "absent".
func fileState(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return "absent"
	}
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d bytes %x", len(b), sha256.Sum256(b))
}

// TestBadInput runs every subcommand on command lines and files that
// cannot work: each exits with the documented code and says why in one
// line on stderr, with no trace of a panic, and leaves the files as they
// were: no store created, changed or half-built (issue 12, item 5). A
// few cases succeed (a long URL nothing links to) and must say at most
// one line.
func TestBadInput(t *testing.T) {
	good, err := os.ReadFile(buildStore(t))
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	longURL := "https://example.org/" + strings.Repeat("a", 10<<10)
	const url = "https://example.org/guides/sourdough-starter.html"
	tests := []struct {
		name string
		args func(fx *fixture) []string
		code int
		// created is a file the run may create (a store corpus builds);
		// every other file must stay as it was.
		created func(fx *fixture) string
	}{
		// The command itself.
		{name: "no arguments", args: func(*fixture) []string { return nil }, code: exitUsage},
		{name: "unknown subcommand", args: func(*fixture) []string { return []string{"rediscover"} }, code: exitUsage},
		{name: "flag before subcommand", args: func(*fixture) []string { return []string{"-store", "x.db", "find"} }, code: exitUsage},
		{name: "help of unknown", args: func(*fixture) []string { return []string{"help", "nope"} }, code: exitUsage},
		{name: "version with argument", args: func(*fixture) []string { return []string{"-version", "x"} }, code: exitUsage},

		// find.
		{name: "find no arguments", args: func(*fixture) []string { return []string{"find"} }, code: exitUsage},
		{name: "find unknown flag", args: func(fx *fixture) []string { return []string{"find", "-store", fx.good, "-frobnicate", url} }, code: exitUsage},
		{name: "find terms -1", args: func(fx *fixture) []string { return []string{"find", "-store", fx.good, "-terms", "-1", url} }, code: exitUsage},
		{name: "find terms 0", args: func(fx *fixture) []string { return []string{"find", "-store", fx.good, "-terms", "0", url} }, code: exitUsage},
		{name: "find terms 1000", args: func(fx *fixture) []string { return []string{"find", "-store", fx.good, "-terms", "1000", url} }, code: exitUsage},
		{name: "find threshold 2", args: func(fx *fixture) []string { return []string{"find", "-store", fx.good, "-threshold", "2", url} }, code: exitUsage},
		{name: "find threshold NaN", args: func(fx *fixture) []string { return []string{"find", "-store", fx.good, "-threshold", "NaN", url} }, code: exitUsage},
		{name: "find backlinks -1", args: func(fx *fixture) []string { return []string{"find", "-store", fx.good, "-backlinks", "-1", url} }, code: exitUsage},
		{name: "find backlinks 0 with a strategy", args: func(fx *fixture) []string {
			return []string{"find", "-store", fx.good, "-method", "fusion", "-backlinks", "0", url}
		}, code: exitUsage},
		{name: "find depth 0", args: func(fx *fixture) []string { return []string{"find", "-store", fx.good, "-depth", "0", url} }, code: exitUsage},
		{name: "find depth 99", args: func(fx *fixture) []string { return []string{"find", "-store", fx.good, "-depth", "99", url} }, code: exitUsage},
		{name: "find results -1", args: func(fx *fixture) []string { return []string{"find", "-store", fx.good, "-results", "-1", url} }, code: exitUsage},
		{name: "find results 1001", args: func(fx *fixture) []string { return []string{"find", "-store", fx.good, "-results", "1001", url} }, code: exitUsage},
		{name: "find terms not a number", args: func(fx *fixture) []string { return []string{"find", "-store", fx.good, "-terms", "four", url} }, code: exitUsage},
		{name: "find radius -3", args: func(fx *fixture) []string { return []string{"find", "-store", fx.good, "-radius", "-3", url} }, code: exitUsage},
		{name: "find missing store", args: func(fx *fixture) []string { return []string{"find", "-store", fx.missing, url} }, code: exitFailure},
		{name: "find empty store", args: func(fx *fixture) []string { return []string{"find", "-store", fx.empty, url} }, code: exitFailure},
		{name: "find truncated store", args: func(fx *fixture) []string { return []string{"find", "-store", fx.truncated, url} }, code: exitFailure},
		{name: "find corrupt store", args: func(fx *fixture) []string { return []string{"find", "-store", fx.corrupt, url} }, code: exitFailure},
		{name: "find directory store", args: func(fx *fixture) []string { return []string{"find", "-store", fx.directory, url} }, code: exitFailure},
		{name: "find postgres store", args: func(fx *fixture) []string {
			return []string{"find", "-store", "postgres://u:sekrit@127.0.0.1:1/db", url}
		}, code: exitFailure},
		{name: "find not a URL", args: func(fx *fixture) []string { return []string{"find", "-store", fx.good, "not a url"} }, code: exitUsage},
		{name: "find relative URL", args: func(fx *fixture) []string { return []string{"find", "-store", fx.good, "/guides/x.html"} }, code: exitUsage},
		{name: "find ftp URL", args: func(fx *fixture) []string { return []string{"find", "-store", fx.good, "ftp://example.org/a"} }, code: exitUsage},
		{name: "find control characters", args: func(fx *fixture) []string {
			return []string{"find", "-store", fx.good, "https://example.org/a\x1b[2J\nb"}
		}, code: exitUsage},
		// Nothing links to it: a note says no query could be formed.
		{name: "find 10 KB URL", args: func(fx *fixture) []string { return []string{"find", "-store", fx.good, longURL} }, code: exitOK},

		// fix (its dead links on standard input, empty here).
		{name: "fix argument", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.good, url} }, code: exitUsage},
		{name: "fix unknown flag", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.good, "-frobnicate"} }, code: exitUsage},
		{name: "fix threshold -1", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.good, "-threshold", "-1"} }, code: exitUsage},
		{name: "fix threshold NaN", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.good, "-threshold", "NaN"} }, code: exitUsage},
		{name: "fix cache-age 0", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.good, "-cache-age", "0s"} }, code: exitUsage},
		{name: "fix cache and no-cache", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.good, "-cache", fx.dir, "-no-cache"} }, code: exitUsage},
		{name: "fix unknown backlinks-from", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.good, "-backlinks-from", "yahoo"} }, code: exitUsage},
		{name: "fix mediawiki-api alone", args: func(fx *fixture) []string {
			return []string{"fix", "-store", fx.good, "-mediawiki-api", "https://w.example/w/api.php"}
		}, code: exitUsage},
		{name: "fix bad mediawiki-api", args: func(fx *fixture) []string {
			return []string{"fix", "-store", fx.good, "-backlinks-from", "mediawiki", "-mediawiki-api", "ftp://w.example/"}
		}, code: exitUsage},
		{name: "fix bad article path", args: func(fx *fixture) []string {
			return []string{"fix", "-store", fx.good, "-backlinks-from", "mediawiki", "-mediawiki-article-path", "https://w.example/wiki/"}
		}, code: exitUsage},
		{name: "fix backlinks from store without one", args: func(fx *fixture) []string {
			return []string{"fix", "-backlinks-from", "store", "-fetch", "web", "-search", "searxng", "-search-url", "http://127.0.0.1:1", "-df", "search"}
		}, code: exitUsage},
		{name: "fix concurrency 0", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.good, "-concurrency", "0"} }, code: exitUsage},
		{name: "fix concurrency 1000", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.good, "-concurrency", "1000"} }, code: exitUsage},
		{name: "fix unknown format", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.good, "-format", "xml"} }, code: exitUsage},
		{name: "fix unknown output", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.good, "-o", "yaml"} }, code: exitUsage},
		{name: "fix redirect map without site", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.good, "-o", "apache"} }, code: exitUsage},
		{name: "fix fail-on unknown verdict", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.good, "-fail-on", "dead"} }, code: exitUsage},
		{name: "fix write without rewrite", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.good, "-write"} }, code: exitUsage},
		// Without -store, fix works on the live web with no flag (the site
		// index); pages from a store need one.
		{name: "fix without store, pages from the store", args: func(*fixture) []string { return []string{"fix", "-fetch", "store"} }, code: exitUsage},
		{name: "fix without store or live services", args: func(*fixture) []string { return []string{"fix"} }, code: exitOK},
		{name: "fix missing store", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.missing} }, code: exitFailure},
		{name: "fix empty store", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.empty} }, code: exitFailure},
		{name: "fix truncated store", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.truncated} }, code: exitFailure},
		{name: "fix corrupt store", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.corrupt} }, code: exitFailure},
		{name: "fix directory store", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.directory} }, code: exitFailure},
		{name: "fix postgres store", args: func(fx *fixture) []string {
			return []string{"fix", "-store", "postgres://u:sekrit@127.0.0.1:1/db"}
		}, code: exitFailure},
		{name: "fix input missing", args: func(fx *fixture) []string {
			return []string{"fix", "-store", fx.good, "-in", filepath.Join(fx.dir, "absent.txt")}
		}, code: exitFailure},
		{name: "fix input not a lychee report", args: func(fx *fixture) []string {
			return []string{"fix", "-store", fx.good, "-format", "lychee", "-in", fx.notJSON}
		}, code: exitFailure},
		{name: "fix input is a directory", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.good, "-in", fx.site} }, code: exitFailure},
		{name: "fix state is a directory", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.good, "-state", fx.site} }, code: exitFailure},
		{name: "fix state is not a journal", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.good, "-state", fx.notJSON} }, code: exitFailure},
		{name: "fix rewrite a missing directory", args: func(fx *fixture) []string {
			return []string{"fix", "-store", fx.good, "-rewrite", filepath.Join(fx.dir, "absent")}
		}, code: exitFailure},
		{name: "fix decisions not JSON", args: func(fx *fixture) []string {
			return []string{"fix", "-store", fx.good, "-rewrite", fx.site, "-decisions", fx.notJSON}
		}, code: exitFailure},
		// Nothing to do: a summary line.
		{name: "fix no dead links", args: func(fx *fixture) []string { return []string{"fix", "-store", fx.good} }, code: exitOK},

		// signature.
		{name: "signature no arguments", args: func(*fixture) []string { return []string{"signature"} }, code: exitUsage},
		{name: "signature unknown flag", args: func(fx *fixture) []string {
			return []string{"signature", "-frobnicate", "-target", url, fx.site + "/index.html"}
		}, code: exitUsage},
		{name: "signature terms -1", args: func(fx *fixture) []string {
			return []string{"signature", "-terms", "-1", "-target", url, fx.site + "/index.html"}
		}, code: exitUsage},
		{name: "signature terms 99", args: func(fx *fixture) []string {
			return []string{"signature", "-terms", "99", "-target", url, fx.site + "/index.html"}
		}, code: exitUsage},
		{name: "signature missing store", args: func(fx *fixture) []string {
			return []string{"signature", "-store", fx.missing, "-target", url, fx.site + "/index.html"}
		}, code: exitFailure},
		{name: "signature empty store", args: func(fx *fixture) []string {
			return []string{"signature", "-store", fx.empty, "-target", url, fx.site + "/index.html"}
		}, code: exitFailure},
		{name: "signature truncated store", args: func(fx *fixture) []string {
			return []string{"signature", "-store", fx.truncated, "-target", url, fx.site + "/index.html"}
		}, code: exitFailure},
		{name: "signature corrupt store", args: func(fx *fixture) []string {
			return []string{"signature", "-store", fx.corrupt, "-target", url, fx.site + "/index.html"}
		}, code: exitFailure},
		{name: "signature directory store", args: func(fx *fixture) []string {
			return []string{"signature", "-store", fx.directory, "-target", url, fx.site + "/index.html"}
		}, code: exitFailure},
		{name: "signature not a URL", args: func(fx *fixture) []string {
			return []string{"signature", "-target", "not a url", fx.site + "/index.html"}
		}, code: exitUsage},
		{name: "signature control characters", args: func(fx *fixture) []string {
			return []string{"signature", "-target", "https://example.org/\x00a", fx.site + "/index.html"}
		}, code: exitUsage},
		{name: "signature 10 KB URL", args: func(fx *fixture) []string {
			return []string{"signature", "-target", longURL, fx.site + "/index.html"}
		}, code: exitOK},
		{name: "signature page is a directory", args: func(fx *fixture) []string {
			return []string{"signature", "-target", url, fx.site}
		}, code: exitFailure},

		// soft404.
		{name: "soft404 no arguments", args: func(*fixture) []string { return []string{"soft404"} }, code: exitUsage},
		{name: "soft404 unknown flag", args: func(*fixture) []string { return []string{"soft404", "-frobnicate", url} }, code: exitUsage},
		{name: "soft404 attempts -1", args: func(*fixture) []string { return []string{"soft404", "-attempts", "-1", url} }, code: exitUsage},
		{name: "soft404 rate -1", args: func(*fixture) []string { return []string{"soft404", "-rate", "-1", url} }, code: exitUsage},
		{name: "soft404 timeout not a duration", args: func(*fixture) []string { return []string{"soft404", "-timeout", "soon", url} }, code: exitUsage},
		{name: "soft404 not a URL", args: func(*fixture) []string { return []string{"soft404", "not a url"} }, code: exitUsage},
		{name: "soft404 ftp URL", args: func(*fixture) []string { return []string{"soft404", "ftp://example.org/a"} }, code: exitUsage},
		{name: "soft404 control characters", args: func(*fixture) []string { return []string{"soft404", "https://example.org/\r\nX-A: b"} }, code: exitUsage},
		{name: "soft404 10 KB URL, closed port", args: func(fx *fixture) []string {
			return []string{"soft404", "-allow-private", "-attempts", "1", "-rate", "0", fx.closed + "/" + strings.Repeat("a", 10<<10)}
		}, code: exitFailure},

		// corpus.
		{name: "corpus no arguments", args: func(*fixture) []string { return []string{"corpus"} }, code: exitUsage},
		{name: "corpus unknown flag", args: func(fx *fixture) []string {
			return []string{"corpus", "-frobnicate", "-store", fx.missing, "-dir", fx.site, "-base", "https://x.example/"}
		}, code: exitUsage},
		{name: "corpus workers -1", args: func(fx *fixture) []string {
			return []string{"corpus", "-workers", "-1", "-store", fx.missing, "-dir", fx.site, "-base", "https://x.example/"}
		}, code: exitUsage},
		{name: "corpus manifest not JSON", args: func(fx *fixture) []string { return []string{"corpus", "-store", fx.missing, "-manifest", fx.notJSON} }, code: exitFailure},
		{name: "corpus manifest names a missing directory", args: func(fx *fixture) []string {
			return []string{"corpus", "-store", fx.missing, "-manifest", fx.noRoot}
		}, code: exitFailure},
		{name: "corpus manifest missing", args: func(fx *fixture) []string {
			return []string{"corpus", "-store", fx.missing, "-manifest", filepath.Join(fx.dir, "absent.json")}
		}, code: exitFailure},
		{name: "corpus dir missing", args: func(fx *fixture) []string {
			return []string{"corpus", "-store", fx.missing, "-dir", filepath.Join(fx.dir, "absent"), "-base", "https://x.example/"}
		}, code: exitFailure},
		{name: "corpus base not a URL", args: func(fx *fixture) []string {
			return []string{"corpus", "-store", fx.missing, "-dir", fx.site, "-base", "not a url"}
		}, code: exitUsage},
		{name: "corpus base with control characters", args: func(fx *fixture) []string {
			return []string{"corpus", "-store", fx.missing, "-dir", fx.site, "-base", "https://x.example/\x7f/"}
		}, code: exitUsage},
		{name: "corpus warc missing", args: func(fx *fixture) []string {
			return []string{"corpus", "-store", fx.missing, "-warc", filepath.Join(fx.dir, "absent.warc.gz")}
		}, code: exitFailure},
		{name: "corpus directory store", args: func(fx *fixture) []string {
			return []string{"corpus", "-store", fx.directory, "-dir", fx.site, "-base", "https://x.example/"}
		}, code: exitFailure},
		{name: "corpus corrupt store", args: func(fx *fixture) []string {
			return []string{"corpus", "-store", fx.corrupt, "-dir", fx.site, "-base", "https://x.example/"}
		}, code: exitFailure},
		{name: "corpus truncated store", args: func(fx *fixture) []string {
			return []string{"corpus", "-store", fx.truncated, "-dir", fx.site, "-base", "https://x.example/"}
		}, code: exitFailure},
		{name: "corpus postgres store", args: func(fx *fixture) []string {
			return []string{"corpus", "-store", "postgresql://u:sekrit@127.0.0.1:1/db", "-dir", fx.site, "-base", "https://x.example/"}
		}, code: exitFailure},
		// A writer may build a store in an empty file.
		{name: "corpus empty store", args: func(fx *fixture) []string {
			return []string{"corpus", "-store", fx.empty, "-dir", fx.site, "-base", "https://x.example/"}
		}, code: exitOK, created: func(fx *fixture) string { return fx.empty }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t, good, closed)
			before := dirState(t, fx.dir)
			args := tt.args(fx)
			r := runArgs(t, args...)
			if r.code != tt.code {
				t.Errorf("relink %q: exit %d, want %d (stderr %q)", short(args), r.code, tt.code, r.stderr)
			}
			if tt.code == exitOK {
				if strings.Count(r.stderr, "\n") > 1 {
					t.Errorf("stderr has more than one line: %q", r.stderr)
				}
			} else {
				checkOneLine(t, r.stderr)
				if !strings.HasPrefix(r.stderr, "relink") {
					t.Errorf("stderr %q does not start with the command's name", r.stderr)
				}
			}
			if strings.Contains(r.stderr+r.stdout, "sekrit") {
				t.Errorf("the password of a store URL was printed: %q", r.stderr)
			}
			after := dirState(t, fx.dir)
			if tt.created != nil {
				// The store a writer made, and the lock file of its one
				// writer (provider/store keeps it, so that no second
				// writer gets in).
				for _, name := range []string{tt.created(fx), tt.created(fx) + "-lock"} {
					delete(before, name)
					delete(after, name)
				}
			}
			for name, state := range after {
				if before[name] != state {
					t.Errorf("%s: %s, was %s", name, state, cmpOr(before[name], "absent"))
				}
			}
			for name := range before {
				if _, ok := after[name]; !ok {
					t.Errorf("%s removed", name)
				}
			}
		})
	}
}

// short shortens long arguments for a message.
func short(args []string) []string {
	out := slices.Clone(args)
	for i, a := range out {
		if len(a) > 100 {
			out[i] = a[:100] + "…"
		}
	}
	return out
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
