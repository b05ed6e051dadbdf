// Package measure holds what the stores' measurement tests share: the
// fixed sample of pages they measure, and the paper's best query for a
// page, so that the SQLite and PostgreSQL stores are measured on the same
// targets with the same queries.
package measure

import (
	"context"
	"math/rand/v2"
	"slices"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/corpus"
)

// Sample returns up to n of all, chosen by a shuffle with a fixed seed:
// the same list in the same order gives the same sample. It reorders all.
func Sample[T any](all []T, n int) []T {
	r := rand.New(rand.NewPCG(1, 2))
	r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	return all[:min(n, len(all))]
}

// View is what AnchorQuery reads of a store in which the target is
// missing.
type View interface {
	backlink.Provider
	lexsig.DF
	Links(ctx context.Context, uri string) ([]corpus.Link, error)
}

// AnchorQuery returns the query of the paper's best method for target
// (Table 4): the anchor texts of the links to it on its top 10 level-1
// backlinks (image maps left out), ranked by TF-IDF with view's document
// frequencies, the 4 best terms, conjunctive.
func AnchorQuery(ctx context.Context, view View, target string) (lexsig.Query, error) {
	bl, err := view.Backlinks(ctx, target, 10)
	if err != nil {
		return lexsig.Query{}, err
	}
	tf := map[string]int{}
	for _, b := range bl {
		links, err := view.Links(ctx, b.URI)
		if err != nil {
			return lexsig.Query{}, err
		}
		for _, l := range links {
			if l.URI == target && !l.Area {
				lexsig.CountInto(tf, lexsig.Tokenize(l.Anchor))
			}
		}
	}
	terms, err := lexsig.Rank(ctx, tf, view)
	if err != nil {
		return lexsig.Query{}, err
	}
	return lexsig.Signature(terms).Top(4).Query(lexsig.Conjunctive), nil
}

// TitleTerms returns the distinct words of a page title that a query of
// title words takes: not stop words, longer than one letter, in order.
func TitleTerms(title string) []string {
	var out []string
	for _, w := range lexsig.Tokenize(title) {
		if len(w) > 1 && !lexsig.IsStopWord(w) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}
