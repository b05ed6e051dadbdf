package score

// The measures below take the ranks at which a set of targets was found, one
// per target: 1 for the first result, 0 (or any rank below 1 or above
// MaxRank) for a target not found in the first MaxRank results, which the
// paper scores as 0 (§3.3 "Scoring of Results"). An empty slice gives 0.

// MeanDCG returns the mean DCG* of ranks, which is the mean nDCG the paper
// reports for each method and signature size (Equation DCG*, §3.3 "Scoring
// of Results"; the last row of Tables 3 and 4).
func MeanDCG(ranks []int) float64 {
	return mean(ranks, DCG)
}

// MRR returns the mean reciprocal rank of ranks: the mean of 1/rank, with 0
// for a target not found within MaxRank. The paper does not report it; it
// weighs deep ranks less than DCG* does (rank 10 scores 0.1 against 0.29).
func MRR(ranks []int) float64 {
	return mean(ranks, func(r int) float64 {
		if r < 1 || r > MaxRank {
			return 0
		}
		return 1 / float64(r)
	})
}

// SuccessAt returns the fraction of ranks from 1 to k, inclusive: the share
// of targets found in the top k results. k above MaxRank counts as MaxRank,
// since deeper results were not checked; k below 1 gives 0. SuccessAt(ranks,
// 1) is the first row of the paper's Tables 3 and 4 as a fraction (§4.5
// "Measures of Success").
func SuccessAt(ranks []int, k int) float64 {
	k = min(k, MaxRank)
	return mean(ranks, func(r int) float64 {
		if r >= 1 && r <= k {
			return 1
		}
		return 0
	})
}

// Shares returns the percentage of ranks in each bucket of BucketNames, as
// the rows of the paper's Tables 3 and 4 show them (§4.5 "Measures of
// Success"). Every bucket is present; the values sum to 100 unless ranks is
// empty, when all are 0.
func Shares(ranks []int) map[string]float64 {
	out := make(map[string]float64, len(bucketNames))
	for _, b := range bucketNames {
		out[b] = 0
	}
	if len(ranks) == 0 {
		return out
	}
	for _, r := range ranks {
		out[Bucket(r)]++
	}
	for b, n := range out {
		out[b] = 100 * n / float64(len(ranks))
	}
	return out
}

// mean returns the mean of f over ranks, 0 for none.
func mean(ranks []int, f func(int) float64) float64 {
	if len(ranks) == 0 {
		return 0
	}
	sum := 0.0
	for _, r := range ranks {
		sum += f(r)
	}
	return sum / float64(len(ranks))
}
