package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/provider/store"
)

// writeTwoSites writes a manifest of the tea site and testdata/kettle, a
// three-page site about kettles whose pages link to two tea pages (one of
// them history.html, which no tea page links to), and returns its path.
func writeTwoSites(t *testing.T) string {
	t.Helper()
	tea, err := filepath.Abs("testdata/site")
	if err != nil {
		t.Fatal(err)
	}
	kettle, err := filepath.Abs("testdata/kettle")
	if err != nil {
		t.Fatal(err)
	}
	m := fmt.Sprintf(`{"name": "tea+kettle", "version": 1, "sites": [
		{"name": "tea", "package": "tea-notebook-doc",
		 "roots": [{"dir": %q, "base": "https://tea.example/notebook/", "style": "file"}]},
		{"name": "kettle", "package": "kettle-doc",
		 "roots": [{"dir": %q, "base": "https://kettle.example/", "style": "file"}]}]}`, tea, kettle)
	path := filepath.Join(t.TempDir(), "two.json")
	if err := os.WriteFile(path, []byte(m), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// buildTestStore builds a store from the manifest at path in a temporary
// directory and returns its path.
func buildTestStore(t *testing.T, manifest string) string {
	t.Helper()
	m, err := store.ReadManifest(manifest)
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "store.db")
	s, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.IngestManifest(context.Background(), m, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestDrawTargetsOf: the targets drawn from the tea site's pages inside a
// store that also holds the kettle site are those drawn from a store of
// the tea site alone, for every size and seed, although the kettle pages
// give history.html a backlink page.
func TestDrawTargetsOf(t *testing.T) {
	ctx := context.Background()
	small, err := store.Open(buildTestStore(t, writeManifest(t)), &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	large, err := store.Open(buildTestStore(t, writeTwoSites(t)), &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer large.Close()
	tea := map[string]bool{"tea": true}
	uris := func(ts []target) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.URI)
		}
		return out
	}
	history := "https://tea.example/notebook/history.html"
	for _, n := range []int{1, 3, 5, 10} {
		for _, seed := range []uint64{1, 2, 7} {
			want, wantAvail, err := drawTargets(ctx, small, n, seed)
			if err != nil {
				t.Fatal(err)
			}
			for name, s := range map[string]*store.Store{"tea store": small, "tea+kettle store": large} {
				got, avail, err := drawFromSites(ctx, s, n, seed, tea)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(uris(want), uris(got)); diff != "" || avail != wantAvail {
					t.Errorf("%s: drawFromSites(%d, %d) = %d of %d available, want drawTargets's on the tea store, of %d (-want +got):\n%s", name, n, seed, len(got), avail, wantAvail, diff)
				}
				if slices.Contains(uris(got), history) {
					t.Errorf("%s: drawFromSites(%d, %d) drew %s, which no tea page links to", name, n, seed, history)
				}
			}
		}
	}
	// Drawn from every page of the larger store, history.html and the
	// kettle pages are candidates.
	all, avail, err := drawTargets(ctx, large, 100, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(uris(all), history) || avail != 9 {
		t.Errorf("drawTargets on the tea+kettle store = %v of %d available, want 9 with %s", uris(all), avail, history)
	}
}

// TestRunDraw: -draw evaluates the targets of the tea site inside the
// larger store; -memprofile writes a heap profile.
func TestRunDraw(t *testing.T) {
	tea := writeManifest(t)
	small := buildTestStore(t, tea)
	large := buildTestStore(t, writeTwoSites(t))
	targets := func(db string, extra ...string) []string {
		out := filepath.Join(t.TempDir(), "out")
		runExperiment(t, append([]string{"-store", db, "-targets", "3", "-seed", "2", "-modes", "paper", "-nav", "with", "-out", out}, extra...)...)
		f, err := os.Open(filepath.Join(out, "targets.jsonl.gz"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for line := range strings.Lines(string(raw)) {
			var l targetLine
			if err := json.Unmarshal([]byte(line), &l); err != nil {
				t.Fatalf("targets.jsonl: %v", err)
			}
			got = append(got, l.URI)
		}
		return got
	}
	prof := filepath.Join(t.TempDir(), "heap.pprof")
	want := targets(small)
	got := targets(large, "-draw", tea, "-memprofile", prof)
	if diff := cmp.Diff(want, got); diff != "" || len(want) != 3 {
		t.Errorf("targets with -draw in the larger store (-tea store +larger):\n%s", diff)
	}
	if raw, err := os.ReadFile(prof); err != nil || !bytes.HasPrefix(raw, []byte{0x1f, 0x8b}) {
		t.Errorf("-memprofile wrote %d bytes, %v; want a gzipped profile", len(raw), err)
	}
}

func TestParseScaleFlags(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		ok    bool
		limit int64
	}{
		{"default limit", nil, true, DefaultMemoryLimit},
		{"no limit", []string{"-memory-limit", "0"}, true, 0},
		{"limit", []string{"-memory-limit", "2048"}, true, 2048},
		{"negative limit", []string{"-memory-limit", "-1"}, false, 0},
		{"not a number", []string{"-memory-limit", "2G"}, false, 0},
		{"draw", []string{"-draw", "corpus/dev.json"}, true, DefaultMemoryLimit},
	}
	for _, tt := range tests {
		cfg, err := parseFlags(tt.args, &bytes.Buffer{})
		if (err == nil) != tt.ok {
			t.Errorf("%s: parseFlags(%q) error %v, want ok %v", tt.name, tt.args, err, tt.ok)
			continue
		}
		if err == nil && cfg.scale.memoryLimit != tt.limit {
			t.Errorf("%s: parseFlags(%q) memory limit %d, want %d", tt.name, tt.args, cfg.scale.memoryLimit, tt.limit)
		}
	}
}

// TestWatchMemoryLimit: the soft memory limit, and with it
// DefaultGCPercent, hold while the run does and are put back after it; a
// GOMEMLIMIT in the environment is kept unless -memory-limit is given, and
// a GOGC in the environment is kept.
func TestWatchMemoryLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	beforeGC := debug.SetGCPercent(100)
	debug.SetGCPercent(beforeGC)
	tests := []struct {
		name   string
		env    string
		gogc   string
		args   []string
		want   int64
		wantGC int
	}{
		{"default", "", "", nil, DefaultMemoryLimit << 20, DefaultGCPercent},
		{"flag", "", "", []string{"-memory-limit", "2048"}, 2048 << 20, DefaultGCPercent},
		{"none", "", "", []string{"-memory-limit", "0"}, before, beforeGC},
		{"GOMEMLIMIT", "3GiB", "", nil, before, beforeGC},
		{"GOMEMLIMIT and flag", "3GiB", "", []string{"-memory-limit", "1024"}, 1024 << 20, DefaultGCPercent},
		{"GOGC", "", "150", nil, DefaultMemoryLimit << 20, beforeGC},
	}
	for _, tt := range tests {
		t.Setenv("GOMEMLIMIT", tt.env)
		t.Setenv("GOGC", tt.gogc)
		cfg, err := parseFlags(tt.args, &bytes.Buffer{})
		if err != nil {
			t.Fatal(err)
		}
		stop := cfg.scale.watch(io.Discard)
		got := debug.SetMemoryLimit(-1)
		gotGC := debug.SetGCPercent(-1)
		debug.SetGCPercent(gotGC)
		stop()
		if got != tt.want {
			t.Errorf("%s: memory limit %d during the run, want %d", tt.name, got, tt.want)
		}
		if gotGC != tt.wantGC {
			t.Errorf("%s: GC percent %d during the run, want %d", tt.name, gotGC, tt.wantGC)
		}
		if after := debug.SetMemoryLimit(-1); after != before {
			t.Errorf("%s: memory limit %d after the run, want %d as before", tt.name, after, before)
		}
		if after := debug.SetGCPercent(-1); after != beforeGC {
			t.Errorf("%s: GC percent %d after the run, want %d as before", tt.name, after, beforeGC)
		} else {
			debug.SetGCPercent(after)
		}
	}
}
