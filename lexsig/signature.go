package lexsig

import (
	"context"
	"strings"
)

// Signature is a lexical signature: terms ordered by TF-IDF weight, highest
// first, as Rank returns them (§2 "Lexical Signatures"). It may hold any
// number of terms; the paper queried with the top 1 to 7 and 10 (§3.2
// "Lexical Signature Size") and found 3 or 4 best (Tables 3 and 4).
type Signature []Term

// Top returns the first k terms of s: all of s when k is at least len(s), an
// empty signature when k is zero or negative. The result shares s's terms;
// its capacity is k, so appending to it does not overwrite s.
func (s Signature) Top(k int) Signature {
	k = max(0, min(k, len(s)))
	return s[:k:k]
}

// Held returns the terms of s that some document holds (DF above 0), in
// order, as a new signature. A term no document holds gets the highest
// weight Rank can give, yet in a conjunctive query it matches nothing: a
// word found only in links, or a word of a URI that no page's text uses.
func (s Signature) Held() Signature {
	out := make(Signature, 0, len(s))
	for _, t := range s {
		if t.DF > 0 {
			out = append(out, t)
		}
	}
	return out
}

// Terms returns the text of each term of s, in order, as a new slice.
func (s Signature) Terms() []string {
	out := make([]string, len(s))
	for i, t := range s {
		out[i] = t.Text
	}
	return out
}

// Query returns a query for the terms of s, in order, combined by mode.
func (s Signature) Query(mode Mode) Query {
	return Query{Terms: s.Terms(), Mode: mode}
}

// String returns the terms of s separated by single spaces, as a
// conjunctive query reads.
func (s Signature) String() string {
	return strings.Join(s.Terms(), " ")
}

// Compute returns the top k terms of words by TF-IDF: Count, then Rank
// against df, then Top(k). It is the whole lexical-signature step of the
// paper (§3.2 "Lexical Signature Calculation") for one bag of words; to
// count the words of several pages first, use CountInto and Rank. Errors are
// Rank's.
func Compute(ctx context.Context, words []string, df DF, k int) (Signature, error) {
	ranked, err := Rank(ctx, Count(words), df)
	if err != nil {
		return nil, err
	}
	return Signature(ranked).Top(k), nil
}
