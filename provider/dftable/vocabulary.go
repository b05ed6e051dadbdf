package dftable

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// Vocabulary is a collection that lists every term it indexes with the
// number of its documents that hold it, such as a store (provider/store,
// provider/postgres): what WriteVocabulary makes a table of.
type Vocabulary interface {
	// Docs returns |D|, the number of documents.
	Docs(ctx context.Context) (int64, error)
	// Terms calls fn with each term and its document frequency, the terms
	// in strictly increasing byte order. It stops at fn's first error and
	// returns it, and returns ctx.Err() when ctx is done.
	Terms(ctx context.Context, fn func(term string, docs int64) error) error
}

// VocabularyStats counts what WriteVocabulary wrote and left out.
type VocabularyStats struct {
	// Docs is the table's |D|.
	Docs int64
	// Terms is the number of terms written.
	Terms int64
	// Rare is the number of terms left out for a frequency below the
	// minimum asked for.
	Rare int64
	// Unfit is the number of terms left out because the format refuses
	// them (ErrTerm: not lowercase as lexsig.Normalize makes it, or holding
	// a control character), which lexsig never asks for.
	Unfit int64
}

// WriteVocabulary writes the table of every term of v whose document
// frequency is at least minDocs (1 or less means every term), with v's |D|
// and the name source in the header: the document frequencies of a whole
// collection, to ship or load with Read instead of the collection. A term
// the format refuses is left out and counted (VocabularyStats.Unfit); a
// term out of order is an error wrapping ErrOrder (v breaks its contract),
// and so is a failure of v or of w. On error what was written is a cut
// table, which Read refuses only if the cut falls inside a line: write to
// a temporary file and rename it when WriteVocabulary succeeds.
func WriteVocabulary(ctx context.Context, w io.Writer, v Vocabulary, source string, minDocs int64) (VocabularyStats, error) {
	var st VocabularyStats
	docs, err := v.Docs(ctx)
	if err != nil {
		return st, fmt.Errorf("dftable: |D|: %w", err)
	}
	st.Docs = docs
	wr, err := NewWriter(w, Header{Docs: docs, Source: source})
	if err != nil {
		return st, err
	}
	err = v.Terms(ctx, func(term string, n int64) error {
		if n < minDocs {
			st.Rare++
			return nil
		}
		if errors.Is(checkTerm(term), ErrTerm) {
			st.Unfit++
			return nil
		}
		if err := wr.Write(term, n); err != nil {
			return err
		}
		st.Terms++
		return nil
	})
	if err != nil {
		return st, err
	}
	return st, wr.Flush()
}
