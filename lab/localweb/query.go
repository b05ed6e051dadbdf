package localweb

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/store"
)

// Bounds of the queries the search services run.
const (
	// MaxQueryBytes is the longest query text a search service accepts
	// (Google's own limit on q is 2,048 characters).
	MaxQueryBytes = 2048
	// MaxExpansions is how many conjunctive queries a query that mixes
	// AND and OR ("a b OR c") may expand into.
	MaxExpansions = 64
	// SnippetWords is how many words a result's snippet holds.
	SnippetWords = 30
)

// errQuery means a query text the services cannot run.
var errQuery = errors.New("localweb: bad query")

// parsedQuery is a query text in search-engine syntax: a conjunction of
// groups, each a disjunction of terms (a quoted phrase is one term of
// several words).
type parsedQuery struct {
	groups [][]string
	words  []string // every word, lowercased, for snippets
}

// parseQuery reads text as the engines our clients talk to read it
// (lexsig.Query.String writes it): terms separated by spaces, all of them
// required; OR (upper case) between two terms for either; a phrase in
// double quotes. An unclosed quote runs to the end. Other operators
// (-word, site:) are read as words.
func parseQuery(text string) (parsedQuery, error) {
	if len(text) > MaxQueryBytes {
		return parsedQuery{}, fmt.Errorf("%w: longer than %d bytes", errQuery, MaxQueryBytes)
	}
	if !utf8.ValidString(text) {
		return parsedQuery{}, fmt.Errorf("%w: not UTF-8", errQuery)
	}
	var q parsedQuery
	or := false
	addTerm := func(t string) {
		ws := strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) })
		if len(ws) == 0 {
			return
		}
		q.words = append(q.words, ws...)
		term := strings.Join(ws, " ")
		if or && len(q.groups) > 0 {
			last := len(q.groups) - 1
			q.groups[last] = append(q.groups[last], term)
		} else {
			q.groups = append(q.groups, []string{term})
		}
		or = false
	}
	for rest := strings.TrimSpace(text); rest != ""; rest = strings.TrimLeftFunc(rest, unicode.IsSpace) {
		if rest[0] == '"' {
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				addTerm(rest[1:])
				break
			}
			addTerm(rest[1 : end+1])
			rest = rest[end+2:]
			continue
		}
		i := strings.IndexFunc(rest, func(r rune) bool { return unicode.IsSpace(r) || r == '"' })
		if i < 0 {
			i = len(rest)
		}
		tok := rest[:i]
		rest = rest[i:]
		if (tok == "OR" || tok == "|") && len(q.groups) > 0 {
			or = true
			continue
		}
		addTerm(tok)
	}
	return q, nil
}

// queries returns the store queries whose results, merged, answer q: one
// conjunctive or disjunctive query, or for a conjunction of disjunctions
// the conjunctions of every choice of one term from each group, at most
// MaxExpansions.
func (q parsedQuery) queries() ([]lexsig.Query, error) {
	switch {
	case len(q.groups) == 0:
		return nil, nil
	case len(q.groups) == 1 && len(q.groups[0]) > 1:
		return []lexsig.Query{lexsig.NewQuery(q.groups[0], lexsig.Disjunctive)}, nil
	}
	n := 1
	for _, g := range q.groups {
		n *= len(g)
		if n > MaxExpansions {
			return nil, fmt.Errorf("%w: more than %d combinations of OR terms", errQuery, MaxExpansions)
		}
	}
	out := make([]lexsig.Query, 0, n)
	choice := make([]string, len(q.groups))
	var expand func(i int)
	expand = func(i int) {
		if i == len(q.groups) {
			out = append(out, lexsig.NewQuery(choice, lexsig.Conjunctive))
			return
		}
		for _, t := range q.groups[i] {
			choice[i] = t
			expand(i + 1)
		}
	}
	expand(0)
	return out, nil
}

// search runs text against the web store and returns every result, best
// first, at most store.MaxResults.
func (s *Server) search(ctx context.Context, text string) ([]lexsig.Result, parsedQuery, error) {
	q, err := parseQuery(text)
	if err != nil {
		return nil, q, err
	}
	qs, err := q.queries()
	if err != nil {
		return nil, q, err
	}
	if len(qs) == 1 {
		rs, err := s.web.Search(ctx, qs[0], store.MaxResults)
		return rs, q, err
	}
	best := make(map[string]lexsig.Result)
	for _, sq := range qs {
		rs, err := s.web.Search(ctx, sq, store.MaxResults)
		if err != nil {
			return nil, q, err
		}
		for _, r := range rs {
			if b, ok := best[r.URI]; !ok || r.Score > b.Score {
				best[r.URI] = r
			}
		}
	}
	out := make([]lexsig.Result, 0, len(best))
	for _, r := range best {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].URI < out[j].URI
	})
	if len(out) > store.MaxResults {
		out = out[:store.MaxResults]
	}
	for i := range out {
		out[i].Rank = i + 1
	}
	return out, q, nil
}

// hit is a search result ready for an engine's answer.
type hit struct {
	URL, Title, Snippet string
	Score               float64
	// marks are the byte ranges of Snippet that are query words, for
	// engines that highlight them.
	marks [][2]int
}

// hits returns results[from:to] (clipped) as hits with snippets.
func (s *Server) hits(ctx context.Context, results []lexsig.Result, q parsedQuery, from, to int) []hit {
	from = min(max(from, 0), len(results))
	to = min(max(to, from), len(results))
	out := make([]hit, 0, to-from)
	for _, r := range results[from:to] {
		h := hit{URL: r.URI, Title: r.Title, Score: r.Score}
		if page, err := s.web.Fetch(ctx, r.URI); err == nil && page.Status/100 == 2 {
			h.URL = page.URI
			if ws, err := backlink.Words(page.Body, page.Header.Get("Content-Type")); err == nil {
				h.Snippet, h.marks = snippet(ws, q.words)
			}
		}
		if h.Title == "" {
			h.Title = h.URL
		}
		out = append(out, h)
	}
	return out
}

// snippet returns SnippetWords words of ws around the first query word
// found, and where the query words are in it.
func snippet(ws, query []string) (string, [][2]int) {
	if len(ws) == 0 {
		return "", nil
	}
	want := make(map[string]bool, len(query))
	for _, w := range query {
		want[w] = true
	}
	start := 0
	for i, w := range ws {
		if want[strings.ToLower(w)] {
			start = max(0, i-SnippetWords/3)
			break
		}
	}
	end := min(len(ws), start+SnippetWords)
	var b strings.Builder
	var marks [][2]int
	for i, w := range ws[start:end] {
		if i > 0 {
			b.WriteByte(' ')
		}
		if want[strings.ToLower(w)] {
			marks = append(marks, [2]int{b.Len(), b.Len() + len(w)})
		}
		b.WriteString(w)
	}
	if end < len(ws) {
		b.WriteString(" …")
	}
	return b.String(), marks
}

// highlight returns h's snippet as HTML with its query words inside
// open and close tags.
func (h hit) highlight(open, close string) string {
	var b strings.Builder
	at := 0
	for _, m := range h.marks {
		b.WriteString(htmlEscape(h.Snippet[at:m[0]]))
		b.WriteString(open + htmlEscape(h.Snippet[m[0]:m[1]]) + close)
		at = m[1]
	}
	b.WriteString(htmlEscape(h.Snippet[at:]))
	return b.String()
}
