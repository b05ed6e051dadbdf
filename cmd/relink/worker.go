package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/linkrot/relink/provider/pgqueue"
	"github.com/linkrot/relink/provider/postgres"
	"github.com/linkrot/relink/repair"
)

const workerHelp = `
usage: relink worker -store postgres://... [-concurrency N] [-job-timeout D] [-tries N]

Worker takes the dead links that relink fix -queue put on the queue in
the store's database and looks for each as relink fix would (the same
code, with the run's flags: method, threshold, live services), until it
is stopped (Ctrl-C or SIGTERM). Any number of workers may run at once, on
any number of machines; each result is written to the database, where
the relink fix that queued the run (or one run again) reads it.

Workers share through the database the live services' answers (pages,
search answers, document frequencies, the hosts whose made-up paths
answer an error), for the run's -cache-age, and the rate limits: every
worker together sends a search engine, an archive or a web host no more
requests than one relink fix would (-rate, -archive-rate, or each
service's default),
and a 429 answer pauses that service for every worker.

A worker that is stopped gives its dead links back: another worker (or
the next one started) takes them at once. One that is killed outright
leaves them marked running; they are taken again after -job-timeout and a
minute more. A dead link whose services failed is tried -tries times
before its unknown result is kept.

Each worker reads API keys from its own flags (-key, -cx, as relink fix
takes them) or environment: fix does not put them in the database. What
a worker's requests may reach and where its keys go are its own to set,
never a run's: -allow-private, -proxy, -ca and the services' addresses
(-search-url, -archive-url, -archive-data-url, -mediawiki-api) are taken
from the worker's command line for every run, and fix -queue does not
queue them. Files the run names (-df-table) must be at the same paths on
every worker's machine.
`

// workerConfig is worker's command line.
type workerConfig struct {
	storePath   string
	key, cx     string
	concurrency int
	tries       int
	jobTimeout  time.Duration
	// own holds the worker's own values of the workerOwned settings
	// (the others keep their defaults).
	own liveConfig
}

// workerOwned are fix's live flags that are each worker's own to set,
// never a queued run's: what its requests may reach (private addresses,
// a proxy, the certificate authorities it trusts) and the services'
// addresses, which receive its keys. fix -queue does not queue them, and
// a worker drops them from a run's settings and uses its own
// (liveConfig.adopt).
var workerOwned = []string{"allow-private", "proxy", "ca", "search-url", "archive-url", "archive-data-url", "mediawiki-api"}

// adopt replaces c's workerOwned settings by own's.
func (c *liveConfig) adopt(own *liveConfig) {
	c.allowPrivate, c.proxy, c.caFile = own.allowPrivate, own.proxy, own.caFile
	c.searchURL, c.archiveURL, c.archiveDataURL, c.mediawikiAPI = own.searchURL, own.archiveURL, own.archiveDataURL, own.mediawikiAPI
}

func workerFlags() (*flag.FlagSet, *workerConfig) {
	var c workerConfig
	fs := newFlagSet("worker")
	// The worker's own settings are fix's flags, with fix's help.
	live := newFlagSet("worker")
	c.own.register(live)
	for _, name := range workerOwned {
		f := live.Lookup(name)
		fs.Var(f.Value, f.Name, f.Usage)
	}
	fs.StringVar(&c.storePath, "store", "", "the postgres:// `URL` of the store whose database holds the queue")
	fs.IntVar(&c.concurrency, "concurrency", defaultFixConcurrency, fmt.Sprintf("dead links looked for at once, 1 to %d", maxFixConcurrency))
	fs.IntVar(&c.tries, "tries", pgqueue.DefaultTries, "times a dead link whose services failed is tried before its unknown result is kept")
	fs.DurationVar(&c.jobTimeout, "job-timeout", pgqueue.DefaultJobTimeout, "the longest one dead link may take; a killed worker's dead links are taken again this long and a minute after")
	fs.StringVar(&c.key, "key", "", "API `key` of the runs' -search engine (default from the environment)")
	fs.StringVar(&c.cx, "cx", "", "Google's Programmable Search Engine `ID` (default $GOOGLE_CSE_ID)")
	return fs, &c
}

// parseWorker parses and checks worker's command line.
func parseWorker(ctx context.Context, args []string) (*workerConfig, error) {
	fs, c := workerFlags()
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() != 0 {
		return nil, usagef("worker takes no arguments, got %s", quoteArg(fs.Arg(0)))
	}
	if !isPostgres(c.storePath) {
		return nil, usagef("worker needs -store postgres://..., the database that holds the queue")
	}
	if err := checkBounds(
		bound{flag: "concurrency", value: c.concurrency, min: 1, max: maxFixConcurrency, meaning: "dead links looked for at once"},
		bound{flag: "tries", value: c.tries, min: 1, meaning: "tries of a dead link whose services failed"},
	); err != nil {
		return nil, err
	}
	if c.jobTimeout <= 0 {
		return nil, usagef("bad -job-timeout %v: want a positive duration, such as 10m", c.jobTimeout)
	}
	// The worker's own -proxy and -ca serve every run: checked once.
	if _, err := newNetConfig(ctx, c.own.proxy, c.own.caFile); err != nil {
		return nil, err
	}
	return c, nil
}

func runWorker(ctx context.Context, e *env, args []string) error {
	c, err := parseWorker(ctx, args)
	if err != nil {
		return err
	}
	st, err := openStore(ctx, c.storePath)
	if err != nil {
		return err
	}
	defer st.Close()
	q, err := pgqueue.Open(ctx, postgres.DSN(c.storePath))
	if err != nil {
		return err
	}
	defer q.Close()
	w := &queueWorker{c: c, st: st, q: q, sh: &shared{queue: q, limits: q.Limiter()}, runs: map[string]*workerRun{}}
	defer w.close()
	fmt.Fprintf(e.stderr, "relink worker: taking dead links from %s, %d at once\n", storeName(c.storePath), c.concurrency)
	err = q.Work(ctx, pgqueue.WorkOptions{Concurrency: c.concurrency, JobTimeout: c.jobTimeout, Tries: c.tries}, w.handle)
	fmt.Fprintf(e.stderr, "relink worker: stopped after %d dead links\n", w.done.Load())
	return err
}

// queueWorker does the dead links of the queue's runs, with a fixer for
// each run made from its settings.
type queueWorker struct {
	c    *workerConfig
	st   openedStore
	q    *pgqueue.Queue
	sh   *shared
	done atomic.Int64

	mu   sync.Mutex
	runs map[string]*workerRun
}

// workerRun is a run's fixer and the services it holds.
type workerRun struct {
	once sync.Once
	fx   *fixer
	sv   *services
	err  error
}

// handle looks for one dead link of run, as fix would.
func (w *queueWorker) handle(ctx context.Context, run pgqueue.Run, it pgqueue.Item) (json.RawMessage, bool, error) {
	fx, err := w.fixer(ctx, run)
	if err != nil {
		return nil, false, err
	}
	var l repair.DeadLink
	if err := json.Unmarshal(it.Payload, &l); err != nil {
		return nil, false, fmt.Errorf("the dead link %s: %w: %w", it.Key, err, pgqueue.ErrPermanent)
	}
	r, final := fx.fix(ctx, l)
	data, err := json.Marshal(r)
	if err != nil {
		return nil, false, err
	}
	if ctx.Err() == nil {
		w.done.Add(1)
	}
	return data, final, nil
}

// fixer returns the fixer of run, made once from its settings: fix's
// command line with this worker's store, keys, and the shared caches and
// rate limits. Settings that do not parse fail the run's dead links for
// good.
func (w *queueWorker) fixer(ctx context.Context, run pgqueue.Run) (*fixer, error) {
	w.mu.Lock()
	r := w.runs[run.ID]
	if r == nil {
		r = &workerRun{}
		w.runs[run.ID] = r
	}
	w.mu.Unlock()
	r.once.Do(func() {
		// The run's settings pass through what fix -queue would queue
		// of them: never the worker's own (workerOwned) nor the local
		// ones (localFlags), whoever wrote them in the database.
		fs, _ := fixFlags()
		if err := parse(fs, run.Settings); err != nil || fs.NArg() != 0 {
			r.err = fmt.Errorf("the run's settings %q: %w: %w", run.Settings, errors.Join(err, errExtraArgs(fs)), pgqueue.ErrPermanent)
			return
		}
		args, _ := queueSettings(fs)
		if w.c.key != "" {
			args = append(args, "-key="+w.c.key)
		}
		if w.c.cx != "" {
			args = append(args, "-cx="+w.c.cx)
		}
		args = append(args, "-store="+w.c.storePath)
		c, err := parseFix(args)
		if err != nil {
			r.err = fmt.Errorf("the run's settings %q: %w: %w", run.Settings, err, pgqueue.ErrPermanent)
			return
		}
		c.shared = w.sh
		c.adopt(&w.c.own)
		sv, err := c.dial()
		if err != nil {
			r.err = fmt.Errorf("the run's services: %w: %w", err, pgqueue.ErrPermanent)
			return
		}
		if err := sv.attach(context.WithoutCancel(ctx), &c.liveConfig, w.st, c.storePath); err != nil {
			sv.close()
			r.err = fmt.Errorf("the run's services: %w", err)
			return
		}
		r.sv, r.fx = sv, newFixer(sv, w.st, c)
	})
	if r.err != nil {
		w.mu.Lock()
		if w.runs[run.ID] == r && !errors.Is(r.err, pgqueue.ErrPermanent) {
			delete(w.runs, run.ID) // tried again with the next dead link
		}
		w.mu.Unlock()
	}
	return r.fx, r.err
}

// close releases every run's services.
func (w *queueWorker) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, r := range w.runs {
		if r.sv != nil {
			r.sv.close()
		}
	}
}

// errExtraArgs is the error of settings that hold arguments, not flags
// alone; nil when fs holds none.
func errExtraArgs(fs *flag.FlagSet) error {
	if fs.NArg() == 0 {
		return nil
	}
	return fmt.Errorf("argument %s: settings are flags", quoteArg(fs.Arg(0)))
}
