package main

import (
	"bytes"
	"context"
	"io"
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

func TestParseFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
		want    config
	}{
		{name: "manifest", args: []string{"-manifest", "m.json", "-store", "x.db"},
			want: config{manifest: "m.json", storePath: "x.db"}},
		{name: "default store", args: []string{"-dir", "d", "-base", "https://e.example/"},
			want: config{dir: "d", base: "https://e.example/", storePath: "relink.db"}},
		{name: "warc list and repeat", args: []string{"-warc", "a.warc,b.warc.gz", "-warc", "c.warc", "-workers", "3"},
			want: config{warcs: listFlag{"a.warc", "b.warc.gz", "c.warc"}, storePath: "relink.db", workers: 3}},
		{name: "wat list and repeat", args: []string{"-wat", "a.wat.gz,b.wat.gz", "-wat", "c.wat.gz"},
			want: config{wats: listFlag{"a.wat.gz", "b.wat.gz", "c.wat.gz"}, storePath: "relink.db"}},
		{name: "nothing to do", args: nil, wantErr: "nothing to ingest"},
		{name: "dir without base", args: []string{"-dir", "d"}, wantErr: "-dir and -base go together"},
		{name: "base without dir", args: []string{"-base", "https://e.example/"}, wantErr: "-dir and -base go together"},
		{name: "empty store", args: []string{"-manifest", "m.json", "-store", ""}, wantErr: "-store must name a file"},
		{name: "negative workers", args: []string{"-manifest", "m.json", "-workers", "-1"}, wantErr: "must not be negative"},
		{name: "stray argument", args: []string{"-manifest", "m.json", "extra"}, wantErr: `unexpected argument "extra"`},
		{name: "unknown flag", args: []string{"-manifests", "m.json"}, wantErr: "flag provided but not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			got, err := parseFlags(tt.args, &stderr)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("parseFlags(%q) error = %v, want %q", tt.args, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseFlags(%q): %v", tt.args, err)
			}
			if got.manifest != tt.want.manifest || got.storePath != tt.want.storePath || got.dir != tt.want.dir ||
				got.base != tt.want.base || got.workers != tt.want.workers || got.warcs.String() != tt.want.warcs.String() ||
				got.wats.String() != tt.want.wats.String() {
				t.Errorf("parseFlags(%q) = %+v, want %+v", tt.args, *got, tt.want)
			}
		})
	}
}

// TestRun builds a store from a small directory and checks the summary
// line, then runs again and checks that nothing is added twice.
func TestRun(t *testing.T) {
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
	cfg := &config{dir: site, base: "https://site.example/", storePath: filepath.Join(dir, "s.db")}
	want := regexp.MustCompile(`^.*s\.db: 2 pages, 0 redirects, 2 links \(1 navigation, 0 image-map\), skipped: 1 binary in [0-9.]+s\n$`)
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), cfg, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !want.MatchString(stdout.String()) {
		t.Errorf("summary = %q, want it to match %s", stdout.String(), want)
	}
	if !strings.Contains(stderr.String(), "3/3 files") {
		t.Errorf("progress on stderr = %q, want a final line with 3/3 files", stderr.String())
	}
	stdout.Reset()
	if err := run(context.Background(), cfg, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	want = regexp.MustCompile(`^.*s\.db: 2 pages, 0 redirects, 2 links \(1 navigation, 0 image-map\), skipped: 1 binary, 3 already ingested in [0-9.]+s\n$`)
	if !want.MatchString(stdout.String()) {
		t.Errorf("summary of the second run = %q, want it to match %s", stdout.String(), want)
	}
	cfg.manifest = filepath.Join(dir, "absent.json")
	if err := run(context.Background(), cfg, &stdout, &stderr); err == nil {
		t.Error("run with a missing manifest: no error")
	}
}

// TestRunWARC ingests a WARC file written with provider/warc.
func TestRunWARC(t *testing.T) {
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
	cfg, err := parseFlags([]string{"-warc", path, "-store", filepath.Join(dir, "w.db")}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	if err := run(context.Background(), cfg, &stdout, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), ": 2 pages, 0 redirects, 1 links (0 navigation, 0 image-map), skipped: none in ") {
		t.Errorf("summary = %q", stdout.String())
	}
}

// TestRunWAT ingests a WARC file and a WAT file written with
// provider/commoncrawl, twice: the second run adds nothing.
func TestRunWAT(t *testing.T) {
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
	cfg, err := parseFlags([]string{"-warc", warcPath, "-wat", watPath, "-store", filepath.Join(dir, "w.db")}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`^.*w\.db: 1 pages, 0 redirects, 1 links \(0 navigation, 0 image-map\), skipped: none in [0-9.]+s\n` +
		`.*w\.db: 2 link sources, 3 link records\n$`)
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), cfg, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !want.MatchString(stdout.String()) {
		t.Errorf("summary = %q, want it to match %s", stdout.String(), want)
	}
	if !strings.Contains(stderr.String(), "corpus: WAT") {
		t.Errorf("progress on stderr = %q, want a WAT bar", stderr.String())
	}
	// The second run passes over the WAT file's 4 records (its warcinfo
	// record and 3 pages).
	stdout.Reset()
	if err := run(context.Background(), cfg, &stdout, io.Discard); err != nil {
		t.Fatal(err)
	}
	again := regexp.MustCompile(`^.*w\.db: 1 pages, .*, 4 already ingested in [0-9.]+s\n.*w\.db: 2 link sources, 3 link records\n$`)
	if !again.MatchString(stdout.String()) {
		t.Errorf("summary of the second run = %q, want it to match %s", stdout.String(), again)
	}
}
