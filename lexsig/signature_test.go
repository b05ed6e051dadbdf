package lexsig

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func sig(texts ...string) Signature {
	s := make(Signature, len(texts))
	for i, t := range texts {
		s[i] = Term{Text: t, TF: 1, DF: 1, Weight: float64(len(texts) - i)}
	}
	return s
}

// TestSignatureTop checks cutting a ranking to the sizes the paper queried
// with (§3.2 "Lexical Signature Size": 1-7 and 10 terms).
func TestSignatureTop(t *testing.T) {
	ten := sig("a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10")
	tests := []struct {
		name string
		s    Signature
		k    int
		want []string
	}{
		{"paper's best size", ten, 4, []string{"a1", "a2", "a3", "a4"}},
		{"one", ten, 1, []string{"a1"}},
		{"exactly all", ten, 10, ten.Terms()},
		{"more than all", ten[:3], 10, []string{"a1", "a2", "a3"}},
		{"zero", ten, 0, []string{}},
		{"negative", ten, -1, []string{}},
		{"nil signature", nil, 4, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.s.Top(tc.k).Terms()
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Top(%d) mismatch (-want +got):\n%s", tc.k, diff)
			}
		})
	}
}

// TestSignatureTopAppend checks that appending to a cut signature leaves
// the original alone.
func TestSignatureTopAppend(t *testing.T) {
	s := sig("a", "b", "c")
	top := s.Top(2)
	_ = append(top, Term{Text: "x"})
	if s[2].Text != "c" {
		t.Errorf("after append to Top(2), s[2] = %q, want %q", s[2].Text, "c")
	}
}

// TestSignatureHeld: terms no document holds are left out, in order, and
// the original is left alone.
func TestSignatureHeld(t *testing.T) {
	s := sig("linkonly", "sourdough", "nowhere", "starter")
	s[0].DF, s[2].DF = 0, 0
	if diff := cmp.Diff([]string{"sourdough", "starter"}, s.Held().Terms()); diff != "" {
		t.Errorf("Held (-want +got):\n%s", diff)
	}
	if s[0].Text != "linkonly" || len(s) != 4 {
		t.Errorf("Held changed its signature: %v", s.Terms())
	}
	if got := Signature(nil).Held(); len(got) != 0 {
		t.Errorf("nil.Held() = %v, want empty", got)
	}
}

func TestSignatureQueryAndString(t *testing.T) {
	s := sig("behring", "smithsonian", "americans")
	tests := []struct {
		name      string
		mode      Mode
		wantQuery string
	}{
		{"conjunctive", Conjunctive, "behring smithsonian americans"},
		{"disjunctive", Disjunctive, "behring OR smithsonian OR americans"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := s.Query(tc.mode)
			if got := q.String(); got != tc.wantQuery {
				t.Errorf("Query(%v).String() = %q, want %q", tc.mode, got, tc.wantQuery)
			}
			if q.Mode != tc.mode || q.Phrase {
				t.Errorf("Query(%v) = %+v, want mode %v and no phrase", tc.mode, q, tc.mode)
			}
		})
	}
	if got, want := s.String(), "behring smithsonian americans"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	q := s.Query(Conjunctive)
	q.Terms[0] = "changed"
	if s[0].Text != "behring" {
		t.Error("changing a query's terms changed the signature")
	}
}

// TestCompute checks the whole signature step on the worked example of
// TestRankWorkedExample.
func TestCompute(t *testing.T) {
	_, df := smithsonian()
	words := Tokenize(`On Time: how Americans keep time.
		Americans and their time, at the Smithsonian.
		The Behring Center exhibition.`)
	tests := []struct {
		name string
		k    int
		want []string
	}{
		{"three", 3, []string{"behring", "smithsonian", "americans"}},
		{"four", 4, []string{"behring", "smithsonian", "americans", "exhibition"}},
		{"all", 100, []string{"behring", "smithsonian", "americans", "exhibition", "center", "time", "keep"}},
		{"none", 0, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Compute(t.Context(), words, df, tc.k)
			if err != nil {
				t.Fatalf("Compute(k=%d): %v", tc.k, err)
			}
			if diff := cmp.Diff(tc.want, got.Terms()); diff != "" {
				t.Errorf("Compute(k=%d) mismatch (-want +got):\n%s", tc.k, diff)
			}
		})
	}
	empty := NewMemDF()
	if _, err := Compute(t.Context(), words, empty, 3); !errors.Is(err, ErrNoDocs) {
		t.Errorf("Compute with |D| = 0: error %v, want ErrNoDocs", err)
	}
}
