// Package pgqueue spreads a run's work over many processes, on one
// machine or many, through one PostgreSQL database: the items of a run
// (relink fix's dead links) are jobs on a river queue, any number of
// workers take them, and their results, the answers of remote services
// they cache and the rate limits they keep are tables that every worker
// shares.
//
//	q, err := pgqueue.Open(ctx, postgres.DSN(url))
//	run := pgqueue.Run{ID: pgqueue.RunID(settings, items), Settings: settings}
//	added, err := q.Enqueue(ctx, run, items)              // the process that has the work
//	err = q.Collect(ctx, run.ID, len(items), func(r pgqueue.Result) { ... })
//
//	err = q.Work(ctx, pgqueue.WorkOptions{Concurrency: 4}, handle) // each worker
//
// # Runs, items and results
//
// A run is an ID and settings (relink fix's command line): what a worker
// needs to do the run's items as the enqueuing process would. RunID names
// a run by its settings and items, so that the same work enqueued again
// is the same run. Enqueue records the run and adds a river job for each
// item without a final result; river's unique jobs (by run and item
// index) keep an item that is queued, running or done from being queued
// twice, however many times and from however many processes Enqueue is
// called.
//
// A worker's Handler does one item and returns its result (JSON) and
// whether it is final. The result is upserted by run and index, so that
// an item done twice (a job that river rescued from a worker it thought
// dead, which was only slow) writes one row, and a final result is never
// replaced. A result that is not final (a service failed) is written and
// the item tried again, up to WorkOptions.Tries times, after which it is
// kept. Each write notifies (NOTIFY relink_results); Collect listens, and
// reads the results at least every second besides, calling its function
// once for each final result of the run until all have come. A job that
// river gave up on ends Collect with ErrFailed.
//
// # What survives a kill
//
// Everything is in the database. A process running Collect that is killed
// loses nothing: run it again (Enqueue then Collect) and it gets the
// results written meanwhile and waits for the rest, adding no job. A
// worker stopped (its context cancelled: river's StopAndCancel) cancels
// its items, which river tries again at once, by any worker. A worker
// killed outright leaves its items running in river's table; river's
// rescuer tries them again after WorkOptions.JobTimeout and a minute more.
//
// # Shared caches and rate limits
//
// Records are provider/cache Records in a table, keyed by kind and key
// with the time stored and an age limit, so that cache's decorators keep
// pages, search answers, soft-404 verdicts per host and document
// frequencies there for every worker. Limiter keeps one row per rate
// limit (a service, a host) with the time the next request may start: a
// reservation moves it on by the interval in one statement, so that all
// workers together send no more than one request an interval, and Pause
// moves it on for everyone when a service answers 429.
//
// # Schema
//
// Everything is in the schema relink_work (Schema), apart from a store's
// tables in the same database: river's tables (river's own migrations,
// rivermigrate) and runs, results, records and limits, which are
// versioned as provider/postgres's store is (the queue_version table,
// SchemaVersion; a later version is ErrSchema). Open makes or updates
// them under an advisory lock.
//
// # What it does not do
//
// It does not start workers or bound the records table's size. Runs and
// results stay until Prune deletes those that finished before a time
// (relink fix -queue prunes the runs that finished more than 30 days
// ago); river removes its finished jobs after a day. Settings are stored as given:
// they must hold no secret (relink fix leaves its API keys out; each
// worker reads its own).
package pgqueue
