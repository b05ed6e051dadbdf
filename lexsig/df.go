package lexsig

import (
	"context"
	"errors"
	"fmt"

	"github.com/linkrot/relink/internal/par"
)

// BatchDF is an optional interface of a DF that answers many document
// frequencies in one call, such as a database that can look terms up with
// one query. Rank, Cache and MemDF use it when the DF they are given has it.
type BatchDF interface {
	// DocFreqs returns the document frequency of each of terms, in the order
	// of terms: unknown terms give 0. The terms are lowercase and may repeat.
	// On error the slice is nil. Implementations must be safe for concurrent
	// use and should stop and return ctx.Err() when ctx is done.
	DocFreqs(ctx context.Context, terms []string) ([]int64, error)
}

// ErrNoDocs is returned (wrapped) by Rank when the DF reports a collection
// size |D| that is zero or negative, for which the IDF of Equation 2 is
// undefined.
var ErrNoDocs = errors.New("lexsig: collection size is not positive")

// ErrNegativeDF is returned (wrapped in a *TermError) by Rank when the DF
// answers a negative document frequency.
var ErrNegativeDF = errors.New("lexsig: negative document frequency")

// TermError records a failed document-frequency lookup of one term.
// errors.Is and errors.As see the underlying error through it.
type TermError struct {
	// Term is the term whose lookup failed.
	Term string
	// Err is the DF provider's error, or ErrNegativeDF.
	Err error
}

// Error returns "lexsig: document frequency of TERM: ERR".
func (e *TermError) Error() string {
	return fmt.Sprintf("lexsig: document frequency of %q: %v", e.Term, e.Err)
}

// Unwrap returns e.Err.
func (e *TermError) Unwrap() error { return e.Err }

// DFFunc adapts a function that answers document frequencies, such as a call
// to a web search engine's hit count, to the DocFreq half of DF. WithDocs
// pairs it with the collection size to make a complete DF.
type DFFunc func(ctx context.Context, term string) (int64, error)

// DocFreq returns f(ctx, term).
func (f DFFunc) DocFreq(ctx context.Context, term string) (int64, error) {
	return f(ctx, term)
}

// WithDocs returns a DF whose DocFreq calls f and whose Docs always answers n,
// a fixed collection size such as an estimate of a web search engine's index
// size (the paper took |D| from worldwidewebsize.com, §2.1 "TFIDF"). The DF
// is safe for concurrent use if f is. A non-positive n makes Rank fail with
// ErrNoDocs.
func (f DFFunc) WithDocs(n int64) DF {
	return funcDF{f: f, docs: n}
}

// funcDF is the DF that DFFunc.WithDocs returns.
type funcDF struct {
	f    DFFunc
	docs int64
}

// DocFreq returns f(ctx, term).
func (d funcDF) DocFreq(ctx context.Context, term string) (int64, error) {
	return d.f(ctx, term)
}

// Docs returns the fixed collection size.
func (d funcDF) Docs(context.Context) (int64, error) { return d.docs, nil }

// maxLookups bounds the document-frequency lookups that Rank and Cache run at
// once against a DF without BatchDF: enough to hide the latency of a live
// provider, few enough not to flood it.
const maxLookups = 8

// docFreqs looks up the document frequency of each of terms. It uses BatchDF
// when df has it; otherwise it runs up to maxLookups DocFreq calls at once.
// A failed lookup cancels the others and is returned as a *TermError (if
// several fail, one of them). When ctx is done it returns ctx.Err() at once,
// even if a lookup in flight ignores the cancellation; such a lookup finishes
// in the background and its answer is dropped.
func docFreqs(ctx context.Context, df DF, terms []string) ([]int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if b, ok := df.(BatchDF); ok {
		freqs, err := b.DocFreqs(ctx, terms)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return nil, cerr
			}
			if _, ok := errors.AsType[*TermError](err); ok {
				return nil, err
			}
			return nil, fmt.Errorf("lexsig: document frequencies: %w", err)
		}
		if len(freqs) != len(terms) {
			return nil, fmt.Errorf("lexsig: document frequencies: %d answers for %d terms", len(freqs), len(terms))
		}
		return freqs, nil
	}
	return lookupEach(ctx, df, terms)
}

// lookupEach is docFreqs for a DF without BatchDF: at most maxLookups
// lookups at a time.
func lookupEach(ctx context.Context, df DF, terms []string) ([]int64, error) {
	freqs := make([]int64, len(terms))
	err := par.Do(ctx, len(terms), maxLookups, func(ctx context.Context, i int) error {
		n, err := df.DocFreq(ctx, terms[i])
		if err != nil {
			return &TermError{Term: terms[i], Err: err}
		}
		freqs[i] = n
		return nil
	})
	if err != nil {
		return nil, err
	}
	return freqs, nil
}
