// Command queuebench measures relink fix -queue with relink worker
// processes against relink fix alone, on a store in PostgreSQL that
// serves as the whole web: the experiment's moved mode, every target
// published at a new URI and its old one answering 404.
//
//	queuebench -store postgres://.../moved -before ~/.cache/relink/dev.db \
//	    -targets 300 -seed 1 -workers 1,2,4 -out results/postgres/queue
//
// It draws the targets from -before as the experiment does (lab/draw),
// builds the moved mode's web in -store from -manifest (unless it holds
// one), writes the targets' old URLs, and runs
//
//  1. relink fix -store alone (-concurrency), timed: the answers to match;
//  2. for each -workers N: the queue emptied, N relink worker processes
//     (-concurrency each) started, relink fix -queue timed, the workers
//     stopped; its results compared with step 1's;
//  3. with -kill: two workers, one killed (SIGKILL) once a third of the
//     dead links are done; the run must still end with every result, the
//     killed worker's dead links taken again by the other.
//
// It writes summary.json and results.md into -out and prints results.md.
// Exit codes: 0 done, 1 failure, 2 bad usage.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/linkrot/relink/lab/draw"
	"github.com/linkrot/relink/lab/fixbench"
	"github.com/linkrot/relink/lab/localweb"
	"github.com/linkrot/relink/provider/pgqueue"
	"github.com/linkrot/relink/provider/postgres"
	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/repair"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// options is the command line.
type options struct {
	dsn, before, manifest, relink, repo, work, out string
	targets, concurrency                           int
	seed                                           uint64
	workers                                        []int
	kill                                           bool
	// live is -live: the SQLite store of the moved web (-after) served
	// by lab/localweb as the web, -before as the archive; liveArgs are
	// the flags that send fix there, workerArgs those that send the
	// workers (a worker takes its proxy and CAs from its own flags).
	after      string
	live       bool
	liveArgs   []string
	workerArgs []string
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("queuebench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.dsn, "store", "", "the postgres:// `URL` of the moved mode's store: built from -manifest when its database holds none")
	fs.StringVar(&o.manifest, "manifest", "corpus/dev.json", "the corpus manifest `FILE` of -before")
	fs.StringVar(&o.before, "before", "", "the SQLite store `FILE` the targets are drawn from, as the experiment's -store")
	fs.IntVar(&o.targets, "targets", 300, "targets drawn")
	fs.Uint64Var(&o.seed, "seed", 1, "the draw's seed")
	workers := fs.String("workers", "1,2,4", "the `list` of worker process counts")
	fs.IntVar(&o.concurrency, "concurrency", 2, "relink fix's and each worker's -concurrency")
	fs.BoolVar(&o.live, "live", false, "fetch pages, search and archive live from lab/localweb (relaxed), serving -after as the web and -before as the archive, instead of the store as the whole web")
	fs.StringVar(&o.after, "after", "", "with -live, the moved-mode SQLite store `FILE` of the same targets (the experiment's -store with .moved)")
	fs.BoolVar(&o.kill, "kill", true, "also kill one of two workers mid-run (SIGKILL) and check that no dead link is lost")
	fs.StringVar(&o.relink, "relink", "", "the relink `binary` (default: built from -repo)")
	fs.StringVar(&o.repo, "repo", "..", "the repository's root `DIR`")
	fs.StringVar(&o.work, "work", "", "work `DIR` (default: a temporary one, removed)")
	fs.StringVar(&o.out, "out", "", "write summary.json and results.md into `DIR`")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	for _, w := range strings.Split(*workers, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("bad -workers %q: want a list of positive counts", *workers)
		}
		o.workers = append(o.workers, n)
	}
	switch {
	case fs.NArg() > 0:
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case !postgres.IsURL(o.dsn) || o.before == "":
		return nil, errors.New("-store postgres://... and -before are required")
	case o.targets < 1 || o.concurrency < 1:
		return nil, errors.New("-targets and -concurrency must be positive")
	case o.live && o.after == "":
		return nil, errors.New("-live needs -after")
	}
	return o, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(stderr, "queuebench:", err)
		return 2
	}
	if err := bench(ctx, o, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "queuebench:", err)
		return 1
	}
	return 0
}

// Run is one timed run of relink fix.
type Run struct {
	Name    string  `json:"name"`
	Workers int     `json:"workers"` // 0: fix alone
	Seconds float64 `json:"seconds"`
	// PerSecond is dead links done a second; Ratio that over fix alone's.
	PerSecond float64 `json:"per_second"`
	Ratio     float64 `json:"ratio"`
	// Same counts the results equal to fix alone's (every field).
	Same int `json:"same"`
	// Jobs are the river jobs the run left, Retried those tried more
	// than once.
	Jobs    int `json:"jobs"`
	Retried int `json:"retried"`
}

// Summary is what queuebench writes.
type Summary struct {
	// Web is where pages, search and archived copies come from: the
	// store, or lab/localweb with these flags.
	Web         string         `json:"web"`
	Targets     int            `json:"targets"`
	Seed        uint64         `json:"seed"`
	Concurrency int            `json:"concurrency"`
	Verdicts    map[string]int `json:"verdicts"`
	Runs        []Run          `json:"runs"`
}

func bench(ctx context.Context, o *options, stdout, stderr io.Writer) error {
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "queuebench: "+format+"\n", args...) }
	if o.work == "" {
		dir, err := os.MkdirTemp("", "queuebench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		o.work = dir
	}
	if o.relink == "" {
		bin, err := fixbench.BuildRelink(ctx, o.repo, o.work)
		if err != nil {
			return err
		}
		o.relink = bin
	}
	in, err := prepare(ctx, o, logf)
	if err != nil {
		return err
	}
	if o.live {
		stop, err := serveLocalWeb(o)
		if err != nil {
			return err
		}
		defer stop()
	}
	b := &runner{o: o, in: in, logf: logf}

	plainOut := filepath.Join(o.work, "plain.jsonl")
	start := time.Now()
	if err := b.relinkRun(ctx, b.fixArgs(plainOut, "plain")...); err != nil {
		return err
	}
	plain, err := readResults(plainOut)
	if err != nil {
		return err
	}
	web := "the PostgreSQL store of the moved web serves as the whole web"
	if o.live {
		web = "lab/localweb (relaxed) serves the moved web and the archive, the PostgreSQL store the backlinks and DF; relink " + strings.Join(o.liveArgs, " ")
	}
	s := &Summary{Web: web, Targets: len(plain), Seed: o.seed, Concurrency: o.concurrency, Verdicts: map[string]int{}}
	for _, r := range plain {
		s.Verdicts[string(r.Verdict)]++
	}
	cold := Run{Name: "relink fix (first, cold caches)", Seconds: time.Since(start).Seconds(), Same: len(plain)}
	cold.PerSecond = float64(len(plain)) / cold.Seconds
	s.Runs = append(s.Runs, cold)
	logf("fix alone: %.1f s", cold.Seconds)
	for _, n := range o.workers {
		r, err := b.queued(ctx, fmt.Sprintf("fix -queue, %d workers", n), n, plain, false)
		if err != nil {
			return err
		}
		s.Runs = append(s.Runs, r)
	}
	if o.kill {
		r, err := b.queued(ctx, "fix -queue, 2 workers, one killed", 2, plain, true)
		if err != nil {
			return err
		}
		s.Runs = append(s.Runs, r)
	}
	// Fix alone again, with the server's caches as warm as the queued
	// runs had them: the base of the ratios.
	start = time.Now()
	againOut := filepath.Join(o.work, "again.jsonl")
	if err := b.relinkRun(ctx, b.fixArgs(againOut, "again")...); err != nil {
		return err
	}
	again, err := readResults(againOut)
	if err != nil {
		return err
	}
	base := Run{Name: "relink fix (again, warm)", Seconds: time.Since(start).Seconds(), Same: same(again, plain)}
	base.PerSecond = float64(len(again)) / base.Seconds
	s.Runs = append(s.Runs, base)
	for i := range s.Runs {
		s.Runs[i].Ratio = s.Runs[i].PerSecond / base.PerSecond
	}
	var md bytes.Buffer
	writeMarkdown(&md, s)
	if o.out != "" {
		if err := os.MkdirAll(o.out, 0o755); err != nil {
			return err
		}
		js, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(o.out, "summary.json"), append(js, '\n'), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(o.out, "results.md"), md.Bytes(), 0o644); err != nil {
			return err
		}
	}
	_, err = stdout.Write(md.Bytes())
	return err
}

// prepare draws the targets, builds the moved mode's web in the
// PostgreSQL store when it holds no pages (-manifest ingested with every
// target at its new URI, draw.MovedURI, as the experiment's moved mode),
// and writes the targets' old URLs to a file, whose path it returns.
func prepare(ctx context.Context, o *options, logf func(string, ...any)) (string, error) {
	before, err := store.Open(o.before, &store.Options{ReadOnly: true})
	if err != nil {
		return "", err
	}
	targets, _, err := draw.Targets(ctx, before, o.targets, o.seed)
	before.Close()
	if err != nil {
		return "", err
	}
	var uris []string
	var list strings.Builder
	for _, t := range targets {
		uris = append(uris, t.URI)
		list.WriteString(t.URI + "\n")
	}
	pg, err := postgres.Open(ctx, postgres.DSN(o.dsn), nil)
	if err != nil {
		return "", err
	}
	defer pg.Close()
	tot, err := pg.Totals(ctx)
	if err != nil {
		return "", err
	}
	if tot.Pages == 0 {
		m, err := store.ReadManifest(o.manifest)
		if err != nil {
			return "", err
		}
		start := time.Now()
		st, err := pg.IngestManifest(ctx, m, store.IngestOptions{Moves: draw.Moves(uris)})
		if err != nil {
			return "", err
		}
		logf("the moved mode's web ingested: %d pages in %.1f s", st.Pages, time.Since(start).Seconds())
	}
	in := filepath.Join(o.work, "dead.txt")
	return in, os.WriteFile(in, []byte(list.String()), 0o644)
}

// runner runs relink for bench.
type runner struct {
	o    *options
	in   string
	logf func(string, ...any)
}

// fixArgs returns the command line of relink fix writing to out: with
// -live, the live services, and for fix alone (a cache name) a cache
// directory of its own, new, as the queued runs' shared records are.
func (b *runner) fixArgs(out, cache string) []string {
	args := []string{"fix", "-store", b.o.dsn, "-in", b.in, "-out", out, "-concurrency", strconv.Itoa(b.o.concurrency)}
	args = append(args, b.o.liveArgs...)
	if b.o.live && cache != "" {
		dir := filepath.Join(b.o.work, "cache-"+cache)
		os.RemoveAll(dir)
		args = append(args, "-cache", dir)
	}
	return args
}

// serveLocalWeb serves -after as the web and -before as the archive with
// lab/localweb, rate limits relaxed, and sets o.liveArgs.
func serveLocalWeb(o *options) (stop func(), err error) {
	web, err := store.Open(o.after, &store.Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	archive, err := store.Open(o.before, &store.Options{ReadOnly: true})
	if err != nil {
		web.Close()
		return nil, err
	}
	srv, err := localweb.New(localweb.Options{Web: web, Archive: archive, Relaxed: true})
	if err == nil {
		err = srv.Start("127.0.0.1:0")
	}
	if err != nil {
		web.Close()
		archive.Close()
		return nil, err
	}
	ca := filepath.Join(o.work, "ca.pem")
	if err := os.WriteFile(ca, srv.CA().CertPEM(), 0o644); err != nil {
		return nil, err
	}
	o.liveArgs = []string{"-fetch", "web", "-search", "marginalia", "-archive", "wayback", "-proxy", srv.ProxyURL().String(), "-ca", ca, "-rate", "inf", "-archive-rate", "inf"}
	// What a worker's requests may reach is its own to say, not the
	// queued run's: the workers are given the proxy and its CA too.
	o.workerArgs = []string{"-proxy", srv.ProxyURL().String(), "-ca", ca}
	return func() { srv.Close(); web.Close(); archive.Close() }, nil
}

// relinkRun runs relink with args and waits for it.
func (b *runner) relinkRun(ctx context.Context, args ...string) error {
	cmd := exec.CommandContext(ctx, b.o.relink, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("relink %s: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// queued empties the queue, starts n workers, runs fix -queue and stops
// them; with kill, it kills the first worker once a third of the dead
// links are done.
func (b *runner) queued(ctx context.Context, name string, n int, plain []repair.Result, kill bool) (Run, error) {
	if err := b.exec(ctx, `DROP SCHEMA IF EXISTS `+pgqueue.Schema+` CASCADE`); err != nil {
		return Run{}, err
	}
	var workers []*exec.Cmd
	defer func() {
		for _, w := range workers {
			w.Process.Signal(syscall.SIGTERM)
			w.Wait()
		}
	}()
	out := filepath.Join(b.o.work, fmt.Sprintf("queue-%d.jsonl", n))
	start := time.Now()
	fix := exec.CommandContext(ctx, b.o.relink, append(b.fixArgs(out, ""), "-queue")...)
	var fixErr bytes.Buffer
	fix.Stderr = &fixErr
	if err := fix.Start(); err != nil {
		return Run{}, err
	}
	// The queue's schema is made by fix; the workers start once it is.
	for range n {
		args := append([]string{"worker", "-store", b.o.dsn, "-concurrency", strconv.Itoa(b.o.concurrency), "-job-timeout", "20s"}, b.o.workerArgs...)
		w := exec.CommandContext(ctx, b.o.relink, args...)
		w.Stderr = io.Discard
		if err := w.Start(); err != nil {
			return Run{}, err
		}
		workers = append(workers, w)
	}
	done := make(chan error, 1)
	go func() { done <- fix.Wait() }()
	if kill {
	wait:
		for {
			select {
			case err := <-done:
				done <- err
				break wait
			default:
			}
			var k int
			if err := b.queryInt(ctx, &k, `SELECT count(*) FROM `+pgqueue.Schema+`.results WHERE final`); err == nil && k >= len(plain)/3 {
				workers[0].Process.Kill()
				workers[0].Wait()
				workers = workers[1:]
				b.logf("%s: worker killed with %d dead links done", name, k)
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	if err := <-done; err != nil {
		return Run{}, fmt.Errorf("%s: relink fix -queue: %v: %s", name, err, strings.TrimSpace(fixErr.String()))
	}
	r := Run{Name: name, Workers: n, Seconds: time.Since(start).Seconds()}
	got, err := readResults(out)
	if err != nil {
		return Run{}, err
	}
	if len(got) != len(plain) {
		return Run{}, fmt.Errorf("%s: %d results, want %d", name, len(got), len(plain))
	}
	r.Same = same(got, plain)
	r.PerSecond = float64(len(got)) / r.Seconds
	if err := b.queryInt(ctx, &r.Jobs, `SELECT count(*) FROM `+pgqueue.Schema+`.river_job`); err != nil {
		return Run{}, err
	}
	if err := b.queryInt(ctx, &r.Retried, `SELECT count(*) FROM `+pgqueue.Schema+`.river_job WHERE attempt > 1`); err != nil {
		return Run{}, err
	}
	b.logf("%s: %.1f s, %d of %d results as fix alone's, %d jobs, %d retried", name, r.Seconds, r.Same, len(got), r.Jobs, r.Retried)
	return r, nil
}

// same counts the results of got equal to plain's, every field but the
// requests counted (calls): which process sent a request that a cache
// then answered for the others is chance.
func same(got, plain []repair.Result) int {
	n := 0
	for i := range min(len(got), len(plain)) {
		a, b := got[i], plain[i]
		a.Calls, b.Calls = repair.Calls{}, repair.Calls{}
		if reflect.DeepEqual(a, b) {
			n++
		}
	}
	return n
}

// exec runs sql in the store's database.
func (b *runner) exec(ctx context.Context, sql string) error {
	c, err := pgx.Connect(ctx, b.o.dsn)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	_, err = c.Exec(ctx, sql)
	return err
}

// queryInt reads one integer.
func (b *runner) queryInt(ctx context.Context, v *int, sql string) error {
	c, err := pgx.Connect(ctx, b.o.dsn)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	return c.QueryRow(ctx, sql).Scan(v)
}

// readResults reads a JSON Lines results file.
func readResults(path string) ([]repair.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return repair.ReadResults(f)
}

// writeMarkdown writes the summary as a table.
func writeMarkdown(w io.Writer, s *Summary) {
	fmt.Fprintf(w, "%d dead links (the experiment's targets, seed %d, moved; %s), -concurrency %d per process; verdicts %v.\n\n",
		s.Targets, s.Seed, s.Web, s.Concurrency, s.Verdicts)
	fmt.Fprintln(w, "| run | wall time | dead links/s | ratio | results as fix alone's (calls aside) | jobs | retried |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|")
	for _, r := range s.Runs {
		fmt.Fprintf(w, "| %s | %.1f s | %.2f | %.2f | %d of %d | %d | %d |\n", r.Name, r.Seconds, r.PerSecond, r.Ratio, r.Same, s.Targets, r.Jobs, r.Retried)
	}
}
