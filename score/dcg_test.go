package score

import (
	"math"
	"testing"
)

// TestDCG checks Equation DCG*, 1/log2(1+i), and the cut at the first 1000
// results (§3.3 "Scoring of Results"). Expected values computed by hand.
func TestDCG(t *testing.T) {
	tests := []struct {
		name string
		rank int
		want float64
	}{
		{"first", 1, 1},
		{"second", 2, 0.6309},
		{"third", 3, 0.5},
		{"seventh", 7, 1.0 / 3},
		{"end of first page", 10, 0.2891},
		{"rank 100", 100, 0.1502},
		{"last checked", 1000, 0.1003},
		{"beyond the first 1000", 1001, 0},
		{"not found", 0, 0},
		{"negative", -3, 0},
		{"huge", math.MaxInt, 0},
		{"most negative", math.MinInt, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := DCG(tc.rank); math.Abs(got-tc.want) > 1e-4 {
				t.Errorf("DCG(%d) = %.4f, want %.4f", tc.rank, got, tc.want)
			}
		})
	}
}

// FuzzDCG checks that DCG* is a score in [0, 1] that never grows as the
// target sinks in the results (Equation DCG*).
func FuzzDCG(f *testing.F) {
	for _, r := range []int{-1, 0, 1, 2, 10, 999, 1000, 1001, math.MaxInt} {
		f.Add(r)
	}
	f.Fuzz(func(t *testing.T, rank int) {
		d := DCG(rank)
		if !(d >= 0 && d <= 1) {
			t.Fatalf("DCG(%d) = %v, want in [0, 1]", rank, d)
		}
		if rank < math.MaxInt {
			if next := DCG(rank + 1); rank >= 1 && next > d {
				t.Fatalf("DCG(%d) = %v > DCG(%d) = %v", rank+1, next, rank, d)
			}
		}
		if (d > 0) != (rank >= 1 && rank <= MaxRank) {
			t.Fatalf("DCG(%d) = %v, want > 0 exactly for ranks 1..%d", rank, d, MaxRank)
		}
		if b := Bucket(rank); (b == BucketNotFound) != (d == 0) {
			t.Fatalf("Bucket(%d) = %q but DCG(%d) = %v", rank, b, rank, d)
		}
	})
}
