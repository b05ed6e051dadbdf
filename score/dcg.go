package score

import "math"

// MaxRank is the deepest result rank that counts: the paper checked only the
// first 1000 results of each query (§3.3 "Scoring of Results"). A target
// ranked below it counts as not found.
const MaxRank = 1000

// DCG returns the paper's DCG* of a target found at rank, 1 first:
// 1/log2(1+rank) for 1 <= rank <= MaxRank, and 0 otherwise, including rank
// 0, which means not found (Equation DCG*, §3.3 "Scoring of Results").
// With one relevant result of relevance 1 the ideal DCG is 1, so DCG* is
// also the nDCG of the result set. It is 1 at rank 1, about 0.63 at rank 2,
// 0.29 at rank 10 and 0.10 at rank 1000.
func DCG(rank int) float64 {
	if rank < 1 || rank > MaxRank {
		return 0
	}
	return 1 / math.Log2(float64(1+rank))
}
