// Command corpus builds a relink store: one SQLite file holding the pages,
// links and full-text index of a local web, from a corpus manifest, a
// directory of HTML files, or WARC files, and the link records of Common
// Crawl WAT files (the links of pages the store holds no copy of, which
// answer backlink queries with their anchor texts).
//
// Usage:
//
//	corpus -manifest dev-corpus.json -store dev.db
//	corpus -dir ./site -base https://example.com/ -store site.db
//	corpus -warc crawl-1.warc.gz,crawl-2.warc.gz -store crawl.db
//	corpus -wat CC-MAIN-...-00000.warc.wat.gz -wat CC-MAIN-...-00001.warc.wat.gz -store links.db
//
// It shows a progress bar on stderr (periodic lines when stderr is not a
// terminal) and ends by printing one summary line on stdout: what the store
// holds, for example
//
//	dev.db: 4512 pages, 37 redirects, 812345 links (512345 navigation, 0 image-map), skipped: 3 binary in 41.2s
//
// and, when the store holds link records, a second one:
//
//	dev.db: 13402 link sources, 951233 link records
//
// An interrupted run (Ctrl-C) keeps every batch it committed; run the same
// command again to finish the job.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/linkrot/relink/internal/progress"
	"github.com/linkrot/relink/provider/store"
)

// listFlag collects a repeatable flag whose values may also be comma lists.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for p := range strings.SplitSeq(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

// config is the command line, parsed.
type config struct {
	manifest, storePath, dir, base string
	warcs, wats                    listFlag
	workers, batch                 int
	cpuProfile                     string
}

func main() {
	cfg, err := parseFlags(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "corpus:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "corpus:", err)
		if errors.Is(err, context.Canceled) {
			fmt.Fprintln(os.Stderr, "corpus: interrupted; committed batches are kept, run the same command again to finish")
			os.Exit(130)
		}
		os.Exit(1)
	}
}

// parseFlags parses and checks the command line.
func parseFlags(args []string, stderr io.Writer) (*config, error) {
	var cfg config
	fs := flag.NewFlagSet("corpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.manifest, "manifest", "", "corpus manifest `FILE` (JSON, BENCHMARK.md format)")
	fs.StringVar(&cfg.storePath, "store", "relink.db", "store `FILE` to create or add to")
	fs.Var(&cfg.warcs, "warc", "WARC `FILE` to ingest (repeatable, or a comma-separated list)")
	fs.Var(&cfg.wats, "wat", "Common Crawl WAT `FILE` whose link records to ingest (repeatable, or a comma-separated list)")
	fs.StringVar(&cfg.dir, "dir", "", "`DIR`ectory of HTML files to ingest (needs -base)")
	fs.StringVar(&cfg.base, "base", "", "public `URL` of -dir")
	fs.IntVar(&cfg.workers, "workers", 0, "parsing goroutines (0: one per CPU)")
	fs.IntVar(&cfg.batch, "batch", 0, "files per transaction (0: the default)")
	fs.StringVar(&cfg.cpuProfile, "cpuprofile", "", "write a CPU profile to `FILE`")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: corpus [-manifest FILE] [-dir DIR -base URL] [-warc FILE]... [-wat FILE]... [-store FILE] [-workers N]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch {
	case fs.NArg() > 0:
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case (cfg.dir == "") != (cfg.base == ""):
		return nil, errors.New("-dir and -base go together")
	case cfg.manifest == "" && cfg.dir == "" && len(cfg.warcs) == 0 && len(cfg.wats) == 0:
		return nil, errors.New("nothing to ingest: give -manifest, -dir with -base, -warc or -wat")
	case cfg.storePath == "":
		return nil, errors.New("-store must name a file")
	case cfg.workers < 0 || cfg.batch < 0:
		return nil, errors.New("-workers and -batch must not be negative")
	}
	return &cfg, nil
}

// run ingests everything the command line names and prints the summary.
func run(ctx context.Context, cfg *config, stdout, stderr io.Writer) error {
	start := time.Now()
	if cfg.cpuProfile != "" {
		f, err := os.Create(cfg.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	var m *store.Manifest
	if cfg.manifest != "" {
		var err error
		if m, err = store.ReadManifest(cfg.manifest); err != nil {
			return err
		}
	}
	s, err := store.Open(cfg.storePath, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	resumed := 0
	ingest := func(what string, f func(store.IngestOptions) (store.Stats, error)) error {
		p := progress.New(stderr, "corpus: "+what)
		st, err := f(store.IngestOptions{Workers: cfg.workers, BatchSize: cfg.batch, Progress: p.Update})
		p.Finish()
		resumed += st.Resumed
		return err
	}
	if m != nil {
		if err := ingest("manifest "+cfg.manifest, func(o store.IngestOptions) (store.Stats, error) {
			return s.IngestManifest(ctx, m, o)
		}); err != nil {
			return err
		}
	}
	if cfg.dir != "" {
		if err := ingest("dir "+cfg.dir, func(o store.IngestOptions) (store.Stats, error) {
			return s.IngestDir(ctx, cfg.dir, cfg.base, o)
		}); err != nil {
			return err
		}
	}
	if len(cfg.warcs) > 0 {
		if err := ingest("WARC", func(o store.IngestOptions) (store.Stats, error) {
			return s.IngestWARC(ctx, cfg.warcs, o)
		}); err != nil {
			return err
		}
	}
	if len(cfg.wats) > 0 {
		p := progress.New(stderr, "corpus: WAT")
		st, err := s.IngestWAT(ctx, cfg.wats, store.IngestOptions{BatchSize: cfg.batch, Progress: p.Update})
		p.Finish()
		resumed += st.Resumed
		if err != nil {
			return err
		}
	}
	total, err := s.Totals(ctx)
	if err != nil {
		return err
	}
	total.Resumed = resumed
	total.Duration = time.Since(start)
	if _, err := fmt.Fprintf(stdout, "%s: %s\n", cfg.storePath, total); err != nil {
		return err
	}
	links, err := s.LinkTotals(ctx)
	if err != nil || links.Sources == 0 {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s: %d link sources, %d link records\n", cfg.storePath, links.Sources, links.Links)
	return err
}
