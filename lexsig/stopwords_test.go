package lexsig

import (
	"slices"
	"testing"

	"github.com/linkrot/relink/internal/words"
)

// TestIsStopWord checks the stop-word list the paper applies before TF-IDF
// (§2.1 "TFIDF").
func TestIsStopWord(t *testing.T) {
	tests := []struct {
		name string
		term string
		want bool
	}{
		{"article", "the", true},
		{"pronoun", "themselves", true},
		{"auxiliary", "would", true},
		{"preposition", "between", true},
		{"conjunction", "although", true},
		{"adverb", "however", true},
		{"single letter", "q", true},
		{"contraction fragment ll", "ll", true},
		{"contraction fragment ve", "ve", true},
		{"contraction stem", "doesn", true},
		{"uppercase is not looked up", "The", false},
		{"content word", "smithsonian", false},
		{"common content word", "time", false},
		{"number", "1", false},
		{"empty", "", false},
		{"verb also a contraction stem", "won", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := IsStopWord(tc.term); got != tc.want {
				t.Errorf("IsStopWord(%q) = %v, want %v", tc.term, got, tc.want)
			}
		})
	}
}

// TestStopWordsList checks the list's shape: sorted, no duplicates, the
// documented size, every entry a lowercase single word by the word rule, and
// every single letter in it.
func TestStopWordsList(t *testing.T) {
	list := StopWords()
	if n := len(list); n < 150 || n > 250 {
		t.Errorf("len(StopWords()) = %d, want 150..250", n)
	}
	if !slices.IsSorted(list) {
		t.Error("StopWords() is not sorted")
	}
	if n := len(slices.Compact(slices.Clone(list))); n != len(list) {
		t.Errorf("StopWords() has %d duplicates", len(list)-n)
	}
	for _, w := range list {
		if ws := words.Split(w); len(ws) != 1 || ws[0] != w || Normalize(w) != w {
			t.Errorf("stop word %q is not one lowercase word", w)
		}
		if !IsStopWord(w) {
			t.Errorf("IsStopWord(%q) = false for a listed word", w)
		}
	}
	for c := 'a'; c <= 'z'; c++ {
		if !IsStopWord(string(c)) {
			t.Errorf("IsStopWord(%q) = false, want true for a single letter", string(c))
		}
	}
}

// TestStopWordsCopy checks that changing the returned slice does not change
// the list.
func TestStopWordsCopy(t *testing.T) {
	list := StopWords()
	first := list[0]
	list[0] = "zzzz-not-a-word"
	if got := StopWords()[0]; got != first {
		t.Errorf("StopWords()[0] = %q after the caller changed its copy, want %q", got, first)
	}
}
