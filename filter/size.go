package filter

import "strconv"

// DefaultMinTokens is the fewest words a page must show after rendering to
// pass the size filter: "We discarded any pages that contained less than
// fifty tokens after rendering" (§3.1 "File size"), following Park et al.
const DefaultMinTokens = 50

// checkSize is the size filter: n is the number of words the page shows and
// min the fewest allowed.
func checkSize(n, min int) *Rejection {
	if n >= min {
		return nil
	}
	return &Rejection{Filter: FilterSize, Reason: strconv.Itoa(n) + " words, fewer than " + strconv.Itoa(min)}
}
