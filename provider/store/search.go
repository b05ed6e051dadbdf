package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/linkrot/relink/internal/words"
	"github.com/linkrot/relink/lexsig"
)

// MaxResults is the most results Search returns: the paper scored the first
// 1000 results of each query (§3.3, DCG*).
const MaxResults = 1000

// DefaultTitleWeight is how much more a term in a page's title counts than
// the same term in its text when Search ranks pages with BM25, as search
// engines weigh titles above body text. It was chosen by measurement on the
// development corpus (see the package documentation, "Search and document
// frequencies").
const DefaultTitleWeight = 3.0

// Search returns at most limit pages that match query, best first: by
// default pages that hold every term (lexsig.Conjunctive, as a web search
// engine does), with lexsig.Disjunctive pages that hold any term, and with
// query.Phrase pages that hold the terms next to each other in order. Pages
// are ranked by BM25 over their title and visible text (SQLite FTS5, k1 =
// 1.2, b = 0.75; a title term weighs Options.TitleWeight times a text term),
// ties broken by URI. Score is the BM25 score, higher is better.
//
// Terms are split into words by the same rule the index uses (package
// internal/words) and matched case-insensitively; a term of several words
// ("don't") must match as a phrase, and a term with no word is ignored. A
// query with no word left returns an empty slice. A limit that is not
// positive or above MaxResults means MaxResults.
//
// Missing pages stay in the index and are found like any other page, as
// the paper's search engine still held them. Answers are cached (see
// Options.QueryCache); Search is safe for concurrent use.
func (s *Store) Search(ctx context.Context, query lexsig.Query, limit int) ([]lexsig.Result, error) {
	if limit <= 0 || limit > MaxResults {
		limit = MaxResults
	}
	expr := matchExpr(query)
	if expr == "" {
		return []lexsig.Result{}, nil
	}
	key := strconv.Itoa(limit) + "\x00" + expr
	if r, ok := s.cache.get(key); ok {
		return r, nil
	}
	var results []lexsig.Result
	var err error
	var x *postingsIndex
	toks, ok := handles(query)
	if ok {
		x, err = s.postings(ctx)
	}
	switch {
	case err != nil:
	case x != nil:
		results, err = x.search(ctx, toks, query.Mode, limit)
	default:
		results, err = s.rankFTS(ctx, expr, limit)
	}
	if err != nil {
		return nil, fmt.Errorf("store: search %q: %w", query.String(), err)
	}
	s.cache.put(key, results)
	return results, nil
}

// postings returns the index of the store's postings, nil when they are
// not fresh (see postingsSchema). A read-only store looked when it was
// opened; a writable one, whose index an ingest may change, looks at every
// call, which costs one lookup.
func (s *Store) postings(ctx context.Context) (*postingsIndex, error) {
	if s.readOnly {
		return s.index.Load(), nil
	}
	made, err := postingsMade(ctx, s.read)
	if err != nil || made == "" {
		return nil, err
	}
	x := s.index.Load()
	if x != nil && x.made == made {
		return x, nil
	}
	nx := newPostingsIndex(s.read, s.titleWeight, made)
	if !s.index.CompareAndSwap(x, nx) {
		if cur := s.index.Load(); cur != nil && cur.made == made {
			return cur, nil // another search made it first
		}
	}
	return nx, nil
}

// rankFTS returns the limit best pages for the MATCH expression expr,
// ranked by FTS5.
func (s *Store) rankFTS(ctx context.Context, expr string, limit int) ([]lexsig.Result, error) {
	results, err := s.rank(ctx, s.stmts.search, expr, limit)
	if err != nil || len(results) <= limit {
		return results, err
	}
	// The search statement ranks the limit + 1 best rows by score before
	// it breaks ties by URI. When the last two share a score, rows beyond
	// them may share it too and come before them by URI: rank every row.
	if results[limit].Score == results[limit-1].Score {
		return s.rank(ctx, s.stmts.searchTies, expr, limit)
	}
	return results[:limit], nil
}

// rank runs the search statement st for the MATCH expression expr and
// returns its rows as results, ranked from 1.
func (s *Store) rank(ctx context.Context, st *sql.Stmt, expr string, limit int) ([]lexsig.Result, error) {
	rows, err := st.QueryContext(ctx, expr, limit, s.titleWeight)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	results := []lexsig.Result{}
	for rows.Next() {
		var r lexsig.Result
		var bm25 float64
		if err := rows.Scan(&r.URI, &r.Title, &bm25); err != nil {
			return nil, err
		}
		r.Rank = len(results) + 1
		r.Score = -bm25 // FTS5's bm25() is lower for better matches
		results = append(results, r)
	}
	return results, rows.Err()
}

// matchExpr returns the FTS5 MATCH expression for q, or "" when q holds no
// word. Every term becomes a quoted string of its words, so that no term is
// read as FTS5 syntax (AND, NOT, NEAR, column filters, a * prefix).
func matchExpr(q lexsig.Query) string {
	var terms []string
	for _, t := range q.Terms {
		if ws := words.Split(t); len(ws) > 0 {
			terms = append(terms, strings.Join(ws, " "))
		}
	}
	switch {
	case len(terms) == 0:
		return ""
	case q.Phrase:
		return `"` + strings.Join(terms, " ") + `"`
	case q.Mode == lexsig.Disjunctive:
		return `"` + strings.Join(terms, `" OR "`) + `"`
	}
	return `"` + strings.Join(terms, `" "`) + `"`
}
