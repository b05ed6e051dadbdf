package filter

import (
	"math"
	"strings"
	"testing"
)

// TestJaccard checks Equation "jaccard" of §3.1 "Soft 404s": unique shared
// words over unique words in either page.
func TestJaccard(t *testing.T) {
	tests := []struct {
		name string
		a, b []string
		want float64
	}{
		{"both empty", nil, nil, 1},
		{"both empty, non-nil", []string{}, []string{}, 1},
		{"one empty", []string{"a"}, nil, 0},
		{"other empty", nil, []string{"a", "b"}, 0},
		{"identical", []string{"a", "b", "c"}, []string{"a", "b", "c"}, 1},
		{"same set, other order and repeats", []string{"a", "b", "a", "c"}, []string{"c", "c", "b", "a"}, 1},
		{"disjoint", []string{"a", "b"}, []string{"c", "d"}, 0},
		{"half", []string{"a", "b"}, []string{"b", "c", "a", "d"}, 0.5},
		{"one of three", []string{"a", "b"}, []string{"b", "c"}, 1.0 / 3},
		{"repeats count once", []string{"a", "a", "a", "b"}, []string{"a"}, 0.5},
		{"repeats in the larger input", []string{"x"}, []string{"y", "y", "y", "x"}, 0.5},
		{"case matters", []string{"Page"}, []string{"page"}, 0},
		{"empty string is a word", []string{""}, []string{"", "a"}, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Jaccard(tt.a, tt.b); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Jaccard(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
			if got := Jaccard(tt.b, tt.a); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Jaccard(%q, %q) = %v, want %v", tt.b, tt.a, got, tt.want)
			}
		})
	}
}

// FuzzJaccard checks that Jaccard is symmetric, in [0, 1], 1 for identical
// sets and 0 for disjoint ones, whatever the words.
func FuzzJaccard(f *testing.F) {
	f.Add("a b c", "b c d")
	f.Add("", "")
	f.Add("x x x", "x")
	f.Add("page not found", "the page was not found")
	f.Fuzz(func(t *testing.T, s1, s2 string) {
		a, b := strings.Fields(s1), strings.Fields(s2)
		j := Jaccard(a, b)
		if j < 0 || j > 1 || math.IsNaN(j) {
			t.Fatalf("Jaccard(%q, %q) = %v, want a value in [0, 1]", a, b, j)
		}
		if k := Jaccard(b, a); k != j {
			t.Fatalf("Jaccard(%q, %q) = %v but Jaccard(%q, %q) = %v", a, b, j, b, a, k)
		}
		if got := Jaccard(a, append(a[:len(a):len(a)], a...)); got != 1 {
			t.Fatalf("Jaccard(%q, %q twice) = %v, want 1", a, a, got)
		}
		var marked []string
		for _, w := range b {
			marked = append(marked, " "+w) // Fields never yields a space
		}
		if got := Jaccard(a, marked); len(a)+len(marked) > 0 && got != 0 {
			t.Fatalf("Jaccard(%q, %q) = %v, want 0 for disjoint sets", a, marked, got)
		}
	})
}
