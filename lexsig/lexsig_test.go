package lexsig

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestQueryString checks how a signature is typed into a search box; the
// paper sent signatures to Yahoo! as plain queries (§3.2 "Lexical Signature
// Calculation").
func TestQueryString(t *testing.T) {
	tests := []struct {
		name string
		q    Query
		want string
	}{
		{"conjunctive", Query{Terms: []string{"behring", "smithsonian"}}, "behring smithsonian"},
		{"conjunctive one term", Query{Terms: []string{"behring"}}, "behring"},
		{"disjunctive", Query{Terms: []string{"a1", "b2", "c3"}, Mode: Disjunctive}, "a1 OR b2 OR c3"},
		{"phrase", Query{Terms: []string{"time", "americans"}, Phrase: true}, `"time americans"`},
		{"phrase ignores mode", Query{Terms: []string{"x1", "y2"}, Mode: Disjunctive, Phrase: true}, `"x1 y2"`},
		{"empty", Query{}, ""},
		{"empty disjunctive", Query{Mode: Disjunctive}, ""},
		{"empty phrase", Query{Terms: []string{}, Phrase: true}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.q.String(); got != tc.want {
				t.Errorf("%+v.String() = %q, want %q", tc.q, got, tc.want)
			}
		})
	}
}

func TestModeString(t *testing.T) {
	tests := []struct {
		name string
		mode Mode
		want string
	}{
		{"zero value", Mode(0), "and"},
		{"conjunctive", Conjunctive, "and"},
		{"disjunctive", Disjunctive, "or"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.mode.String(); got != tc.want {
				t.Errorf("Mode(%d).String() = %q, want %q", int(tc.mode), got, tc.want)
			}
		})
	}
}

func TestNewQuery(t *testing.T) {
	terms := []string{"alpha", "beta"}
	q := NewQuery(terms, Disjunctive)
	want := Query{Terms: []string{"alpha", "beta"}, Mode: Disjunctive}
	if diff := cmp.Diff(want, q); diff != "" {
		t.Errorf("NewQuery mismatch (-want +got):\n%s", diff)
	}
	terms[0] = "changed"
	if q.Terms[0] != "alpha" {
		t.Errorf("NewQuery did not copy its terms: Terms[0] = %q after the caller changed them", q.Terms[0])
	}
}
