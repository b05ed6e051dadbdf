package score

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPaperTables checks the transcription of the paper's Tables 3 and 4
// (§4.5 "Measures of Success") for internal consistency: every column has
// the eight sizes of §3.2 "Lexical Signature Size", every percentage is a
// whole number of the 299 targets, the buckets sum to 100% (Table 3, as
// published, to 101.33%, 303 targets: see PaperTable3), and each mean nDCG
// lies between the least and the most the buckets allow under Equation DCG*.
func TestPaperTables(t *testing.T) {
	tests := []struct {
		name    string
		runs    []Run
		method  string
		wantSum float64
	}{
		{"table 3", PaperTable3(), "1-anchor-1000", 101.33},
		{"table 4", PaperTable4(), "1-anchor-10", 100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var sizes []int
			for _, r := range tc.runs {
				sizes = append(sizes, r.Terms)
				if r.Method != tc.method || r.Targets != PaperTargets {
					t.Errorf("run %d: method %q, %d targets; want %q, %d", r.Terms, r.Method, r.Targets, tc.method, PaperTargets)
				}
				sum := 0.0
				for _, b := range BucketNames() {
					p, ok := r.Buckets[b]
					if !ok {
						t.Errorf("run %d: no bucket %q", r.Terms, b)
					}
					sum += p
					targets := p * PaperTargets / 100
					if math.Abs(targets-math.Round(targets)) > 0.02 {
						t.Errorf("run %d bucket %q: %.2f%% is %.3f of %d targets, not a whole number", r.Terms, b, p, targets, PaperTargets)
					}
				}
				if math.Abs(sum-tc.wantSum) > 0.03 {
					t.Errorf("run %d: buckets sum to %.2f%%, want %.2f%%", r.Terms, sum, tc.wantSum)
				}
				// The lowest DCG* a bucket allows is at its deepest rank, the
				// highest at its shallowest; the paper rounds to 0.01. Shares
				// are of the targets the column counts (303 in Table 3).
				share := func(b string) float64 { return r.Buckets[b] / sum }
				low := share("1") + share("2-10")*DCG(10) + share("11-100")*DCG(100) + share("101-1000")*DCG(1000)
				high := share("1") + share("2-10")*DCG(2) + share("11-100")*DCG(11) + share("101-1000")*DCG(101)
				if r.MeanNDCG < low-0.005 || r.MeanNDCG > high+0.005 {
					t.Errorf("run %d: mean nDCG %.2f outside [%.3f, %.3f] implied by its buckets", r.Terms, r.MeanNDCG, low, high)
				}
				first, page1 := r.Buckets["1"]/100, r.Buckets["2-10"]/100
				if r.SuccessAt1 != first || math.Abs(r.SuccessAt10-first-page1) > 1e-12 {
					t.Errorf("run %d: success@1 %v, success@10 %v; want the \"1\" and \"1\"+\"2-10\" rows", r.Terms, r.SuccessAt1, r.SuccessAt10)
				}
			}
			if diff := cmp.Diff([]int{1, 2, 3, 4, 5, 6, 7, 10}, sizes); diff != "" {
				t.Errorf("sizes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPaperHeadlines checks the numbers the paper's text quotes (§4.4
// "Lexical Signature Size", §4.5 "Measures of Success"): 58.19% at rank 1
// and nDCG 0.61 with 3 terms and 1000 backlinks; 55.85% and 0.58 with 4
// terms and 10 backlinks.
func TestPaperHeadlines(t *testing.T) {
	tests := []struct {
		name      string
		runs      []Run
		terms     int
		wantFirst float64
		wantNDCG  float64
	}{
		{"1-anchor-1000, 3 terms", PaperTable3(), 3, 58.19, 0.61},
		{"1-anchor-10, 4 terms", PaperTable4(), 4, 55.85, 0.58},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, r := range tc.runs {
				if r.Terms != tc.terms {
					continue
				}
				if r.Buckets["1"] != tc.wantFirst || r.MeanNDCG != tc.wantNDCG {
					t.Errorf("%d terms: %.2f%% first, nDCG %.2f; want %.2f%%, %.2f", r.Terms, r.Buckets["1"], r.MeanNDCG, tc.wantFirst, tc.wantNDCG)
				}
				return
			}
			t.Errorf("no run with %d terms", tc.terms)
		})
	}
}

// TestPaperTablesFresh checks that callers get their own copies.
func TestPaperTablesFresh(t *testing.T) {
	a := PaperTable4()
	a[0].Buckets["1"] = -1
	a[0].MeanNDCG = -1
	b := PaperTable4()
	if b[0].Buckets["1"] != 25.08 || b[0].MeanNDCG != 0.32 {
		t.Errorf("PaperTable4()[0] = %+v after a caller changed its copy", b[0])
	}
}
