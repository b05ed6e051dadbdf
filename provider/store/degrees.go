package store

import (
	"context"
	"database/sql"
)

// inDegrees counts, as an ingest writes the links, the in-degrees that
// finish would otherwise count with a query per page: for each URI id, the
// distinct other pages linking to it (image-map links left out) and those
// among them with a link that is not navigation. The counts are the
// store's when the ingest began with no links at all (a store's first
// ingest, which also defers the links' index), since every link is then
// one it wrote; it saves finish the queries, which took most of a second
// on the development corpus and about two on 54,000 pages.
//
// The ids of the pages are small integers (urls' rowids), so the counts
// are slices indexed by id, and a page's links count once per target by
// remembering, for each target, the last page counted.
type inDegrees struct {
	all, content         []int32
	lastAll, lastContent []uint32
	// off says that an id too large for the slices came: finish counts
	// with queries.
	off bool
}

// maxCountedID is the largest URI id inDegrees counts in memory (16 bytes
// an id: 512 MiB at most); a store with more URIs counts with queries.
const maxCountedID = 1 << 25

// add counts the links of the page whose id is src.
func (d *inDegrees) add(src int64, links []linkRow) {
	if d.off {
		return
	}
	if src <= 0 || src > maxCountedID {
		d.off = true
		return
	}
	s := uint32(src)
	for _, l := range links {
		dst := l.dst
		if l.area || dst == src {
			continue
		}
		if dst <= 0 || dst > maxCountedID {
			d.off = true
			return
		}
		d.grow(int(dst))
		if d.lastAll[dst] != s {
			d.lastAll[dst] = s
			d.all[dst]++
		}
		if !l.nav && d.lastContent[dst] != s {
			d.lastContent[dst] = s
			d.content[dst]++
		}
	}
}

// grow makes room for id.
func (d *inDegrees) grow(id int) {
	if id < len(d.all) {
		return
	}
	n := max(id+1, 2*len(d.all), 1024)
	d.all = append(d.all, make([]int32, n-len(d.all))...)
	d.content = append(d.content, make([]int32, n-len(d.content))...)
	d.lastAll = append(d.lastAll, make([]uint32, n-len(d.lastAll))...)
	d.lastContent = append(d.lastContent, make([]uint32, n-len(d.lastContent))...)
}

// write sets every page's in-degrees to the counts, in tx.
func (d *inDegrees) write(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `UPDATE pages SET inlinks = 0, content_inlinks = 0 WHERE inlinks <> 0 OR content_inlinks <> 0`); err != nil {
		return err
	}
	var ids []int64
	rows, err := tx.QueryContext(ctx, `SELECT id FROM pages`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		if id < int64(len(d.all)) && d.all[id] > 0 {
			ids = append(ids, id)
		}
	}
	if err := rows.Close(); err != nil {
		return err
	}
	if err := rows.Err(); err != nil {
		return err
	}
	st, err := tx.PrepareContext(ctx, `UPDATE pages SET inlinks = ?, content_inlinks = ? WHERE id = ?`)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, id := range ids {
		if _, err := st.ExecContext(ctx, d.all[id], d.content[id], id); err != nil {
			return err
		}
	}
	return nil
}
