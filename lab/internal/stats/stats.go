// Package stats holds the small statistics the lab's tools report
// alike: quantiles of measured times and counts.
package stats

import (
	"math"
	"slices"
)

// Quantile returns the q quantile of xs by the nearest-rank method (the
// smallest value at least a fraction q of the values do not exceed), or
// 0 when xs is empty. It does not change xs.
func Quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}
