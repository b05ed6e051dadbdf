package store

import (
	"database/sql"
	"errors"
)

// statements are the prepared queries the read side runs.
type statements struct {
	search, searchTies, backlinks, fetch, redirect, docFreq, docs, pageInfo, links *sql.Stmt
}

// queries maps each statement to its SQL.
func (st *statements) queries() map[**sql.Stmt]string {
	return map[**sql.Stmt]string{
		// ?1 MATCH expression, ?2 limit, ?3 title weight. The limit + 1
		// best rows by score alone, and only those joined to their URIs
		// and titles: a query may match tens of thousands of rows.
		&st.search: `
			SELECT u.uri, p.title, m.score
			FROM (SELECT rowid AS id, bm25(fts, ?3, 1.0) AS score FROM fts
			      WHERE fts MATCH ?1 ORDER BY score LIMIT ?2 + 1) m
			JOIN pages p ON p.id = m.id JOIN urls u ON u.id = m.id
			ORDER BY m.score, u.uri`,
		// The same ranking over every matching row, for a query whose
		// rows tie at the limit (Search).
		&st.searchTies: `
			SELECT u.uri, p.title, bm25(fts, ?3, 1.0) AS score
			FROM fts JOIN pages p ON p.id = fts.rowid JOIN urls u ON u.id = p.id
			WHERE fts MATCH ?1
			ORDER BY score, u.uri
			LIMIT ?2`,
		// ?1 target, ?2 1 to count image-map links, ?3 1 to count
		// navigation links.
		&st.backlinks: `
			SELECT u.uri
			FROM (SELECT DISTINCT l.src FROM links l
			      WHERE l.dst = (SELECT id FROM urls WHERE uri = ?1) AND l.area <= ?2 AND l.nav <= ?3) b
			JOIN pages p ON p.id = b.src JOIN urls u ON u.id = b.src
			WHERE u.uri <> ?1
			ORDER BY p.inlinks DESC, u.uri`,
		&st.fetch: `
			SELECT p.address, p.status, p.content_type, p.header, b.data
			FROM urls u JOIN pages p ON p.id = u.id JOIN bodies b ON b.id = u.id
			WHERE u.uri = ?1`,
		&st.redirect: `
			SELECT r.target FROM urls u JOIN redirects r ON r.id = u.id WHERE u.uri = ?1`,
		// The copy in df when it is up to date, the index itself otherwise.
		&st.docFreq: `
			SELECT CASE WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'derived')
				THEN (SELECT docs FROM df WHERE term = ?1)
				ELSE (SELECT doc FROM fts_vocab WHERE term = ?1) END`,
		&st.docs: `SELECT count(*) FROM pages`,
		&st.pageInfo: `
			SELECT u.uri, p.site, p.title, p.words, p.inlinks, p.content_inlinks, p.source
			FROM urls u JOIN pages p ON p.id = u.id WHERE u.uri = ?1`,
		&st.links: `
			SELECT d.uri, l.anchor, l.nav, l.area
			FROM urls u JOIN links l ON l.src = u.id JOIN urls d ON d.id = l.dst
			WHERE u.uri = ?1 ORDER BY l.pos`,
	}
}

// prepare prepares every statement on read, the search statements on
// search when it is not nil.
func (st *statements) prepare(read, search *sql.DB) error {
	for p, q := range st.queries() {
		db := read
		if search != nil && (p == &st.search || p == &st.searchTies) {
			db = search
		}
		s, err := db.Prepare(q)
		if err != nil {
			return err
		}
		*p = s
	}
	return nil
}

// close closes the prepared statements.
func (st *statements) close() error {
	var errs []error
	for p := range st.queries() {
		if *p != nil {
			errs = append(errs, (*p).Close())
		}
	}
	return errors.Join(errs...)
}
