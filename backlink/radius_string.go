package backlink

import "strconv"

// String names a radius as the paper's figures do: "anchor", "five", "ten"
// and "page", and "rN" (for example "r20") for any other radius of N words.
func (r Radius) String() string {
	switch r {
	case Anchor:
		return "anchor"
	case 5:
		return "five"
	case 10:
		return "ten"
	case Page:
		return "page"
	}
	return "r" + strconv.Itoa(int(r))
}
