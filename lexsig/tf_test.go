package lexsig

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCount checks term frequencies, the paper's Equation 1 (TF_{i,j} =
// n_{i,j}, §2.1 "TFIDF"), after stop words are discarded.
func TestCount(t *testing.T) {
	tests := []struct {
		name  string
		words []string
		want  map[string]int
	}{
		{"nil", nil, map[string]int{}},
		{"only stop words", []string{"the", "of", "and", "s"}, map[string]int{}},
		{"counts repeats", []string{"time", "americans", "time"}, map[string]int{"time": 2, "americans": 1}},
		{"lowercases", []string{"Time", "TIME", "time"}, map[string]int{"time": 3}},
		{"drops uppercase stop words", []string{"The", "Smithsonian"}, map[string]int{"smithsonian": 1}},
		{"drops empty", []string{"", "x1", ""}, map[string]int{"x1": 1}},
		{"keeps numbers", []string{"2010", "2010"}, map[string]int{"2010": 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Count(tc.words)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Count(%q) mismatch (-want +got):\n%s", tc.words, diff)
			}
		})
	}
}

// TestCountInto checks that TF accumulates over the pages of a backlink
// neighborhood (Equation 1: occurrences "in the backlinks of j").
func TestCountInto(t *testing.T) {
	pages := [][]string{
		Tokenize("Time and the Americans"),
		Tokenize("Smithsonian: time"),
		Tokenize("Behring Center, Smithsonian"),
	}
	tf := map[string]int{"time": 1}
	for _, p := range pages {
		CountInto(tf, p)
	}
	want := map[string]int{"time": 3, "americans": 1, "smithsonian": 2, "behring": 1, "center": 1}
	if diff := cmp.Diff(want, tf); diff != "" {
		t.Errorf("CountInto over pages mismatch (-want +got):\n%s", diff)
	}
}
