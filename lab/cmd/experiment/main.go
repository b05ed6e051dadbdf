// Command experiment reproduces the experiment of Ware, Klein and Nelson,
// "An Evaluation of Link Neighborhood Lexical Signatures to Rediscover
// Missing Web Pages", on a local corpus: targets drawn at random are treated
// as missing one at a time, and every method of the paper's grid (radius ×
// depth × backlink count, each at every signature size) looks for them again
// from their backlinks.
//
// Usage:
//
//	experiment -corpus MANIFEST -store FILE -targets N -seed S [-modes LIST] -out DIR
//
// Besides the paper's mode it runs the modes of real link rot (-modes
// paper,moved,migrated,edited,deleted, all by default; see the README's
// "Real link rot"): each builds a store of its own beside FILE
// (FILE.moved, FILE.migrated, FILE.edited), except deleted, which reads
// FILE.
//
// -store may instead be a postgres:// or postgresql:// URL: the paper's
// store is then the PostgreSQL store (package provider/postgres) in the
// URL's database and search path, and each mode's store is built in a
// schema of its own in that database, named after the paper store's
// schema and the mode (public_moved, public_migrated, public_edited). The
// results are the same files; the URL's password is in none of them and
// in no line printed.
//
// It builds the store from the manifest when FILE does not hold it yet (an
// interrupted build is finished), runs the grid with and without navigation
// links, shows progress on stderr, writes its results into DIR and prints the
// reproduced Table 4 beside the paper's, the paper's findings checked one by
// one, and the times.
//
// The files written into DIR:
//
//   - summary.json: the benchmark's summary (BENCHMARK.md): one run per
//     method and signature size; methods without navigation links end in
//     "-nonav". Besides, target_seconds gives each mode's distribution of
//     the targets' wall times (median, p90, p99, max) and slowest its ten
//     slowest targets with their seconds by stage (clues, signatures,
//     search, judge) and the work they did (eval.TargetCost).
//   - tables.md: the paper's Tables 3 and 4 reproduced beside the published
//     ones, the layout of those tables for every method, and the mean nDCG
//     of every method at every size.
//   - checks.md: the paper's qualitative findings, checked one by one.
//   - figures/*.svg and *.png: mean nDCG against signature size, one line
//     per method: by radius, by depth for each radius (the paper's Figures
//     7 to 9) and by backlink count.
//   - targets.jsonl.gz: one JSON object per target: its URI, site,
//     backlink counts and stratum, and for every method the backlink pages
//     used, the signature and the rank at every size, in the paper's mode
//     and in the moved, edited and deleted modes (which share its
//     targets), and what the target cost in each mode ("cost", "costs":
//     wall time by stage, pages parsed and parsed again, pages walked,
//     lookups, queries); then one object per target of the migrated mode.
//     The costs differ from run to run; the rest does not.
//   - migrations.md: the sites the migrated mode moved, by which rule.
//   - strata.md and strata.json: the results by stratum of distinct
//     non-navigation backlink pages (0, 1-2, 3-9, 10+), and how many targets
//     had no usable backlink.
//   - filters.md and filters.json: the backlink pages rejected by each filter
//     (the paper's Table "Pre-Processing Results").
//   - versions.txt: the corpus packages' versions, Go, the git commit and the
//     command line.
//   - latency.json: the backend (sqlite or postgres) and, for every mode,
//     the median and 99th percentile of the time a search of the store
//     took for queries of 3 and of 4 terms (each distinct query is
//     searched once, by the evaluation's workers at once); the same
//     figures are printed with the times.
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
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lab/draw"
	"github.com/linkrot/relink/lab/eval"
	"github.com/linkrot/relink/lab/internal/ingestbar"
	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/score"
)

// config is the command line, parsed.
type config struct {
	manifest, storePath, out string
	targets                  int
	seed                     uint64
	workers                  int
	pageBudget, searchBudget int64
	candidateBudget          int64
	nav                      string
	modes                    []string // the modes besides the paper's, in allModes order
	cpuProfile               string
	grid                     bool              // -methods holds grid
	strategies               []relink.Strategy // the project's methods -methods chose
	args                     []string
	scale                    scaleConfig // scale.go: -draw, -memprofile, -memory-limit
}

func main() {
	cfg, err := parseFlags(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "experiment:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "experiment:", err)
		os.Exit(1)
	}
}

// parseFlags parses and checks the command line.
func parseFlags(args []string, stderr io.Writer) (*config, error) {
	cfg := config{args: args}
	fs := flag.NewFlagSet("experiment", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.manifest, "corpus", "", "corpus manifest `FILE` (BENCHMARK.md format); the store is built from it if needed")
	fs.StringVar(&cfg.storePath, "store", "relink.db", "store `FILE` (built by relink corpus, or from -corpus), or a postgres:// URL of a database (each mode's store in a schema of its own)")
	fs.IntVar(&cfg.targets, "targets", 300, "number of targets drawn")
	fs.Uint64Var(&cfg.seed, "seed", 1, "seed of the targets' draw")
	fs.StringVar(&cfg.out, "out", "results", "`DIR`ectory to write the results into")
	fs.IntVar(&cfg.workers, "workers", 0, "targets evaluated at once (0: one per CPU)")
	fs.Int64Var(&cfg.pageBudget, "page-budget", DefaultPageBudget, "`MB` of parsed backlink pages kept for the whole run (0: every page); fewer means less memory and pages parsed again")
	fs.Int64Var(&cfg.candidateBudget, "candidate-budget", DefaultCandidateBudget, "`MB` of candidate pages read (headings and word counts) kept for the whole run (0: every page); fewer means less memory and pages read again")
	fs.Int64Var(&cfg.searchBudget, "search-budget", DefaultSearchBudget, "`MB` of search answers kept for the whole run (0: every answer); fewer means less memory and queries searched again")
	fs.StringVar(&cfg.nav, "nav", "both", "navigation links: with (the paper's setting), without, or both")
	moved := fs.Bool("moved", true, "also run the moved mode (the older form of -modes; -moved=false leaves it out of the default)")
	modes := fs.String("modes", "", "evaluation `LIST`, comma-separated: paper (always run: the paper's setting), moved (each target published at a new URI, its old one dead), migrated (half the sites moved by a rule, the targets drawn from their pages), edited (moved, and the text edited), deleted (each target gone from the web and the index: the right answer is not found); moved, migrated and edited need -corpus and its files; default all")
	fs.StringVar(&cfg.cpuProfile, "cpuprofile", "", "write a CPU profile of the grid to `FILE`")
	methods := fs.String("methods", "grid,own", "methods `LIST`, comma-separated: grid (the paper's grid), own (every one of the project's methods, relink.Strategies), or names of the project's methods (\"moved-link+rerank\" is relink.Default); the judge's fit (lab/cmd/fit) needs only the default methods")
	cfg.scale.flags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: experiment -corpus MANIFEST -store FILE [-targets N] [-seed S] [-modes LIST] [-out DIR]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	chosen := map[string]bool{}
	if *modes == "" {
		for _, m := range allModes {
			chosen[m] = m != modeMoved || *moved
		}
	} else {
		for m := range strings.SplitSeq(*modes, ",") {
			m = strings.TrimSpace(m)
			if !slices.Contains(allModes, m) {
				return nil, fmt.Errorf("-modes: unknown mode %q (want %s)", m, strings.Join(allModes, ", "))
			}
			chosen[m] = true
		}
	}
	for _, m := range allModes[1:] {
		if chosen[m] {
			cfg.modes = append(cfg.modes, m)
		}
	}
	if err := cfg.chooseMethods(*methods); err != nil {
		return nil, err
	}
	switch {
	case fs.NArg() > 0:
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case cfg.storePath == "":
		return nil, errors.New("-store must name a file")
	case cfg.out == "":
		return nil, errors.New("-out must name a directory")
	case cfg.targets < 1:
		return nil, errors.New("-targets must be at least 1")
	case cfg.pageBudget < 0 || cfg.searchBudget < 0 || cfg.candidateBudget < 0:
		return nil, errors.New("-page-budget, -search-budget and -candidate-budget must not be negative")
	case cfg.workers < 0:
		return nil, errors.New("-workers must not be negative")
	case !slices.Contains([]string{"with", "without", "both"}, cfg.nav):
		return nil, fmt.Errorf("-nav %q: want with, without or both", cfg.nav)
	}
	return &cfg, nil
}

// chooseMethods sets the grid and the strategies -methods lists.
func (cfg *config) chooseMethods(list string) error {
	all := relink.Strategies()
	cfg.grid, cfg.strategies = false, nil
	for name := range strings.SplitSeq(list, ",") {
		name = strings.TrimSpace(name)
		switch i := slices.IndexFunc(all, func(s relink.Strategy) bool { return s.Name() == name }); {
		case name == "grid":
			cfg.grid = true
		case name == "own":
			cfg.strategies = all
		case i >= 0:
			if !slices.ContainsFunc(cfg.strategies, func(s relink.Strategy) bool { return s.Name() == name }) {
				cfg.strategies = append(cfg.strategies, all[i])
			}
		default:
			return fmt.Errorf("-methods: unknown method %q (want grid, own or one of the project's methods)", name)
		}
	}
	if !cfg.grid && len(cfg.strategies) == 0 {
		return errors.New("-methods lists no method")
	}
	return nil
}

// navSettings returns the Grid.Nav of the -nav flag, or none when the grid
// is not run.
func (cfg *config) navSettings() []bool {
	if !cfg.grid {
		return []bool{}
	}
	switch cfg.nav {
	case "with":
		return []bool{true}
	case "without":
		return []bool{false}
	}
	return []bool{true, false}
}

// target is one drawn target with what the store knows of it.
type target = draw.Target

// run builds the store if needed, draws the targets, runs the grid and
// writes the results.
func run(ctx context.Context, cfg *config, stdout, stderr io.Writer) error {
	defer cfg.scale.watch(stderr)()
	s, m, corpus, ingest, err := openStore(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	defer s.Close()
	targets, available, err := cfg.draw(ctx, s)
	if err != nil {
		return err
	}
	if len(targets) < cfg.targets {
		fmt.Fprintf(stderr, "experiment: only %d pages have a backlink page; evaluating all of them\n", available)
	}
	uris := make([]string, len(targets))
	for i, t := range targets {
		uris[i] = t.URI
	}
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
	bar := newProgress(stderr, len(uris))
	start := time.Now()
	// The archived copy of a target is its page in the store as built
	// from the corpus, before it went missing or moved.
	archive := func(ctx context.Context, t string) (*filter.Page, error) { return s.Fetch(ctx, t) }
	searches := timeSearches(s)
	ev := eval.Evaluation{
		Targets:         uris,
		Missing:         views(s),
		DF:              s,
		Searcher:        searches,
		Grid:            eval.Grid{Nav: cfg.navSettings()},
		Workers:         cfg.workers,
		PageBudget:      cfg.pageBudget << 20,
		SearchBudget:    cfg.searchBudget << 20,
		CandidateBudget: cfg.candidateBudget << 20,
		Progress:        bar.update,
		Strategies:      cfg.strategies,
		Archive:         archive,
	}
	rep, err := eval.Evaluate(ctx, ev)
	bar.finish()
	if err != nil {
		return err
	}
	grid := time.Since(start)
	ev.Searcher = s // each mode times its own searches (evaluate)
	res := &results{
		latency: searches.summary(),
		backend: backendName(cfg.storePath),
		corpus:  corpus,
		seed:    cfg.seed,
		targets: targets,
		report:  rep,
		ingest:  ingest,
		grid:    grid,
		nav:     cfg.navSettings(),
	}
	for _, name := range cfg.modes {
		var run *modeRun
		switch {
		case name == modeDeleted:
			run, err = runDeleted(ctx, ev, s, stderr)
		case m == nil || len(missingRoots(m)) > 0:
			fmt.Fprintf(stderr, "experiment: the %s mode needs -corpus and its files on this machine; skipped\n", name)
			continue
		case name == modeMigrated:
			run, res.migrations, err = runMigrated(ctx, cfg, m, s, ev, stderr)
		default:
			run, err = runMoved(ctx, cfg, m, s, ev, name == modeEdited, stderr)
		}
		if err != nil {
			return err
		}
		res.modeRuns = append(res.modeRuns, run)
	}
	if totals, err := s.Totals(ctx); err == nil {
		res.pages = totals.Pages
	}
	if err := res.write(ctx, cfg, s); err != nil {
		return err
	}
	return res.print(stdout, cfg.out)
}

// views returns the Missing function of an evaluation over s: each
// target missing in its own view.
func views(s labStore) func(string) eval.View {
	return func(t string) eval.View {
		v := s.WithMissing(t)
		return eval.View{
			Backlinks: v,
			Fetcher:   v,
		}
	}
}

// openStore opens the store, building it from the manifest first when the
// manifest's files are on this machine (an ingest that is already complete
// takes a fraction of a second). It returns the corpus's name and the time
// spent building.
func openStore(ctx context.Context, cfg *config, stderr io.Writer) (labStore, *store.Manifest, string, time.Duration, error) {
	corpus := storeBase(cfg.storePath)
	var m *store.Manifest
	if cfg.manifest != "" {
		var err error
		if m, err = store.ReadManifest(cfg.manifest); err != nil {
			return nil, nil, "", 0, err
		}
		corpus = m.Name
	}
	// Without a corpus to build it from, or without the corpus's files,
	// the store is only read: it is never created or changed, and one
	// whose ingest did not finish is refused (store.ErrIncomplete).
	if m == nil {
		s, err := openLab(ctx, cfg.storePath, true)
		if err != nil {
			return nil, nil, "", 0, fmt.Errorf("%w (give -corpus to build it)", err)
		}
		return s, m, corpus, 0, nil
	}
	if missing := missingRoots(m); len(missing) > 0 {
		s, err := openLab(ctx, cfg.storePath, true)
		if err != nil {
			return nil, nil, "", 0, fmt.Errorf("the corpus is not installed (no %s): run scripts/install-corpus.sh %s as root", missing[0], cfg.manifest)
		}
		fmt.Fprintf(stderr, "experiment: %d corpus directories are not on this machine (first: %s); using the store as it is\n", len(missing), missing[0])
		return s, m, corpus, 0, nil
	}
	s, err := openLab(ctx, cfg.storePath, false)
	if err != nil {
		return nil, nil, "", 0, err
	}
	start := time.Now()
	p := ingestbar.New(stderr, "experiment: store")
	st, err := s.IngestManifest(ctx, m, store.IngestOptions{Progress: p.Update})
	p.Finish()
	if err != nil {
		s.Close()
		return nil, nil, "", 0, fmt.Errorf("building %s: %w", s.name(), err)
	}
	took := time.Since(start)
	if st.Pages > 0 || st.Redirects > 0 {
		fmt.Fprintf(stderr, "experiment: built %s: %s\n", s.name(), st)
	}
	return s, m, corpus, took, nil
}

// missingRoots returns the manifest's root directories that do not exist.
func missingRoots(m *store.Manifest) []string {
	var out []string
	for _, site := range m.Sites {
		for _, r := range site.Roots {
			if _, err := os.Stat(r.Dir); err != nil {
				out = append(out, r.Dir)
			}
		}
	}
	return out
}

// drawTargets draws n targets with seed from the pages that another page
// links to (draw.Targets, shared with lab/fixbench).
func drawTargets(ctx context.Context, s draw.Pager, n int, seed uint64) ([]target, int, error) {
	return draw.Targets(ctx, s, n, seed)
}

// strata are the strata of targets (draw.Strata).
var strata = draw.Strata

// stratum returns the stratum of a target with n distinct non-navigation
// backlink pages (draw.Stratum).
func stratum(n int) string { return draw.Stratum(n) }

// paperMethods are the methods the paper published tables for.
var paperMethods = []struct {
	method string
	table  func() []score.Run
	name   string
}{
	{"1-anchor-10", score.PaperTable4, "Table 4"},
	{"1-anchor-1000", score.PaperTable3, "Table 3"},
}
