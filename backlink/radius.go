package backlink

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Radius is how many words around each link to the target Extract draws, on
// each side, beyond the anchor words themselves (the paper, §3.2 "Radius").
// The paper's four settings are Anchor, Radius(5), Radius(10) and Page.
type Radius int

const (
	// Anchor draws the anchor words of each link alone.
	Anchor Radius = 0
	// Page draws every visible word of the page.
	Page Radius = -1
)

// String names the radius as the paper's figures do: "anchor", "five", "ten"
// and "page" for its four settings, and "rN" for any other radius of N
// words ("r20"). ParseRadius reads every name String gives back to the same
// radius. A radius below Page, which names no radius, is written
// "Radius(N)" and does not parse.
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
	if r < Page {
		return "Radius(" + strconv.Itoa(int(r)) + ")"
	}
	return "r" + strconv.Itoa(int(r))
}

// ErrBadRadius is returned by ParseRadius for text that names no radius.
var ErrBadRadius = errors.New("backlink: bad radius")

// ParseRadius reads a radius as a person or a method name writes it: a name
// that Radius.String gives ("anchor", "five", "ten", "page", or "r" and a
// number of words, "r20"), or a number of words in decimal ("5", and "-1"
// for Page). Case and surrounding white space are ignored, so
// ParseRadius(r.String()) returns r for every radius r >= Page. A negative
// number other than -1, a number too large for an int, and anything else
// return an error wrapping ErrBadRadius.
func ParseRadius(s string) (Radius, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	switch name {
	case "anchor":
		return Anchor, nil
	case "five":
		return 5, nil
	case "ten":
		return 10, nil
	case "page":
		return Page, nil
	}
	digits := name
	if rest, ok := strings.CutPrefix(name, "r"); ok {
		// "rN" holds digits only: no sign, no space.
		if rest == "" || strings.TrimLeft(rest, "0123456789") != "" {
			return 0, badRadius(s)
		}
		digits = rest
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < int(Page) {
		return 0, badRadius(s)
	}
	return Radius(n), nil
}

// badRadius returns the error of ParseRadius for the text s.
func badRadius(s string) error {
	return fmt.Errorf("%w %q: want anchor, five, ten, page, a number of words or r and a number (r20)", ErrBadRadius, s)
}
