package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/linkrot/relink/provider/commoncrawl"
	"github.com/linkrot/relink/provider/corpus"
	"github.com/linkrot/relink/provider/internal/ingest"
)

// IngestWAT adds the link records of Common Crawl WAT files, as
// provider/store's Store.IngestWAT does (the same reading, the same
// outcomes): every HTML page of the files with a 2xx status becomes a
// link source holding its links, which Backlinks returns with pages, with
// their anchor texts. A URI already holding a page (or, unlike
// provider/store, a redirect) is ReasonPageInStore; one an earlier record
// or another ingest gave is ReasonDuplicate; a page ingested later
// replaces the link source. Several ingests may run at once, as for
// IngestManifest; two WAT ingests of the same URIs in different orders
// at once may fail on a deadlock that PostgreSQL breaks, and are then
// run again (they resume).
func (s *Store) IngestWAT(ctx context.Context, paths []string, opts corpus.IngestOptions) (corpus.LinkStats, error) {
	start := time.Now()
	if s.readOnly {
		return corpus.LinkStats{}, fmt.Errorf("postgres: ingest: %w", ErrReadOnly)
	}
	abs, total, err := ingest.WATInputs(paths)
	if err != nil {
		return corpus.LinkStats{}, err
	}
	if !s.ingestMu.TryLock() {
		return corpus.LinkStats{}, ErrLocked
	}
	defer s.ingestMu.Unlock()
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return corpus.LinkStats{}, fmt.Errorf("postgres: ingest: %w", s.dsn.scrub(err))
	}
	defer conn.Release()
	id, err := beginIngest(ctx, conn, s.lockClass, "wat")
	if err != nil {
		return corpus.LinkStats{}, fmt.Errorf("postgres: ingest: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1, $2)`, s.lockClass, id)
	keys := make([]string, len(abs))
	for i, p := range abs {
		keys[i] = "wat:" + p
	}
	rows, _ := conn.Query(ctx, `SELECT source, outcome FROM sources WHERE source = ANY($1)`, keys)
	prior := map[string]string{}
	var key, outcome string
	if _, err := pgx.ForEachRow(rows, []any{&key, &outcome}, func() error {
		prior[strings.TrimPrefix(key, "wat:")] = outcome
		return nil
	}); err != nil {
		return corpus.LinkStats{}, fmt.Errorf("postgres: ingest WAT: %w", err)
	}
	st, err := ingest.RunWAT(ctx, abs, total, opts, prior, &linkWriter{conn: conn, id: id, class: s.lockClass})
	st.Duration = time.Since(start)
	return st, err
}

// linkWriter is the ingest.LinkSink of a PostgreSQL store: it claims each
// link source's URI as it comes and copies the batch's link sources and
// records when the batch commits.
type linkWriter struct {
	conn             *pgxpool.Conn
	id               int64
	class            int32
	tx               pgx.Tx
	sources, records [][]any
}

// Begin opens a transaction unless one is open.
func (lw *linkWriter) Begin(ctx context.Context) error {
	if lw.tx != nil {
		return nil
	}
	tx, err := lw.conn.Begin(ctx)
	lw.tx = tx
	return err
}

// Open reports whether a transaction is open.
func (lw *linkWriter) Open() bool { return lw.tx != nil }

// Rollback abandons the open transaction, if any.
func (lw *linkWriter) Rollback() {
	if lw.tx != nil {
		lw.tx.Rollback(context.Background())
	}
	lw.tx, lw.sources, lw.records = nil, nil, nil
}

// Commit copies the batch's link sources and records and commits.
func (lw *linkWriter) Commit(ctx context.Context) error {
	if lw.tx == nil {
		return nil
	}
	err := lw.flush(ctx)
	if err == nil {
		err = lw.tx.Commit(ctx)
	}
	if err != nil {
		lw.Rollback()
		return fmt.Errorf("commit: %w", err)
	}
	lw.tx, lw.sources, lw.records = nil, nil, nil
	return nil
}

// flush writes what the batch holds, and a new generation: the in-degrees
// are out of date.
func (lw *linkWriter) flush(ctx context.Context) error {
	if len(lw.sources) == 0 {
		return nil
	}
	if _, err := lw.tx.CopyFrom(ctx, pgx.Identifier{"link_sources"}, []string{"uri", "fetched", "source"}, pgx.CopyFromRows(lw.sources)); err != nil {
		return err
	}
	if _, err := lw.tx.CopyFrom(ctx, pgx.Identifier{"link_records"}, []string{"dst", "src", "pos", "anchor"}, pgx.CopyFromRows(lw.records)); err != nil {
		return err
	}
	_, err := lw.tx.Exec(ctx, `UPDATE corpus SET generation = generation + 1`)
	return err
}

// Finish brings the in-degrees up to date and marks the store complete.
func (lw *linkWriter) Finish(ctx context.Context) error { return finish(ctx, lw.conn, lw.class, lw.id) }

// Progress records the progress of a file.
func (lw *linkWriter) Progress(ctx context.Context, file, outcome string) error {
	_, err := lw.tx.Exec(ctx, `INSERT INTO sources (source, outcome) VALUES ($1, $2)
		ON CONFLICT (source) DO UPDATE SET outcome = EXCLUDED.outcome`, text("wat:"+file), outcome)
	return err
}

// WriteRecord writes a record of a WAT file, a page or a skip, and counts
// it in st, as provider/store's link writer does.
func (lw *linkWriter) WriteRecord(ctx context.Context, it *ingest.WATItem, st *corpus.LinkStats) error {
	source := text("wat:" + it.File + "#" + strconv.Itoa(it.Record))
	if it.Skip != nil {
		ingest.Count(&st.Skipped, it.Skip.Reason, 1)
		if it.Skip.Malformed() {
			detail := it.Skip.URI
			if it.Skip.Err != nil {
				detail = strings.TrimPrefix(detail+": "+it.Skip.Err.Error(), ": ")
			}
			_, err := lw.tx.Exec(ctx, `INSERT INTO skipped (source, reason, detail) VALUES ($1, $2, $3)
				ON CONFLICT (source) DO UPDATE SET reason = EXCLUDED.reason, detail = EXCLUDED.detail`,
				source, it.Skip.Reason, text(detail))
			return err
		}
	} else if err := lw.writePage(ctx, source, it.Page, st); err != nil {
		return err
	}
	if it.Retry {
		_, err := lw.tx.Exec(ctx, `DELETE FROM skipped WHERE source = $1`, source)
		return err
	}
	return nil
}

// writePage claims the URI of a WAT page and keeps it as a link source,
// unless it must be passed over.
func (lw *linkWriter) writePage(ctx context.Context, source string, p *commoncrawl.Page, st *corpus.LinkStats) error {
	self := ingest.SelfLinks(p)
	if self == len(p.Links) {
		ingest.Count(&st.Skipped, corpus.ReasonNoLinks, 1)
		return nil
	}
	kind, added, err := lw.claim(ctx, p.URI)
	switch {
	case err != nil:
		return err
	case kind == "source" && !added:
		ingest.Count(&st.Skipped, corpus.ReasonDuplicate, 1)
		return nil
	case kind != "source":
		ingest.Count(&st.Skipped, corpus.ReasonPageInStore, 1)
		return nil
	}
	var fetched int64
	if !p.Fetched.IsZero() {
		fetched = p.Fetched.Unix()
	}
	lw.sources = append(lw.sources, []any{p.URI, fetched, source})
	pos := 0
	for _, l := range p.Links {
		if l.Target == p.URI {
			continue
		}
		lw.records = append(lw.records, []any{l.Target, p.URI, int32(pos), text(l.Anchor)})
		pos++
	}
	ingest.AddSource(st, p, pos, self)
	return nil
}

// claim claims uri for a link source: added reports that this ingest
// claimed it now; otherwise kind says what holds it. The SELECT that reads
// the holder runs on the statement's snapshot, which may predate the
// commit of the ingest the INSERT waited for: it is asked again then.
func (lw *linkWriter) claim(ctx context.Context, uri string) (kind string, added bool, err error) {
	for range 3 {
		err = lw.tx.QueryRow(ctx, `WITH c AS (INSERT INTO uris (uri, kind) VALUES ($1, 'source') ON CONFLICT DO NOTHING RETURNING kind)
			SELECT kind, true FROM c UNION ALL SELECT kind, false FROM uris WHERE uri = $1 AND NOT EXISTS (SELECT 1 FROM c)`, uri).Scan(&kind, &added)
		if !errors.Is(err, pgx.ErrNoRows) {
			return kind, added, err
		}
	}
	return "", false, fmt.Errorf("claim %s: %w", uri, err)
}
