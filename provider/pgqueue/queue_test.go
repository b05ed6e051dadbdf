package pgqueue_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/internal/pgtest"
	"github.com/linkrot/relink/provider/pgqueue"
	"github.com/linkrot/relink/provider/postgres"
)

// open opens a queue in a new database.
func open(t *testing.T) (*pgqueue.Queue, string) {
	t.Helper()
	dsn := pgtest.Database(t)
	q, err := pgqueue.Open(context.Background(), postgres.DSN(dsn))
	require.NoError(t, err)
	t.Cleanup(q.Close)
	return q, dsn
}

// items returns n items keyed k0, k1, ...
func items(n int) []pgqueue.Item {
	out := make([]pgqueue.Item, n)
	for i := range out {
		out[i] = pgqueue.Item{Index: i, Key: fmt.Sprintf("k%d", i), Payload: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))}
	}
	return out
}

// startWorker runs q.Work with h until the returned stop is called, which
// waits for Work to return.
func startWorker(t *testing.T, q *pgqueue.Queue, opts pgqueue.WorkOptions, h pgqueue.Handler) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- q.Work(ctx, opts, h) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Work: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// echo is a handler whose result names the item and the worker.
func echo(worker string) pgqueue.Handler {
	return func(ctx context.Context, run pgqueue.Run, it pgqueue.Item) (json.RawMessage, bool, error) {
		return json.RawMessage(fmt.Sprintf(`{"key":%q,"worker":%q,"settings":%q}`, it.Key, worker, run.Settings)), true, nil
	}
}

// collect gathers a run's results by index.
func collect(t *testing.T, q *pgqueue.Queue, run string, total int) map[int]map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	got := map[int]map[string]any{}
	err := q.Collect(ctx, run, total, func(r pgqueue.Result) {
		if _, dup := got[r.Index]; dup {
			t.Errorf("result %d collected twice", r.Index)
		}
		var v map[string]any
		if err := json.Unmarshal(r.Value, &v); err != nil {
			t.Errorf("result %d: %v", r.Index, err)
		}
		got[r.Index] = v
	})
	require.NoError(t, err)
	return got
}

// TestTwoWorkers enqueues a run twice (the second adds nothing), lets two
// workers do it, and collects every result once; a third Enqueue after
// the run is done adds nothing either.
func TestTwoWorkers(t *testing.T) {
	q, dsn := open(t)
	ctx := context.Background()
	its := items(20)
	run := pgqueue.Run{ID: pgqueue.RunID([]string{"-x"}, its), Settings: []string{"-x"}}
	added, err := q.Enqueue(ctx, run, its)
	require.NoError(t, err)
	if added != 20 {
		t.Errorf("Enqueue added %d jobs, want 20", added)
	}
	again, err := q.Enqueue(ctx, run, its)
	require.NoError(t, err)
	if again != 0 {
		t.Errorf("a second Enqueue added %d jobs, want 0", again)
	}
	startWorker(t, q, pgqueue.WorkOptions{Concurrency: 2}, echo("a"))
	startWorker(t, q, pgqueue.WorkOptions{Concurrency: 2}, echo("b"))
	got := collect(t, q, run.ID, len(its))
	if len(got) != 20 {
		t.Fatalf("%d results, want 20", len(got))
	}
	for i, v := range got {
		if v["key"] != its[i].Key || fmt.Sprint(v["settings"]) != "[-x]" {
			t.Errorf("result %d = %v, want key %s and the run's settings", i, v, its[i].Key)
		}
	}
	if n := pgtest.Int(t, dsn, `SELECT count(*) FROM `+pgqueue.Schema+`.river_job`); n != 20 {
		t.Errorf("%d jobs in the queue, want 20", n)
	}
	third, err := q.Enqueue(ctx, run, its)
	require.NoError(t, err)
	if third != 0 {
		t.Errorf("an Enqueue of a done run added %d jobs, want 0", third)
	}
	p, err := q.Progress(ctx, run.ID)
	require.NoError(t, err)
	if p != (pgqueue.Progress{Done: 20}) {
		t.Errorf("Progress = %+v, want all 20 done", p)
	}
}

// TestWorkerStopped stops a worker while it holds an item: the item is
// tried again and done by another worker, and its result is written once.
func TestWorkerStopped(t *testing.T) {
	q, _ := open(t)
	ctx := context.Background()
	its := items(1)
	run := pgqueue.Run{ID: "stopped", Settings: nil}
	_, err := q.Enqueue(ctx, run, its)
	require.NoError(t, err)
	started := make(chan struct{})
	stopA := startWorker(t, q, pgqueue.WorkOptions{}, func(ctx context.Context, _ pgqueue.Run, _ pgqueue.Item) (json.RawMessage, bool, error) {
		close(started)
		<-ctx.Done() // holds the item until the worker stops
		return nil, false, ctx.Err()
	})
	<-started
	stopA()
	startWorker(t, q, pgqueue.WorkOptions{}, echo("b"))
	got := collect(t, q, run.ID, 1)
	if got[0]["worker"] != "b" {
		t.Errorf("result %v, want worker b's", got[0])
	}
}

// TestNotFinal keeps a result that is not final only after the tries: the
// item is tried again until then.
func TestNotFinal(t *testing.T) {
	q, _ := open(t)
	ctx := context.Background()
	var (
		mu    sync.Mutex
		tries int
	)
	startWorker(t, q, pgqueue.WorkOptions{Tries: 2}, func(ctx context.Context, _ pgqueue.Run, it pgqueue.Item) (json.RawMessage, bool, error) {
		mu.Lock()
		defer mu.Unlock()
		tries++
		return json.RawMessage(fmt.Sprintf(`{"try":%d}`, tries)), false, nil
	})
	_, err := q.Enqueue(ctx, pgqueue.Run{ID: "flaky"}, items(1))
	require.NoError(t, err)
	got := collect(t, q, "flaky", 1)
	if got[0]["try"] != float64(2) {
		t.Errorf("result %v, want the second try's", got[0])
	}
}

// TestFailed ends Collect with ErrFailed for a job river gave up on: a
// run that is not recorded is cancelled.
func TestFailed(t *testing.T) {
	q, dsn := open(t)
	ctx := context.Background()
	_, err := q.Enqueue(ctx, pgqueue.Run{ID: "gone"}, items(1))
	require.NoError(t, err)
	c, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer c.Close(ctx)
	_, err = c.Exec(ctx, `DELETE FROM `+pgqueue.Schema+`.runs`)
	require.NoError(t, err)
	startWorker(t, q, pgqueue.WorkOptions{}, echo("a"))
	wait, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	err = q.Collect(wait, "gone", 1, func(pgqueue.Result) { t.Error("a result came") })
	if !errors.Is(err, pgqueue.ErrFailed) {
		t.Errorf("Collect = %v, want ErrFailed", err)
	}
}

// TestPermanent cancels an item whose handler says trying again cannot
// help: Collect fails with ErrFailed, naming it.
func TestPermanent(t *testing.T) {
	q, _ := open(t)
	ctx := context.Background()
	_, err := q.Enqueue(ctx, pgqueue.Run{ID: "bad"}, items(1))
	require.NoError(t, err)
	startWorker(t, q, pgqueue.WorkOptions{}, func(context.Context, pgqueue.Run, pgqueue.Item) (json.RawMessage, bool, error) {
		return nil, false, fmt.Errorf("bad settings: %w", pgqueue.ErrPermanent)
	})
	wait, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	err = q.Collect(wait, "bad", 1, func(pgqueue.Result) { t.Error("a result came") })
	if !errors.Is(err, pgqueue.ErrFailed) || !strings.Contains(err.Error(), "k0") || !strings.Contains(err.Error(), "bad settings") {
		t.Errorf("Collect = %v, want ErrFailed naming k0 and the handler's error", err)
	}
}

// TestRecords stores and reads records shared by two Queues, keys with a
// NUL byte included, and judges ages.
func TestRecords(t *testing.T) {
	q, dsn := open(t)
	q2, err := pgqueue.Open(context.Background(), postgres.DSN(dsn))
	require.NoError(t, err)
	defer q2.Close()
	r := q.Records(time.Hour)
	require.NoError(t, r.Put("search", "brave\x00q", []byte("answer")))
	v, stored, ok := q2.Records(time.Hour).Get("search", "brave\x00q")
	if !ok || string(v) != "answer" || stored.IsZero() {
		t.Errorf("Get = %q, %v, %v; want the answer", v, stored, ok)
	}
	if _, _, ok := r.Get("search", "brave\x00other"); ok {
		t.Error("Get of another key hit")
	}
	if _, _, ok := q2.Records(time.Microsecond).Get("search", "brave\x00q"); ok {
		t.Error("Get with a microsecond's age limit hit")
	}
	require.ErrorIs(t, r.Put("", "k", nil), pgqueue.ErrBadKind)
}

// TestCollectOutOfOrder reads a result that was numbered before the last
// one read but committed after it: results are numbered as they are
// written, not as they are committed.
func TestCollectOutOfOrder(t *testing.T) {
	q, dsn := open(t)
	ctx := context.Background()
	_, err := q.Enqueue(ctx, pgqueue.Run{ID: "order"}, items(2))
	require.NoError(t, err)
	a, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer a.Close(ctx)
	b, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer b.Close(ctx)
	put := func(db interface {
		Exec(context.Context, string, ...any) (pgconn.CommandTag, error)
	}, idx int) {
		_, err := db.Exec(ctx, `INSERT INTO `+pgqueue.Schema+`.results (run, idx, key, value, final, seq)
			VALUES ('order', $1, 'k', '{}', true, nextval('`+pgqueue.Schema+`.result_seq'))`, idx)
		require.NoError(t, err)
	}
	late, err := a.Begin(ctx)
	require.NoError(t, err)
	put(late, 0) // numbered first, committed last
	put(b, 1)
	got := make(chan int, 2)
	done := make(chan error, 1)
	wait, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	go func() { done <- q.Collect(wait, "order", 2, func(r pgqueue.Result) { got <- r.Index }) }()
	select {
	case i := <-got:
		if i != 1 {
			t.Fatalf("first result %d, want 1", i)
		}
	case err := <-done:
		t.Fatalf("Collect ended before the first result: %v", err)
	}
	require.NoError(t, late.Commit(ctx))
	require.NoError(t, <-done)
	if i := <-got; i != 0 {
		t.Errorf("second result %d, want 0", i)
	}
}

// TestPrune checks that Prune deletes the runs that finished before its
// time, with their results and jobs, and keeps the others: a run not
// finished, and every run finished after the time.
func TestPrune(t *testing.T) {
	q, dsn := open(t)
	ctx := context.Background()
	finished := pgqueue.Run{ID: "finished", Settings: []string{"-a"}}
	unfinished := pgqueue.Run{ID: "unfinished", Settings: []string{"-b"}}
	_, err := q.Enqueue(ctx, finished, items(3))
	require.NoError(t, err)
	stop := startWorker(t, q, pgqueue.WorkOptions{Concurrency: 2}, echo("a"))
	collect(t, q, finished.ID, 3)
	stop()
	_, err = q.Enqueue(ctx, unfinished, items(2)) // no worker runs: not finished
	require.NoError(t, err)
	count := func(table, run string) int {
		col := "run"
		if table == "runs" {
			col = "id"
		}
		return pgtest.Int(t, dsn, `SELECT count(*) FROM `+pgqueue.Schema+`.`+table+` WHERE `+col+` = $1`, run)
	}
	jobs := func(run string) int {
		return pgtest.Int(t, dsn, `SELECT count(*) FROM `+pgqueue.Schema+`.river_job WHERE args->>'run' = $1`, run)
	}
	require.Equal(t, 3, count("results", finished.ID))

	// Nothing finished before an hour ago.
	n, err := q.Prune(ctx, time.Now().Add(-time.Hour))
	require.NoError(t, err)
	require.Zero(t, n)
	require.Equal(t, 1, count("runs", finished.ID))

	// Everything finished before an hour from now: the finished run goes,
	// the unfinished one stays.
	n, err = q.Prune(ctx, time.Now().Add(time.Hour))
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Zero(t, count("runs", finished.ID)+count("results", finished.ID)+jobs(finished.ID))
	require.Equal(t, 1, count("runs", unfinished.ID))
	require.Equal(t, 2, jobs(unfinished.ID))

	// The pruned run enqueued again is done again.
	added, err := q.Enqueue(ctx, finished, items(3))
	require.NoError(t, err)
	require.Equal(t, 3, added)
}

// TestQueueVersion checks the versioning of the queue's tables: Open
// records SchemaVersion, adopts the tables of a queue made before they
// were versioned (keeping its rows), and refuses a later version.
func TestQueueVersion(t *testing.T) {
	q, dsn := open(t)
	ctx := context.Background()
	version := `SELECT version FROM ` + pgqueue.Schema + `.queue_version`
	require.Equal(t, pgqueue.SchemaVersion, pgtest.Int(t, dsn, version))
	_, err := q.Enqueue(ctx, pgqueue.Run{ID: "kept"}, items(1))
	require.NoError(t, err)
	exec := func(sql string) {
		t.Helper()
		c, err := pgx.Connect(ctx, dsn)
		require.NoError(t, err)
		defer c.Close(ctx)
		_, err = c.Exec(ctx, sql)
		require.NoError(t, err)
	}

	exec(`DROP TABLE ` + pgqueue.Schema + `.queue_version`)
	again, err := pgqueue.Open(ctx, postgres.DSN(dsn))
	require.NoError(t, err)
	again.Close()
	require.Equal(t, pgqueue.SchemaVersion, pgtest.Int(t, dsn, version))
	require.Equal(t, 1, pgtest.Int(t, dsn, `SELECT count(*) FROM `+pgqueue.Schema+`.runs WHERE id = 'kept'`))

	exec(`UPDATE ` + pgqueue.Schema + `.queue_version SET version = version + 1`)
	_, err = pgqueue.Open(ctx, postgres.DSN(dsn))
	require.ErrorIs(t, err, pgqueue.ErrSchema)
}
