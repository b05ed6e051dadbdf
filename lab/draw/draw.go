// Package draw draws the targets of relink's experiment and of the
// benchmarks that must evaluate the same pages: a seeded sample of the
// pages of a store that another page links to, and the new URI the moved
// mode publishes each at. Both the experiment (lab/cmd/experiment) and
// the end-to-end measurement of relink fix (lab/fixbench) call it, so
// that one seed names one list of pages everywhere.
//
// The draw depends only on the store's pages and the seed: the
// candidates are taken in URI order and the first n of a seeded
// permutation of them are kept. It does not open, build or change a
// store; the caller passes one in.
package draw

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"iter"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"

	"github.com/linkrot/relink/provider/store"
)

// Target is one drawn page with what the store knows of it and its
// stratum of backlink pages.
type Target struct {
	store.PageInfo
	Stratum string
}

// ErrNoCandidates means no page of the store could be drawn: none has a
// backlink page (or none that keep accepted).
var ErrNoCandidates = errors.New("no page of the store has a backlink page")

// Pager lists a store's pages: provider/store's SQLite store and
// provider/postgres's store both do.
type Pager interface {
	Pages(ctx context.Context) iter.Seq2[store.PageInfo, error]
}

// Targets draws n targets at random, with seed, from the pages that at
// least one other page links to (BENCHMARK.md: "Targets are drawn at
// random with a fixed seed from the pages that have at least one backlink
// page"), and returns them in URI order with the number of candidates.
// Fewer than n are returned when there are fewer candidates.
func Targets(ctx context.Context, s Pager, n int, seed uint64) ([]Target, int, error) {
	return TargetsOf(ctx, s, n, seed, nil)
}

// TargetsOf is Targets from the pages keep reports true for (all of them
// when keep is nil).
func TargetsOf(ctx context.Context, s Pager, n int, seed uint64, keep func(store.PageInfo) bool) ([]Target, int, error) {
	var pages []store.PageInfo
	for p, err := range s.Pages(ctx) {
		if err != nil {
			return nil, 0, err
		}
		if p.Backlinks > 0 && (keep == nil || keep(p)) {
			pages = append(pages, p)
		}
	}
	return Pick(pages, n, seed)
}

// Pick draws n of the candidate pages at random with seed: the candidates
// in URI order, the first n of a permutation of them, returned in URI
// order with the number of candidates. It sorts pages.
func Pick(pages []store.PageInfo, n int, seed uint64) ([]Target, int, error) {
	slices.SortFunc(pages, func(a, b store.PageInfo) int { return strings.Compare(a.URI, b.URI) })
	if len(pages) == 0 {
		return nil, 0, ErrNoCandidates
	}
	r := rand.New(rand.NewPCG(seed, 0))
	perm := r.Perm(len(pages))
	perm = perm[:min(n, len(perm))]
	slices.Sort(perm)
	out := make([]Target, len(perm))
	for i, j := range perm {
		out[i] = Target{PageInfo: pages[j], Stratum: Stratum(pages[j].ContentBacklinks)}
	}
	return out, len(pages), nil
}

// Strata are the strata of targets by their distinct non-navigation
// backlink pages (BENCHMARK.md: "Report results overall and by stratum of
// backlink pages (1–2, 3–9, 10+)"). A target whose only backlinks are
// navigation links is in stratum "0".
var Strata = []string{"0", "1-2", "3-9", "10+"}

// Stratum returns the stratum of a target with n distinct non-navigation
// backlink pages.
func Stratum(n int) string {
	switch {
	case n <= 0:
		return "0"
	case n <= 2:
		return "1-2"
	case n <= 9:
		return "3-9"
	}
	return "10+"
}

// MovedURI is where the moved mode publishes the page of uri: on the same
// host, at a path that shares no word with the old one (a digest of it),
// so that no method can find the page by its old path's words. A URI that
// does not parse is returned as it is.
func MovedURI(uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		return uri
	}
	sum := sha256.Sum256([]byte(uri))
	return u.Scheme + "://" + u.Host + "/relocated/" + hex.EncodeToString(sum[:6]) + ".html"
}

// Moves returns the moves of the moved mode for targets: each URI to its
// MovedURI, as store.IngestOptions.Moves takes them.
func Moves(targets []string) map[string]string {
	m := make(map[string]string, len(targets))
	for _, t := range targets {
		m[t] = MovedURI(t)
	}
	return m
}
