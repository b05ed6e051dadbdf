package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/score"
)

// writeRun writes a run directory: a summary with the paper's method at 4
// terms and a default method, and, when ranks is not nil, targets.jsonl
// with each target's ranks (paper's method at sizes 1-4, rerank), gzipped
// as the experiment writes it for any corpus but dev.
func writeRun(t *testing.T, corpus string, pages int, paper, rerank float64, ranks map[string][2]int) string {
	t.Helper()
	dir := t.TempDir()
	sum := map[string]any{
		"corpus": corpus, "targets": 2, "seed": 1, "pages": pages,
		"runs": []score.Run{
			{Method: "1-anchor-10", Terms: 3, Targets: 2, MeanNDCG: 0.1},
			{Method: "1-anchor-10", Terms: 4, Targets: 2, MeanNDCG: paper, SuccessAt1: paper / 2},
			{Method: "rerank", Terms: 4, Targets: 2, MeanNDCG: rerank, SuccessAt1: rerank, Default: true},
			{Method: "rerank", Terms: 4, Targets: 2, MeanNDCG: 0.2, Mode: "moved", Default: true},
		},
	}
	raw, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "summary.json"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if ranks != nil {
		var b bytes.Buffer
		for uri, r := range ranks {
			line := map[string]any{"uri": uri, "sizes": []int{1, 2, 3, 4}, "methods": map[string]any{
				"1-anchor-10": map[string]any{"ranks": []int{9, 9, 9, r[0]}},
				"rerank":      map[string]any{"ranks": []int{r[1]}},
			}}
			raw, err := json.Marshal(line)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(append(raw, '\n'))
		}
		name, data := "targets.jsonl", b.Bytes()
		if corpus != "dev" {
			// As the experiment writes it.
			var z bytes.Buffer
			zw := gzip.NewWriter(&z)
			if _, err := zw.Write(data); err != nil {
				t.Fatal(err)
			}
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
			name, data = "targets.jsonl.gz", z.Bytes()
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestRun(t *testing.T) {
	small := writeRun(t, "dev", 4532, 0.8, 0.95, map[string][2]int{"https://a.example/": {1, 1}, "https://b.example/": {2, 1}})
	large := writeRun(t, "large.db", 53936, 0.7, 0.9, map[string][2]int{"https://a.example/": {3, 1}, "https://b.example/": {1, 0}})
	out := t.TempDir()
	var stdout bytes.Buffer
	if err := run([]string{"-out", out, small, "large=" + large}, &stdout, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	want := `| index | pages | targets | 1-anchor-10, 4 terms: mean nDCG | rank 1 | rerank, 4 terms: mean nDCG | rank 1 |
|---|---|---|---|---|---|---|
| dev | 4532 | 2 | 0.800 | 40.0% | 0.950 | 95.0% |
| large | 53936 | 2 | 0.700 | 35.0% | 0.900 | 90.0% |

Targets ranked lower (higher) than in dev:

| index | 1-anchor-10, 4 terms | rerank, 4 terms |
|---|---|---|
| large | 1 (1) | 1 (0) |
`
	if diff := cmp.Diff(want, stdout.String()); diff != "" {
		t.Errorf("table (-want +got):\n%s", diff)
	}
	md, err := os.ReadFile(filepath.Join(out, "bysize.md"))
	if err != nil || string(md) != stdout.String() {
		t.Errorf("bysize.md = %q, %v; want the table printed", md, err)
	}
	for _, name := range []string{"bysize.json", "bysize.svg", "bysize.png"} {
		if fi, err := os.Stat(filepath.Join(out, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v (want a non-empty file)", name, err)
		}
	}
	var got []Index
	raw, err := os.ReadFile(filepath.Join(out, "bysize.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].Pages != 53936 || got[0].Methods[1].Method != "rerank" || got[0].Methods[0].Lower != nil {
		t.Errorf("bysize.json = %+v", got)
	}
}

// TestRunWithoutTargets: runs whose targets.jsonl was left out give the
// table of means alone.
func TestRunWithoutTargets(t *testing.T) {
	a := writeRun(t, "dev", 4532, 0.8, 0.95, nil)
	b := writeRun(t, "mid", 20070, 0.75, 0.93, nil)
	var stdout bytes.Buffer
	if err := run([]string{"-out", t.TempDir(), "-method", "1-anchor-10:3", a, b}, &stdout, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if s := stdout.String(); !strings.Contains(s, "| mid | 20070 | 2 | 0.100 | 0.0% |") || strings.Contains(s, "ranked lower") {
		t.Errorf("table:\n%s", s)
	}
}

func TestRunErrors(t *testing.T) {
	dir := writeRun(t, "dev", 4532, 0.8, 0.95, nil)
	tests := []struct {
		name string
		args []string
	}{
		{"no run", nil},
		{"bad method", []string{"-method", "1-anchor-10", dir}},
		{"unknown method", []string{"-method", "1-anchor-10:9", dir}},
		{"no summary", []string{t.TempDir()}},
	}
	for _, tt := range tests {
		if err := run(append([]string{"-out", t.TempDir()}, tt.args...), &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
			t.Errorf("%s: run(%q) = nil, want an error", tt.name, tt.args)
		}
	}
}
