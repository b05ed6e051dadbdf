// Command storediff compares two relink stores (SQLite files) by content,
// to check that a change to the ingest leaves what it builds as it was: it
// reads both stores read-only and reports every difference in
//
//   - pages: URI, address, site, title, status, content type, header,
//     words, in-degrees, source;
//   - bodies: each page's stored body, decompressed (the compressed bytes
//     may differ);
//   - index: each page's terms in the full-text index, with their column
//     and position, as the index holds them (fts5vocab "instance"), and
//     the document frequencies the store keeps (df);
//   - links: source, position, target, anchor, navigation and image-map
//     flags; link sources and their records (IngestWAT);
//   - redirects, skipped files and records, the sources an ingest
//     finished, and the URIs by id (so that ids are compared too).
//
// Usage:
//
//	storediff [-max N] [-index=false] A.db B.db
//
// It prints the number of rows compared and the first -max differences of
// each part (default 10), and exits with status 1 when the stores differ,
// 2 on an error. -index=false leaves out the per-page terms, the slowest
// part (about a minute on the 4,500 pages of the development corpus).
package main

import (
	"bytes"
	"cmp"
	"compress/flate"
	"crypto/sha256"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"net/url"
	"os"
	"slices"
	"strings"

	_ "modernc.org/sqlite"
)

func main() {
	code, err := run(os.Args[1:], os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "storediff:", err)
	}
	os.Exit(code)
}

// run compares the stores the arguments name and writes the report to w
// (and the flags' usage to errW); it returns the exit status.
func run(args []string, w, errW io.Writer) (int, error) {
	fs := flag.NewFlagSet("storediff", flag.ContinueOnError)
	fs.SetOutput(errW)
	maxDiffs := fs.Int("max", 10, "differences to print for each part")
	index := fs.Bool("index", true, "compare each page's terms in the full-text index")
	if err := fs.Parse(args); err != nil {
		return 2, err
	}
	if fs.NArg() != 2 {
		return 2, errors.New("usage: storediff [-max N] [-index=false] A.db B.db")
	}
	a, err := open(fs.Arg(0))
	if err != nil {
		return 2, err
	}
	defer a.Close()
	b, err := open(fs.Arg(1))
	if err != nil {
		return 2, err
	}
	defer b.Close()
	parts := parts
	if !*index {
		parts = slices.DeleteFunc(slices.Clone(parts), func(p part) bool { return p.name == "index" })
	}
	differ := false
	for _, p := range parts {
		r, err := compare(p, a, b, *maxDiffs)
		if err != nil {
			return 2, fmt.Errorf("%s: %w", p.name, err)
		}
		fmt.Fprintf(w, "%-10s %d and %d rows, %d differ\n", p.name, r.rowsA, r.rowsB, r.diffs)
		for _, d := range r.shown {
			fmt.Fprintln(w, "   ", d)
		}
		differ = differ || r.diffs > 0
	}
	if differ {
		fmt.Fprintln(w, "the stores differ")
		return 1, nil
	}
	fmt.Fprintln(w, "the stores hold the same content")
	return 0, nil
}

// open opens the store at path read-only; it changes no file.
func open(path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=ro")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM pages`).Scan(&n); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: not a relink store: %w", path, err)
	}
	return db, nil
}

// A part is one kind of content: rows that a query gives in a fixed order,
// the first keys columns naming a row, the others its content.
type part struct {
	name  string
	query string
	keys  int
	// rows, when not nil, produces the rows instead of query.
	rows func(db *sql.DB) (rowSource, error)
}

// parts are what storediff compares.
var parts = []part{
	{name: "urls", keys: 1, query: `SELECT id, uri FROM urls ORDER BY id`},
	{name: "pages", keys: 1, query: `
		SELECT u.uri, p.address, p.site, p.title, p.status, p.content_type, p.header,
			p.words, p.inlinks, p.content_inlinks, p.source
		FROM pages p JOIN urls u ON u.id = p.id ORDER BY u.uri`},
	{name: "bodies", keys: 1, rows: bodies},
	{name: "index", keys: 1, rows: instances},
	{name: "df", keys: 1, query: `SELECT term, docs FROM df ORDER BY term`},
	{name: "links", keys: 2, query: `
		SELECT s.uri, l.pos, d.uri, l.anchor, l.nav, l.area
		FROM links l JOIN urls s ON s.id = l.src JOIN urls d ON d.id = l.dst
		ORDER BY s.uri, l.pos`},
	{name: "redirects", keys: 1, query: `
		SELECT u.uri, r.target, r.status, r.source
		FROM redirects r JOIN urls u ON u.id = r.id ORDER BY u.uri`},
	{name: "skipped", keys: 1, query: `SELECT source, reason, detail FROM skipped ORDER BY source`},
	{name: "sources", keys: 1, query: `SELECT source, outcome FROM sources ORDER BY source`},
	{name: "linksource", keys: 1, query: `
		SELECT u.uri, s.fetched, s.inlinks, s.content_inlinks, s.source
		FROM link_sources s JOIN urls u ON u.id = s.id ORDER BY u.uri`},
	{name: "linkrecord", keys: 2, query: `
		SELECT s.uri, r.pos, d.uri, r.anchor
		FROM link_records r JOIN urls s ON s.id = r.src JOIN urls d ON d.id = r.dst
		ORDER BY s.uri, r.pos`},
}

// rowSource yields rows in the order of their keys. A value is an int64,
// a string, or (a blob) its digest as a string; NULL is nil.
type rowSource interface {
	next() ([]any, bool)
	err() error
	close() error
}

// sqlRows is a rowSource over a query's rows, blobs read as their
// digest.
type sqlRows struct {
	rows *sql.Rows
	vals []any
	e    error
	// convert, when not nil, changes a row's values before they are
	// formatted.
	convert func(vals []any) error
}

// query runs q on db as a rowSource.
func query(db *sql.DB, q string) (*sqlRows, error) {
	rows, err := db.Query(q)
	if err != nil {
		return nil, err
	}
	cols, err := rows.Columns()
	if err != nil {
		rows.Close()
		return nil, err
	}
	return &sqlRows{rows: rows, vals: make([]any, len(cols))}, nil
}

func (r *sqlRows) next() ([]any, bool) {
	if r.e != nil || !r.rows.Next() {
		return nil, false
	}
	ptrs := make([]any, len(r.vals))
	for i := range r.vals {
		ptrs[i] = &r.vals[i]
	}
	if r.e = r.rows.Scan(ptrs...); r.e != nil {
		return nil, false
	}
	if r.convert != nil {
		if r.e = r.convert(r.vals); r.e != nil {
			return nil, false
		}
	}
	out := slices.Clone(r.vals)
	for i, v := range out {
		if b, ok := v.([]byte); ok {
			out[i] = fmt.Sprintf("blob:%x", sha256.Sum256(b))
		}
	}
	return out, true
}

func (r *sqlRows) err() error {
	if r.e != nil {
		return r.e
	}
	return r.rows.Err()
}

func (r *sqlRows) close() error { return r.rows.Close() }

// format writes values as text, strings quoted.
func format(vals []any) string {
	var b strings.Builder
	for i, v := range vals {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch x := v.(type) {
		case nil:
			b.WriteString("NULL")
		case string:
			fmt.Fprintf(&b, "%q", x)
		default:
			fmt.Fprint(&b, x)
		}
	}
	return b.String()
}

// bodies yields each page's URI and its body, decompressed.
func bodies(db *sql.DB) (rowSource, error) {
	r, err := query(db, `SELECT u.uri, b.data FROM bodies b JOIN urls u ON u.id = b.id ORDER BY u.uri`)
	if err != nil {
		return nil, err
	}
	r.convert = func(vals []any) error {
		data, _ := vals[1].([]byte)
		body, err := io.ReadAll(flate.NewReader(bytes.NewReader(data)))
		if err != nil {
			return fmt.Errorf("body of %v: %w", vals[0], err)
		}
		vals[1] = body
		return nil
	}
	return r, nil
}

// instances yields, for each page, a digest of its terms in the full-text
// index: every (term, column, position) the index holds for it, as
// fts5vocab's "instance" table lists them (whatever order they come in),
// and how many there are.
func instances(db *sql.DB) (rowSource, error) {
	if _, err := db.Exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.storediff_instance USING fts5vocab(main, fts, 'instance')`); err != nil {
		return nil, err
	}
	rows, err := db.Query(`SELECT term, doc, col, offset FROM temp.storediff_instance`)
	if err != nil {
		return nil, err
	}
	type digest struct {
		sum, n uint64
	}
	docs := map[int64]*digest{}
	for rows.Next() {
		var term, col string
		var doc, offset int64
		if err := rows.Scan(&term, &doc, &col, &offset); err != nil {
			rows.Close()
			return nil, err
		}
		h := fnv.New64a()
		fmt.Fprintf(h, "%s\x00%s\x00%d", term, col, offset)
		d := docs[doc]
		if d == nil {
			d = &digest{}
			docs[doc] = d
		}
		d.sum += h.Sum64() // a sum: the order of the rows does not matter
		d.n++
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	uris, err := db.Query(`SELECT p.id, u.uri FROM pages p JOIN urls u ON u.id = p.id`)
	if err != nil {
		return nil, err
	}
	defer uris.Close()
	var out [][]any
	for uris.Next() {
		var id int64
		var uri string
		if err := uris.Scan(&id, &uri); err != nil {
			return nil, err
		}
		d := docs[id]
		if d == nil {
			d = &digest{}
		}
		delete(docs, id)
		out = append(out, []any{uri, fmt.Sprintf("%d terms, digest %016x", d.n, d.sum)})
	}
	if err := uris.Err(); err != nil {
		return nil, err
	}
	for id, d := range docs {
		out = append(out, []any{fmt.Sprintf("(row %d, no page)", id), fmt.Sprintf("%d terms, digest %016x", d.n, d.sum)})
	}
	slices.SortFunc(out, func(x, y []any) int { return compareKeys(x[:1], y[:1]) })
	return &sliceRows{rows: out}, nil
}

// sliceRows is a rowSource over rows in memory.
type sliceRows struct {
	rows [][]any
}

func (s *sliceRows) next() ([]any, bool) {
	if len(s.rows) == 0 {
		return nil, false
	}
	r := s.rows[0]
	s.rows = s.rows[1:]
	return r, true
}

func (s *sliceRows) err() error   { return nil }
func (s *sliceRows) close() error { return nil }

// result is the comparison of one part.
type result struct {
	rowsA, rowsB, diffs int
	shown               []string
}

// compare walks the rows of p in both stores in key order and counts the
// rows that are in one only or whose content differs.
func compare(p part, a, b *sql.DB, maxDiffs int) (result, error) {
	src := func(db *sql.DB) (rowSource, error) {
		if p.rows != nil {
			return p.rows(db)
		}
		return query(db, p.query)
	}
	ra, err := src(a)
	if err != nil {
		return result{}, err
	}
	defer ra.close()
	rb, err := src(b)
	if err != nil {
		return result{}, err
	}
	defer rb.close()
	var r result
	note := func(format string, args ...any) {
		r.diffs++
		if len(r.shown) < maxDiffs {
			r.shown = append(r.shown, fmt.Sprintf(format, args...))
		}
	}
	x, okA := ra.next()
	y, okB := rb.next()
	for okA || okB {
		c := 0
		switch {
		case !okA:
			c = 1
		case !okB:
			c = -1
		default:
			c = compareKeys(x[:p.keys], y[:p.keys])
		}
		switch {
		case c < 0:
			note("only in A: %s", format(x))
			r.rowsA++
			x, okA = ra.next()
		case c > 0:
			note("only in B: %s", format(y))
			r.rowsB++
			y, okB = rb.next()
		default:
			if a, b := format(x[p.keys:]), format(y[p.keys:]); a != b {
				note("%s: A %s, B %s", format(x[:p.keys]), a, b)
			}
			r.rowsA++
			r.rowsB++
			x, okA = ra.next()
			y, okB = rb.next()
		}
	}
	return r, errors.Join(ra.err(), rb.err())
}

// compareKeys orders two rows' keys as the queries order them: numbers
// as numbers, text by its bytes (SQLite's BINARY collation), NULL first,
// numbers before text.
func compareKeys(x, y []any) int {
	for i := range x {
		if c := compareValue(x[i], y[i]); c != 0 {
			return c
		}
	}
	return 0
}

// compareValue orders two key values.
func compareValue(x, y any) int {
	rank := func(v any) int {
		switch v.(type) {
		case nil:
			return 0
		case int64:
			return 1
		}
		return 2
	}
	if c := cmp.Compare(rank(x), rank(y)); c != 0 {
		return c
	}
	switch a := x.(type) {
	case int64:
		return cmp.Compare(a, y.(int64))
	case string:
		return strings.Compare(a, y.(string))
	}
	return 0
}
