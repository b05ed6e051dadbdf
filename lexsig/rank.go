package lexsig

import (
	"cmp"
	"container/heap"
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
// calling df. To keep only the first few terms, RankTop gives the same terms
// with fewer lookups.
//
// Errors: a non-positive |D| gives an error wrapping ErrNoDocs; a failed
// lookup gives a *TermError naming the term and wrapping the provider's
// error (ErrNegativeDF for a negative answer); an error of Docs or of a batch
// lookup is returned wrapped. When ctx is done Rank returns ctx.Err()
// promptly, even if a lookup in flight has not returned yet.
func Rank(ctx context.Context, tf map[string]int, df DF) ([]Term, error) {
	terms := counted(tf)
	if len(terms) == 0 {
		return []Term{}, nil
	}
	return rankAll(ctx, terms, df)
}

// RankTop returns the first n terms Rank would return for tf and df — the
// same terms, in the same order, with the same TF, DF and Weight — or all of
// them when there are fewer than n, without looking up every term.
//
// A term's weight can be no higher than TF × ln(|D|), the weight of a term
// of DF 1 (or 0): RankTop looks the terms up in groups of equal TF, highest
// TF first, and stops once the next group's highest possible weight is
// below the n-th best weight found (a group that could tie with it is still
// looked up, since ties are broken by text). A skewed tf, such as the word
// counts of whole pages, thus needs the document frequencies of a few terms
// of high count only. When the n-th best weight is zero or negative (DF
// above |D|), or n is at least the number of terms, every term is looked
// up, as Rank does. RankTop orders by text and by weight only the terms it
// looks up; it places the others by count without sorting them.
//
// RankTop calls df.Docs once, then looks terms up a batch at a time: each
// batch is one or more whole groups, at least max(n, 8) terms when that
// many are left that can still rank, in text order, with one DocFreqs call when df implements
// BatchDF, otherwise with up to 8 DocFreq calls at a time. The calls depend
// only on tf and on df's answers, so a provider that answers alike sees the
// same calls on every run. An empty tf, or n zero or negative, gives an
// empty result without calling df.
//
// Errors are Rank's, for the terms RankTop looks up: a term left out
// because it cannot rank among the first n is never looked up, so its
// failure (or negative DF) goes unseen.
func RankTop(ctx context.Context, tf map[string]int, df DF, n int) ([]Term, error) {
	if n <= 0 {
		return []Term{}, nil
	}
	terms := counted(tf)
	if len(terms) == 0 {
		return []Term{}, nil
	}
	if n >= len(terms) {
		return rankAll(ctx, terms, df)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	docs, err := collectionSize(ctx, df)
	if err != nil {
		return nil, err
	}
	order := byCount(terms)
	best := topTerms{n: n, heap: make([]Term, 0, n)}
	batch := max(n, maxLookups)
	// reachable reports whether a term counted f times can still rank
	// among the first n.
	reachable := func(f int) bool {
		return len(best.heap) < n || Weight(f, 1, docs) >= best.heap[0].Weight
	}
	tfOf := func(i int) int { return terms[order[i]].TF }
	looked := make([]Term, 0, batch)
	for start := 0; start < len(order) && reachable(tfOf(start)); {
		end := start
		for end < len(order) && end-start < batch && reachable(tfOf(end)) {
			f := tfOf(end)
			for end < len(order) && tfOf(end) == f {
				end++
			}
		}
		looked = looked[:0]
		for _, i := range order[start:end] {
			looked = append(looked, terms[i])
		}
		// Sorted, so that a provider sees the same calls on every run.
		slices.SortFunc(looked, byText)
		if err := weigh(ctx, df, docs, looked); err != nil {
			return nil, err
		}
		for _, t := range looked {
			best.offer(t)
		}
		start = end
	}
	slices.SortFunc(best.heap, rankOrder)
	return best.heap, nil
}

// counted returns a Term, with Text and TF, for each term of tf whose count
// is positive, in no particular order.
func counted(tf map[string]int) []Term {
	terms := make([]Term, 0, len(tf))
	for t, n := range tf {
		if n > 0 {
			terms = append(terms, Term{Text: t, TF: n})
		}
	}
	return terms
}

// rankAll is Rank of terms, made by counted; it reorders terms.
func rankAll(ctx context.Context, terms []Term, df DF) ([]Term, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Sorted, so that a provider sees the same calls on every run; the
	// text order then breaks ties of weight.
	slices.SortFunc(terms, byText)
	docs, err := collectionSize(ctx, df)
	if err != nil {
		return nil, err
	}
	if err := weigh(ctx, df, docs, terms); err != nil {
		return nil, err
	}
	// Ordered by weight, ties by position in text order: the order of
	// rankOrder, with numbers compared instead of strings.
	type key struct {
		weight float64
		at     int
	}
	keys := make([]key, len(terms))
	for i, t := range terms {
		keys[i] = key{t.Weight, i}
	}
	slices.SortFunc(keys, func(a, b key) int {
		switch {
		case a.weight > b.weight:
			return -1
		case a.weight < b.weight:
			return 1
		}
		return a.at - b.at
	})
	ranked := make([]Term, len(terms))
	for i, k := range keys {
		ranked[i] = terms[k.at]
	}
	return ranked, nil
}

// collectionSize returns |D|, df.Docs, or Rank's error for it.
func collectionSize(ctx context.Context, df DF) (int64, error) {
	docs, err := df.Docs(ctx)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return 0, cerr
		}
		return 0, fmt.Errorf("lexsig: collection size: %w", err)
	}
	if docs <= 0 {
		return 0, fmt.Errorf("%w: |D| = %d", ErrNoDocs, docs)
	}
	return docs, nil
}

// weigh looks up the document frequency of each of terms, in their order,
// and sets their DF and their Weight against the collection size docs. A
// negative DF gives a *TermError wrapping ErrNegativeDF, for the first such
// term.
func weigh(ctx context.Context, df DF, docs int64, terms []Term) error {
	texts := make([]string, len(terms))
	for i, t := range terms {
		texts[i] = t.Text
	}
	freqs, err := docFreqs(ctx, df, texts)
	if err != nil {
		return err
	}
	for i := range terms {
		n := freqs[i]
		if n < 0 {
			return &TermError{Term: terms[i].Text, Err: fmt.Errorf("%w: %d", ErrNegativeDF, n)}
		}
		terms[i].DF = n
		terms[i].Weight = Weight(terms[i].TF, n, docs)
	}
	return nil
}

// byText orders terms by text, in ascending byte order.
func byText(a, b Term) int { return cmp.Compare(a.Text, b.Text) }

// rankOrder is Rank's order: weight, highest first, then text.
func rankOrder(a, b Term) int {
	if c := cmp.Compare(b.Weight, a.Weight); c != 0 {
		return c
	}
	return cmp.Compare(a.Text, b.Text)
}

// byCount returns the positions of terms ordered by TF, highest first, in
// groups of equal TF; the order within a group is not defined. It places the
// terms by counting, and sorts only those whose TF reaches len(terms), which
// are few: the TFs of terms add up to the words counted.
func byCount(terms []Term) []int32 {
	top := len(terms)
	// starts[k] is where the terms of TF k (of TF top or more, for k =
	// top) go, highest TF first.
	starts := make([]int, top+1)
	for _, t := range terms {
		starts[min(t.TF, top)]++
	}
	at := 0
	for k := top; k >= 1; k-- {
		n := starts[k]
		starts[k] = at
		at += n
	}
	order := make([]int32, len(terms))
	for i, t := range terms {
		k := min(t.TF, top)
		order[starts[k]] = int32(i)
		starts[k]++
	}
	slices.SortFunc(order[:starts[top]], func(a, b int32) int { return cmp.Compare(terms[b].TF, terms[a].TF) })
	return order
}

// topTerms keeps the n terms offered that come first in rankOrder, as a
// heap (container/heap) whose root, heap[0], comes last of them.
type topTerms struct {
	n    int
	heap []Term
}

// offer keeps t if it is among the first n terms offered so far.
func (b *topTerms) offer(t Term) {
	switch {
	case len(b.heap) < b.n:
		heap.Push(b, t)
	case rankOrder(t, b.heap[0]) < 0:
		b.heap[0] = t
		heap.Fix(b, 0)
	}
}

// Len, Less, Swap, Push and Pop are heap.Interface's: the term that comes
// last in rankOrder is the least.
func (b *topTerms) Len() int           { return len(b.heap) }
func (b *topTerms) Less(i, j int) bool { return rankOrder(b.heap[i], b.heap[j]) > 0 }
func (b *topTerms) Swap(i, j int)      { b.heap[i], b.heap[j] = b.heap[j], b.heap[i] }
func (b *topTerms) Push(x any)         { b.heap = append(b.heap, x.(Term)) }
func (b *topTerms) Pop() any {
	t := b.heap[len(b.heap)-1]
	b.heap = b.heap[:len(b.heap)-1]
	return t
}

// Weight returns the TF-IDF weight tf × ln(docs / df) of the paper's
// Equations 2 and 3 (§2.1 "TFIDF"), with the natural logarithm. A df below 1
// is weighed as 1. docs must be positive; otherwise the result is not a
// meaningful weight (it may be NaN or infinite).
func Weight(tf int, df, docs int64) float64 {
	return float64(tf) * math.Log(float64(docs)/float64(max(df, 1)))
}
