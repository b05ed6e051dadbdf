package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"

	"slices"
	"strings"

	"github.com/linkrot/relink/provider/internal/ingest"
)

// writer writes ingested items, one transaction per batch. It is used by
// one goroutine.
type writer struct {
	db    *sql.DB
	tx    *sql.Tx
	stmts [nWriteStmts]*sql.Stmt // prepared on db
	bound [nWriteStmts]*sql.Stmt // bound to tx
	ids   map[string]int64       // urls ids known to be committed or in tx
	// complete says that ids holds every row of urls, so that a URI not
	// in it is new.
	complete bool
	// stale says that this ingest has cleared the mark that the derived
	// data (in-degrees, the df table) is up to date.
	stale bool
	// fts and links hold the full-text rows and the links of the pages in
	// tx, written together just before it commits (writeFTS, writeLinks).
	fts   []ftsRow
	links []linkRow
	// degrees, when not nil, counts the in-degrees as the links are
	// written, for finish (the ingest began with no links in the store).
	degrees *inDegrees
	args    []any // reused argument list for chunked inserts
}

// ftsRow is a page's row of the full-text index, and where its links are
// in writer.links: links[from:to].
type ftsRow struct {
	id          int64
	title, text string
	from, to    int
}

// linkRow is a row of the links table.
type linkRow struct {
	src, pos, dst int64
	anchor        string
	nav, area     bool
}

// preloadURLs bounds the size of a urls table that newWriter reads into
// memory whole; beyond it, each new URI is looked up in the database.
const preloadURLs = 2_000_000

// linkChunk is how many links one INSERT statement writes: fewer calls
// through database/sql, which cost more than SQLite's own work per row.
const linkChunk = 64

// batchLinkChunk is how many links one INSERT statement of writeLinks
// writes. The driver matches each parameter to its argument by a search
// through all of them, so a statement's cost grows with the square of its
// parameters: inserting 200,000 links of the table's shape in key order
// took (best of 4, one core) 297 ms 8 a statement, 305 ms 16, 361 ms 32
// and 468 ms 64.
const batchLinkChunk = 16

// The writer's statements.
const (
	wGetURL = iota
	wAddURL
	wExists
	wAddPage
	wAddBody
	wAddFTS
	wAddLinks
	wAddRedirect
	wAddSource
	wAddSkipped
	wDelSkipped
	nWriteStmts
)

var writeSQL = [nWriteStmts]string{
	wGetURL:      `SELECT id FROM urls WHERE uri = ?`,
	wAddURL:      `INSERT OR IGNORE INTO urls (uri) VALUES (?)`,
	wExists:      `SELECT EXISTS (SELECT 1 FROM pages WHERE id = ?1) OR EXISTS (SELECT 1 FROM redirects WHERE id = ?1)`,
	wAddPage:     `INSERT INTO pages (id, address, site, title, status, content_type, header, words, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	wAddBody:     `INSERT INTO bodies (id, data) VALUES (?, ?)`,
	wAddFTS:      `INSERT INTO fts (rowid, title, body) VALUES (?, ?, ?)`,
	wAddLinks:    insertLinks(batchLinkChunk),
	wAddRedirect: `INSERT INTO redirects (id, target, status, source) VALUES (?, ?, ?, ?)`,
	wAddSource:   `INSERT OR REPLACE INTO sources (source, outcome) VALUES (?, ?)`,
	wAddSkipped:  `INSERT OR REPLACE INTO skipped (source, reason, detail) VALUES (?, ?, ?)`,
	wDelSkipped:  `DELETE FROM skipped WHERE source = ?`,
}

// insertLinks returns the statement that inserts n links.
func insertLinks(n int) string {
	return `INSERT INTO links (src, pos, dst, anchor, nav, area) VALUES (?, ?, ?, ?, ?, ?)` + strings.Repeat(`, (?, ?, ?, ?, ?, ?)`, n-1)
}

// newWriter prepares the writer's statements on db, the one-connection
// write pool.
func newWriter(ctx context.Context, db *sql.DB) (*writer, error) {
	wr := &writer{db: db, ids: map[string]int64{}}
	for i, q := range writeSQL {
		st, err := db.PrepareContext(ctx, q)
		if err != nil {
			wr.close()
			return nil, fmt.Errorf("store: ingest: prepare: %w", err)
		}
		wr.stmts[i] = st
	}
	if err := wr.preload(ctx); err != nil {
		wr.close()
		return nil, fmt.Errorf("store: ingest: %w", err)
	}
	return wr, nil
}

// preload reads the urls table into wr.ids when it is not too large.
func (wr *writer) preload(ctx context.Context) error {
	var n int
	if err := wr.db.QueryRowContext(ctx, `SELECT count(*) FROM urls`).Scan(&n); err != nil {
		return err
	}
	if n > preloadURLs {
		return nil
	}
	rows, err := wr.db.QueryContext(ctx, `SELECT id, uri FROM urls`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var uri string
		if err := rows.Scan(&id, &uri); err != nil {
			return err
		}
		wr.ids[uri] = id
	}
	if err := rows.Err(); err != nil {
		return err
	}
	wr.complete = true
	return nil
}

// close rolls back an open transaction and closes the statements.
func (wr *writer) close() {
	wr.Rollback()
	for _, st := range wr.stmts {
		if st != nil {
			st.Close()
		}
	}
}

// begin opens a transaction unless one is open.
func (wr *writer) begin(ctx context.Context) error {
	if wr.tx != nil {
		return nil
	}
	tx, err := wr.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: ingest: begin: %w", err)
	}
	wr.tx = tx
	for i, st := range wr.stmts {
		wr.bound[i] = tx.StmtContext(ctx, st)
	}
	return nil
}

// Commit writes the full-text rows of the open transaction, if any, and
// commits it.
func (wr *writer) Commit(ctx context.Context) error {
	if wr.tx == nil {
		return nil
	}
	// The pages in id order: their links in the order of the links
	// table's key, their full-text rows as FTS5 wants them (writeFTS).
	slices.SortFunc(wr.fts, func(a, b ftsRow) int { return cmp.Compare(a.id, b.id) })
	err := wr.writeLinks(ctx)
	if err == nil {
		err = wr.writeFTS(ctx)
	}
	if err == nil {
		err = wr.tx.Commit()
	} else {
		wr.tx.Rollback()
	}
	wr.tx, wr.fts, wr.links = nil, wr.fts[:0], wr.links[:0]
	if err != nil {
		wr.ids, wr.complete, wr.stale = map[string]int64{}, false, false // the failed transaction is void
		return fmt.Errorf("store: ingest: commit: %w", err)
	}
	return nil
}

// Rollback abandons the open transaction, if any.
func (wr *writer) Rollback() {
	if wr.tx != nil {
		wr.tx.Rollback()
		wr.tx, wr.fts, wr.links = nil, wr.fts[:0], wr.links[:0]
		wr.ids, wr.complete, wr.stale = map[string]int64{}, false, false
	}
}

// Finish brings the derived data up to date and marks the store complete
// (finish).
func (wr *writer) Finish(ctx context.Context) error { return finish(ctx, wr.db, wr.degrees) }

// writeFTS writes the full-text rows of the pages in the open transaction.
//
// They are written last, together, because FTS5 writes the terms it holds
// in memory to a new segment of its index whenever a statement of the
// transaction opens a savepoint, as an INSERT of many rows (the links) or
// one that fires a trigger (pages) does. Written with each page, every
// page made a segment of its own, which FTS5 then merged again and again
// (automerge): a third of the writer's time. FTS5 does the same when a
// row's id is not above the last one's, so the rows are written in id
// order (a page's id is its URI's, which it may have had for long as a
// link target). Written so, a batch makes one segment per FTS5 hash
// table's worth of terms.
func (wr *writer) writeFTS(ctx context.Context) error {
	for _, r := range wr.fts {
		if err := wr.exec(ctx, wAddFTS, r.id, r.title, r.text); err != nil {
			return fmt.Errorf("store: ingest: full-text index: %w", err)
		}
	}
	return nil
}

// writeLinks writes the links of the pages in the open transaction, in
// the order of the table's key (page id, position), many rows a statement:
// page by page in the order of wr.fts, which Commit sorted by id, each
// page's links being in page order already.
func (wr *writer) writeLinks(ctx context.Context) error {
	args := wr.args[:0]
	flush := func() error {
		n := len(args) / 6
		st := wr.bound[wAddLinks]
		if n < batchLinkChunk {
			var err error
			if st, err = wr.tx.PrepareContext(ctx, insertLinks(n)); err != nil {
				return fmt.Errorf("store: ingest: links: %w", err)
			}
			defer st.Close()
		}
		if _, err := st.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("store: ingest: links: %w", err)
		}
		args = args[:0]
		return nil
	}
	for _, p := range wr.fts {
		for _, l := range wr.links[p.from:p.to] {
			args = append(args, l.src, l.pos, l.dst, l.anchor, l.nav, l.area)
			if len(args) == 6*batchLinkChunk {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	if len(args) > 0 {
		if err := flush(); err != nil {
			return err
		}
	}
	clear(args[:cap(args)])
	wr.args = args
	return nil
}

// exec runs statement i of the open transaction.
func (wr *writer) exec(ctx context.Context, i int, args ...any) error {
	_, err := wr.bound[i].ExecContext(ctx, args...)
	return err
}

// urlID returns the id of uri in urls, adding it when needed.
func (wr *writer) urlID(ctx context.Context, uri string) (int64, error) {
	if id, ok := wr.ids[uri]; ok {
		return id, nil
	}
	if wr.complete {
		// Most likely new: insert, and look up only if another process
		// added it meanwhile.
		res, err := wr.bound[wAddURL].ExecContext(ctx, uri)
		if err != nil {
			return 0, err
		}
		if n, err := res.RowsAffected(); err == nil && n == 1 {
			id, err := res.LastInsertId()
			if err != nil {
				return 0, err
			}
			wr.ids[uri] = id
			return id, nil
		}
	}
	var id int64
	err := wr.bound[wGetURL].QueryRowContext(ctx, uri).Scan(&id)
	if err == sql.ErrNoRows {
		if _, err = wr.bound[wAddURL].ExecContext(ctx, uri); err == nil {
			err = wr.bound[wGetURL].QueryRowContext(ctx, uri).Scan(&id)
		}
	}
	if err != nil {
		return 0, err
	}
	wr.ids[uri] = id
	return id, nil
}

// Write writes one item in the open transaction (opening one if needed).
// A page or redirect whose URI the store already holds becomes a skip with
// ReasonDuplicate.
func (wr *writer) Write(ctx context.Context, it *ingest.Item) error {
	if err := wr.begin(ctx); err != nil {
		return err
	}
	if err := wr.writeItem(ctx, it); err != nil {
		return fmt.Errorf("store: ingest %s: %w", it.Source, err)
	}
	if it.Retry && it.Skip == "" {
		// What an earlier ingest skipped is a page or redirect now.
		if err := wr.exec(ctx, wDelSkipped, it.Source); err != nil {
			return fmt.Errorf("store: ingest %s: %w", it.Source, err)
		}
	}
	if it.Progress != "" {
		if err := wr.exec(ctx, wAddSource, it.File, it.Progress); err != nil {
			return fmt.Errorf("store: ingest %s: %w", it.File, err)
		}
	}
	return nil
}

// writeItem is write without the transaction handling.
func (wr *writer) writeItem(ctx context.Context, it *ingest.Item) error {
	var uri string
	switch {
	case it.Page != nil:
		uri = it.Page.URI
	case it.Redirect != nil:
		uri = it.Redirect.URI
	}
	var id int64
	if uri != "" {
		var err error
		if id, err = wr.urlID(ctx, uri); err != nil {
			return err
		}
		var exists bool
		if err := wr.bound[wExists].QueryRowContext(ctx, id).Scan(&exists); err != nil {
			return err
		}
		if exists {
			it.Page, it.Redirect = nil, nil
			it.Skip, it.Detail = ReasonDuplicate, uri
		}
	}
	if (it.Page != nil || it.Redirect != nil) && !wr.stale {
		if _, err := wr.tx.ExecContext(ctx, `DELETE FROM meta WHERE key = 'derived'`); err != nil {
			return err
		}
		wr.stale = true
	}
	switch {
	case it.Page != nil:
		if err := wr.writePage(ctx, id, it); err != nil {
			return err
		}
		return wr.exec(ctx, wAddSource, it.Source, "page")
	case it.Redirect != nil:
		r := it.Redirect
		if err := wr.exec(ctx, wAddRedirect, id, r.Target, r.Status, it.Source); err != nil {
			return err
		}
		return wr.exec(ctx, wAddSource, it.Source, "redirect")
	case it.Skip != "":
		if err := wr.exec(ctx, wAddSkipped, it.Source, it.Skip, it.Detail); err != nil {
			return err
		}
		return wr.exec(ctx, wAddSource, it.Source, it.Skip)
	}
	return wr.exec(ctx, wAddSource, it.Source, "done")
}

// writePage writes a page, its body, its index entry and its links.
func (wr *writer) writePage(ctx context.Context, id int64, it *ingest.Item) error {
	p := it.Page
	if err := wr.exec(ctx, wAddPage, id, p.Address, p.Site, p.Title, p.Status, p.ContentType, p.Header, p.Words, it.Source); err != nil {
		return err
	}
	if err := wr.exec(ctx, wAddBody, id, p.Body); err != nil {
		return err
	}
	from := len(wr.links)
	for pos, l := range p.Links {
		dst, err := wr.urlID(ctx, l.URI)
		if err != nil {
			return err
		}
		wr.links = append(wr.links, linkRow{id, int64(pos), dst, l.Anchor, l.Nav, l.Area})
	}
	if wr.degrees != nil {
		wr.degrees.add(id, wr.links[from:])
	}
	wr.fts = append(wr.fts, ftsRow{id, p.TitleText, p.Text, from, len(wr.links)})
	return nil
}
