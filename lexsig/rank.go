package lexsig

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
)

// Rank weighs every term of tf by TF-IDF and returns the terms ordered by
// weight, highest first, ties broken by term text in ascending byte order.
//
// The weight of term i is TF_i × ln(|D| / DF_i) (the paper's Equations 2 and
// 3, §2.1 "TFIDF"), where TF_i is tf[i] (Equation 1), |D| is df.Docs and DF_i
// is df.DocFreq(i). A DF of 0 (a term the collection does not hold) is
// weighed as 1, the rarest a term can be, but Term.DF reports the 0 the
// provider answered. A DF above |D|, which a provider that estimates both
// numbers may answer, gives a zero or negative weight; such terms are still
// ordered by the same rule, after every term with a positive weight. Terms
// whose count is zero or negative are left out. tf's keys are used as given:
// they should be lowercase, as Count makes them.
//
// Rank calls df.Docs once, then looks every term up: with one DocFreqs call
// when df implements BatchDF, otherwise with up to 8 DocFreq calls at a time,
// since a live provider answers slowly. The result does not depend on the
// order in which answers arrive. An empty tf gives an empty result without
// calling df.
//
// Errors: a non-positive |D| gives an error wrapping ErrNoDocs; a failed
// lookup gives a *TermError naming the term and wrapping the provider's
// error (ErrNegativeDF for a negative answer); an error of Docs or of a batch
// lookup is returned wrapped. When ctx is done Rank returns ctx.Err()
// promptly, even if a lookup in flight has not returned yet.
func Rank(ctx context.Context, tf map[string]int, df DF) ([]Term, error) {
	terms := make([]string, 0, len(tf))
	for t, n := range tf {
		if n > 0 {
			terms = append(terms, t)
		}
	}
	if len(terms) == 0 {
		return []Term{}, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Sorted, so that a provider sees the same calls on every run.
	slices.Sort(terms)

	docs, err := df.Docs(ctx)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		return nil, fmt.Errorf("lexsig: collection size: %w", err)
	}
	if docs <= 0 {
		return nil, fmt.Errorf("%w: |D| = %d", ErrNoDocs, docs)
	}
	freqs, err := docFreqs(ctx, df, terms)
	if err != nil {
		return nil, err
	}

	ranked := make([]Term, len(terms))
	for i, t := range terms {
		n := freqs[i]
		if n < 0 {
			return nil, &TermError{Term: t, Err: fmt.Errorf("%w: %d", ErrNegativeDF, n)}
		}
		ranked[i] = Term{Text: t, TF: tf[t], DF: n, Weight: Weight(tf[t], n, docs)}
	}
	slices.SortFunc(ranked, func(a, b Term) int {
		if c := cmp.Compare(b.Weight, a.Weight); c != 0 {
			return c
		}
		return cmp.Compare(a.Text, b.Text)
	})
	return ranked, nil
}

// Weight returns the TF-IDF weight tf × ln(docs / df) of the paper's
// Equations 2 and 3 (§2.1 "TFIDF"), with the natural logarithm. A df below 1
// is weighed as 1. docs must be positive; otherwise the result is not a
// meaningful weight (it may be NaN or infinite).
func Weight(tf int, df, docs int64) float64 {
	return float64(tf) * math.Log(float64(docs)/float64(max(df, 1)))
}
