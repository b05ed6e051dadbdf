package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/score"
)

// writeManifest writes a manifest of testdata/site, a six-page site about
// tea, and returns its path.
func writeManifest(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("testdata/site")
	if err != nil {
		t.Fatal(err)
	}
	m := fmt.Sprintf(`{"name": "tea", "version": 1, "sites": [{"name": "tea", "package": "tea-notebook-doc",
		"roots": [{"dir": %q, "base": "https://tea.example/notebook/", "style": "file"}]}]}`, dir)
	path := filepath.Join(t.TempDir(), "tea.json")
	if err := os.WriteFile(path, []byte(m), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runExperiment runs the program with args and returns its stdout.
func runExperiment(t *testing.T, args ...string) string {
	t.Helper()
	cfg, err := parseFlags(args, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), cfg, &stdout, &stderr); err != nil {
		t.Fatalf("run(%q): %v\nstderr:\n%s", args, err, stderr.String())
	}
	return stdout.String()
}

// TestRun runs the experiment on the tea site and checks every output
// against the benchmark's interface (BENCHMARK.md).
func TestRun(t *testing.T) {
	manifest := writeManifest(t)
	db := filepath.Join(t.TempDir(), "tea.db")
	out := filepath.Join(t.TempDir(), "out")
	stdout := runExperiment(t, "-corpus", manifest, "-store", db, "-targets", "2", "-seed", "1", "-out", out)

	// The reproduced Table 4 is printed beside the paper's.
	if !strings.Contains(stdout, score.Caption("1-anchor-10")+", ours / paper") || !strings.Contains(stdout, "/ 55.85 |") {
		t.Errorf("stdout lacks Table 4 beside the paper's:\n%s", stdout)
	}
	for _, name := range []string{
		"summary.json", "tables.md", "comparison.md", "figures/comparison.svg", "figures/comparison.png", "checks.md", "targets.jsonl.gz", "migrations.md", "strata.md", "strata.json",
		"filters.md", "filters.json", "versions.txt",
		"figures/radius.svg", "figures/radius.png", "figures/radius-nonav.svg",
		"figures/depth-anchor.svg", "figures/depth-five.png", "figures/depth-ten.svg", "figures/depth-page.svg",
		"figures/backlinks.svg", "figures/backlinks-nonav.png", "figures/navigation.svg",
	} {
		if fi, err := os.Stat(filepath.Join(out, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v (want a non-empty file)", name, err)
		}
	}

	raw, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The bucket ">1000" is written as it is, not as \u003e1000.
	if !bytes.Contains(raw, []byte(`">1000"`)) {
		t.Errorf("summary.json does not hold \">1000\" literally")
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range top {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if diff := cmp.Diff([]string{"corpus", "pages", "runs", "seconds", "seed", "slowest", "target_seconds", "targets"}, keys); diff != "" {
		t.Errorf("summary.json keys (-want +got):\n%s", diff)
	}
	var sum struct {
		Corpus  string `json:"corpus"`
		Targets int    `json:"targets"`
		Seed    int    `json:"seed"`
		Runs    []struct {
			Method   string             `json:"method"`
			Terms    int                `json:"terms"`
			Targets  int                `json:"targets"`
			MeanNDCG *float64           `json:"mean_ndcg"`
			Buckets  map[string]float64 `json:"buckets"`
			Mode     string             `json:"mode"`
			Archive  bool               `json:"uses_archive"`
		} `json:"runs"`
		Seconds       map[string]float64 `json:"seconds"`
		TargetSeconds map[string]spread  `json:"target_seconds"`
		Slowest       []slowTarget       `json:"slowest"`
	}
	if err := json.Unmarshal(raw, &sum); err != nil {
		t.Fatal(err)
	}
	// The tail: every mode's distribution of target times, and its
	// slowest targets (both of them here), slowest first, with their
	// stages.
	slowest := map[string]int{}
	for i, st := range sum.Slowest {
		slowest[st.Mode]++
		if st.URI == "" || st.Walked == 0 || st.Searches == 0 {
			t.Errorf("slowest %+v: want its URI, pages walked and searches", st)
		}
		if i > 0 && sum.Slowest[i-1].Mode == st.Mode && sum.Slowest[i-1].Seconds < st.Seconds {
			t.Errorf("slowest %d (%v s) after %d (%v s)", i, st.Seconds, i-1, sum.Slowest[i-1].Seconds)
		}
	}
	for _, m := range allModes {
		if slowest[m] != 2 || sum.TargetSeconds[m].Targets != 2 {
			t.Errorf("mode %s: %d slowest targets, distribution %+v; want both targets", m, slowest[m], sum.TargetSeconds[m])
		}
	}
	if sum.Corpus != "tea" || sum.Targets != 2 || sum.Seed != 1 {
		t.Errorf("summary: corpus %q, targets %d, seed %d; want tea, 2, 1", sum.Corpus, sum.Targets, sum.Seed)
	}
	var secs []string
	for k, v := range sum.Seconds {
		secs = append(secs, k)
		if strings.HasSuffix(k, "grid") && v <= 0 {
			t.Errorf("seconds[%s] = %v, want a positive time", k, v)
		}
	}
	slices.Sort(secs)
	wantSecs := []string{"deleted_grid", "edited_grid", "edited_ingest", "grid", "ingest", "migrated_grid", "migrated_ingest", "moved_grid", "moved_ingest"}
	if diff := cmp.Diff(wantSecs, secs); diff != "" {
		t.Errorf("seconds (-want +got):\n%s", diff)
	}
	// In each mode, the paper's 24 methods and their 24 variants without
	// navigation links at 8 sizes each, and the project's strategies.
	perMode := 48*8 + len(relink.Strategies())
	// The four other modes also score the URL rules, alone and after the
	// default method.
	if len(sum.Runs) != 5*perMode+4*2 {
		t.Errorf("%d runs, want %d", len(sum.Runs), 5*perMode+4*2)
	}
	modes := map[string]int{}
	archive := 0
	for _, r := range sum.Runs {
		modes[r.Mode]++
		if r.Archive {
			archive++
		}
	}
	for _, m := range allModes {
		if m == "paper" {
			m = ""
		}
		want := perMode + 2
		if m == "" {
			want = perMode
		}
		if modes[m] != want {
			t.Errorf("runs by mode %v, want %d in the paper's and 2 more in each of the others", modes, perMode)
			break
		}
	}
	if archive != 5*4 {
		t.Errorf("%d runs use an archive, want 20: 4 methods in 5 modes", archive)
	}
	methods := map[string]bool{}
	for _, r := range sum.Runs {
		methods[r.Method] = true
		total := 0.0
		for _, b := range score.BucketNames() {
			v, ok := r.Buckets[b]
			if !ok {
				t.Errorf("run %s/%d: no bucket %q", r.Method, r.Terms, b)
			}
			total += v
		}
		if r.Mode == "deleted" && (r.MeanNDCG == nil || *r.MeanNDCG != 0 || r.Buckets[">1000"] != 100) {
			t.Errorf("deleted run %s/%d: mean nDCG %v, buckets %v; want 0 and every target >1000", r.Method, r.Terms, r.MeanNDCG, r.Buckets)
		}
		if r.Targets != 2 || r.MeanNDCG == nil || *r.MeanNDCG < 0 || *r.MeanNDCG > 1 || total < 99.99 || total > 100.01 {
			t.Errorf("run %+v: want 2 targets, a mean nDCG in [0, 1] and buckets summing to 100", r)
		}
	}
	for _, m := range []string{"1-anchor-10", "2-ten-1000", "1-page-100", "1-anchor-10-nonav", "2-five-1000-nonav"} {
		if !methods[m] {
			t.Errorf("no run of method %s", m)
		}
	}

	// targets.jsonl.gz: one object per target, the paper mode's first.
	f, err := os.Open(filepath.Join(out, "targets.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var lines []targetLine
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l targetLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("targets.jsonl: %v", err)
		}
		lines = append(lines, l)
	}
	if len(lines) != 4 {
		t.Fatalf("targets.jsonl has %d lines, want 4: 2 of the paper's mode, 2 of the migrated", len(lines))
	}
	for i, l := range lines {
		if want := map[bool]string{false: "", true: "migrated"}[i >= 2]; l.Mode != want {
			t.Errorf("line %d: mode %q, want %q", i, l.Mode, want)
		}
		if l.Mode == "" && (l.Moved == nil || l.Edited == nil || l.Deleted == nil) {
			t.Errorf("line %d lacks the moved, edited or deleted outcomes", i)
		}
		if l.Cost.Walked == 0 || (l.Mode == "") != (len(l.Costs) == 3) {
			t.Errorf("line %d: cost %+v, costs of %d modes; want pages walked, and the moved, edited and deleted costs on the paper's lines", i, l.Cost, len(l.Costs))
		}
		m, ok := l.Methods["1-anchor-10"]
		if !strings.HasPrefix(l.URI, "https://tea.example/notebook") || !ok || len(m.Ranks) != 8 || l.Stratum != stratum(l.ContentBacklinks) {
			t.Errorf("target line %+v", l)
		}
	}

	// A second run finds the store built and gives the same results.
	out2 := filepath.Join(t.TempDir(), "out")
	runExperiment(t, "-corpus", manifest, "-store", db, "-targets", "2", "-seed", "1", "-out", out2)
	raw2, err := os.ReadFile(filepath.Join(out2, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum2 struct {
		Runs []score.Run `json:"runs"`
	}
	var sum1 struct {
		Runs []score.Run `json:"runs"`
	}
	if err := json.Unmarshal(raw2, &sum2); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &sum1); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sum1.Runs, sum2.Runs); diff != "" {
		t.Errorf("a second run differs (-first +second):\n%s", diff)
	}
}

// TestDrawTargets checks that the draw depends only on the pages and the
// seed, and keeps to pages with a backlink page (BENCHMARK.md, "What the
// numbers mean").
func TestDrawTargets(t *testing.T) {
	manifest := writeManifest(t)
	m, err := store.ReadManifest(manifest)
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(filepath.Join(t.TempDir(), "tea.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if _, err := s.IngestManifest(ctx, m, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	uris := func(ts []target) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.URI)
		}
		return out
	}
	tests := []struct {
		name       string
		n          int
		seed       uint64
		wantLen    int
		wantUnique bool
	}{
		{"three of five", 3, 1, 3, true},
		{"other seed", 3, 7, 3, true},
		// history.html has no backlink page: five candidates.
		{"more than there are", 10, 1, 5, true},
	}
	for _, tt := range tests {
		a, available, err := drawTargets(ctx, s, tt.n, tt.seed)
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := drawTargets(ctx, s, tt.n, tt.seed)
		if err != nil {
			t.Fatal(err)
		}
		got := uris(a)
		if diff := cmp.Diff(got, uris(b)); diff != "" {
			t.Errorf("%s: two draws differ (-first +second):\n%s", tt.name, diff)
		}
		if len(got) != tt.wantLen || available != 5 || !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
			t.Errorf("%s: drawTargets(%d, %d) = %v of %d available; want %d sorted distinct URIs of 5", tt.name, tt.n, tt.seed, got, available, tt.wantLen)
		}
		if slices.Contains(got, "https://tea.example/notebook/history.html") {
			t.Errorf("%s: drew history.html, which no page links to", tt.name)
		}
	}
}

func TestStratum(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{0, "0"}, {1, "1-2"}, {2, "1-2"}, {3, "3-9"}, {9, "3-9"}, {10, "10+"}, {500, "10+"},
	}
	for _, tt := range tests {
		if got := stratum(tt.n); got != tt.want {
			t.Errorf("stratum(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestParseFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		ok   bool
	}{
		{"defaults", nil, true},
		{"benchmark's command", []string{"-corpus", "c.json", "-store", "s.db", "-targets", "300", "-seed", "1", "-out", "r"}, true},
		{"no targets", []string{"-targets", "0"}, false},
		{"empty store", []string{"-store", ""}, false},
		{"bad nav", []string{"-nav", "sometimes"}, false},
		{"argument", []string{"extra"}, false},
		{"negative workers", []string{"-workers", "-1"}, false},
	}
	for _, tt := range tests {
		_, err := parseFlags(tt.args, &bytes.Buffer{})
		if (err == nil) != tt.ok {
			t.Errorf("%s: parseFlags(%q) error %v, want ok %v", tt.name, tt.args, err, tt.ok)
		}
	}
}

// TestRunStaleStore: a store whose links were classified under other link
// rules is refused, with what to do, rather than evaluated with stale
// navigation marks.
func TestRunStaleStore(t *testing.T) {
	ctx := context.Background()
	manifestPath := writeManifest(t)
	db := filepath.Join(t.TempDir(), "tea.db")
	m, err := store.ReadManifest(manifestPath)
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.IngestManifest(ctx, m, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Make it a store from before the rules were recorded.
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`DELETE FROM meta WHERE key = 'link_rules'`); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	cfg, err := parseFlags([]string{"-corpus", manifestPath, "-store", db, "-targets", "2", "-out", t.TempDir()}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	err = run(ctx, cfg, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "link rules 1") || !errors.Is(err, store.ErrRules) || !strings.Contains(err.Error(), "build it again") {
		t.Errorf("run on a stale store = %v, want an error naming its link rules and what to do", err)
	}
}

// TestRunCreatesNoStore: without a corpus to build it from, the experiment
// only reads its store: a missing store is an error and no file appears
// (issue 12: read-only commands never create or change stores).
func TestRunCreatesNoStore(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "relink.db")
	cfg, err := parseFlags([]string{"-store", db, "-out", filepath.Join(dir, "out")}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	err = run(context.Background(), cfg, io.Discard, io.Discard)
	if !errors.Is(err, store.ErrNoStore) || !strings.Contains(err.Error(), "-corpus") {
		t.Errorf("run without a store = %v, want store.ErrNoStore saying to give -corpus", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		t.Errorf("run without a store left %s", e.Name())
	}
}
