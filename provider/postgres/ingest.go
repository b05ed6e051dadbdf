package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/linkrot/relink/provider/corpus"
	"github.com/linkrot/relink/provider/internal/ingest"
)

// IngestManifest adds the pages of every site of m, as
// provider/store's Store.IngestManifest does: the same files, read and
// parsed by the same code (the same pages, links and words), written in
// batches of opts.BatchSize with COPY. Several ingests, in this process
// or others, on this machine or others, may write the database at once:
// each file is claimed by the ingest that writes it first (the sources
// table) and each URI by the ingest that writes a page or redirect there
// first (the uris table), so nothing is lost or written twice; a source
// another ingest wrote meanwhile is passed over and not counted.
//
// An interrupted ingest keeps its committed batches, and running it again
// finishes the job. Until every ingest has finished, read-only Opens
// refuse the store with ErrIncomplete.
func (s *Store) IngestManifest(ctx context.Context, m *corpus.Manifest, opts corpus.IngestOptions) (corpus.Stats, error) {
	src, err := ingest.ManifestSource(m, opts)
	if err != nil {
		return corpus.Stats{}, err
	}
	return s.ingest(ctx, src, opts)
}

// IngestDir adds the HTML files under dir as pages whose URLs are base
// followed by their path relative to dir, as Store.IngestManifest with
// the manifest provider/store's IngestDir makes.
func (s *Store) IngestDir(ctx context.Context, dir, base string, opts corpus.IngestOptions) (corpus.Stats, error) {
	m, err := ingest.DirManifest(dir, base)
	if err != nil {
		return corpus.Stats{}, err
	}
	return s.IngestManifest(ctx, m, opts)
}

// IngestWARC adds the captures of the named WARC files, as
// provider/store's Store.IngestWARC does, with the concurrency of
// IngestManifest.
func (s *Store) IngestWARC(ctx context.Context, paths []string, opts corpus.IngestOptions) (corpus.Stats, error) {
	src, err := ingest.WARCSource(paths, opts)
	if err != nil {
		return corpus.Stats{}, err
	}
	return s.ingest(ctx, src, opts)
}

// ingest runs src into the store through one connection of the pool,
// which holds the ingest's advisory lock while it runs.
func (s *Store) ingest(ctx context.Context, src ingest.Source, opts corpus.IngestOptions) (corpus.Stats, error) {
	start := time.Now()
	if s.readOnly {
		return corpus.Stats{}, fmt.Errorf("postgres: ingest: %w", ErrReadOnly)
	}
	if !s.ingestMu.TryLock() {
		return corpus.Stats{}, ErrLocked
	}
	defer s.ingestMu.Unlock()
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return corpus.Stats{}, fmt.Errorf("postgres: ingest: %w", s.dsn.scrub(err))
	}
	defer conn.Release()
	id, err := beginIngest(ctx, conn, s.lockClass, src.Kind)
	if err != nil {
		return corpus.Stats{}, fmt.Errorf("postgres: ingest: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1, $2)`, s.lockClass, id)
	prior, err := loadSources(ctx, conn)
	if err != nil {
		return corpus.Stats{}, fmt.Errorf("postgres: ingest: %w", err)
	}
	w := &writer{conn: conn, id: id, class: s.lockClass, titleWeight: s.titleWeight}
	st, err := ingest.Run(ctx, src, opts, prior, w)
	st.Duration = time.Since(start)
	return st, err
}

// beginIngest records an ingest of kind as begun and takes its advisory
// lock (class, id) on conn, which the session holds until it unlocks or ends: a
// reader that finds the ingest's row and no lock knows it was interrupted.
func beginIngest(ctx context.Context, conn *pgxpool.Conn, class int32, kind string) (int64, error) {
	var id int64
	if err := conn.QueryRow(ctx, `SELECT nextval(pg_get_serial_sequence('ingests', 'id'))`).Scan(&id); err != nil {
		return 0, err
	}
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1, $2)`, class, id); err != nil {
		return 0, err
	}
	if _, err := conn.Exec(ctx, `INSERT INTO ingests (id, kind) VALUES ($1, $2)`, id, kind); err != nil {
		return 0, err
	}
	return id, nil
}

// loadSources reads the sources earlier ingests finished, with their
// outcomes.
func loadSources(ctx context.Context, conn *pgxpool.Conn) (map[string]string, error) {
	rows, _ := conn.Query(ctx, `SELECT source, outcome FROM sources`)
	done := map[string]string{}
	var src, outcome string
	_, err := pgx.ForEachRow(rows, []any{&src, &outcome}, func() error {
		done[src] = outcome
		return nil
	})
	return done, err
}

// writer is the ingest.Sink of a PostgreSQL store: it keeps a batch's
// items and writes them in one transaction when the batch commits.
type writer struct {
	conn        *pgxpool.Conn
	id          int64 // the ingest's row in ingests
	class       int32 // the first key of the store's advisory locks
	titleWeight float64
	items       []*ingest.Item
}

// Write keeps it for the batch's commit, its text made fit for
// PostgreSQL's text columns (text).
func (w *writer) Write(ctx context.Context, it *ingest.Item) error {
	it.Source, it.File, it.Detail = text(it.Source), text(it.File), text(it.Detail)
	if p := it.Page; p != nil {
		p.Address, p.Site, p.Title, p.ContentType = text(p.Address), text(p.Site), text(p.Title), text(p.ContentType)
	}
	w.items = append(w.items, it)
	return nil
}

// text returns s as PostgreSQL's text type takes it: valid UTF-8 (invalid
// bytes become U+FFFD) without NUL bytes. SQLite takes any bytes; a file
// name need not be UTF-8, nor a WARC header. A source whose name changes
// so is not recognized as done by a later ingest, which reads it again
// and finds it claimed.
func text(s string) string {
	if utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 {
		return s
	}
	return strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", ""), "\uFFFD")
}

// Rollback forgets the batch.
func (w *writer) Rollback() { w.items = w.items[:0] }

// maxAttempts bounds the tries of a batch that PostgreSQL aborted to break
// a deadlock with another ingest.
const maxAttempts = 5

// Commit writes the batch in one transaction. A deadlock with another
// ingest (which claims the same URIs in another order) aborts the
// transaction; the batch is then written again from the start.
func (w *writer) Commit(ctx context.Context) error {
	if len(w.items) == 0 {
		return nil
	}
	saved := make([]ingest.Item, len(w.items))
	for i, it := range w.items {
		saved[i] = *it
	}
	var err error
	for range maxAttempts {
		if err = pgx.BeginFunc(ctx, w.conn, func(tx pgx.Tx) error { return w.writeBatch(ctx, tx) }); !isDeadlock(err) {
			break
		}
		for i, it := range w.items {
			*it = saved[i]
		}
	}
	w.items = w.items[:0]
	if err != nil {
		return fmt.Errorf("postgres: ingest: %w", err)
	}
	return nil
}

// isDeadlock reports whether err is PostgreSQL's deadlock_detected.
func isDeadlock(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "40P01"
}

// outcome returns the outcome a source's row records for it.
func outcome(it *ingest.Item) string {
	switch {
	case it.Page != nil:
		return "page"
	case it.Redirect != nil:
		return "redirect"
	}
	return it.Skip
}

// writeBatch writes w.items in tx: it claims their sources and URIs,
// marks what another ingest holds (a duplicate URI, a source done), and
// writes the rest.
func (w *writer) writeBatch(ctx context.Context, tx pgx.Tx) error {
	// 1. Claim the sources, in key order so that two ingests lock rows in
	// the same order. Markers (the end of a WARC file) claim nothing.
	var claim, claimAgain []*ingest.Item
	for _, it := range w.items {
		switch {
		case outcome(it) == "":
		case it.Retry:
			claimAgain = append(claimAgain, it)
		default:
			claim = append(claim, it)
		}
	}
	claimed, err := claimSources(ctx, tx, claim, `ON CONFLICT (source) DO NOTHING`)
	if err != nil {
		return err
	}
	again, err := claimSources(ctx, tx, claimAgain, `ON CONFLICT (source) DO UPDATE SET outcome = EXCLUDED.outcome`)
	if err != nil {
		return err
	}
	for _, it := range w.items {
		if outcome(it) != "" && !claimed[it.Source] && !again[it.Source] {
			it.Page, it.Redirect, it.Skip, it.Detail = nil, nil, "", "" // another ingest wrote it
		}
	}
	// 2. Claim the URIs of pages and redirects; the first item of the
	// input with a URI wins it, the others are duplicates.
	if err := w.claimURIs(ctx, tx); err != nil {
		return err
	}
	// 3. Write what is left.
	var (
		pages, redirects, skips []*ingest.Item
		unskip                  []string
	)
	for _, it := range w.items {
		switch {
		case it.Page != nil:
			pages = append(pages, it)
		case it.Redirect != nil:
			redirects = append(redirects, it)
		case it.Skip != "":
			skips = append(skips, it)
		}
		if it.Retry && outcome(it) != "" && it.Skip == "" {
			unskip = append(unskip, it.Source)
		}
	}
	length, err := w.writePages(ctx, tx, pages)
	if err != nil {
		return err
	}
	if err := writeRedirects(ctx, tx, redirects); err != nil {
		return err
	}
	if err := writeSkips(ctx, tx, skips, unskip); err != nil {
		return err
	}
	if err := writeProgress(ctx, tx, w.items); err != nil {
		return err
	}
	if len(pages)+len(redirects) == 0 {
		return nil
	}
	// Last, as it locks the one corpus row until the batch commits: the
	// count of pages and their length, and a new generation (the
	// in-degrees are out of date until a Finish).
	_, err = tx.Exec(ctx, `UPDATE corpus SET pages = pages + $1, length = length + $2, generation = generation + 1`, len(pages), length)
	return err
}

// claimSources inserts the sources rows of items with the conflict clause
// onConflict and returns the sources it inserted or updated.
func claimSources(ctx context.Context, tx pgx.Tx, items []*ingest.Item, onConflict string) (map[string]bool, error) {
	if len(items) == 0 {
		return nil, nil
	}
	srcs := make([]string, len(items))
	outs := make([]string, len(items))
	for i, it := range items {
		srcs[i], outs[i] = it.Source, outcome(it)
	}
	rows, _ := tx.Query(ctx, `INSERT INTO sources (source, outcome)
		SELECT s, o FROM unnest($1::text[], $2::text[]) AS t (s, o) ORDER BY s `+onConflict+` RETURNING source`, srcs, outs)
	list, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("claim sources: %w", err)
	}
	out := make(map[string]bool, len(list))
	for _, s := range list {
		out[s] = true
	}
	return out, nil
}

// claimURIs claims the URIs of the batch's pages and redirects, in key
// order; an item whose URI an earlier item, this ingest's or another's,
// holds becomes a duplicate, and its sources row says so.
func (w *writer) claimURIs(ctx context.Context, tx pgx.Tx) error {
	first := map[string]*ingest.Item{} // the first item of the batch at each URI
	var uris, kinds []string
	var dups []*ingest.Item
	for _, it := range w.items {
		var uri, kind string
		switch {
		case it.Page != nil:
			uri, kind = it.Page.URI, "page"
		case it.Redirect != nil:
			uri, kind = it.Redirect.URI, "redirect"
		default:
			continue
		}
		if _, ok := first[uri]; ok {
			dups = append(dups, it)
			continue
		}
		first[uri] = it
		uris, kinds = append(uris, uri), append(kinds, kind)
	}
	if len(uris) > 0 {
		// A page or redirect takes over the URI of a link source, whose
		// records its own links replace.
		rows, _ := tx.Query(ctx, `INSERT INTO uris AS o (uri, kind)
			SELECT u, k FROM unnest($1::text[], $2::text[]) AS t (u, k) ORDER BY u
			ON CONFLICT (uri) DO UPDATE SET kind = EXCLUDED.kind WHERE o.kind = 'source'
			RETURNING uri`, uris, kinds)
		won, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return fmt.Errorf("claim URIs: %w", err)
		}
		for _, u := range won {
			delete(first, u)
		}
		for _, q := range []string{`DELETE FROM link_records WHERE src = ANY($1)`, `DELETE FROM link_sources WHERE uri = ANY($1)`} {
			if _, err := tx.Exec(ctx, q, won); err != nil {
				return fmt.Errorf("replace link sources: %w", err)
			}
		}
		for _, it := range first { // held by an earlier ingest
			dups = append(dups, it)
		}
	}
	if len(dups) == 0 {
		return nil
	}
	srcs := make([]string, len(dups))
	for i, it := range dups {
		uri := it.Redirect
		detail := ""
		if it.Page != nil {
			detail = it.Page.URI
		} else if uri != nil {
			detail = uri.URI
		}
		it.Page, it.Redirect, it.Skip, it.Detail = nil, nil, corpus.ReasonDuplicate, detail
		srcs[i] = it.Source
	}
	slices.Sort(srcs)
	_, err := tx.Exec(ctx, `UPDATE sources SET outcome = $2 WHERE source = ANY($1)`, srcs, corpus.ReasonDuplicate)
	return err
}

// writePages copies the pages, their links and index entries into the
// store, adds their terms to the document frequencies and returns the sum
// of their lengths.
func (w *writer) writePages(ctx context.Context, tx pgx.Tx, pages []*ingest.Item) (int64, error) {
	if len(pages) == 0 {
		return 0, nil
	}
	df := map[string]int64{}
	var length int64
	rows := make([][]any, len(pages))
	var links [][]any
	for i, it := range pages {
		p := it.Page
		tsv, n, tn := tsvector(p.TitleText, p.Text)
		length += int64(n)
		for _, l := range tsv.Lexemes {
			df[l.Word]++
		}
		rows[i] = []any{p.URI, p.Address, p.Site, p.Title, int32(p.Status), p.ContentType, nilIfEmpty(p.Header),
			int32(p.Words), int32(n), int32(tn), it.Source, p.Body, tsv}
		for pos, l := range p.Links {
			links = append(links, []any{l.URI, p.URI, int32(pos), l.Anchor, l.Nav, l.Area})
		}
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"pages"},
		[]string{"uri", "address", "site", "title", "status", "content_type", "header", "words", "len", "tlen", "source", "body", "tsv"},
		pgx.CopyFromRows(rows)); err != nil {
		return 0, fmt.Errorf("copy pages: %w", err)
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"links"},
		[]string{"dst", "src", "pos", "anchor", "nav", "area"}, pgx.CopyFromRows(links)); err != nil {
		return 0, fmt.Errorf("copy links: %w", err)
	}
	terms := make([]string, 0, len(df))
	for t := range df {
		terms = append(terms, t)
	}
	slices.Sort(terms) // every ingest locks terms rows in this order
	docs := make([]int64, len(terms))
	for i, t := range terms {
		docs[i] = df[t]
	}
	if _, err := tx.Exec(ctx, `INSERT INTO terms (term, docs)
		SELECT t, d FROM unnest($1::text[], $2::bigint[]) AS u (t, d) ORDER BY t
		ON CONFLICT (term) DO UPDATE SET docs = terms.docs + EXCLUDED.docs`, terms, docs); err != nil {
		return 0, fmt.Errorf("terms: %w", err)
	}
	return length, nil
}

// nilIfEmpty returns nil for an empty header, which Fetch synthesizes.
func nilIfEmpty(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

// writeRedirects inserts the redirects.
func writeRedirects(ctx context.Context, tx pgx.Tx, items []*ingest.Item) error {
	if len(items) == 0 {
		return nil
	}
	rows := make([][]any, len(items))
	for i, it := range items {
		r := it.Redirect
		rows[i] = []any{r.URI, r.Target, int32(r.Status), it.Source}
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"redirects"}, []string{"uri", "target", "status", "source"}, pgx.CopyFromRows(rows))
	return err
}

// writeSkips records the skipped sources (replacing what an earlier
// ingest recorded) and forgets the skips of sources that are pages or
// redirects now.
func writeSkips(ctx context.Context, tx pgx.Tx, items []*ingest.Item, unskip []string) error {
	if len(items) > 0 {
		srcs := make([]string, len(items))
		reasons := make([]string, len(items))
		details := make([]string, len(items))
		for i, it := range items {
			srcs[i], reasons[i], details[i] = it.Source, it.Skip, it.Detail
		}
		if _, err := tx.Exec(ctx, `INSERT INTO skipped (source, reason, detail)
			SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ORDER BY 1
			ON CONFLICT (source) DO UPDATE SET reason = EXCLUDED.reason, detail = EXCLUDED.detail`, srcs, reasons, details); err != nil {
			return fmt.Errorf("skipped: %w", err)
		}
	}
	if len(unskip) > 0 {
		if _, err := tx.Exec(ctx, `DELETE FROM skipped WHERE source = ANY($1)`, unskip); err != nil {
			return fmt.Errorf("skipped: %w", err)
		}
	}
	return nil
}

// writeProgress records the progress through each WARC file after the
// batch: its last item's progress row.
func writeProgress(ctx context.Context, tx pgx.Tx, items []*ingest.Item) error {
	last := map[string]string{}
	for _, it := range items {
		if it.Progress != "" {
			last[it.File] = it.Progress
		}
	}
	if len(last) == 0 {
		return nil
	}
	files := make([]string, 0, len(last))
	for f := range last {
		files = append(files, f)
	}
	slices.Sort(files)
	progress := make([]string, len(files))
	for i, f := range files {
		progress[i] = last[f]
	}
	_, err := tx.Exec(ctx, `INSERT INTO sources (source, outcome)
		SELECT * FROM unnest($1::text[], $2::text[]) ORDER BY 1
		ON CONFLICT (source) DO UPDATE SET outcome = EXCLUDED.outcome`, files, progress)
	return err
}

// Finish brings the in-degrees up to date and marks the store complete for
// readers: the ingest's row, and those of ingests that were interrupted
// (whose advisory lock no session holds), are deleted. Finishes of
// several ingests take turns.
//
// The corpus row, locked first, orders Finish with the batches of other
// ingests: a batch that added pages or redirects has committed before
// Finish counts the links, or waits for it and makes a new generation,
// which the next Finish counts again.
func (w *writer) Finish(ctx context.Context) error { return finish(ctx, w.conn, w.class, w.id) }

// finish is Finish for the ingest id of the store whose advisory locks
// have class, on conn.
func finish(ctx context.Context, conn *pgxpool.Conn, class int32, id int64) error {
	err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, 0)`, class); err != nil {
			return err
		}
		var generation int64
		if err := tx.QueryRow(ctx, `SELECT generation FROM corpus FOR UPDATE`).Scan(&generation); err != nil {
			return err
		}
		var fresh bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM meta WHERE key = 'derived' AND value = $1)`, strconv.FormatInt(generation, 10)).Scan(&fresh); err != nil {
			return err
		}
		if !fresh {
			for _, q := range []string{
				inDegrees + `UPDATE pages t SET inlinks = c.n, content_inlinks = c.cn
				FROM (SELECT x.uri, coalesce(d.n, 0) AS n, coalesce(d.cn, 0) AS cn FROM pages x LEFT JOIN d ON d.dst = x.uri) c
				WHERE t.uri = c.uri AND (t.inlinks <> c.n OR t.content_inlinks <> c.cn)`,
				inDegrees + `UPDATE link_sources t SET inlinks = c.n, content_inlinks = c.cn
				FROM (SELECT x.uri, coalesce(d.n, 0) AS n, coalesce(d.cn, 0) AS cn FROM link_sources x LEFT JOIN d ON d.dst = x.uri) c
				WHERE t.uri = c.uri AND (t.inlinks <> c.n OR t.content_inlinks <> c.cn)`,
			} {
				if _, err := tx.Exec(ctx, q); err != nil {
					return err
				}
			}
			if _, err := tx.Exec(ctx, `INSERT INTO meta (key, value) VALUES ('derived', $1)
				ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, strconv.FormatInt(generation, 10)); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `DELETE FROM ingests i WHERE i.id = $1 OR NOT EXISTS (
			SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
			AND l.classid = $2::bigint::oid AND l.objid = i.id::oid AND l.objsubid = 2)`, id, int64(class))
		return err
	})
	if err == nil {
		_, err = conn.Exec(ctx, `ANALYZE`)
	}
	if err != nil {
		return fmt.Errorf("postgres: ingest: finish: %w", err)
	}
	return nil
}

// inDegrees counts, for every URI linked to, the distinct other pages and
// link sources that link to it (d.n: image-map links left out; d.cn:
// pages' navigation links too; a link source's links all count, a WAT
// file not saying where on the page a link sits), as provider/store's
// in-degrees count.
const inDegrees = `WITH l AS (
	SELECT dst, count(DISTINCT src) FILTER (WHERE NOT area) AS n,
	       count(DISTINCT src) FILTER (WHERE NOT area AND NOT nav) AS cn
	FROM links WHERE src <> dst GROUP BY dst
), r AS (
	SELECT dst, count(DISTINCT src) AS n FROM link_records WHERE src <> dst GROUP BY dst
), d AS (
	SELECT coalesce(l.dst, r.dst) AS dst, coalesce(l.n, 0) + coalesce(r.n, 0) AS n, coalesce(l.cn, 0) + coalesce(r.n, 0) AS cn
	FROM l FULL JOIN r ON r.dst = l.dst
) `

// tsvector returns the tsvector of a page's title and text words (as
// ingest.Page holds them: normalized, joined by spaces) and the number of
// words, and of the title's words: title words weigh A, text words D, at
// positions 1, 2, ... in title-then-text order, so that a position up to
// the title's count is the title's. PostgreSQL keeps at most 256 positions of a word
// and none beyond 16383, so a word's frequency in the vector is at most
// 256 and the words past position 16383 of a long page share that one;
// words longer than PostgreSQL's 2047 bytes are left out.
func tsvector(title, text string) (pgtype.TSVector, int, int) {
	const (
		maxPos     = 16383
		maxPerWord = 256
		maxWord    = 2047
	)
	byWord := map[string][]pgtype.TSVectorPosition{}
	n := 0
	add := func(s string, weight pgtype.TSVectorWeight) {
		for w := range strings.FieldsSeq(s) {
			n++
			if len(w) > maxWord {
				continue
			}
			ps := byWord[w]
			pos := uint16(min(n, maxPos))
			if len(ps) >= maxPerWord || (len(ps) > 0 && ps[len(ps)-1].Position == pos) {
				continue
			}
			byWord[w] = append(ps, pgtype.TSVectorPosition{Position: pos, Weight: weight})
		}
	}
	add(title, pgtype.TSVectorWeightA)
	titleWords := n
	add(text, pgtype.TSVectorWeightD)
	tsv := pgtype.TSVector{Valid: true, Lexemes: make([]pgtype.TSVectorLexeme, 0, len(byWord))}
	for w, ps := range byWord {
		tsv.Lexemes = append(tsv.Lexemes, pgtype.TSVectorLexeme{Word: w, Positions: ps})
	}
	slices.SortFunc(tsv.Lexemes, func(a, b pgtype.TSVectorLexeme) int { return strings.Compare(a.Word, b.Word) })
	return tsv, n, titleWords
}
