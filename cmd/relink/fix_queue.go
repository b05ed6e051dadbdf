package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/linkrot/relink/provider/pgqueue"
	"github.com/linkrot/relink/provider/postgres"
	"github.com/linkrot/relink/repair"
)

// localFlags are fix's flags that a worker does not need: where the input
// and output are, what this process does with the results, the store
// (each worker names its own, the queue's database) and the secrets (each
// worker reads its own API keys, from its flags or environment), which
// the database must never hold.
var localFlags = []string{
	"store", "in", "format", "o", "out", "site", "state", "rewrite", "write", "base", "decisions", "fail-on",
	"queue", "concurrency", "key", "cx", "cache",
}

// queueSettings returns the flags of fix's command line fs that the
// workers need, "-name=value" in name order: the run's settings; and the
// names of the flags fs set that are each worker's own (workerOwned),
// which are not among them.
func queueSettings(fs *flag.FlagSet) (settings, owned []string) {
	settings = []string{}
	fs.Visit(func(f *flag.Flag) {
		switch {
		case slices.Contains(workerOwned, f.Name):
			owned = append(owned, "-"+f.Name)
		case f.Name == "cache" && f.Value.String() == "":
			settings = append(settings, "-no-cache=true") // a path is this machine's; none is everyone's
		case !slices.Contains(localFlags, f.Name):
			settings = append(settings, "-"+f.Name+"="+f.Value.String())
		}
	})
	return settings, owned
}

// queued puts links on the queue in the database of c's store, as a run
// named by its settings and links (so that fix run again with the same
// command line and input finds it), and waits for every result: in the
// input's order, with progress. The dead links done already, by workers
// while this process was away, are not queued again.
func queued(ctx context.Context, e *env, c *fixConfig, links []repair.DeadLink) ([]repair.Result, error) {
	q, err := pgqueue.Open(ctx, postgres.DSN(c.storePath))
	if err != nil {
		return nil, err
	}
	defer q.Close()
	items := make([]pgqueue.Item, len(links))
	for i, l := range links {
		payload, err := json.Marshal(l)
		if err != nil {
			return nil, err
		}
		items[i] = pgqueue.Item{Index: i, Key: l.URL, Payload: payload}
	}
	run := pgqueue.Run{ID: pgqueue.RunID(c.settings, items), Settings: c.settings}
	added, err := q.Enqueue(ctx, run, items)
	if err != nil {
		return nil, fmt.Errorf("queue: %w", postgres.DSN(c.storePath).Scrub(err))
	}
	p, err := q.Progress(ctx, run.ID)
	if err != nil {
		return nil, fmt.Errorf("queue: %w", postgres.DSN(c.storePath).Scrub(err))
	}
	if len(c.workerOwn) > 0 {
		fmt.Fprintf(e.stderr, "relink fix: %s not queued: each relink worker uses its own (relink worker %s ...)\n",
			strings.Join(c.workerOwn, ", "), strings.Join(c.workerOwn, " ... "))
	}
	fmt.Fprintf(e.stderr, "relink fix: run %s: %d dead links, %d done, %d queued now, %d queued or running before; waiting for relink worker -store %s\n",
		run.ID[:12], len(links), p.Done, added, p.Queued+p.Running-added, storeName(c.storePath))
	results := make([]repair.Result, len(links))
	bar := newFixProgress(e.stderr, len(links), 0)
	recorded := 0
	var bad error
	err = q.Collect(ctx, run.ID, len(links), func(r pgqueue.Result) {
		if r.Index < 0 || r.Index >= len(links) {
			return
		}
		var res repair.Result
		if err := json.Unmarshal(r.Value, &res); err != nil && bad == nil {
			bad = fmt.Errorf("queue: the result of %s: %w", links[r.Index].URL, err)
		}
		l := links[r.Index]
		res.Dead, res.Sources = l.URL, l.Sources
		results[r.Index] = res
		bar.add(res.Verdict)
		recorded++
		if e.afterResult != nil {
			e.afterResult(recorded)
		}
	})
	bar.finish()
	if err != nil {
		return nil, fmt.Errorf("queue: %w", postgres.DSN(c.storePath).Scrub(err))
	}
	// The queue keeps a finished run's results, so that fix run again
	// with the same input gets them at once, for queueKeep; then it
	// forgets them.
	if n, err := q.Prune(ctx, time.Now().Add(-queueKeep)); err != nil {
		fmt.Fprintf(e.stderr, "relink fix: the queue's old runs were not pruned: %v\n", err)
	} else if n > 0 {
		fmt.Fprintf(e.stderr, "relink fix: pruned %d runs of the queue that finished more than %d days ago\n", n, queueKeep/(24*time.Hour))
	}
	return results, bad
}

// queueKeep is how long the queue keeps a finished run's results.
const queueKeep = 30 * 24 * time.Hour
