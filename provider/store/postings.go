package store

import (
	"bytes"
	"cmp"
	"container/list"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/linkrot/relink/internal/words"
	"github.com/linkrot/relink/lexsig"
)

// A store keeps, beside FTS5's full-text index, each term's postings: the
// pages that hold it, with how often in the title and in the text. FTS5
// ranks a query's rows with bm25(), whose first call counts the rows of
// each of the query's terms by reading the term's whole posting list
// again, and whose every call reads the row's instances; the experiment
// sends a hundred thousand queries of a few terms each, most of them
// sharing their terms. Search answers the queries whose terms are single
// ASCII words from the postings instead, scoring each row with the same
// BM25 as FTS5's, the same floating-point operations in the same order,
// so that its answers are the same to the last bit (the tests compare
// them); any other query, and any store without fresh postings, goes to
// FTS5. Stores of fewer than minPostingsPages pages make none.
//
// The postings are derived data, made by finish from FTS5's own record of
// every token (fts5vocab's instance table) in the transaction that merges
// the index, and valid while meta's 'postings' holds the FTS5 structure
// record they were made from: a write to the index, by this version or
// an older one that knows nothing of postings, changes that record.
const postingsSchema = `
CREATE TABLE IF NOT EXISTS postings (
	term TEXT PRIMARY KEY,  -- a term of the index, as FTS5 folds it
	docs INTEGER NOT NULL,  -- the pages that hold it
	data BLOB NOT NULL      -- per page: rowid delta, title count, text count (uvarints)
) WITHOUT ROWID`

// The rowids of FTS5's own records in its data table (fts5Int.h).
const (
	ftsAveragesID  = 1
	ftsStructureID = 10
)

// minPostingsPages is the fewest pages for which a store makes postings.
// A smaller index's posting lists are short, and FTS5 ranks its queries
// about as fast; the postings would not repay the reading of every token
// that makes them (a third of the ingest of 156 pages under the race
// detector).
var minPostingsPages int64 = 1000

// buildPostings replaces the postings with those of the full-text index as
// it is in tx, and records the index's structure record they match; an
// index of fewer than minPostingsPages rows gets none. It needs the index
// merged (finish's 'optimize' first), so that its structure record
// changes only with a write.
func buildPostings(ctx context.Context, tx *sql.Tx) error {
	var rows int64
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM fts_docsize`).Scan(&rows); err != nil {
		return fmt.Errorf("postings: %w", err)
	}
	if rows < minPostingsPages {
		_, err := tx.ExecContext(ctx, `DELETE FROM meta WHERE key = 'postings'`)
		if err != nil {
			return fmt.Errorf("postings: %w", err)
		}
		return nil
	}
	for _, q := range []string{
		postingsSchema,
		`DELETE FROM postings`,
		`CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_instance USING fts5vocab(main, fts, 'instance')`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("postings: %w", err)
		}
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO postings (term, docs, data) VALUES (?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("postings: %w", err)
	}
	defer ins.Close()
	// Every token of the index, by term, page and position; a term's
	// pages are encoded as they come and written when the next term
	// starts. FTS5 lists them in rowid order; an out-of-order rowid
	// would be a corrupt index, and is an error here.
	tokens, err := tx.QueryContext(ctx, `SELECT term, doc, col = 'title' FROM temp.fts_instance`)
	if err != nil {
		return fmt.Errorf("postings: %w", err)
	}
	defer tokens.Close()
	var (
		term          string
		docs          int64
		data          []byte
		doc, last     int64 = -1, -1
		inTitle, text uint64
		pending       [][3]any
	)
	flushDoc := func() {
		if doc < 0 {
			return
		}
		data = binary.AppendUvarint(data, uint64(doc-max(last, 0)))
		data = binary.AppendUvarint(data, inTitle)
		data = binary.AppendUvarint(data, text)
		docs++
		last, doc, inTitle, text = doc, -1, 0, 0
	}
	flushTerm := func() {
		flushDoc()
		if term != "" {
			pending = append(pending, [3]any{term, docs, bytes.Clone(data)})
		}
		docs, data, last = 0, data[:0], -1
	}
	for tokens.Next() {
		var t string
		var d int64
		var title bool
		if err := tokens.Scan(&t, &d, &title); err != nil {
			return fmt.Errorf("postings: %w", err)
		}
		if t != term {
			flushTerm()
			term = t
		}
		if d != doc {
			if d <= max(doc, last) || d < 0 {
				return fmt.Errorf("postings: term %q: page %d after %d", t, d, max(doc, last))
			}
			flushDoc()
			doc = d
		}
		if title {
			inTitle++
		} else {
			text++
		}
		// Written in batches, so that the scan's cursor and the inserts
		// take turns and a large index is not held in memory.
		if len(pending) >= 4096 {
			if err := insertPostings(ctx, ins, pending); err != nil {
				return err
			}
			pending = pending[:0]
		}
	}
	if err := tokens.Err(); err != nil {
		return fmt.Errorf("postings: %w", err)
	}
	flushTerm()
	if err := insertPostings(ctx, ins, pending); err != nil {
		return err
	}
	// Recorded as postingsMade reads it.
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO meta (key, value)
		SELECT 'postings', lower(hex(block)) FROM fts_data WHERE id = ?`, ftsStructureID); err != nil {
		return fmt.Errorf("postings: %w", err)
	}
	return nil
}

// insertPostings writes rows of term, docs and data with ins.
func insertPostings(ctx context.Context, ins *sql.Stmt, rows [][3]any) error {
	for _, r := range rows {
		if _, err := ins.ExecContext(ctx, r[:]...); err != nil {
			return fmt.Errorf("postings: %w", err)
		}
	}
	return nil
}

// ftsRecord returns the FTS5 data record of rowid id, nil when there is
// none.
func ftsRecord(ctx context.Context, q querier, id int64) ([]byte, error) {
	var b []byte
	err := q.QueryRowContext(ctx, `SELECT block FROM fts_data WHERE id = ?`, id).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("postings: fts5 record %d: %w", id, err)
	}
	return b, nil
}

// postingsMade returns the FTS5 structure record, in hex, that q's
// postings were made from when it is the index's record now, and "" when
// the store holds no postings or stale ones.
func postingsMade(ctx context.Context, q querier) (string, error) {
	var made string
	err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'postings'
		AND value = lower(hex((SELECT block FROM fts_data WHERE id = ?)))`, ftsStructureID).Scan(&made)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("postings: %w", err)
	}
	return made, nil
}

// sqliteVarint decodes the SQLite varint (big-endian, 7 bits a byte, the
// ninth byte whole) at the start of b, the format of FTS5's records; n is
// 0 when b ends first.
func sqliteVarint(b []byte) (v uint64, n int) {
	for i := 0; i < len(b); i++ {
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

// postingsIndex answers a store's searches from its postings (see
// postingsSchema). What it reads once (the index's totals, each
// page's size, URI and title) it keeps for the store's life; the postings
// of the terms queried it keeps up to a budget, least recently used
// dropped first.
type postingsIndex struct {
	db          *sql.DB // the readers
	titleWeight float64
	made        string // the FTS5 structure record the postings were made from

	once  sync.Once
	err   error
	rows  int64   // FTS5's row count
	avgdl float64 // FTS5's mean row size in tokens, as bm25() computes it
	pages map[int64]*indexedPage

	terms *termCache
}

// indexedPage is what a search answers of one row.
type indexedPage struct {
	uri, title string
	size       int32 // tokens in title and text
}

// termPostings is one term's postings and its BM25 IDF.
type termPostings struct {
	docs int64
	data []byte
	idf  float64
}

// postingsBudget is how many bytes of postings a postingsIndex keeps: the
// large corpus's 251,133 terms take 35 MB.
const postingsBudget = 64 << 20

// newPostingsIndex returns the index of the store whose readers are db,
// made from the FTS5 structure record made (postingsMade).
func newPostingsIndex(db *sql.DB, titleWeight float64, made string) *postingsIndex {
	return &postingsIndex{db: db, titleWeight: titleWeight, made: made, terms: newTermCache(postingsBudget)}
}

// load reads the index's totals and every row's size, URI and title.
func (x *postingsIndex) load(ctx context.Context) error {
	x.once.Do(func() { x.err = x.loadNow(context.WithoutCancel(ctx)) })
	return x.err
}

func (x *postingsIndex) loadNow(ctx context.Context) error {
	// bm25()'s N and average row size: FTS5's averages record, its row
	// count then each column's total size.
	avg, err := ftsRecord(ctx, x.db, ftsAveragesID)
	if err != nil {
		return err
	}
	var total int64
	rows, n := sqliteVarint(avg)
	for i := n; n > 0 && i < len(avg); i += n {
		var size uint64
		if size, n = sqliteVarint(avg[i:]); n > 0 {
			total += int64(size)
		}
	}
	if n == 0 || rows == 0 {
		return fmt.Errorf("postings: fts5 averages record %x", avg)
	}
	x.rows = int64(rows)
	x.avgdl = float64(total) / float64(x.rows)

	x.pages = make(map[int64]*indexedPage, x.rows)
	pr, err := x.db.QueryContext(ctx, `SELECT p.id, u.uri, p.title FROM pages p JOIN urls u ON u.id = p.id`)
	if err != nil {
		return fmt.Errorf("postings: pages: %w", err)
	}
	defer pr.Close()
	for pr.Next() {
		var id int64
		p := &indexedPage{}
		if err := pr.Scan(&id, &p.uri, &p.title); err != nil {
			return fmt.Errorf("postings: pages: %w", err)
		}
		x.pages[id] = p
	}
	if err := pr.Err(); err != nil {
		return fmt.Errorf("postings: pages: %w", err)
	}
	sr, err := x.db.QueryContext(ctx, `SELECT id, sz FROM fts_docsize`)
	if err != nil {
		return fmt.Errorf("postings: sizes: %w", err)
	}
	defer sr.Close()
	for sr.Next() {
		var id int64
		var sz []byte
		if err := sr.Scan(&id, &sz); err != nil {
			return fmt.Errorf("postings: sizes: %w", err)
		}
		p := x.pages[id]
		if p == nil {
			continue // not joined to a page: no search answers it
		}
		// xColumnSize(-1): the columns' sizes summed as a C int.
		for i := 0; i < len(sz); {
			v, n := sqliteVarint(sz[i:])
			if n == 0 {
				return fmt.Errorf("postings: size of row %d: %x", id, sz)
			}
			p.size += int32(v)
			i += n
		}
	}
	return sr.Err()
}

// handles returns the tokens of q's terms when the index can answer q: a
// conjunctive or disjunctive query (not a phrase) whose terms are each a
// single ASCII word, the one token FTS5's unicode61 tokenizer makes of it,
// folded as it folds ASCII. A term of no word is left out, as matchExpr
// leaves it out.
func handles(q lexsig.Query) ([]string, bool) {
	if q.Phrase {
		return nil, false
	}
	var toks []string
	for _, t := range q.Terms {
		ws := words.Split(t)
		switch {
		case len(ws) == 0:
			continue
		case len(ws) > 1:
			return nil, false
		}
		for i := 0; i < len(ws[0]); i++ {
			if ws[0][i] >= 0x80 {
				return nil, false
			}
		}
		toks = append(toks, strings.ToLower(ws[0]))
	}
	return toks, len(toks) > 0
}

// postings returns tok's postings, nil for a term the index does not
// hold.
func (x *postingsIndex) postings(ctx context.Context, tok string) (*termPostings, error) {
	// Read whatever the caller's context: other searches may wait for this
	// reading, and one row is soon read.
	ctx = context.WithoutCancel(ctx)
	return x.terms.get(tok, func() (*termPostings, error) {
		// With fts5Bm25GetData's IDF, log((N - nHit + 0.5) / (nHit +
		// 0.5)) at least 1e-6, in the same operations (an integer
		// difference, then doubles) and with SQLite's own log: ln() calls
		// the C library's log(), which Go's math.Log may differ from in
		// the last bit.
		p := &termPostings{}
		err := x.db.QueryRowContext(ctx, `SELECT docs, data, ln((?1 - docs + 0.5) / (docs + 0.5))
			FROM postings WHERE term = ?2`, x.rows, tok).Scan(&p.docs, &p.data, &p.idf)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("postings of %q: %w", tok, err)
		}
		if p.idf <= 0 {
			p.idf = 1e-6
		}
		return p, nil
	})
}

// scored is a row that matches a query, with its BM25 score.
type scored struct {
	id    int64
	score float64
	page  *indexedPage
}

// search answers toks, combined by mode, as Search would from FTS5: at
// most limit rows, by BM25 score then URI.
func (x *postingsIndex) search(ctx context.Context, toks []string, mode lexsig.Mode, limit int) ([]lexsig.Result, error) {
	if err := x.load(ctx); err != nil {
		return nil, err
	}
	lists := make([]*termPostings, len(toks))
	for i, tok := range toks {
		p, err := x.postings(ctx, tok)
		if err != nil {
			return nil, err
		}
		if p == nil && mode != lexsig.Disjunctive {
			return []lexsig.Result{}, nil // a conjunction with a term no page holds
		}
		lists[i] = p
	}
	matches, err := x.match(lists, mode)
	if err != nil {
		return nil, err
	}
	// The limit best by score, and every row that ties the last of
	// them, then ordered by score and URI as the SQL statements order.
	byScore := func(a, b scored) int { return cmp.Compare(b.score, a.score) }
	if len(matches) > limit {
		slices.SortFunc(matches, byScore)
		cut := limit
		for cut < len(matches) && matches[cut].score == matches[limit-1].score {
			cut++
		}
		matches = matches[:cut]
	}
	slices.SortFunc(matches, func(a, b scored) int {
		if c := byScore(a, b); c != 0 {
			return c
		}
		return strings.Compare(a.page.uri, b.page.uri)
	})
	matches = matches[:min(limit, len(matches))]
	results := make([]lexsig.Result, len(matches))
	for i, m := range matches {
		results[i] = lexsig.Result{URI: m.page.uri, Title: m.page.title, Rank: i + 1, Score: m.score}
	}
	return results, nil
}

// cursor reads one term's postings in rowid order.
type cursor struct {
	data  []byte
	id    int64
	title uint64
	text  uint64
	done  bool
}

// next moves c to its next page; it returns an error for a corrupt list.
func (c *cursor) next() error {
	if len(c.data) == 0 {
		c.done = true
		return nil
	}
	var v [3]uint64
	for i := range v {
		n := 0
		v[i], n = binary.Uvarint(c.data)
		if n <= 0 {
			return errors.New("postings: corrupt list")
		}
		c.data = c.data[n:]
	}
	c.id += int64(v[0])
	c.title, c.text = v[1], v[2]
	return nil
}

// match returns the rows that hold every list's term (lexsig.Conjunctive)
// or any (lexsig.Disjunctive), each scored. A nil list is a term no page
// holds.
func (x *postingsIndex) match(lists []*termPostings, mode lexsig.Mode) ([]scored, error) {
	cs := make([]cursor, len(lists))
	for i, p := range lists {
		if p == nil {
			cs[i].done = true
			continue
		}
		cs[i].data = p.data
		if err := cs[i].next(); err != nil {
			return nil, err
		}
	}
	freqs := make([]float64, len(lists))
	var out []scored
	for {
		// The smallest rowid any list is on, and whether all are on it.
		id, all, any := int64(math.MaxInt64), true, false
		for i := range cs {
			if cs[i].done {
				all = false
				continue
			}
			any = true
			id = min(id, cs[i].id)
		}
		if !any || (mode != lexsig.Disjunctive && !all) {
			return out, nil
		}
		if mode != lexsig.Disjunctive {
			// Conjunctive: every list on the largest rowid, or on past it.
			hi := id
			for i := range cs {
				hi = max(hi, cs[i].id)
			}
			if hi != id {
				for i := range cs {
					for !cs[i].done && cs[i].id < hi {
						if err := cs[i].next(); err != nil {
							return nil, err
						}
					}
				}
				continue
			}
		}
		for i := range cs {
			freqs[i] = 0
			if !cs[i].done && cs[i].id == id {
				freqs[i] = x.freq(cs[i].title, cs[i].text)
				if err := cs[i].next(); err != nil {
					return nil, err
				}
			}
		}
		if p := x.pages[id]; p != nil {
			out = append(out, scored{id: id, score: x.score(lists, freqs, p.size), page: p})
		}
	}
}

// freq is bm25()'s f(q, D): the weight of each instance of the term in the
// row summed in FTS5's order of instances, the title's before the text's.
func (x *postingsIndex) freq(title, text uint64) float64 {
	w := x.titleWeight
	if w == math.Trunc(w) && float64(title)*math.Abs(w)+float64(text) < 1<<53 {
		// Integers all the way: every partial sum is exact, so the
		// products are the same as the sums.
		return float64(title)*w + float64(text)
	}
	f := 0.0
	for range title {
		f += w
	}
	for range text {
		f += 1.0
	}
	return f
}

// score is fts5Bm25Function's score of a row of size tokens whose terms
// have freqs, written as it is in SQLite's C (k1 = 1.2, b = 0.75), so that
// each operation rounds as FTS5's does. A term no page holds has a zero
// frequency and adds zero.
func (x *postingsIndex) score(lists []*termPostings, freqs []float64, size int32) float64 {
	k1, b := 1.2, 0.75
	d := float64(size)
	score := 0.0
	for i, p := range lists {
		if p == nil {
			continue
		}
		score = score + p.idf*(freqs[i]*(k1+1)/(freqs[i]+k1*(1-b+b*d/x.avgdl)))
	}
	return score
}

// termCache is a concurrency-safe cache of postings by term, bounded by
// their bytes, least recently used dropped first; each term is read once
// while it is held, however many goroutines ask at once.
type termCache struct {
	mu     sync.Mutex
	budget int
	held   int
	order  *list.List // of *termEntry, most recently used first
	items  map[string]*list.Element
}

type termEntry struct {
	term  string
	ready chan struct{}
	p     *termPostings
	err   error
}

func newTermCache(budget int) *termCache {
	return &termCache{budget: budget, order: list.New(), items: map[string]*list.Element{}}
}

// get returns term's postings, reading them with read when they are not
// held.
func (c *termCache) get(term string, read func() (*termPostings, error)) (*termPostings, error) {
	c.mu.Lock()
	if el, ok := c.items[term]; ok {
		c.order.MoveToFront(el)
		e := el.Value.(*termEntry)
		c.mu.Unlock()
		<-e.ready
		return e.p, e.err
	}
	e := &termEntry{term: term, ready: make(chan struct{})}
	el := c.order.PushFront(e)
	c.items[term] = el
	c.mu.Unlock()

	e.p, e.err = read()
	close(e.ready)

	c.mu.Lock()
	defer c.mu.Unlock()
	if e.err != nil {
		if c.items[term] == el {
			c.order.Remove(el)
			delete(c.items, term)
		}
		return e.p, e.err
	}
	c.held += entrySize(e)
	for c.held > c.budget && c.order.Len() > 1 {
		last := c.order.Back()
		le := last.Value.(*termEntry)
		select {
		case <-le.ready:
		default:
			return e.p, e.err // still being read: leave the rest for later
		}
		c.order.Remove(last)
		delete(c.items, le.term)
		c.held -= entrySize(le)
	}
	return e.p, e.err
}

// entrySize is what an entry counts against the budget.
func entrySize(e *termEntry) int {
	n := len(e.term) + 64
	if e.p != nil {
		n += len(e.p.data)
	}
	return n
}
