package score

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestMeasures checks the summary measures on hand-computed cases. Mean
// nDCG is the paper's (§3.3 "Scoring of Results", last row of Tables 3 and
// 4); MRR and success@k are ours (§4.5 "Measures of Success" reports
// success at 1 and 10 as the first rows).
func TestMeasures(t *testing.T) {
	tests := []struct {
		name      string
		ranks     []int
		meanDCG   float64
		mrr       float64
		success1  float64
		success10 float64
	}{
		{"empty", nil, 0, 0, 0, 0},
		{"all first", []int{1, 1, 1}, 1, 1, 1, 1},
		{"none found", []int{0, 0, 1001, -2}, 0, 0, 0, 0},
		// DCG*: (1 + 0.5 + 0) / 4; RR: (1 + 1/3 + 0 + 0) / 4.
		{"mixed", []int{1, 3, 0, 5000}, 0.375, 1.3333 / 4, 0.25, 0.5},
		// DCG*(10) = 0.2891, DCG*(11) = 0.2789; RR 0.1 and 1/11.
		{"page boundary", []int{10, 11}, (0.2891 + 0.2789) / 2, (0.1 + 1.0/11) / 2, 0, 0.5},
		{"deepest counted", []int{1000}, 0.1003, 0.001, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			check := func(name string, got, want float64) {
				t.Helper()
				if math.Abs(got-want) > 1e-4 {
					t.Errorf("%s(%v) = %.4f, want %.4f", name, tc.ranks, got, want)
				}
			}
			check("MeanDCG", MeanDCG(tc.ranks), tc.meanDCG)
			check("MRR", MRR(tc.ranks), tc.mrr)
			check("SuccessAt1", SuccessAt(tc.ranks, 1), tc.success1)
			check("SuccessAt10", SuccessAt(tc.ranks, 10), tc.success10)
		})
	}
}

func TestSuccessAtK(t *testing.T) {
	ranks := []int{1, 2, 50, 500, 1000, 0}
	tests := []struct {
		name string
		k    int
		want float64
	}{
		{"zero k", 0, 0},
		{"negative k", -5, 0},
		{"k 1", 1, 1.0 / 6},
		{"k 100", 100, 3.0 / 6},
		{"k MaxRank", MaxRank, 5.0 / 6},
		{"k beyond MaxRank counts as MaxRank", 1 << 40, 5.0 / 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := SuccessAt(ranks, tc.k); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("SuccessAt(%v, %d) = %v, want %v", ranks, tc.k, got, tc.want)
			}
		})
	}
}

// TestShares checks the percentages of the rows of Tables 3 and 4.
func TestShares(t *testing.T) {
	tests := []struct {
		name  string
		ranks []int
		want  map[string]float64
	}{
		{"empty", nil, map[string]float64{"1": 0, "2-10": 0, "11-100": 0, "101-1000": 0, ">1000": 0}},
		{"one each", []int{1, 5, 50, 500, 0}, map[string]float64{"1": 20, "2-10": 20, "11-100": 20, "101-1000": 20, ">1000": 20}},
		{"quarters", []int{1, 1, 1, 2000}, map[string]float64{"1": 75, "2-10": 0, "11-100": 0, "101-1000": 0, ">1000": 25}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Shares(tc.ranks)
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
				t.Errorf("Shares(%v) mismatch (-want +got):\n%s", tc.ranks, diff)
			}
		})
	}
}
