// Command fixbench measures relink fix end to end on a local internet
// (package lab/fixbench): the experiment's moved-mode targets and as many
// deleted pages, given as a lychee report, repaired by the relink binary
// with its live clients through lab/localweb, then with -store alone; the
// scores beside the experiment's, and a kill and resume check.
//
//	fixbench -before ~/.cache/relink/dev.db -after ~/.cache/relink/dev.db.moved \
//	    -targets 300 -seed 1 -experiment results/dev-seed1/summary.json -out results/fix-dev
//
// It writes summary.json and results.md into -out and prints results.md.
// The stores are read, never written (the current web is a copy in the
// work directory). Exit codes: 0 done (whatever the scores), 1 failure, 2
// bad usage.
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
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/linkrot/relink/lab/fixbench"
	"github.com/linkrot/relink/lab/localweb"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// options is the command line.
type options struct {
	cfg                     fixbench.Config
	corpus, repo, work, out string
	sitemaps                string
	experiment, report      string
	seed                    uint64
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("fixbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.cfg.Before, "before", "", "the pre-move store `FILE` (the experiment's -store): targets are drawn from it, and it is the archive")
	fs.StringVar(&o.cfg.After, "after", "", "the moved-mode store `FILE` the experiment built (its -store with .moved)")
	fs.StringVar(&o.corpus, "corpus", "dev", "the corpus's `name`, for the report")
	fs.IntVar(&o.cfg.Targets, "targets", 300, "moved targets drawn, as the experiment's -targets")
	fs.IntVar(&o.cfg.Deleted, "deleted", 0, "deleted pages drawn besides (0: as many as -targets; -1: none)")
	fs.Uint64Var(&o.seed, "seed", 1, "the experiment's -seed")
	fs.StringVar(&o.cfg.Engine, "engine", fixbench.DefaultEngine, "relink fix's -search `engine` (google, brave, mojeek, marginalia, searxng; site for none: each dead link's site is the index, the hosts -sitemaps names publishing a sitemap; site+ENGINE fuses the engine's answers with the site's)")
	fs.StringVar(&o.sitemaps, "sitemaps", "all", "with -engine site, the hosts that publish a sitemap: all, or a comma-separated list of `hosts` (the others answer 404 for it)")
	fs.BoolVar(&o.cfg.NoArchive, "no-archive", false, "run the live run without -archive (nothing but the report and the web)")
	fs.Float64Var(&o.cfg.Rate, "rate", 0, "relink fix's -rate, `requests` per second to each host (0: no limit); the report says the most each host received within a second")
	fs.BoolVar(&o.cfg.StoreDF, "store-df", false, "give the live run -store for backlinks and DF, instead of -df search and the report's sources alone")
	fs.IntVar(&o.cfg.Concurrency, "concurrency", fixbench.DefaultConcurrency, "relink fix's -concurrency")
	fs.IntVar(&o.cfg.Results, "results", 0, "relink fix's -results (0: its default, one request's worth of the engine, 100 of the store)")
	fs.IntVar(&o.cfg.KillAfter, "kill-after", 100, "kill the live run (SIGKILL) once this many dead links are journaled and resume it (0: no kill)")
	fs.StringVar(&o.cfg.Relink, "relink", "", "the relink `binary` (default: built from -repo)")
	fs.StringVar(&o.repo, "repo", "..", "the repository's root `DIR`, where relink is built from")
	fs.StringVar(&o.work, "work", "", "work `DIR` for the copy of the store, the report and the results (default: a temporary one, removed)")
	fs.StringVar(&o.experiment, "experiment", "", "the experiment's summary.json `FILE` to compare with")
	fs.StringVar(&o.report, "report", "", "only write the lychee report of the moved targets' dead links (sources from -after) to `FILE`, and exit: the input of relink fix -store AFTER")
	fs.StringVar(&o.out, "out", "", "write summary.json and results.md into `DIR`")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch {
	case fs.NArg() > 0:
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case o.cfg.Before == "" || o.cfg.After == "":
		return nil, errors.New("-before and -after are required")
	case o.cfg.Targets < 1:
		return nil, fmt.Errorf("bad -targets %d: want at least 1", o.cfg.Targets)
	case o.cfg.Concurrency < 1:
		return nil, fmt.Errorf("bad -concurrency %d: want at least 1", o.cfg.Concurrency)
	}
	o.cfg.Seed = o.seed
	if o.sitemaps != "all" {
		hosts, err := localweb.ParseSitemaps(o.sitemaps)
		if err != nil {
			return nil, err
		}
		if hosts == nil {
			hosts = func(string) bool { return false }
		}
		o.cfg.Sitemaps = hosts
	}
	return o, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(stderr, "fixbench:", err)
		return 2
	}
	if err := bench(ctx, o, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "fixbench:", err)
		return 1
	}
	return 0
}

func bench(ctx context.Context, o *options, stdout, stderr io.Writer) error {
	o.cfg.Log = stderr
	if o.report != "" {
		targets, err := fixbench.WriteReport(ctx, o.cfg, o.report)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "fixbench: wrote the lychee report of %d dead links (the moved targets, seed %d) to %s\n", len(targets), o.seed, o.report)
		return nil
	}
	if o.work == "" {
		dir, err := os.MkdirTemp("", "fixbench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		o.work = dir
	} else if err := os.MkdirAll(o.work, 0o755); err != nil {
		return err
	}
	o.cfg.Dir = o.work
	if o.cfg.Relink == "" {
		bin, err := fixbench.BuildRelink(ctx, o.repo, o.work)
		if err != nil {
			return err
		}
		o.cfg.Relink = bin
	}
	var exp, archived *fixbench.Experiment
	if o.experiment != "" {
		var err error
		if exp, err = fixbench.ReadExperiment(o.experiment, ""); err != nil {
			return err
		}
		// The live run reads an archive, and fix then judges by the
		// archived title too (relink.ArchiveCheck): an experiment that
		// ran that method is its measure. An older one has not.
		archived, _ = fixbench.ReadExperiment(o.experiment, exp.Method+"+archive-check")
	}
	out, err := fixbench.Run(ctx, o.cfg)
	if err != nil {
		return err
	}
	s := fixbench.Summarize(o.corpus, o.cfg, out, exp, archived)
	var md bytes.Buffer
	if err := s.WriteMarkdown(&md); err != nil {
		return err
	}
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
