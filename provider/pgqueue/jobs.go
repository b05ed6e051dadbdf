package pgqueue

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"
)

// Defaults of WorkOptions.
const (
	// DefaultJobTimeout is how long one item may take before its context
	// is cancelled and it is tried again.
	DefaultJobTimeout = 10 * time.Minute
	// DefaultTries is how many times an item whose handler answered "not
	// final" is tried before that answer is kept as final.
	DefaultTries = 3
	// maxAttempts is how many times river runs an item's job in all:
	// DefaultTries and more, since a worker stopped or killed mid-job
	// costs an attempt too.
	maxAttempts = 20
)

// jobKind is the river job kind of the items, and queueName their queue.
const (
	jobKind   = "relink_item"
	queueName = "relink"
)

// notifyChannel is the channel a worker notifies when it writes a result,
// with the run's ID as the payload.
const notifyChannel = "relink_results"

// Item is one piece of a run's work: its place in the run's input, a key
// that names it (a dead URL), and what the handler needs to do it, as
// JSON.
type Item struct {
	Index   int             `json:"index" river:"unique"`
	Key     string          `json:"key"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// jobArgs are a river job's arguments: an item of a run. Uniqueness is by
// run and index, so that a run enqueued twice gets each item once.
type jobArgs struct {
	Run string `json:"run" river:"unique"`
	Item
}

// Kind is the river job kind.
func (jobArgs) Kind() string { return jobKind }

// Run is a run's identity and its settings: what every worker must know
// to do its items as the process that enqueued them would (command-line
// flags, say).
type Run struct {
	ID       string
	Settings []string
}

// Result is an item's result: its index and the handler's answer.
type Result struct {
	Index int
	Key   string
	Value json.RawMessage
}

// Enqueue records run and puts those of its items that have no final
// result on the queue, each at most once however often Enqueue is called
// (river's unique jobs, by run and index: an item queued, running or
// done is not queued again). It returns how many jobs it added. A run
// already recorded under run.ID keeps its settings.
func (q *Queue) Enqueue(ctx context.Context, run Run, items []Item) (int, error) {
	tx, err := q.pool.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(ctx)
	if run.Settings == nil {
		run.Settings = []string{}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO `+Schema+`.runs (id, settings, total) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`,
		run.ID, run.Settings, len(items)); err != nil {
		return 0, err
	}
	done, err := finalIndexes(ctx, tx, run.ID)
	if err != nil {
		return 0, err
	}
	opts := &river.InsertOpts{Queue: queueName, MaxAttempts: maxAttempts, UniqueOpts: river.UniqueOpts{ByArgs: true}}
	var params []river.InsertManyParams
	for _, it := range items {
		if !done[it.Index] {
			params = append(params, river.InsertManyParams{Args: jobArgs{Run: run.ID, Item: it}, InsertOpts: opts})
		}
	}
	added := 0
	for len(params) > 0 {
		n := min(len(params), 1000)
		res, err := q.inserter.InsertManyTx(ctx, tx, params[:n])
		if err != nil {
			return 0, err
		}
		for _, r := range res {
			if !r.UniqueSkippedAsDuplicate {
				added++
			}
		}
		params = params[n:]
	}
	return added, tx.Commit(ctx)
}

// finalIndexes returns the indexes of run's items with a final result.
func finalIndexes(ctx context.Context, db interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}, run string) (map[int]bool, error) {
	rows, err := db.Query(ctx, `SELECT idx FROM `+Schema+`.results WHERE run = $1 AND final`, run)
	if err != nil {
		return nil, err
	}
	idx, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		return nil, err
	}
	done := make(map[int]bool, len(idx))
	for _, i := range idx {
		done[i] = true
	}
	return done, nil
}

// ErrFailed is returned by Collect when an item's job ended without a
// final result (river discarded or cancelled it).
var ErrFailed = errors.New("pgqueue: an item's job failed")

// pollInterval is how often Collect reads the results when no
// notification comes; every failedEvery reads that bring nothing, it
// checks for failed jobs.
const (
	pollInterval = time.Second
	failedEvery  = 10
)

// Collect calls each with every final result of run, as they come, each
// once, until total results came or ctx is done. It wakes on the workers'
// notifications and reads the results at least every second. A job that
// river gave up on (discarded after its attempts, or cancelled) ends it,
// within about ten seconds, with an error wrapping ErrFailed that names
// the item and its last error.
func (q *Queue) Collect(ctx context.Context, run string, total int, each func(Result)) error {
	conn, err := q.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `LISTEN `+notifyChannel); err != nil {
		return err
	}
	defer func() {
		// The connection goes back to the pool: it must listen no more.
		conn.Exec(context.WithoutCancel(ctx), `UNLISTEN `+notifyChannel)
	}()
	var (
		last int64
		seen = map[int]bool{}
		idle int // reads that brought nothing
	)
	for len(seen) < total {
		batch, err := readResults(ctx, conn.Conn(), `SELECT idx, key, value, seq FROM `+Schema+`.results
			WHERE run = $1 AND final AND seq > $2 ORDER BY seq`, run, last)
		if err != nil {
			return err
		}
		if len(batch) == 0 {
			// Results are numbered as they are written but committed in
			// any order: one numbered below the last read may have been
			// committed since. When the count says so, read those.
			var n int
			if err := conn.QueryRow(ctx, `SELECT count(*) FROM `+Schema+`.results WHERE run = $1 AND final`, run).Scan(&n); err != nil {
				return err
			}
			if n > len(seen) {
				idx := make([]int, 0, len(seen))
				for i := range seen {
					idx = append(idx, i)
				}
				if batch, err = readResults(ctx, conn.Conn(), `SELECT idx, key, value, seq FROM `+Schema+`.results
					WHERE run = $1 AND final AND NOT (idx = ANY($2)) ORDER BY seq`, run, idx); err != nil {
					return err
				}
			}
		}
		for _, r := range batch {
			last = max(last, r.seq)
		}
		for _, r := range batch {
			if !seen[r.Index] {
				seen[r.Index] = true
				each(r.Result)
			}
		}
		if len(seen) >= total {
			break
		}
		if len(batch) == 0 {
			// river's jobs are not indexed by run: a scan, now and then.
			if idle++; idle%failedEvery == 1 {
				if err := q.failed(ctx, conn.Conn(), run, seen); err != nil {
					return err
				}
			}
		}
		wait, cancel := context.WithTimeout(ctx, pollInterval)
		_, err = conn.Conn().WaitForNotification(wait)
		cancel()
		if err := ctx.Err(); err != nil {
			return err
		}
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
	}
	return nil
}

// seqResult is a result and its number.
type seqResult struct {
	Result
	seq int64
}

// readResults returns the results the query sql reads: index, key, value
// and number.
func readResults(ctx context.Context, conn *pgx.Conn, sql string, args ...any) ([]seqResult, error) {
	rows, err := conn.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []seqResult
	for rows.Next() {
		var (
			r     seqResult
			value string
		)
		if err := rows.Scan(&r.Index, &r.Key, &value, &r.seq); err != nil {
			return nil, err
		}
		r.Value = json.RawMessage(value)
		out = append(out, r)
	}
	return out, rows.Err()
}

// failed returns an error for the first job of run that river gave up on
// without a final result among seen.
func (q *Queue) failed(ctx context.Context, conn *pgx.Conn, run string, seen map[int]bool) error {
	rows, err := conn.Query(ctx, `SELECT (args->>'index')::int, args->>'key', state, coalesce(errors[array_length(errors, 1)]->>'error', '')
		FROM `+Schema+`.river_job WHERE kind = $1 AND args->>'run' = $2 AND state IN ('discarded', 'cancelled')`, jobKind, run)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			idx              int
			key, state, last string
		)
		if err := rows.Scan(&idx, &key, &state, &last); err != nil {
			return err
		}
		if !seen[idx] {
			return fmt.Errorf("%w: %s (item %d) was %s: %s", ErrFailed, key, idx, state, last)
		}
	}
	return rows.Err()
}

// ErrPermanent, wrapped in a Handler's error, says that trying the item
// again cannot help (the run's settings are wrong, say): its job is
// cancelled, and Collect fails with ErrFailed.
var ErrPermanent = errors.New("pgqueue: permanent failure")

// Handler does one item of a run. It returns the item's result (JSON) and
// whether it is final; a result that is not final (a service failed) is
// written, and the item tried again up to WorkOptions.Tries times, after
// which its last result is kept as final. An error is a failure to do the
// item at all: nothing is written and the item is tried again. The
// handler must give up when ctx is done (the worker is stopping, or the
// job timed out): the item is then tried again, by this worker or
// another.
type Handler func(ctx context.Context, run Run, item Item) (result json.RawMessage, final bool, err error)

// WorkOptions configure Work. The zero value is usable.
type WorkOptions struct {
	// Concurrency is how many items the worker does at once; zero or
	// less means 1.
	Concurrency int
	// JobTimeout bounds one item; zero or less means DefaultJobTimeout.
	// A worker that was killed leaves its items running in the
	// database; they are tried again (by any worker) after JobTimeout
	// and a minute more.
	JobTimeout time.Duration
	// Tries is how many times an item whose result is not final is
	// tried; zero or less means DefaultTries.
	Tries int
	// ID names the worker in river's tables; empty lets river choose.
	ID string
}

// Work takes items from the queue and does them with handle until ctx is
// done, then cancels the items in flight (they are tried again, by
// another worker or a later one) and returns nil. Any number of workers
// may work at once, on one machine or many.
func (q *Queue) Work(ctx context.Context, opts WorkOptions, handle Handler) error {
	if opts.Concurrency <= 0 {
		opts.Concurrency = 1
	}
	if opts.JobTimeout <= 0 {
		opts.JobTimeout = DefaultJobTimeout
	}
	if opts.Tries <= 0 {
		opts.Tries = DefaultTries
	}
	w := &worker{q: q, handle: handle, opts: opts, runs: map[string]Run{}}
	workers := river.NewWorkers()
	river.AddWorker(workers, w)
	client, err := river.NewClient(riverpgxv5.New(q.pool), &river.Config{
		Schema:               Schema,
		ID:                   opts.ID,
		Queues:               map[string]river.QueueConfig{queueName: {MaxWorkers: opts.Concurrency}},
		Workers:              workers,
		JobTimeout:           opts.JobTimeout,
		RescueStuckJobsAfter: opts.JobTimeout + time.Minute,
		RetryPolicy:          retryPolicy{},
		FetchPollInterval:    time.Second,
		Logger:               quietLogger(),
	})
	if err != nil {
		return err
	}
	if err := client.Start(ctx); err != nil {
		return err
	}
	<-ctx.Done()
	stop, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := client.StopAndCancel(stop); err != nil {
		return fmt.Errorf("pgqueue: stop the worker: %w", err)
	}
	return nil
}

// retryPolicy retries an item after as many seconds as it was attempted,
// at most a minute: the failures it meets are a worker stopped (another
// should take the item at once) and services failing (which their clients
// already waited for).
type retryPolicy struct{}

func (retryPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	return time.Now().Add(min(time.Duration(job.Attempt)*time.Second, time.Minute))
}

// worker is the river worker of the items.
type worker struct {
	river.WorkerDefaults[jobArgs]
	q      *Queue
	handle Handler
	opts   WorkOptions

	mu   sync.Mutex
	runs map[string]Run // the runs' settings, read once
}

// Timeout bounds one item.
func (w *worker) Timeout(*river.Job[jobArgs]) time.Duration { return w.opts.JobTimeout }

// Work does one item: nothing when it has a final result already (a job
// run twice), else the handler, whose result it writes.
func (w *worker) Work(ctx context.Context, job *river.Job[jobArgs]) error {
	a := job.Args
	run, err := w.run(ctx, a.Run)
	if err != nil {
		return err
	}
	var done bool
	if err := w.q.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM `+Schema+`.results WHERE run = $1 AND idx = $2 AND final)`,
		a.Run, a.Index).Scan(&done); err != nil {
		return err
	}
	if done {
		return nil
	}
	value, final, err := w.handle(ctx, run, a.Item)
	if errors.Is(err, ErrPermanent) {
		return river.JobCancel(err)
	}
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err() // stopped: tried again, nothing written
	}
	final = final || job.Attempt >= w.opts.Tries
	if err := w.q.putResult(ctx, a.Run, a.Item, value, final); err != nil {
		return err
	}
	if !final {
		return errNotFinal
	}
	return nil
}

// errNotFinal is a job's error when its result is not final: river tries
// it again.
var errNotFinal = errors.New("the result is not final: tried again")

// run returns the run id's settings.
func (w *worker) run(ctx context.Context, id string) (Run, error) {
	w.mu.Lock()
	r, ok := w.runs[id]
	w.mu.Unlock()
	if ok {
		return r, nil
	}
	r = Run{ID: id}
	err := w.q.pool.QueryRow(ctx, `SELECT settings FROM `+Schema+`.runs WHERE id = $1`, id).Scan(&r.Settings)
	if errors.Is(err, pgx.ErrNoRows) {
		return Run{}, river.JobCancel(fmt.Errorf("run %s is not recorded", id))
	}
	if err != nil {
		return Run{}, err
	}
	w.mu.Lock()
	w.runs[id] = r
	w.mu.Unlock()
	return r, nil
}

// putResult writes an item's result and notifies the run's collectors. A
// final result is never replaced by one that is not.
func (q *Queue) putResult(ctx context.Context, run string, it Item, value json.RawMessage, final bool) error {
	_, err := q.pool.Exec(ctx, `WITH w AS (
			INSERT INTO `+Schema+`.results (run, idx, key, value, final, seq)
			VALUES ($1, $2, $3, $4, $5, nextval('`+Schema+`.result_seq'))
			ON CONFLICT (run, idx) DO UPDATE SET value = excluded.value, final = excluded.final, seq = excluded.seq, updated = now()
			WHERE NOT results.final
			RETURNING 1)
		SELECT pg_notify($6, $1) FROM w`, run, it.Index, it.Key, string(value), final, notifyChannel)
	return err
}

// Progress counts a run's items by state.
type Progress struct {
	// Done have a final result; Queued wait for a worker (or for another
	// try); Running are being done.
	Done, Queued, Running int
}

// Progress returns how far run has come.
func (q *Queue) Progress(ctx context.Context, run string) (Progress, error) {
	var p Progress
	err := q.pool.QueryRow(ctx, `WITH j AS (
			SELECT state FROM `+Schema+`.river_job j WHERE kind = $2 AND args->>'run' = $1
			AND NOT EXISTS (SELECT 1 FROM `+Schema+`.results r WHERE r.run = $1 AND r.idx = (j.args->>'index')::int AND r.final))
		SELECT (SELECT count(*) FROM `+Schema+`.results WHERE run = $1 AND final),
			(SELECT count(*) FROM j WHERE state IN ('available', 'retryable', 'scheduled', 'pending')),
			(SELECT count(*) FROM j WHERE state = 'running')`,
		run, jobKind).Scan(&p.Done, &p.Queued, &p.Running)
	return p, err
}

// Prune deletes the runs that finished before t (every item has a final
// result, the last of them written before t), with their results and
// their river jobs, and returns how many it deleted. A run that has not
// finished is kept however old it is. A run deleted and enqueued again is
// done again from the start.
func (q *Queue) Prune(ctx context.Context, t time.Time) (int, error) {
	var n int
	err := pgx.BeginFunc(ctx, q.pool, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `DELETE FROM `+Schema+`.runs r
			WHERE r.created < $1
			AND (SELECT count(*) FROM `+Schema+`.results x WHERE x.run = r.id AND x.final) >= r.total
			AND NOT EXISTS (SELECT 1 FROM `+Schema+`.results x WHERE x.run = r.id AND x.updated >= $1)
			RETURNING r.id`, t)
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		n = len(ids)
		if n == 0 {
			return nil
		}
		_, err = tx.Exec(ctx, `DELETE FROM `+Schema+`.river_job WHERE kind = $1 AND args->>'run' = ANY($2)`, jobKind, ids)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("pgqueue: prune: %w", q.dsn.Scrub(err))
	}
	return n, nil
}

// RunID names the run of settings over items: the SHA-256 of both, in
// hex. The same settings and items in the same order give the same ID, so
// that a run enqueued again (a killed process run again) finds its items
// and results.
func RunID(settings []string, items []Item) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	enc.Encode(settings) // writes to a hash: no error
	for _, it := range items {
		enc.Encode(it)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// quietLogger is river's logger: none. The worker's errors are its
// jobs', recorded in river's tables and in the results.
func quietLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }
