package dftable

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"iter"
	"slices"
	"strconv"

	"github.com/linkrot/relink/internal/par"
	"github.com/linkrot/relink/lexsig"
)

// maxLookups is how many DocFreq calls WriteDF makes at a time to a DF that
// is not a lexsig.BatchDF, as lexsig.Rank does.
const maxLookups = 8

// Writer writes a table line by line, checking each line as a Reader would,
// so that what it writes reads back. Output is buffered: call Flush at the
// end.
type Writer struct {
	bw   *bufio.Writer
	line int    // the number of the last line written
	prev string // the last term written
	err  error  // sticky error of the underlying writer
}

// NewWriter checks h and writes it as the header line of a table to w.
// An unfit header gives a *LineError for line 1 wrapping ErrHeader.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	if err := h.check(); err != nil {
		return nil, &LineError{Line: 1, Err: fmt.Errorf("%w: %w", ErrHeader, err)}
	}
	line := h.format()
	if len(line)-1 > MaxLineBytes {
		return nil, &LineError{Line: 1, Err: fmt.Errorf("%w: %w: more than %d bytes", ErrHeader, ErrLineTooLong, MaxLineBytes)}
	}
	wr := &Writer{bw: bufio.NewWriter(w), line: 1}
	if _, err := wr.bw.WriteString(line); err != nil {
		return nil, &LineError{Line: 1, Err: err}
	}
	return wr, nil
}

// Write writes the line of term and its document frequency df. Terms must
// come in strictly increasing byte order, be lowercase, valid UTF-8 and free
// of control characters, and df must not be negative; otherwise Write
// writes nothing and returns a *LineError (ErrOrder, ErrTerm, ErrNumber or
// ErrLineTooLong) for the line it would have written, and the Writer may go
// on. An error of the underlying writer is returned by every later call.
func (w *Writer) Write(term string, df int64) error {
	if w.err != nil {
		return w.err
	}
	n := w.line + 1
	if err := checkTerm(term); err != nil {
		return &LineError{Line: n, Err: err}
	}
	if df < 0 {
		return &LineError{Line: n, Err: fmt.Errorf("%w: document frequency of %q is %d", ErrNumber, term, df)}
	}
	if w.prev != "" && term <= w.prev {
		return &LineError{Line: n, Err: fmt.Errorf("%w: %q after %q", ErrOrder, term, w.prev)}
	}
	num := strconv.FormatInt(df, 10)
	if len(term)+1+len(num) > MaxLineBytes {
		return &LineError{Line: n, Err: fmt.Errorf("%w: more than %d bytes", ErrLineTooLong, MaxLineBytes)}
	}
	for _, s := range []string{term, "\t", num, "\n"} {
		if _, err := w.bw.WriteString(s); err != nil {
			w.err = &LineError{Line: n, Err: err}
			return w.err
		}
	}
	w.line, w.prev = n, term
	return nil
}

// Flush writes any buffered data to the underlying writer.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if err := w.bw.Flush(); err != nil {
		w.err = &LineError{Line: w.line, Err: err}
		return w.err
	}
	return nil
}

// Write writes a whole table to w: the header h, then the terms of rows
// with their document frequencies, which must come sorted as Writer.Write
// requires. It stops at the first error.
func Write(w io.Writer, h Header, rows iter.Seq2[string, int64]) error {
	wr, err := NewWriter(w, h)
	if err != nil {
		return err
	}
	for term, df := range rows {
		if err := wr.Write(term, df); err != nil {
			return err
		}
	}
	return wr.Flush()
}

// WriteDF writes a table of the document frequencies df answers for terms,
// with df's |D| and the name source in the header: a way to save what a live
// DF (or a dfcache.Source) knows of the terms an experiment used, and to load
// it later with Read. The terms are sorted and repeats dropped; they must be
// lowercase, as lexsig makes them, or WriteDF returns an error wrapping
// ErrTerm before it asks df anything. They are looked up with one DocFreqs
// call when df is a lexsig.BatchDF, otherwise with up to 8 DocFreq calls at a
// time. Terms whose frequency is 0 are written too. Errors of df are
// returned wrapped (a *lexsig.TermError names a failed term), and a
// negative frequency is an error wrapping ErrNumber; nothing is written then.
func WriteDF(ctx context.Context, w io.Writer, df lexsig.DF, source string, terms []string) error {
	terms = slices.Compact(slices.Sorted(slices.Values(terms)))
	for _, t := range terms {
		if err := checkTerm(t); err != nil {
			return err
		}
	}
	docs, err := df.Docs(ctx)
	if err != nil {
		return fmt.Errorf("dftable: |D|: %w", err)
	}
	h := Header{Docs: docs, Source: source}
	if err := h.check(); err != nil {
		return fmt.Errorf("%w: %w", ErrHeader, err)
	}
	freqs, err := lookup(ctx, df, terms)
	if err != nil {
		return fmt.Errorf("dftable: document frequencies: %w", err)
	}
	for i, n := range freqs {
		if n < 0 {
			return fmt.Errorf("%w: document frequency of %q is %d", ErrNumber, terms[i], n)
		}
	}
	return Write(w, h, func(yield func(string, int64) bool) {
		for i, t := range terms {
			if !yield(t, freqs[i]) {
				return
			}
		}
	})
}

// lookup returns the document frequency of each of terms.
func lookup(ctx context.Context, df lexsig.DF, terms []string) ([]int64, error) {
	if b, ok := df.(lexsig.BatchDF); ok {
		freqs, err := b.DocFreqs(ctx, terms)
		if err != nil {
			return nil, err
		}
		if len(freqs) != len(terms) {
			return nil, fmt.Errorf("%d answers for %d terms", len(freqs), len(terms))
		}
		return freqs, nil
	}
	freqs := make([]int64, len(terms))
	err := par.Do(ctx, len(terms), maxLookups, func(ctx context.Context, i int) error {
		n, err := df.DocFreq(ctx, terms[i])
		if err != nil {
			return &lexsig.TermError{Term: terms[i], Err: err}
		}
		freqs[i] = n
		return nil
	})
	if err != nil {
		return nil, err
	}
	return freqs, nil
}
