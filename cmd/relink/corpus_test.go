package main

import (
	"bytes"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/linkrot/relink/provider/commoncrawl"
	"github.com/linkrot/relink/provider/warc"
)

func TestParseCorpus(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
		want    corpusConfig
	}{
		{name: "manifest", args: []string{"-manifest", "m.json", "-store", "x.db"},
			want: corpusConfig{manifest: "m.json", storePath: "x.db"}},
		{name: "default store", args: []string{"-dir", "d", "-base", "https://e.example/"},
			want: corpusConfig{dir: "d", base: "https://e.example/", storePath: "relink.db"}},
		{name: "warc list and repeat", args: []string{"-warc", "a.warc,b.warc.gz", "-warc", "c.warc", "-workers", "3"},
			want: corpusConfig{warcs: listFlag{"a.warc", "b.warc.gz", "c.warc"}, storePath: "relink.db", workers: 3}},
		{name: "wat list and repeat", args: []string{"-wat", "a.wat.gz,b.wat.gz", "-wat", "c.wat.gz"},
			want: corpusConfig{wats: listFlag{"a.wat.gz", "b.wat.gz", "c.wat.gz"}, storePath: "relink.db"}},
		{name: "nothing to do", args: nil, wantErr: "nothing to ingest"},
		{name: "dir without base", args: []string{"-dir", "d"}, wantErr: "-dir and -base go together"},
		{name: "base without dir", args: []string{"-base", "https://e.example/"}, wantErr: "-dir and -base go together"},
		{name: "empty store", args: []string{"-manifest", "m.json", "-store", ""}, wantErr: "-store must name a file"},
		{name: "negative workers", args: []string{"-manifest", "m.json", "-workers", "-1"}, wantErr: "bad -workers -1: want at least 0"},
		{name: "negative batch", args: []string{"-manifest", "m.json", "-batch", "-1"}, wantErr: "bad -batch -1: want at least 0"},
		{name: "base not a URL", args: []string{"-dir", "d", "-base", "site.example"}, wantErr: "bad -base"},
		{name: "base with a query", args: []string{"-dir", "d", "-base", "https://e.example/?a=1"}, wantErr: "bad -base"},
		{name: "stray argument", args: []string{"-manifest", "m.json", "extra"}, wantErr: `unexpected argument "extra"`},
		{name: "unknown flag", args: []string{"-manifests", "m.json"}, wantErr: "flag provided but not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseCorpus(tt.args)
			if tt.wantErr != "" {
				var ue *usageError
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &ue) {
					t.Errorf("parseCorpus(%q) error = %v, want a usage error %q", tt.args, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseCorpus(%q): %v", tt.args, err)
			}
			if got.manifest != tt.want.manifest || got.storePath != tt.want.storePath || got.dir != tt.want.dir ||
				got.base != tt.want.base || got.workers != tt.want.workers || got.warcs.String() != tt.want.warcs.String() ||
				got.wats.String() != tt.want.wats.String() {
				t.Errorf("parseCorpus(%q) = %+v, want %+v", tt.args, *got, tt.want)
			}
		})
	}
}

// TestCorpusDir builds a store from a small directory and checks the summary
// line, then runs again and checks that nothing is added twice.
func TestCorpusDir(t *testing.T) {
	dir := t.TempDir()
	site := filepath.Join(dir, "site")
	if err := os.MkdirAll(site, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"index.html": `<html><head><title>Home</title></head><body><nav><a href="a.html">A</a></nav><p><a href="a.html">the a page</a></p></body></html>`,
		"a.html":     `<html><head><title>A</title></head><body><p>Alpha.</p></body></html>`,
		"junk.html":  "\x00\x01\x02binary",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(site, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"corpus", "-dir", site, "-base", "https://site.example/", "-store", filepath.Join(dir, "s.db")}
	want := regexp.MustCompile(`^.*s\.db: 2 pages, 0 redirects, 2 links \(1 navigation, 0 image-map\), skipped: 1 binary in [0-9.]+s\n$`)
	r := mustRun(t, args...)
	if !want.MatchString(r.stdout) {
		t.Errorf("summary = %q, want it to match %s", r.stdout, want)
	}
	if !strings.Contains(r.stderr, "corpus: dir "+site+": 3/3 files") {
		t.Errorf("progress on stderr = %q, want a final line with 3/3 files", r.stderr)
	}
	r = mustRun(t, args...)
	want = regexp.MustCompile(`^.*s\.db: 2 pages, 0 redirects, 2 links \(1 navigation, 0 image-map\), skipped: 1 binary, 3 already ingested in [0-9.]+s\n$`)
	if !want.MatchString(r.stdout) {
		t.Errorf("summary of the second run = %q, want it to match %s", r.stdout, want)
	}
	r = runArgs(t, append(args, "-manifest", filepath.Join(dir, "absent.json"))...)
	if r.code != exitFailure || !strings.Contains(r.stderr, "absent.json") {
		t.Errorf("a missing manifest: exit %d, stderr %q; want 1 and the file named", r.code, r.stderr)
	}
}

// TestCorpusWARC ingests a WARC file written with provider/warc.
func TestCorpusWARC(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, true)
	h := http.Header{"Content-Type": {"text/html"}}
	if err := w.WriteResponse("http://w.example/", time.Time{}, 200, h, []byte(`<html><body><a href="x.html">x</a></body></html>`)); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteResponse("http://w.example/x.html", time.Time{}, 200, h, []byte(`<html><body>x</body></html>`)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "c.warc.gz")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mustRun(t, "corpus", "-warc", path, "-store", filepath.Join(dir, "w.db"))
	if !strings.Contains(r.stdout, ": 2 pages, 0 redirects, 1 links (0 navigation, 0 image-map), skipped: none in ") {
		t.Errorf("summary = %q", r.stdout)
	}
}

// TestCorpusWAT ingests a WARC file and a WAT file written with
// provider/commoncrawl, twice: the second run adds nothing.
func TestCorpusWAT(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, true)
	h := http.Header{"Content-Type": {"text/html"}}
	if err := w.WriteResponse("http://w.example/", time.Time{}, 200, h, []byte(`<html><body><a href="x.html">x</a></body></html>`)); err != nil {
		t.Fatal(err)
	}
	warcPath := filepath.Join(dir, "c.warc.gz")
	if err := os.WriteFile(warcPath, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	ww := commoncrawl.NewWriter(&buf)
	for _, p := range []*commoncrawl.Page{
		{URI: "https://blog.example/a", Status: 200, Links: []commoncrawl.Link{{Target: "http://w.example/x.html", Anchor: "an x"}, {Target: "https://gone.example/"}}},
		{URI: "http://w.example/", Status: 200, Links: []commoncrawl.Link{{Target: "http://w.example/y.html"}}}, // a page of the store
		{URI: "https://forum.example/b", Status: 200, Links: []commoncrawl.Link{{Target: "http://w.example/x.html", Anchor: "x again"}}},
	} {
		if err := ww.WritePage(p); err != nil {
			t.Fatal(err)
		}
	}
	watPath := filepath.Join(dir, "c.warc.wat.gz")
	if err := os.WriteFile(watPath, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"corpus", "-warc", warcPath, "-wat", watPath, "-store", filepath.Join(dir, "w.db")}
	want := regexp.MustCompile(`^.*w\.db: 1 pages, 0 redirects, 1 links \(0 navigation, 0 image-map\), skipped: none in [0-9.]+s\n` +
		`.*w\.db: 2 link sources, 3 link records\n$`)
	r := mustRun(t, args...)
	if !want.MatchString(r.stdout) {
		t.Errorf("summary = %q, want it to match %s", r.stdout, want)
	}
	if !strings.Contains(r.stderr, "corpus: WAT") {
		t.Errorf("progress on stderr = %q, want a WAT line", r.stderr)
	}
	// The second run passes over the WAT file's 4 records (its warcinfo
	// record and 3 pages).
	r = mustRun(t, args...)
	again := regexp.MustCompile(`^.*w\.db: 1 pages, .*, 4 already ingested in [0-9.]+s\n.*w\.db: 2 link sources, 3 link records\n$`)
	if !again.MatchString(r.stdout) {
		t.Errorf("summary of the second run = %q, want it to match %s", r.stdout, again)
	}
}
