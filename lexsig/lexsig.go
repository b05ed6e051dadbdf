package lexsig

import (
	"context"
	"slices"
	"strings"
)

// Term is one term of a ranked signature.
type Term struct {
	// Text is the term, lowercase.
	Text string
	// TF is the number of times the term occurs in the input words (the
	// paper's Equation 1).
	TF int
	// DF is the number of documents that hold the term, as the DF provider
	// answered (0 is reported as 0 but weighted as 1).
	DF int64
	// Weight is TF × log(|D|/DF), natural logarithm (Equations 2 and 3).
	Weight float64
}

// DF answers document frequencies, the denominator of the paper's IDF
// (Equation 2).
type DF interface {
	// DocFreq returns the number of documents that hold term. An unknown
	// term returns 0 and a nil error. term is lowercase.
	DocFreq(ctx context.Context, term string) (int64, error)
	// Docs returns |D|, the number of documents in the collection.
	Docs(ctx context.Context) (int64, error)
}

// Mode says how a query combines its terms.
type Mode int

const (
	// Conjunctive asks for pages that hold every term, as a web search
	// engine does by default. It is the zero Mode.
	Conjunctive Mode = iota
	// Disjunctive asks for pages that hold any term.
	Disjunctive
)

// String returns "and" or "or".
func (m Mode) String() string {
	if m == Disjunctive {
		return "or"
	}
	return "and"
}

// Query is a search built from a signature.
type Query struct {
	// Terms are the query's terms in signature order.
	Terms []string
	// Mode combines the terms; the zero value is Conjunctive.
	Mode Mode
	// Phrase, when true, asks for the terms as one phrase, in order.
	Phrase bool
}

// NewQuery returns a query for terms, in order, combined by mode. It copies
// terms.
func NewQuery(terms []string, mode Mode) Query {
	return Query{Terms: slices.Clone(terms), Mode: mode}
}

// String renders the query as a person would type it into a search box:
// terms separated by spaces, " OR " between disjunctive terms, a phrase
// in double quotes (Mode is then ignored). A query without terms renders as
// the empty string in every form. Terms are written as they are, without
// quoting or escaping.
func (q Query) String() string {
	if len(q.Terms) == 0 {
		return ""
	}
	if q.Phrase {
		return `"` + strings.Join(q.Terms, " ") + `"`
	}
	if q.Mode == Disjunctive {
		return strings.Join(q.Terms, " OR ")
	}
	return strings.Join(q.Terms, " ")
}

// Result is one search result.
type Result struct {
	// Rank is the result's position, 1 first.
	Rank int
	// URI is the result's URI.
	URI string
	// Title is the result's title, when the searcher knows it.
	Title string
	// Score is the engine's relevance score, when it reports one; higher is
	// better.
	Score float64
}

// Searcher runs queries against a search engine or index.
type Searcher interface {
	// Search returns at most limit results for query, in rank order, rank 1
	// first. A query nothing matches returns an empty slice and a nil error.
	// Implementations must be safe for concurrent use.
	Search(ctx context.Context, query Query, limit int) ([]Result, error)
}

// SearcherFunc adapts a function to a Searcher.
type SearcherFunc func(ctx context.Context, query Query, limit int) ([]Result, error)

// Search returns f(ctx, query, limit).
func (f SearcherFunc) Search(ctx context.Context, query Query, limit int) ([]Result, error) {
	return f(ctx, query, limit)
}
