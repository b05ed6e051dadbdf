package main

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/linkrot/relink/cmd/relink/internal/progress"
	"github.com/linkrot/relink/provider/store"
)

const corpusHelp = `
usage: relink corpus [-manifest FILE] [-dir DIR -base URL] [-warc FILE]... [-wat FILE]... [-store FILE|URL] [-share I/N]

Corpus builds a store, or adds to one: one SQLite file, or a PostgreSQL
database (-store postgres://...), holding the pages, links and full-text
index of a local web, from a corpus manifest (JSON,
bench/BENCHMARK.md's format), a directory of HTML files and the public URL
it stands for, or WARC files, and the link records of Common Crawl WAT
files (the links of pages the store holds no copy of, which answer
backlink queries with their anchor texts).

Everything the command line names (the manifest and its roots, -dir,
-base, the WARC and WAT files) is checked before the store is opened, so
that a run that cannot work leaves no store behind.

It shows its progress on stderr (a line rewritten on a terminal, a line
every few seconds otherwise) and ends by printing what the store holds on
stdout, for example

	dev.db: 4512 pages, 37 redirects, 812345 links (512345 navigation, 0 image-map), skipped: 3 binary in 41.2s

and, when the store holds link records, a second line:

	dev.db: 13402 link sources, 951233 link records

Several corpus runs may load one PostgreSQL database at once, on one
machine or many: with -share I/N each takes the I-th of N shares of the
files (and WARC files), I from 0 to N-1, and together they build what one
run builds. A file two runs both read is written once.

An interrupted run (Ctrl-C) keeps every batch it committed: run the same
command again to finish the job.
`

// corpusConfig is corpus's command line.
type corpusConfig struct {
	manifest, storePath, dir, base string
	warcs, wats                    listFlag
	workers, batch                 int
	cpuProfile                     string
	share, shares                  int
}

func corpusFlags() (*flag.FlagSet, *corpusConfig) {
	var c corpusConfig
	fs := newFlagSet("corpus")
	fs.StringVar(&c.manifest, "manifest", "", "corpus manifest `FILE` (JSON, BENCHMARK.md format)")
	fs.StringVar(&c.storePath, "store", "relink.db", "store `FILE` or postgres:// URL to create or add to")
	fs.Var(&c.warcs, "warc", "WARC `FILE` to ingest (repeatable, or a comma-separated list)")
	fs.Var(&c.wats, "wat", "Common Crawl WAT `FILE` whose link records to ingest (repeatable, or a comma-separated list)")
	fs.StringVar(&c.dir, "dir", "", "`DIR`ectory of HTML files to ingest (needs -base)")
	fs.StringVar(&c.base, "base", "", "public `URL` of -dir")
	fs.IntVar(&c.workers, "workers", 0, "parsing goroutines (0: one per CPU)")
	fs.IntVar(&c.batch, "batch", 0, "files per transaction (0: the default)")
	fs.StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile to `FILE`")
	fs.Func("share", "ingest only share `I/N` of the input (I from 0 to N-1), for N runs loading one PostgreSQL database at once", func(v string) error {
		i, n, ok := strings.Cut(v, "/")
		var err1, err2 error
		c.share, err1 = strconv.Atoi(i)
		c.shares, err2 = strconv.Atoi(n)
		if !ok || err1 != nil || err2 != nil || c.shares < 1 || c.share < 0 || c.share >= c.shares {
			return fmt.Errorf("want I/N with 0 <= I < N, as 0/2")
		}
		return nil
	})
	return fs, &c
}

// parseCorpus parses and checks corpus's command line.
func parseCorpus(args []string) (*corpusConfig, error) {
	fs, c := corpusFlags()
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	switch {
	case fs.NArg() > 0:
		return nil, usagef("unexpected argument %s", quoteArg(fs.Arg(0)))
	case (c.dir == "") != (c.base == ""):
		return nil, usagef("-dir and -base go together")
	case c.manifest == "" && c.dir == "" && len(c.warcs) == 0 && len(c.wats) == 0:
		return nil, usagef("nothing to ingest: give -manifest, -dir with -base, -warc or -wat")
	case c.storePath == "":
		return nil, usagef("-store must name a file or a postgres:// URL")
	}
	if err := checkBounds(
		bound{flag: "workers", value: c.workers, meaning: "0 means one per CPU"},
		bound{flag: "batch", value: c.batch, meaning: "0 means the default"},
	); err != nil {
		return nil, err
	}
	if c.base != "" {
		u, err := url.Parse(c.base)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return nil, usagef("bad -base %s: want the absolute http or https URL of -dir, without query or fragment", quoteArg(c.base))
		}
	}
	return c, nil
}

// checkInputs reads the manifest and checks that every directory and file
// the command line names is there, before any store is opened. It returns
// the manifest, or nil without -manifest.
func checkInputs(c *corpusConfig) (*store.Manifest, error) {
	var m *store.Manifest
	if c.manifest != "" {
		var err error
		if m, err = store.ReadManifest(c.manifest); err != nil {
			return nil, fmt.Errorf("-manifest: %w", err)
		}
		for _, s := range m.Sites {
			for _, r := range s.Roots {
				if fi, err := os.Stat(r.Dir); err != nil || !fi.IsDir() {
					return nil, fmt.Errorf("-manifest %s: site %q: root %s is not a directory", c.manifest, s.Name, r.Dir)
				}
			}
		}
	}
	if c.dir != "" {
		if fi, err := os.Stat(c.dir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("-dir: %s is not a directory", c.dir)
		}
	}
	for _, files := range []struct {
		flag  string
		paths []string
	}{{"warc", c.warcs}, {"wat", c.wats}} {
		for _, p := range files.paths {
			fi, err := os.Stat(p)
			switch {
			case err != nil:
				return nil, fmt.Errorf("-%s: %w", files.flag, err)
			case !fi.Mode().IsRegular():
				return nil, fmt.Errorf("-%s: %s is not a file", files.flag, p)
			}
		}
	}
	if fi, err := os.Stat(c.storePath); err == nil && fi.IsDir() && !isPostgres(c.storePath) {
		return nil, fmt.Errorf("-store: %s is a directory, not a store file", c.storePath)
	}
	return m, nil
}

func runCorpus(ctx context.Context, e *env, args []string) error {
	c, err := parseCorpus(args)
	if err != nil {
		return err
	}
	return ingestCorpus(ctx, e, c)
}

// ingestCorpus ingests everything c names and prints the summary.
func ingestCorpus(ctx context.Context, e *env, c *corpusConfig) error {
	start := time.Now()
	m, err := checkInputs(c)
	if err != nil {
		return err
	}
	if c.cpuProfile != "" {
		f, err := os.Create(c.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	s, err := openIngestStore(ctx, c.storePath)
	if err != nil {
		return err
	}
	defer s.Close()
	resumed := 0
	opts := store.IngestOptions{Workers: c.workers, BatchSize: c.batch, Shares: c.shares, Share: c.share}
	// ingest runs one ingest with a progress line of its own.
	ingest := func(what string, f func(store.IngestOptions) (store.Stats, error)) error {
		prefix := "corpus: " + what
		p := progress.New(e.stderr, prefix)
		o := opts
		o.Progress = p.Update
		st, err := f(o)
		p.Finish()
		if !progress.IsTerminal(e.stderr) {
			// Off a terminal lines come every progress.Every: the last
			// one gives a log the totals.
			fmt.Fprintf(e.stderr, "%s: %s\n", prefix, p.Line())
		}
		resumed += st.Resumed
		return err
	}
	if m != nil {
		if err := ingest("manifest "+c.manifest, func(o store.IngestOptions) (store.Stats, error) { return s.IngestManifest(ctx, m, o) }); err != nil {
			return err
		}
	}
	if c.dir != "" {
		if err := ingest("dir "+c.dir, func(o store.IngestOptions) (store.Stats, error) { return s.IngestDir(ctx, c.dir, c.base, o) }); err != nil {
			return err
		}
	}
	if len(c.warcs) > 0 {
		if err := ingest("WARC", func(o store.IngestOptions) (store.Stats, error) { return s.IngestWARC(ctx, c.warcs, o) }); err != nil {
			return err
		}
	}
	if len(c.wats) > 0 {
		if err := ingest("WAT", func(o store.IngestOptions) (store.Stats, error) {
			o.Workers = 0
			st, err := s.IngestWAT(ctx, c.wats, o)
			return store.Stats{Resumed: st.Resumed}, err
		}); err != nil {
			return err
		}
	}
	total, err := s.Totals(ctx)
	if err != nil {
		return err
	}
	total.Resumed = resumed
	total.Duration = time.Since(start)
	if _, err := fmt.Fprintf(e.stdout, "%s: %s\n", storeName(c.storePath), total); err != nil {
		return err
	}
	links, err := s.LinkTotals(ctx)
	if err != nil || links.Sources == 0 {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s: %d link sources, %d link records\n", storeName(c.storePath), links.Sources, links.Links)
	return err
}
