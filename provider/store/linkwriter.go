package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/linkrot/relink/provider/commoncrawl"
	"github.com/linkrot/relink/provider/internal/ingest"
)

// linkWriter writes link sources and their records, one transaction per
// batch. It is used by one goroutine.
type linkWriter struct {
	db    *sql.DB
	tx    *sql.Tx
	stmts [nLinkWriteStmts]*sql.Stmt // prepared on db
	bound [nLinkWriteStmts]*sql.Stmt // bound to tx
	// ids caches urls ids known to be committed or in tx. A WAT file names
	// hundreds of thousands of distinct targets, so the cache is bounded:
	// it is emptied when it reaches maxCachedIDs.
	ids map[string]int64
	// stale says that this transaction has cleared the mark that the
	// derived data (in-degrees) is up to date.
	stale bool
	args  []any // reused argument list for chunked inserts
}

// maxCachedIDs bounds linkWriter's cache of urls ids: about 40 MB.
const maxCachedIDs = 1 << 18

// The link writer's statements.
const (
	lwGetURL = iota
	lwAddURL
	lwKind
	lwAddSource
	lwAddRecord
	lwAddRecords
	lwAddSkipped
	lwDelSkipped
	lwProgress
	nLinkWriteStmts
)

var linkWriteSQL = [nLinkWriteStmts]string{
	lwGetURL:     `SELECT id FROM urls WHERE uri = ?`,
	lwAddURL:     `INSERT OR IGNORE INTO urls (uri) VALUES (?)`,
	lwKind:       `SELECT EXISTS (SELECT 1 FROM pages WHERE id = ?1), EXISTS (SELECT 1 FROM link_sources WHERE id = ?1)`,
	lwAddSource:  `INSERT INTO link_sources (id, fetched, source) VALUES (?, ?, ?)`,
	lwAddRecord:  `INSERT INTO link_records (src, pos, dst, anchor) VALUES (?, ?, ?, ?)`,
	lwAddRecords: `INSERT INTO link_records (src, pos, dst, anchor) VALUES (?, ?, ?, ?)` + strings.Repeat(`, (?, ?, ?, ?)`, linkChunk-1),
	lwAddSkipped: `INSERT OR REPLACE INTO skipped (source, reason, detail) VALUES (?, ?, ?)`,
	lwDelSkipped: `DELETE FROM skipped WHERE source = ?`,
	lwProgress:   `INSERT OR REPLACE INTO sources (source, outcome) VALUES (?, ?)`,
}

// newLinkWriter prepares the statements on db, the one-connection write
// pool.
func newLinkWriter(ctx context.Context, db *sql.DB) (*linkWriter, error) {
	lw := &linkWriter{db: db, ids: map[string]int64{}}
	for i, q := range linkWriteSQL {
		st, err := db.PrepareContext(ctx, q)
		if err != nil {
			lw.close()
			return nil, fmt.Errorf("store: ingest WAT: prepare: %w", err)
		}
		lw.stmts[i] = st
	}
	return lw, nil
}

// close rolls back an open transaction and closes the statements.
func (lw *linkWriter) close() {
	lw.Rollback()
	for _, st := range lw.stmts {
		if st != nil {
			st.Close()
		}
	}
}

// Open reports whether a transaction is open.
func (lw *linkWriter) Open() bool { return lw.tx != nil }

// Finish brings the derived data up to date and marks the store complete
// (finish).
func (lw *linkWriter) Finish(ctx context.Context) error { return finish(ctx, lw.db, nil) }

// Begin opens a transaction unless one is open.
func (lw *linkWriter) Begin(ctx context.Context) error {
	if lw.tx != nil {
		return nil
	}
	tx, err := lw.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	lw.tx = tx
	for i, st := range lw.stmts {
		lw.bound[i] = tx.StmtContext(ctx, st)
	}
	return nil
}

// Commit commits the open transaction, if any.
func (lw *linkWriter) Commit(context.Context) error {
	if lw.tx == nil {
		return nil
	}
	err := lw.tx.Commit()
	lw.tx, lw.stale = nil, false
	if err != nil {
		clear(lw.ids) // ids added by the failed transaction are void
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// Rollback abandons the open transaction, if any.
func (lw *linkWriter) Rollback() {
	if lw.tx != nil {
		lw.tx.Rollback()
		lw.tx, lw.stale = nil, false
		clear(lw.ids)
	}
}

// lookup returns the id of uri in urls, or 0 when it has none.
func (lw *linkWriter) lookup(ctx context.Context, uri string) (int64, error) {
	if id, ok := lw.ids[uri]; ok {
		return id, nil
	}
	var id int64
	err := lw.bound[lwGetURL].QueryRowContext(ctx, uri).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return id, err
}

// urlID returns the id of uri in urls, adding it when needed.
func (lw *linkWriter) urlID(ctx context.Context, uri string) (int64, error) {
	if id, ok := lw.ids[uri]; ok {
		return id, nil
	}
	var id int64
	res, err := lw.bound[lwAddURL].ExecContext(ctx, uri)
	if err != nil {
		return 0, err
	}
	if n, err := res.RowsAffected(); err == nil && n == 1 {
		if id, err = res.LastInsertId(); err != nil {
			return 0, err
		}
	} else if err := lw.bound[lwGetURL].QueryRowContext(ctx, uri).Scan(&id); err != nil {
		return 0, err
	}
	if len(lw.ids) >= maxCachedIDs {
		clear(lw.ids)
	}
	lw.ids[uri] = id
	return id, nil
}

// writePage writes the page of a WAT record as a link source, unless it
// must be passed over, and counts the outcome in st.
func (lw *linkWriter) writePage(ctx context.Context, file string, p *commoncrawl.Page, st *LinkStats) error {
	self := ingest.SelfLinks(p)
	if self == len(p.Links) {
		ingest.Count(&st.Skipped, ReasonNoLinks, 1)
		return nil
	}
	id, err := lw.lookup(ctx, p.URI)
	if err != nil {
		return err
	}
	if id != 0 {
		var page, source bool
		if err := lw.bound[lwKind].QueryRowContext(ctx, id).Scan(&page, &source); err != nil {
			return err
		}
		switch {
		case page:
			ingest.Count(&st.Skipped, ReasonPageInStore, 1)
			return nil
		case source:
			ingest.Count(&st.Skipped, ReasonDuplicate, 1)
			return nil
		}
	} else if id, err = lw.urlID(ctx, p.URI); err != nil {
		return err
	}
	if !lw.stale {
		if _, err := lw.tx.ExecContext(ctx, `DELETE FROM meta WHERE key = 'derived'`); err != nil {
			return err
		}
		lw.stale = true
	}
	var fetched int64
	if !p.Fetched.IsZero() {
		fetched = p.Fetched.Unix()
	}
	if _, err := lw.bound[lwAddSource].ExecContext(ctx, id, fetched, watSource(file, p.Record)); err != nil {
		return err
	}
	args := lw.args[:0]
	pos := 0
	for _, l := range p.Links {
		if l.Target == p.URI {
			continue
		}
		dst, err := lw.urlID(ctx, l.Target)
		if err != nil {
			return err
		}
		args = append(args, id, pos, dst, l.Anchor)
		pos++
		if len(args) == 4*linkChunk {
			if _, err := lw.bound[lwAddRecords].ExecContext(ctx, args...); err != nil {
				return err
			}
			args = args[:0]
		}
	}
	for i := 0; i < len(args); i += 4 {
		if _, err := lw.bound[lwAddRecord].ExecContext(ctx, args[i:i+4]...); err != nil {
			return err
		}
	}
	lw.args = args[:0]
	ingest.AddSource(st, p, pos, self)
	return nil
}

// WriteRecord writes a record of a WAT file, a page or a skip, and counts
// it in st. When it.Retry is set an earlier ingest may have recorded the
// record as malformed: a malformed skip replaces that row, and a page or
// another skip removes it.
func (lw *linkWriter) WriteRecord(ctx context.Context, it *ingest.WATItem, st *LinkStats) error {
	if it.Skip != nil {
		ingest.Count(&st.Skipped, it.Skip.Reason, 1)
		if it.Skip.Malformed() {
			return lw.writeSkip(ctx, it.File, it.Skip)
		}
	} else if err := lw.writePage(ctx, it.File, it.Page, st); err != nil {
		return err
	}
	if it.Retry {
		_, err := lw.bound[lwDelSkipped].ExecContext(ctx, watSource(it.File, it.Record))
		return err
	}
	return nil
}

// writeSkip records a malformed record.
func (lw *linkWriter) writeSkip(ctx context.Context, file string, se *commoncrawl.SkipError) error {
	detail := se.URI
	if se.Err != nil {
		detail = strings.TrimPrefix(detail+": "+se.Err.Error(), ": ")
	}
	_, err := lw.bound[lwAddSkipped].ExecContext(ctx, watSource(file, se.Record), se.Reason, detail)
	return err
}

// Progress records the progress of a file.
func (lw *linkWriter) Progress(ctx context.Context, file, outcome string) error {
	_, err := lw.bound[lwProgress].ExecContext(ctx, "wat:"+file, outcome)
	return err
}

// watSource names a record of a WAT file in the store.
func watSource(file string, record int) string {
	return "wat:" + file + "#" + strconv.Itoa(record)
}
