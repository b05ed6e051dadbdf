package pgqueue

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// DefaultRecordTimeout bounds one read or write of a record.
const DefaultRecordTimeout = 10 * time.Second

// Records are cache records (a kind, a key, a value and when it was
// stored) in the queue's database, shared by every worker: a
// provider/cache Records, so that cache's decorators (Fetcher, Searcher,
// Probes, Robots, DF) keep their answers here as they do in a directory.
// Ages are judged by the server's clock, so that machines whose clocks
// differ agree. A record that cannot be read is a miss; a failed write is
// returned and otherwise ignored. Records are safe for concurrent use.
type Records struct {
	q      *Queue
	maxAge time.Duration
}

// Records returns the queue's cache records, each used for maxAge after
// it was stored (zero or less: 30 days, as provider/cache's default).
func (q *Queue) Records(maxAge time.Duration) *Records {
	if maxAge <= 0 {
		maxAge = 30 * 24 * time.Hour
	}
	return &Records{q: q, maxAge: maxAge}
}

// Get returns the value stored under kind and key and when, or ok false
// when there is none younger than the age limit or the database cannot be
// read within DefaultRecordTimeout.
func (r *Records) Get(kind, key string) (value []byte, stored time.Time, ok bool) {
	ctx, cancel := context.WithTimeout(context.Background(), DefaultRecordTimeout)
	defer cancel()
	err := r.q.pool.QueryRow(ctx, `SELECT value, stored FROM `+Schema+`.records
		WHERE kind = $1 AND key = $2 AND stored > now() - $3 * interval '1 microsecond'`,
		kind, []byte(key), r.maxAge.Microseconds()).Scan(&value, &stored)
	if err != nil {
		return nil, time.Time{}, false
	}
	return value, stored, true
}

// ErrBadKind is returned by Put for an empty kind.
var ErrBadKind = errors.New("pgqueue: empty record kind")

// Put stores value under kind and key with the server's time, replacing
// any record there.
func (r *Records) Put(kind, key string, value []byte) error {
	if kind == "" {
		return ErrBadKind
	}
	ctx, cancel := context.WithTimeout(context.Background(), DefaultRecordTimeout)
	defer cancel()
	_, err := r.q.pool.Exec(ctx, `INSERT INTO `+Schema+`.records (kind, key, value, stored) VALUES ($1, $2, $3, now())
		ON CONFLICT (kind, key) DO UPDATE SET value = excluded.value, stored = excluded.stored`, kind, []byte(key), value)
	if err != nil {
		return fmt.Errorf("pgqueue: put a record: %w", r.q.dsn.Scrub(err))
	}
	return nil
}

// Delete removes every record of kind (every record when kind is empty)
// and returns how many there were.
func (r *Records) Delete(ctx context.Context, kind string) (int64, error) {
	var (
		tag interface{ RowsAffected() int64 }
		err error
	)
	if kind == "" {
		tag, err = r.q.pool.Exec(ctx, `DELETE FROM `+Schema+`.records`)
	} else {
		tag, err = r.q.pool.Exec(ctx, `DELETE FROM `+Schema+`.records WHERE kind = $1`, kind)
	}
	if err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
}
