package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/lab/eval"
)

// writeResults writes an experiment's output for corpus into a new
// directory: per site, targets whose default method's first candidate
// names the page by its title (right in the moved mode) or not (wrong; a
// deleted page's first candidate never does).
func writeResults(t *testing.T, corpus string, sites int) string {
	t.Helper()
	dir := t.TempDir()
	sum, _ := json.Marshal(map[string]any{"corpus": corpus, "seed": 1})
	if err := os.WriteFile(filepath.Join(dir, "summary.json"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	enc := json.NewEncoder(zw)
	def := relink.Default().Name()
	for s := range sites {
		for i := range 40 {
			titled := i%4 != 0
			sig := map[string]float64{relink.SignalSameHost: 1}
			if titled {
				sig[relink.SignalPhraseInTitle] = 1
			}
			report := func(rank int, sig map[string]float64) map[string]eval.MethodReport {
				return map[string]eval.MethodReport{def: {Ranks: []int{rank}, Confidences: []float64{0}, First: "https://x.example/new", Signals: sig}}
			}
			sibling := map[string]float64{relink.SignalSameHost: 1}
			rank := 0
			if titled {
				rank = 1
			}
			line := map[string]any{"uri": fmt.Sprintf("https://x.example/%d/%d", s, i), "site": fmt.Sprint("site", s),
				"methods": report(1, sig), "moved": report(rank, sig), "deleted": report(0, sibling)}
			if err := enc.Encode(line); err != nil {
				t.Fatal(err)
			}
		}
	}
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, "targets.jsonl.gz"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestFit: the records of the default method in the moved and deleted
// modes make a model with its provenance, whose threshold answers the
// titled moved pages and no deleted one, and a README with the figures.
func TestFit(t *testing.T) {
	a, b := writeResults(t, "one", 3), writeResults(t, "two", 2)
	out := t.TempDir()
	model := filepath.Join(out, "judge.json")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"-methods", relink.Default().Name(), "-model", model, "-out", out, a, b}, &stdout, &stderr); err != nil {
		t.Fatalf("%v (stderr %s)", err, stderr.String())
	}
	data, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	m, err := relink.ParseModel(data)
	if err != nil {
		t.Fatal(err)
	}
	p := m.Provenance
	if p.Records != 5*40*2 || p.Sites != 5 || strings.Join(p.Corpora, ",") != "one,two" || p.Figures["loso.moved.answered"] != 0.75 || p.Figures["loso.deleted.answered"] != 0 {
		t.Errorf("provenance %+v", p)
	}
	if c := m.Confidence(map[string]float64{relink.SignalSameHost: 1, relink.SignalPhraseInTitle: 1}); c < m.Threshold {
		t.Errorf("a titled answer: %v, below the threshold %v", c, m.Threshold)
	}
	readme, err := os.ReadFile(filepath.Join(out, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## moved-link+rerank, per site, never seen", "| one/site0 |", "## Reliability"} {
		if !bytes.Contains(readme, []byte(want)) {
			t.Errorf("README.md lacks %q", want)
		}
	}
	if _, err := parse([]string{}, &stderr); err == nil {
		t.Error("no RESULTS directory: no error")
	}
}
