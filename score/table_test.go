package score

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites the file with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

// sampleTable is a small evaluation: five targets of method 1-anchor-10 at
// three signature sizes, and one other method.
func sampleTable() *Table {
	var t Table
	for terms, ranks := range map[int][]int{
		3: {1, 1, 2, 0, 1},
		1: {1, 15, 150, 0, 0},
		4: {1, 1, 1, 9, 1200},
	} {
		for _, r := range ranks {
			t.Add("1-anchor-10", terms, r)
		}
	}
	t.Add("1-page-10", 4, 0)
	t.Describe("1-page-10", MethodInfo{Mode: "moved", UsesArchive: true})
	return &t
}

// TestTableRuns checks the summary of each column (§4.5 "Measures of
// Success"), hand-computed from sampleTable's ranks.
func TestTableRuns(t *testing.T) {
	b := func(first, page1, top100, top1000, none float64) map[string]float64 {
		return map[string]float64{"1": first, "2-10": page1, "11-100": top100, "101-1000": top1000, ">1000": none}
	}
	want := []Run{
		{
			Method: "1-anchor-10", Terms: 1, Targets: 5,
			// (1 + 1/log2(16) + 1/log2(151)) / 5 = (1 + 0.25 + 0.1381) / 5
			MeanNDCG: 0.27762, Buckets: b(20, 0, 20, 20, 40),
			MRR: (1 + 1.0/15 + 1.0/150) / 5, SuccessAt1: 0.2, SuccessAt10: 0.2,
		},
		{
			Method: "1-anchor-10", Terms: 3, Targets: 5,
			MeanNDCG: (3 + 0.63093) / 5, Buckets: b(60, 20, 0, 0, 20),
			MRR: 3.5 / 5, SuccessAt1: 0.6, SuccessAt10: 0.8,
		},
		{
			Method: "1-anchor-10", Terms: 4, Targets: 5,
			MeanNDCG: (3 + 0.30103) / 5, Buckets: b(60, 20, 0, 0, 20),
			MRR: (3 + 1.0/9) / 5, SuccessAt1: 0.6, SuccessAt10: 0.8,
		},
		{
			Method: "1-page-10", Terms: 4, Targets: 1, Buckets: b(0, 0, 0, 0, 100),
			Mode: "moved", UsesArchive: true,
		},
	}
	got := sampleTable().Runs()
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-4)); diff != "" {
		t.Errorf("Runs() mismatch (-want +got):\n%s", diff)
	}
}

func TestTableAccessors(t *testing.T) {
	tab := sampleTable()
	if diff := cmp.Diff([]string{"1-anchor-10", "1-page-10"}, tab.Methods()); diff != "" {
		t.Errorf("Methods() mismatch (-want +got):\n%s", diff)
	}
	ranks := tab.Ranks("1-anchor-10", 4)
	if diff := cmp.Diff([]int{1, 1, 1, 9, 1200}, ranks); diff != "" {
		t.Errorf("Ranks(1-anchor-10, 4) mismatch (-want +got):\n%s", diff)
	}
	ranks[0] = 99
	if got := tab.Ranks("1-anchor-10", 4)[0]; got != 1 {
		t.Errorf("Ranks()[0] = %d after the caller changed its copy, want 1", got)
	}
	if got := tab.Ranks("1-anchor-10", 7); got != nil {
		t.Errorf("Ranks(1-anchor-10, 7) = %v, want nil", got)
	}
	var empty Table
	if got := empty.Runs(); len(got) != 0 {
		t.Errorf("zero Table Runs() = %v, want none", got)
	}
	if got := empty.Methods(); len(got) != 0 {
		t.Errorf("zero Table Methods() = %v, want none", got)
	}
	if got := empty.Markdown("1-anchor-10"); got != "" {
		t.Errorf("zero Table Markdown() = %q, want empty", got)
	}
}

// TestTableConcurrent checks that workers can add to one Table at once (run
// with -race).
func TestTableConcurrent(t *testing.T) {
	tab := NewTable()
	var wg sync.WaitGroup
	for g := range 32 {
		wg.Go(func() {
			for i := range 100 {
				tab.Add("1-anchor-10", 1+g%4, i%3)
				if i%10 == 0 {
					tab.Runs()
					tab.Describe("1-anchor-10", MethodInfo{})
				}
			}
		})
	}
	wg.Wait()
	total := 0
	for _, r := range tab.Runs() {
		total += r.Targets
		if r.Targets != 800 {
			t.Errorf("run %d terms: %d targets, want 800", r.Terms, r.Targets)
		}
	}
	if total != 3200 {
		t.Errorf("total targets = %d, want 3200", total)
	}
}

// TestRunJSON checks the field names fixed by the benchmark's summary.json.
func TestRunJSON(t *testing.T) {
	data, err := json.Marshal(NewRun("1-anchor-10", 4, []int{1, 0}))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"method": "1-anchor-10", "terms": 4.0, "targets": 2.0, "mean_ndcg": 0.5,
		"buckets":      map[string]any{"1": 50.0, "2-10": 0.0, "11-100": 0.0, "101-1000": 0.0, ">1000": 50.0},
		"mrr":          0.5,
		"success_at_1": 0.5, "success_at_10": 0.5,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("json.Marshal(Run) mismatch (-want +got):\n%s\n%s", diff, data)
	}
	data, err = json.Marshal(Run{Mode: "moved", UsesArchive: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got["mode"] != "moved" || got["uses_archive"] != true {
		t.Errorf("json.Marshal(Run with mode) = %s, want mode and uses_archive", data)
	}
}

// TestMarkdownGolden pins the layout of the paper's Tables 3 and 4 (§4.5
// "Measures of Success"). Refresh with go test -run Golden -update.
func TestMarkdownGolden(t *testing.T) {
	ours := sampleTable()
	tests := []struct {
		name, file, got string
	}{
		{"paper table 3", "paper_table3.md", MarkdownRuns(PaperTable3(), "1-anchor-1000")},
		{"paper table 4", "paper_table4.md", MarkdownRuns(PaperTable4(), "1-anchor-10")},
		{"our table", "table.md", ours.Markdown("1-anchor-10")},
		{"ours against the paper", "compare.md", CompareMarkdown(ours.Runs(), PaperTable4(), "1-anchor-10")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			golden(t, tc.file, tc.got)
		})
	}
}

func TestMarkdownEdgeCases(t *testing.T) {
	runs := []Run{
		{Method: "m", Terms: 2, Targets: 1, MeanNDCG: 0.5, Buckets: map[string]float64{"1": 100}},
		{Method: "m", Terms: 2, Targets: 9, MeanNDCG: 0.9}, // a duplicate size: ignored
		{Method: "other", Terms: 1},
	}
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"unknown method", MarkdownRuns(runs, "nope"), ""},
		{"nil runs", MarkdownRuns(nil, "m"), ""},
		{"compare with nothing", CompareMarkdown(nil, nil, "m"), ""},
		{
			"first run of a size wins, missing buckets are zero",
			MarkdownRuns(runs, "m"),
			"Result Rank and nDCG vs Lexical Signature Size (m)\n\n" +
				"| Result rank | 2 |\n" +
				"| :-- | --: |\n" +
				"| 1 | 100.00 |\n" +
				"| 2-10 | 0.00 |\n" +
				"| 11-100 | 0.00 |\n" +
				"| 101-1000 | 0.00 |\n" +
				"| >1000 | 0.00 |\n" +
				"| Mean nDCG | 0.50 |\n",
		},
		{
			"compare with one side missing",
			CompareMarkdown(runs, []Run{{Method: "m", Terms: 1, MeanNDCG: 0.25}}, "m"),
			"Result Rank and nDCG vs Lexical Signature Size (m), ours / paper\n\n" +
				"| Result rank | 1 | 2 |\n" +
				"| :-- | --: | --: |\n" +
				"| 1 | n/a / 0.00 | 100.00 / n/a |\n" +
				"| 2-10 | n/a / 0.00 | 0.00 / n/a |\n" +
				"| 11-100 | n/a / 0.00 | 0.00 / n/a |\n" +
				"| 101-1000 | n/a / 0.00 | 0.00 / n/a |\n" +
				"| >1000 | n/a / 0.00 | 0.00 / n/a |\n" +
				"| Mean nDCG | n/a / 0.25 | 0.50 / n/a |\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.got); diff != "" {
				t.Errorf("Markdown mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTableAnswer: the answer fractions are over every target of a run, and
// a run without recorded answers has none.
func TestTableAnswer(t *testing.T) {
	tb := NewTable()
	for _, tc := range []struct {
		rank              int
		answered, correct bool
	}{{1, true, true}, {2, true, false}, {1, false, false}, {0, false, false}} {
		tb.Add("rerank", 4, tc.rank)
		tb.AddAnswer("rerank", 4, tc.answered, tc.correct)
	}
	tb.Add("phrase", 0, 1)
	tb.Describe("rerank", MethodInfo{Threshold: 0.5, Default: true})
	runs := tb.Runs()
	if len(runs) != 2 || runs[0].Method != "phrase" || runs[0].Answer != nil {
		t.Fatalf("runs = %+v, want phrase without an answer first", runs)
	}
	want := &Answer{Threshold: 0.5, Answered: 0.5, Correct: 0.25}
	if diff := cmp.Diff(want, runs[1].Answer); diff != "" || !runs[1].Default {
		t.Errorf("rerank answer (-want +got):\n%s; default %t", diff, runs[1].Default)
	}
}
