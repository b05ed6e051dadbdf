package filter

// Jaccard returns the Jaccard similarity coefficient of the sets of distinct
// words in a and b, |A∩B| / |A∪B| (§3.1 "Soft 404s", Equation "jaccard").
// Repeated words count once and words compare exactly (byte for byte; fold
// case before calling if case should not matter). Two empty inputs are
// identical sets and give 1; one empty input gives 0. The result is in [0, 1]
// and symmetric in a and b.
//
// Jaccard builds one map, starting from the smaller input, so it takes time
// linear in len(a)+len(b).
func Jaccard(a, b []string) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	const (
		inA = 1 << iota
		inB
	)
	seen := make(map[string]uint8, len(a))
	for _, w := range a {
		seen[w] = inA
	}
	union, inter := len(seen), 0
	for _, w := range b {
		switch seen[w] {
		case 0:
			seen[w] = inB
			union++
		case inA:
			seen[w] = inA | inB
			inter++
		}
	}
	return float64(inter) / float64(union)
}
