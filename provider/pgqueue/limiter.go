package pgqueue

import (
	"context"
	"time"
)

// Limiter keeps rate limits that every process of the queue keeps
// together: a row a key (a service, a host) holding the time the next
// request may start. Reserve books the next slot in one statement (an
// upsert that pushes the row's time on by the interval), so that
// processes on many machines, each asking the database, start their
// requests at most one an interval in all: a token bucket with a burst of
// one. Pause pushes a key's time on, for everyone, when a service says to
// wait (a 429 answer's Retry-After). Times are the server's clock unless
// Now is set. A Limiter is safe for concurrent use.
type Limiter struct {
	q *Queue
	// Now, when set, is the clock reservations are made by (tests);
	// nil means the database server's clock.
	Now func() time.Time
}

// Limiter returns the queue's rate limits.
func (q *Queue) Limiter() *Limiter { return &Limiter{q: q} }

// Reserve books the next start of a request under key, at most one every
// interval however many processes ask, and returns how long from now the
// request must wait. An interval of zero or less reserves nothing and
// returns zero.
func (l *Limiter) Reserve(ctx context.Context, key string, every time.Duration) (time.Duration, error) {
	if every <= 0 {
		return 0, nil
	}
	var next, now time.Time
	err := l.q.pool.QueryRow(ctx, `WITH t AS (SELECT coalesce($2::timestamptz, clock_timestamp()) AS now)
		INSERT INTO `+Schema+`.limits AS l (key, next_at)
		SELECT $1, t.now + $3 * interval '1 microsecond' FROM t
		ON CONFLICT (key) DO UPDATE SET next_at = greatest(l.next_at + $3 * interval '1 microsecond', excluded.next_at)
		RETURNING l.next_at, (SELECT now FROM t)`, key, l.now(), every.Microseconds()).Scan(&next, &now)
	if err != nil {
		return 0, err
	}
	return max(next.Sub(now)-every, 0), nil
}

// now returns the Now clock's time, or nil for the server's.
func (l *Limiter) now() *time.Time {
	if l.Now == nil {
		return nil
	}
	t := l.Now()
	return &t
}

// Wait reserves the next start under key (Reserve) and waits for it, or
// until ctx is done.
func (l *Limiter) Wait(ctx context.Context, key string, every time.Duration) error {
	d, err := l.Reserve(ctx, key, every)
	if err != nil || d <= 0 {
		return err
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Pause makes every process's next request under key wait until d from
// now at least.
func (l *Limiter) Pause(ctx context.Context, key string, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	_, err := l.q.pool.Exec(ctx, `WITH t AS (SELECT coalesce($2::timestamptz, clock_timestamp()) AS now)
		INSERT INTO `+Schema+`.limits AS l (key, next_at)
		SELECT $1, t.now + $3 * interval '1 microsecond' FROM t
		ON CONFLICT (key) DO UPDATE SET next_at = greatest(l.next_at, excluded.next_at)`, key, l.now(), d.Microseconds())
	return err
}
