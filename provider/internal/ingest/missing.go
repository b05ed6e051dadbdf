package ingest

import (
	"maps"
	"slices"

	"github.com/linkrot/relink/canon"
)

// WithMissing returns a new set holding own (a view's missing URIs, nil
// for none) and the canonical forms of uris; those that cannot be
// canonicalized are left out. own is not changed.
func WithMissing(own map[string]bool, uris []string) map[string]bool {
	m := maps.Clone(own)
	if m == nil {
		m = make(map[string]bool, len(uris))
	}
	for _, u := range uris {
		if c, err := canon.Canonicalize(u); err == nil {
			m[c] = true
		}
	}
	return m
}

// IsMissing reports whether the canonical URI c is in own or in persisted
// (the set a store recorded; nil for none).
func IsMissing(own map[string]bool, persisted *map[string]bool, c string) bool {
	return own[c] || (persisted != nil && (*persisted)[c])
}

// MissingList returns the URIs of own and persisted, sorted.
func MissingList(own map[string]bool, persisted *map[string]bool) []string {
	all := maps.Clone(own)
	if all == nil {
		all = map[string]bool{}
	}
	if persisted != nil {
		maps.Copy(all, *persisted)
	}
	return slices.Sorted(maps.Keys(all))
}
