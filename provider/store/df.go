package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/linkrot/relink/internal/words"
	"github.com/linkrot/relink/lexsig"
)

// DocFreq returns the number of pages whose title or visible text holds
// term, exactly, from the full-text index's vocabulary (FTS5's fts5vocab,
// or the copy of its counts that each finished ingest makes for fast
// lookups).
// term is matched as the index folds case (lexsig.Normalize gives the same
// form for every script that has case). A term that is not a single word by
// the index's word rule, and an unknown term, return 0. Missing pages count:
// they stay in the index. DocFreq is safe for concurrent use.
func (s *Store) DocFreq(ctx context.Context, term string) (int64, error) {
	term = lexsig.Normalize(term)
	if start, end := words.Next(term, 0); start != 0 || end != len(term) || end == 0 {
		return 0, nil
	}
	var n sql.NullInt64
	if err := s.stmts.docFreq.QueryRowContext(ctx, term).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: document frequency of %q: %w", term, err)
	}
	return n.Int64, nil
}

// DocFreqs returns DocFreq of each of terms, in order (lexsig.BatchDF). It
// stops and returns ctx.Err() when ctx is done.
func (s *Store) DocFreqs(ctx context.Context, terms []string) ([]int64, error) {
	out := make([]int64, len(terms))
	seen := make(map[string]int64, len(terms))
	for i, t := range terms {
		if n, ok := seen[t]; ok {
			out[i] = n
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n, err := s.DocFreq(ctx, t)
		if err != nil {
			return nil, &lexsig.TermError{Term: t, Err: err}
		}
		seen[t], out[i] = n, n
	}
	return out, nil
}

// Docs returns |D|, the number of pages in the store (redirects and skipped
// files are not pages). The count is cached until the next ingest by this
// Store. Missing pages count.
func (s *Store) Docs(ctx context.Context) (int64, error) {
	if n := s.docs.Load(); n >= 0 {
		return n, nil
	}
	var n int64
	if err := s.stmts.docs.QueryRowContext(ctx).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count pages: %w", err)
	}
	s.docs.Store(n)
	return n, nil
}

// Terms calls fn with every term of the full-text index and the number of
// pages that hold it (DocFreq's answer), in byte order of the terms
// (dftable.Vocabulary): the store's whole vocabulary, for a table of
// document frequencies. Missing pages count. It stops at fn's first error
// and returns it; it returns ctx.Err() when ctx is done.
func (s *Store) Terms(ctx context.Context, fn func(term string, docs int64) error) error {
	var derived bool
	if err := s.read.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM meta WHERE key = 'derived')`).Scan(&derived); err != nil {
		return fmt.Errorf("store: terms: %w", err)
	}
	// The copy in df when it is up to date, the index itself otherwise;
	// ORDER BY compares TEXT with memcmp, the byte order of UTF-8.
	q := `SELECT term, doc FROM fts_vocab ORDER BY term`
	if derived {
		q = `SELECT term, docs FROM df ORDER BY term`
	}
	rows, err := s.read.QueryContext(ctx, q)
	if err != nil {
		return fmt.Errorf("store: terms: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var term string
		var n int64
		if err := rows.Scan(&term, &n); err != nil {
			return fmt.Errorf("store: terms: %w", err)
		}
		if err := fn(term, n); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: terms: %w", err)
	}
	return ctx.Err()
}
