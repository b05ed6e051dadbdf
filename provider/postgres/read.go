package postgres

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/internal/words"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/corpus"
	"github.com/linkrot/relink/provider/internal/ingest"
)

// Backlinks returns at most limit pages that link to uri in the store's
// backlink rank, as provider/store's Backlinks does: pages and link
// sources (IngestWAT) with more distinct linking pages and link sources
// first (their in-degree, image-map links and self-links left out,
// navigation links counted), then by URI in byte order. Every <a> link
// counts, navigation included. A link source's Backlink carries the anchor
// texts of its links to uri in Anchors, in page order. uri itself and
// pages missing in this view are never returned. A limit that is not
// positive means no limit. uri is canonicalized first. Safe for
// concurrent use.
func (s *Store) Backlinks(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
	return s.BacklinksWith(ctx, uri, limit, corpus.BacklinkOptions{})
}

// ContentBacklinks is Backlinks without navigation links
// (backlink.ContentProvider).
func (s *Store) ContentBacklinks(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
	return s.BacklinksWith(ctx, uri, limit, corpus.BacklinkOptions{ExcludeNav: true})
}

// Provider returns a backlink.Provider that answers with BacklinksWith and
// opts.
func (s *Store) Provider(opts corpus.BacklinkOptions) backlink.Provider {
	return backlink.ProviderFunc(func(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
		return s.BacklinksWith(ctx, uri, limit, opts)
	})
}

// BacklinksWith is Backlinks with the links that count chosen by opts; the
// rank is the same for every opts. The options apply to the links of
// pages: a link source's links count whatever opts.
func (s *Store) BacklinksWith(ctx context.Context, uri string, limit int, opts corpus.BacklinkOptions) ([]backlink.Backlink, error) {
	c, err := canon.Canonicalize(uri)
	if err != nil {
		return nil, fmt.Errorf("postgres: backlinks: %w", err)
	}
	rows, err := s.pool.Query(ctx, `
		SELECT b.src, coalesce(p.inlinks, ls.inlinks, 0) AS rank, ls.uri IS NOT NULL
		FROM (SELECT src FROM links WHERE dst = $1 AND (NOT area OR $2) AND (NOT nav OR $3)
		      UNION
		      SELECT src FROM link_records WHERE dst = $1) b
		LEFT JOIN pages p ON p.uri = b.src
		LEFT JOIN link_sources ls ON ls.uri = b.src
		WHERE b.src <> $1 AND (p.uri IS NOT NULL OR ls.uri IS NOT NULL)
		ORDER BY rank DESC, b.src COLLATE "C"`, c, opts.Area, !opts.ExcludeNav)
	if err != nil {
		return nil, fmt.Errorf("postgres: backlinks of %s: %w", c, err)
	}
	defer rows.Close()
	out := []backlink.Backlink{}
	var remote []int // indexes in out of link sources
	for rows.Next() && (limit <= 0 || len(out) < limit) {
		var (
			u      string
			rank   int32
			source bool
		)
		if err := rows.Scan(&u, &rank, &source); err != nil {
			return nil, fmt.Errorf("postgres: backlinks of %s: %w", c, err)
		}
		if s.isMissing(u) {
			continue
		}
		if source {
			remote = append(remote, len(out))
		}
		out = append(out, backlink.Backlink{URI: u, Rank: len(out) + 1, Level: 1})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: backlinks of %s: %w", c, err)
	}
	for _, i := range remote {
		rows, _ := s.pool.Query(ctx, `SELECT anchor FROM link_records WHERE dst = $1 AND src = $2 ORDER BY pos`, c, out[i].URI)
		if out[i].Anchors, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			return nil, fmt.Errorf("postgres: backlinks of %s: %w", c, err)
		}
	}
	return out, nil
}

// Fetch answers uri from the store as a web server would, exactly as
// provider/store's Fetch does: a stored page with its status, header and
// body, redirects followed (at most MaxRedirects), and a 404 for a URI the
// store does not hold or that is missing in this view. uri is
// canonicalized first. Safe for concurrent use.
func (s *Store) Fetch(ctx context.Context, uri string) (*filter.Page, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c, err := canon.Canonicalize(uri)
	if err != nil {
		return nil, fmt.Errorf("postgres: fetch: %w", err)
	}
	return ingest.Follow(ctx, uri, c, ingest.Lookup{Missing: s.isMissing, Page: s.page, Redirect: s.redirect}, ErrTooManyRedirects)
}

// page returns the stored page at the canonical URI c, or nil.
func (s *Store) page(ctx context.Context, c string) (*filter.Page, error) {
	var (
		address, ctype string
		status         int32
		header, body   []byte
	)
	err := s.pool.QueryRow(ctx, `SELECT address, status, content_type, header, body FROM pages WHERE uri = $1`, c).
		Scan(&address, &status, &ctype, &header, &body)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: fetch %s: %w", c, err)
	}
	p, err := ingest.StoredPage(address, int(status), ctype, header, body)
	if err != nil {
		return nil, fmt.Errorf("postgres: fetch %s: %w", c, err)
	}
	return p, nil
}

// redirect returns the target of the redirect stored at c, if any.
func (s *Store) redirect(ctx context.Context, c string) (string, bool, error) {
	var target string
	err := s.pool.QueryRow(ctx, `SELECT target FROM redirects WHERE uri = $1`, c).Scan(&target)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("postgres: fetch %s: %w", c, err)
	}
	return target, true, nil
}

// DocFreq returns the number of pages whose title or visible text holds
// term, exactly, from the terms table the ingest keeps. term is
// normalized as lexsig.Normalize does; a term that is not a single word by
// the index's word rule, and an unknown term, return 0. Missing pages
// count. Safe for concurrent use.
func (s *Store) DocFreq(ctx context.Context, term string) (int64, error) {
	term = lexsig.Normalize(term)
	if start, end := words.Next(term, 0); start != 0 || end != len(term) || end == 0 {
		return 0, nil
	}
	var n int64
	err := s.pool.QueryRow(ctx, `SELECT docs FROM terms WHERE term = $1`, term).Scan(&n)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("postgres: document frequency of %q: %w", term, err)
	}
	return n, nil
}

// DocFreqs returns DocFreq of each of terms, in order (lexsig.BatchDF), in
// one query.
func (s *Store) DocFreqs(ctx context.Context, terms []string) ([]int64, error) {
	norm := make([]string, len(terms))
	for i, t := range terms {
		t = lexsig.Normalize(t)
		if start, end := words.Next(t, 0); start == 0 && end == len(t) && end > 0 {
			norm[i] = t
		}
	}
	rows, _ := s.pool.Query(ctx, `SELECT coalesce(t.docs, 0) FROM unnest($1::text[]) WITH ORDINALITY AS q (term, i)
		LEFT JOIN terms t ON t.term = q.term ORDER BY q.i`, norm)
	out, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("postgres: document frequencies: %w", err)
	}
	return out, nil
}

// Terms calls fn with every term of the terms table and the number of
// pages that hold it (DocFreq's answer), in byte order of the terms
// (dftable.Vocabulary), as provider/store's Terms does. Missing pages
// count. It stops at fn's first error and returns it; it returns ctx's
// error when ctx is done.
func (s *Store) Terms(ctx context.Context, fn func(term string, docs int64) error) error {
	// COLLATE "C" compares bytes, whatever the database's collation.
	rows, err := s.pool.Query(ctx, `SELECT term, docs FROM terms ORDER BY term COLLATE "C"`)
	if err != nil {
		return fmt.Errorf("postgres: terms: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var term string
		var n int64
		if err := rows.Scan(&term, &n); err != nil {
			return fmt.Errorf("postgres: terms: %w", err)
		}
		if err := fn(term, n); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("postgres: terms: %w", err)
	}
	return nil
}

// Docs returns |D|, the number of pages in the store (missing ones
// included), which the ingest keeps exact.
func (s *Store) Docs(ctx context.Context) (int64, error) {
	var n int64
	if err := s.pool.QueryRow(ctx, `SELECT pages FROM corpus`).Scan(&n); err != nil {
		return 0, fmt.Errorf("postgres: count pages: %w", err)
	}
	return n, nil
}

// Search returns at most limit pages that match query, best first, as
// provider/store's Search does: by default pages that hold every term,
// with lexsig.Disjunctive pages that hold any, with query.Phrase pages
// that hold the terms next to each other in order. The GIN index on the
// pages' tsvectors finds the pages; Options.Ranking orders them: BM25 by
// default (k1 = 1.2, b = 0.75, FTS5's IDF, a title word counting
// Options.TitleWeight times; a phrase, or a term of several words, is
// one term, as in FTS5), ties broken by URI in byte order. Score is higher for better
// pages. A query with no word returns an empty slice; a limit that is not
// positive or above MaxResults means MaxResults. Safe for concurrent use.
func (s *Store) Search(ctx context.Context, query lexsig.Query, limit int) ([]lexsig.Result, error) {
	if limit <= 0 || limit > MaxResults {
		limit = MaxResults
	}
	tsq, terms := tsquery(query)
	if tsq == "" {
		return []lexsig.Result{}, nil
	}
	var rows pgx.Rows
	var err error
	switch s.ranking {
	case RankCD:
		rows, err = s.pool.Query(ctx, `
			SELECT uri, title, ts_rank_cd(tsv, $1::tsquery)::float8 AS score
			FROM pages WHERE tsv @@ $1::tsquery
			ORDER BY score DESC, uri COLLATE "C" LIMIT $2`, tsq, limit)
	default:
		p := phrasesOf(query)
		rows, err = s.pool.Query(ctx, bm25SQL, tsq, terms, limit, s.titleWeight, p.words, p.phrase, p.place, p.tsquery, p.required)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: search %q: %w", query.String(), err)
	}
	results := []lexsig.Result{}
	var r lexsig.Result
	_, err = pgx.ForEachRow(rows, []any{&r.URI, &r.Title, &r.Score}, func() error {
		r.Rank = len(results) + 1
		results = append(results, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: search %q: %w", query.String(), err)
	}
	return results, nil
}

// bm25SQL ranks the pages that match the tsquery $1 by Okapi BM25, as
// FTS5's bm25() does: each of the query's phrases ($5: their words in
// order, $6: the phrase of each word, 0, 1, ..., $7: its place in the
// phrase; a word alone is a phrase of one) is one term, with IDF
// log((N - n + 0.5) / (n + 0.5)), at least 1e-6, n the pages that hold
// the phrase (the terms table's count for a word, a count of the pages
// matching the phrase's tsquery, $8, for a phrase of several words), N
// and the average length from the corpus row; its frequency on a page is
// the number of places it occurs, in the title (weighing $4) or in the
// text: one that runs from the title into the text counts for neither,
// as FTS5's columns are apart, and a page that holds fewer than $9 of
// the phrases so is left out. The vector is cut down to the query's words
// $2 before it is read (setweight marks their positions C, which no
// other position is, and ts_filter keeps those), and a position up to
// the page's title length is a title word: reading every word of every
// matching page made a query ten times slower. At most $3 pages.
const bm25SQL = `
WITH c AS (
	SELECT pages::float8 AS n, CASE WHEN pages > 0 THEN length::float8 / pages ELSE 1 END AS avgdl FROM corpus
), ph AS (
	SELECT x.w, x.j, x.o FROM unnest($5::text[], $6::int[], $7::int[]) AS x(w, j, o)
), pl AS (
	SELECT j, count(*) AS k, min(w) FILTER (WHERE o = 0) AS first FROM ph GROUP BY j
), q AS (
	SELECT pl.j, pl.k, greatest(ln((c.n - d.n + 0.5) / (d.n + 0.5)), 1e-6) AS idf
	FROM pl CROSS JOIN c CROSS JOIN LATERAL (
		SELECT (CASE WHEN pl.k = 1 THEN coalesce((SELECT docs FROM terms WHERE term = pl.first), 0)
			ELSE (SELECT count(*) FROM pages WHERE tsv @@ ($8::text[])[pl.j + 1]::tsquery) END)::float8 AS n
	) d
), m AS (
	SELECT uri, title, tsv, len, tlen FROM pages WHERE tsv @@ $1::tsquery
)
SELECT m.uri, m.title, sum(q.idf * f.tf * 2.2 / (f.tf + 1.2 * (0.25 + 0.75 * m.len / c.avgdl))) AS score
FROM m CROSS JOIN c
CROSS JOIN LATERAL (
	WITH w AS MATERIALIZED (
		SELECT u.lexeme, u.positions FROM unnest(ts_filter(setweight(m.tsv, 'C', $2), '{c}')) u
	)
	SELECT h0.j, sum(CASE WHEN p + pl.k - 1 <= m.tlen THEN $4::float8 WHEN p > m.tlen THEN 1 ELSE 0 END) AS tf
	FROM w JOIN ph h0 ON h0.w = w.lexeme AND h0.o = 0
	JOIN pl ON pl.j = h0.j
	CROSS JOIN unnest(w.positions) p
	WHERE pl.k = 1 OR NOT EXISTS (
		SELECT 1 FROM ph h WHERE h.j = h0.j AND h.o > 0 AND NOT EXISTS (
			SELECT 1 FROM w v WHERE v.lexeme = h.w AND (p + h.o) = ANY(v.positions)))
	GROUP BY h0.j
) f
JOIN q ON q.j = f.j
WHERE f.tf > 0
GROUP BY m.uri, m.title
HAVING count(*) >= $9
ORDER BY score DESC, m.uri COLLATE "C"
LIMIT $3`

// phrases are a query's phrases as bm25SQL takes them: every word, the
// phrase it belongs to and its place there, and each phrase's tsquery.
type phrases struct {
	words    []string
	phrase   []int32
	place    []int32
	tsquery  []string
	required int32 // how many phrases a page must hold
}

// phrasesOf returns the phrases of q as FTS5 reads them: each term a
// phrase of its words, or, for a phrase query, all of them one phrase.
func phrasesOf(q lexsig.Query) phrases {
	var groups [][]string
	for _, t := range q.Terms {
		ws := words.Split(t)
		if len(ws) == 0 {
			continue
		}
		for i, w := range ws {
			ws[i] = lexsig.Normalize(w)
		}
		if q.Phrase && len(groups) > 0 {
			groups[0] = append(groups[0], ws...)
			continue
		}
		groups = append(groups, ws)
	}
	var p phrases
	for j, g := range groups {
		quoted := make([]string, len(g))
		for i, w := range g {
			p.words = append(p.words, w)
			p.phrase = append(p.phrase, int32(j))
			p.place = append(p.place, int32(i))
			quoted[i] = quote(w)
		}
		p.tsquery = append(p.tsquery, strings.Join(quoted, " <-> "))
	}
	p.required = int32(len(groups))
	if q.Mode == lexsig.Disjunctive && !q.Phrase {
		p.required = 1
	}
	return p
}

// quote returns w as a quoted tsquery word.
func quote(w string) string {
	return "'" + strings.NewReplacer(`'`, `''`, `\`, `\\`).Replace(w) + "'"
}

// tsquery returns the tsquery text of q (every word quoted, so that none
// is read as an operator; a term of several words a phrase) and its
// distinct words, or "" when q holds no word.
func tsquery(q lexsig.Query) (string, []string) {
	var parts, all []string
	seen := map[string]bool{}
	for _, t := range q.Terms {
		ws := words.Split(t)
		if len(ws) == 0 {
			continue
		}
		quoted := make([]string, len(ws))
		for i, w := range ws {
			w = lexsig.Normalize(w)
			quoted[i] = quote(w)
			if !seen[w] {
				seen[w] = true
				all = append(all, w)
			}
		}
		if q.Phrase {
			parts = append(parts, quoted...)
			continue
		}
		p := strings.Join(quoted, " <-> ")
		if len(ws) > 1 {
			p = "(" + p + ")"
		}
		parts = append(parts, p)
	}
	switch {
	case len(parts) == 0:
		return "", nil
	case q.Phrase:
		return strings.Join(parts, " <-> "), all
	case q.Mode == lexsig.Disjunctive:
		return strings.Join(parts, " | "), all
	}
	return strings.Join(parts, " & "), all
}

// PageInfo returns what the store knows about the page at uri, or an error
// wrapping ErrNotFound.
func (s *Store) PageInfo(ctx context.Context, uri string) (corpus.PageInfo, error) {
	c, err := canon.Canonicalize(uri)
	if err != nil {
		return corpus.PageInfo{}, fmt.Errorf("postgres: page: %w", err)
	}
	rows, _ := s.pool.Query(ctx, pageInfoSQL+` WHERE uri = $1`, c)
	p, err := pgx.CollectExactlyOneRow(rows, scanPageInfo)
	if errors.Is(err, pgx.ErrNoRows) {
		return corpus.PageInfo{}, fmt.Errorf("postgres: page %s: %w", c, ErrNotFound)
	}
	if err != nil {
		return corpus.PageInfo{}, fmt.Errorf("postgres: page %s: %w", c, err)
	}
	return p, nil
}

// pageInfoSQL selects what scanPageInfo reads.
const pageInfoSQL = `SELECT uri, site, title, words, inlinks, content_inlinks, source FROM pages`

// scanPageInfo reads a row of pageInfoSQL.
func scanPageInfo(row pgx.CollectableRow) (corpus.PageInfo, error) {
	var p corpus.PageInfo
	var w, in, cin int32
	err := row.Scan(&p.URI, &p.Site, &p.Title, &w, &in, &cin, &p.Source)
	p.Words, p.Backlinks, p.ContentBacklinks = int(w), int(in), int(cin)
	return p, err
}

// Pages yields every page of the store in URI order (bytes), for choosing
// the targets of an experiment. It stops at the first error, which it
// yields with a zero PageInfo.
func (s *Store) Pages(ctx context.Context) iter.Seq2[corpus.PageInfo, error] {
	return func(yield func(corpus.PageInfo, error) bool) {
		rows, err := s.pool.Query(ctx, pageInfoSQL+` ORDER BY uri COLLATE "C"`)
		if err != nil {
			yield(corpus.PageInfo{}, fmt.Errorf("postgres: pages: %w", err))
			return
		}
		defer rows.Close()
		for rows.Next() {
			p, err := scanPageInfo(rows)
			if err != nil {
				yield(corpus.PageInfo{}, fmt.Errorf("postgres: pages: %w", err))
				return
			}
			if !yield(p, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(corpus.PageInfo{}, fmt.Errorf("postgres: pages: %w", err))
		}
	}
}

// Links returns the links of the page at uri in page order, or for a link
// source its link records (Nav and Area false); a URI that is neither
// returns an empty slice.
func (s *Store) Links(ctx context.Context, uri string) ([]corpus.Link, error) {
	c, err := canon.Canonicalize(uri)
	if err != nil {
		return nil, fmt.Errorf("postgres: links: %w", err)
	}
	rows, _ := s.pool.Query(ctx, `SELECT dst, anchor, nav, area FROM links WHERE src = $1 ORDER BY pos`, c)
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (corpus.Link, error) {
		var l corpus.Link
		err := row.Scan(&l.URI, &l.Anchor, &l.Nav, &l.Area)
		return l, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: links of %s: %w", c, err)
	}
	if len(out) == 0 {
		rows, _ := s.pool.Query(ctx, `SELECT dst, anchor FROM link_records WHERE src = $1 ORDER BY pos`, c)
		out, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (corpus.Link, error) {
			var l corpus.Link
			err := row.Scan(&l.URI, &l.Anchor)
			return l, err
		})
		if err != nil {
			return nil, fmt.Errorf("postgres: links of %s: %w", c, err)
		}
	}
	if out == nil {
		out = []corpus.Link{}
	}
	return out, nil
}

// LinkSource returns what the store knows about the link source at uri,
// or an error wrapping ErrNotFound when uri is not one.
func (s *Store) LinkSource(ctx context.Context, uri string) (corpus.LinkSource, error) {
	c, err := canon.Canonicalize(uri)
	if err != nil {
		return corpus.LinkSource{}, fmt.Errorf("postgres: link source: %w", err)
	}
	var ls corpus.LinkSource
	var fetched int64
	var in, cin, n int32
	err = s.pool.QueryRow(ctx, `SELECT uri, fetched, inlinks, content_inlinks, source,
		(SELECT count(*) FROM link_records r WHERE r.src = ls.uri)::int
		FROM link_sources ls WHERE uri = $1`, c).Scan(&ls.URI, &fetched, &in, &cin, &ls.Source, &n)
	if errors.Is(err, pgx.ErrNoRows) {
		return corpus.LinkSource{}, fmt.Errorf("postgres: link source %s: %w", c, ErrNotFound)
	}
	if err != nil {
		return corpus.LinkSource{}, fmt.Errorf("postgres: link source %s: %w", c, err)
	}
	ls.Backlinks, ls.ContentBacklinks, ls.Links = int(in), int(cin), int(n)
	if fetched != 0 {
		ls.Fetched = time.Unix(fetched, 0).UTC()
	}
	return ls, nil
}

// LinkTotals counts the link sources and link records the store holds.
func (s *Store) LinkTotals(ctx context.Context) (corpus.LinkStats, error) {
	var st corpus.LinkStats
	if err := s.pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM link_sources), (SELECT count(*) FROM link_records)`).Scan(&st.Sources, &st.Links); err != nil {
		return st, fmt.Errorf("postgres: link totals: %w", err)
	}
	return st, nil
}

// Totals counts everything the store holds, in the form of an ingest's
// Stats: pages, redirects, links by kind and the skipped files and
// records by reason.
func (s *Store) Totals(ctx context.Context) (corpus.Stats, error) {
	var st corpus.Stats
	err := s.pool.QueryRow(ctx, `
		SELECT (SELECT count(*) FROM pages), (SELECT count(*) FROM redirects),
		       count(*), count(*) FILTER (WHERE nav), count(*) FILTER (WHERE area)
		FROM links`).Scan(&st.Pages, &st.Redirects, &st.Links, &st.NavLinks, &st.AreaLinks)
	if err != nil {
		return st, fmt.Errorf("postgres: totals: %w", err)
	}
	rows, _ := s.pool.Query(ctx, `SELECT reason, count(*) FROM skipped GROUP BY reason`)
	var r string
	var n int
	_, err = pgx.ForEachRow(rows, []any{&r, &n}, func() error {
		if st.Skipped == nil {
			st.Skipped = map[string]int{}
		}
		st.Skipped[r] = n
		return nil
	})
	if err != nil {
		return st, fmt.Errorf("postgres: totals: %w", err)
	}
	return st, nil
}

// CheckComplete returns nil when every ingest begun has finished, and
// otherwise an error wrapping ErrIncomplete that says why: an ingest is
// running (its session holds its advisory lock), one did not finish
// (interrupted, killed or failed: run it again, it resumes), or none has
// filled the store.
func (s *Store) CheckComplete(ctx context.Context) error {
	if err := s.incomplete(ctx); err != nil {
		return fmt.Errorf("postgres: %s: %w", s.dsn, err)
	}
	return nil
}

// incomplete is CheckComplete without the store's name.
func (s *Store) incomplete(ctx context.Context) error {
	var running, interrupted []string
	var derived, filled bool
	err := s.pool.QueryRow(ctx, `
		SELECT coalesce(array_agg(i.kind ORDER BY i.id) FILTER (WHERE l.held), '{}'),
		       coalesce(array_agg(i.kind ORDER BY i.id) FILTER (WHERE NOT l.held), '{}'),
		       EXISTS (SELECT 1 FROM meta, corpus WHERE key = 'derived' AND value = generation::text),
		       EXISTS (SELECT 1 FROM sources)
		FROM ingests i CROSS JOIN LATERAL (SELECT EXISTS (
			SELECT 1 FROM pg_locks k WHERE k.locktype = 'advisory'
			AND k.database = (SELECT oid FROM pg_database WHERE datname = current_database())
			AND k.classid = $1::bigint::oid AND k.objid = i.id::oid AND k.objsubid = 2) AS held) l`,
		int64(s.lockClass)).Scan(&running, &interrupted, &derived, &filled)
	if err != nil {
		return err
	}
	switch {
	case len(running) > 0:
		return fmt.Errorf("%w: an ingest (%s) is running; open the store when it has finished", ErrIncomplete, strings.Join(running, ", "))
	case len(interrupted) > 0 || (!derived && filled):
		what := "the last ingest"
		if len(interrupted) > 0 {
			what += " (" + strings.Join(interrupted, ", ") + ")"
		}
		return fmt.Errorf("%w: %s did not finish (interrupted, killed or failed); run the same ingest again, it resumes where it stopped", ErrIncomplete, what)
	case !derived:
		return fmt.Errorf("%w: no ingest has filled the store; run one", ErrIncomplete)
	}
	return nil
}
