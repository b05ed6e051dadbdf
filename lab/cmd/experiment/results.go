package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lab/eval"
	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/score"
)

// results is one experiment's outcome, ready to be written.
type results struct {
	corpus  string
	seed    uint64
	targets []target
	report  *eval.Report
	ingest  time.Duration
	grid    time.Duration
	nav     []bool
	runs    map[string]map[int]score.Run // by method and size

	// modeRuns are the other modes that ran, in the order of allModes.
	modeRuns []*modeRun
	// migrations are the migrated mode's moves, when it ran.
	migrations []migrationPlan
	// pages is the number of pages in the index.
	pages int
	// backend names the kind of store the experiment ran on, latency is
	// the latency of the paper mode's searches.
	backend string
	latency []latency
}

// run returns the run of method at size, and whether there is one.
func (res *results) run(method string, size int) (score.Run, bool) {
	if res.runs == nil {
		res.runs = map[string]map[int]score.Run{}
		for _, r := range res.report.Table.Runs() {
			if res.runs[r.Method] == nil {
				res.runs[r.Method] = map[int]score.Run{}
			}
			res.runs[r.Method][r.Terms] = r
		}
	}
	r, ok := res.runs[method][size]
	return r, ok
}

// ndcg returns the mean nDCG of method at size, or NaN when there is no run.
func (res *results) ndcg(method string, size int) float64 {
	if r, ok := res.run(method, size); ok {
		return r.MeanNDCG
	}
	return math.NaN()
}

// write writes every output file into cfg.out.
func (res *results) write(ctx context.Context, cfg *config, s labStore) error {
	if err := os.MkdirAll(filepath.Join(cfg.out, "figures"), 0o755); err != nil {
		return err
	}
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{"summary.json", res.writeSummary},
		{"tables.md", res.writeTables},
		{"comparison.md", res.writeComparison},
		{"checks.md", func(w io.Writer) error { return writeChecks(w, res.checks()) }},
		{"targets.jsonl.gz", res.writeTargets},
		{"migrations.md", res.writeMigrations},
		{"strata.json", res.writeStrataJSON},
		{"strata.md", res.writeStrata},
		{"filters.json", res.writeFiltersJSON},
		{"filters.md", res.writeFilters},
		{"versions.txt", func(w io.Writer) error { return res.writeVersions(ctx, w, cfg, s) }},
		{"latency.json", res.writeLatency},
	}
	for _, f := range files {
		if err := writeFile(filepath.Join(cfg.out, f.name), f.write); err != nil {
			return err
		}
	}
	if err := res.writeComparisonFigure(filepath.Join(cfg.out, "figures")); err != nil {
		return err
	}
	return res.writeFigures(filepath.Join(cfg.out, "figures"))
}

// writeFile creates the file name and writes it with write, compressed
// with gzip when name ends in ".gz".
func writeFile(name string, write func(io.Writer) error) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	var out io.Writer = w
	var zw *gzip.Writer
	if strings.HasSuffix(name, ".gz") {
		zw = gzip.NewWriter(w)
		out = zw
	}
	err = write(out)
	if err == nil && zw != nil {
		err = zw.Close()
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", name, err)
	}
	return f.Close()
}

// writeMigrations writes migrations.md: which sites the migrated mode
// moved, by which rule, with an example of each.
func (res *results) writeMigrations(w io.Writer) error {
	fmt.Fprintf(w, "# The migrated mode's moves: corpus %s, seed %d\n\n", res.corpus, res.seed)
	if res.migrations == nil {
		_, err := fmt.Fprintln(w, "The migrated mode did not run.")
		return err
	}
	fmt.Fprintln(w, "Half of the corpus's sites, drawn with the seed, each moved by one rule drawn with the seed among those that apply to it (host: a new host; version: a version segment of the base path replaced; style: file-style pages served as directories; prefix: the base path's first segment renamed). Pages a rule cannot move (a directory index under the style rule) stay.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| site | rule | pages moved | example |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, p := range res.migrations {
		example := ""
		if len(p.pages) > 0 {
			from := slices.Min(slices.Collect(maps.Keys(p.pages)))
			example = fmt.Sprintf("%s → %s", from, p.pages[from])
		}
		fmt.Fprintf(w, "| %s | %s | %d | %s |\n", p.site, p.rule, len(p.pages), example)
	}
	return nil
}

// newEncoder returns a JSON encoder that writes ">" as it is.
func newEncoder(w io.Writer, indent bool) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	return enc
}

// summary is summary.json, as BENCHMARK.md specifies it.
type summary struct {
	Corpus  string      `json:"corpus"`
	Targets int         `json:"targets"`
	Seed    uint64      `json:"seed"`
	Pages   int         `json:"pages,omitempty"`
	Runs    []score.Run `json:"runs"`
	// Seconds are the times of the stages: ingest and grid for the
	// paper's mode, MODE_ingest and MODE_grid for the others.
	Seconds map[string]float64 `json:"seconds"`
	// TargetSeconds is the distribution of the targets' wall times, by
	// mode ("paper" for the paper's).
	TargetSeconds map[string]spread `json:"target_seconds,omitempty"`
	// Slowest are the slowest targets of each mode, with their time by
	// stage and what they did.
	Slowest []slowTarget `json:"slowest,omitempty"`
}

func (res *results) writeSummary(w io.Writer) error {
	secs := map[string]float64{"ingest": round(res.ingest.Seconds(), 3), "grid": round(res.grid.Seconds(), 3)}
	for _, m := range res.modeRuns {
		if m.ingest > 0 {
			secs[m.name+"_ingest"] = round(m.ingest.Seconds(), 3)
		}
		secs[m.name+"_grid"] = round(m.grid.Seconds(), 3)
	}
	return newEncoder(w, true).Encode(summary{
		Corpus:  res.corpus,
		Targets: len(res.targets),
		Seed:    res.seed,
		Pages:   res.pages,
		Runs:    res.allRuns(),
		Seconds: secs,

		TargetSeconds: res.spreads(),
		Slowest:       res.slowest(),
	})
}

func round(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}

// suffix returns the method-name suffix of a navigation setting.
func suffix(nav bool) string {
	if nav {
		return ""
	}
	return relink.NoNavSuffix
}

// navTitle describes a navigation setting in a heading.
func navTitle(nav bool) string {
	if nav {
		return "every link counts, navigation included (the paper's setting)"
	}
	return "navigation links left out"
}

func (res *results) writeTables(w io.Writer) error {
	fmt.Fprintf(w, "# Tables: corpus %s, %d targets, seed %d\n\n", res.corpus, len(res.targets), res.seed)
	fmt.Fprintln(w, "Each cell of the first two tables reads OURS / PAPER. The paper's percentages are of its 299 targets.")
	fmt.Fprintln(w)
	runs := res.report.Table.Runs()
	for _, p := range paperMethods {
		for _, nav := range res.nav {
			m := p.method + suffix(nav)
			if md := score.CompareMarkdown(runs, p.table(), m); md != "" && nav {
				fmt.Fprintf(w, "## %s\n\n%s\n", p.name, md)
			} else if md := res.report.Table.Markdown(m); md != "" {
				fmt.Fprintf(w, "## %s, %s\n\n%s\n", p.name, navTitle(nav), md)
			}
		}
	}
	for _, nav := range res.nav {
		fmt.Fprintf(w, "## Mean nDCG of every method by signature size, %s\n\n", navTitle(nav))
		res.writeMatrix(w, nav, func(r score.Run) string { return fmt.Sprintf("%.3f", r.MeanNDCG) })
		fmt.Fprintf(w, "## Found at rank 1 (%% of targets) by signature size, %s\n\n", navTitle(nav))
		res.writeMatrix(w, nav, func(r score.Run) string { return fmt.Sprintf("%.2f", r.Buckets[score.BucketFirst]) })
	}
	fmt.Fprintln(w, "## Every method in the layout of Tables 3 and 4")
	fmt.Fprintln(w)
	for _, m := range res.report.Methods {
		if md := res.report.Table.Markdown(m.String()); md != "" {
			fmt.Fprintf(w, "### %s\n\n%s\n", m, md)
		}
	}
	return nil
}

// writeMatrix writes a table of every method of one navigation setting
// (rows) by signature size (columns), each cell cell(run).
func (res *results) writeMatrix(w io.Writer, nav bool, cell func(score.Run) string) {
	sizes := res.report.Sizes
	fmt.Fprint(w, "| method |")
	for _, s := range sizes {
		fmt.Fprintf(w, " %d |", s)
	}
	fmt.Fprint(w, "\n| :-- |")
	for range sizes {
		fmt.Fprint(w, " --: |")
	}
	fmt.Fprintln(w)
	for _, m := range res.report.Methods {
		if m.Nav != nav {
			continue
		}
		fmt.Fprintf(w, "| %s |", m)
		for _, s := range sizes {
			if r, ok := res.run(m.String(), s); ok {
				fmt.Fprintf(w, " %s |", cell(r))
			} else {
				fmt.Fprint(w, " n/a |")
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

// targetLine is one line of targets.jsonl.gz.
type targetLine struct {
	// Mode is "" for a target of the paper's mode, which the moved,
	// edited and deleted modes share, and "migrated" for a target of that
	// mode, whose Methods are its outcomes there.
	Mode             string                       `json:"mode,omitempty"`
	URI              string                       `json:"uri"`
	Site             string                       `json:"site"`
	Title            string                       `json:"title"`
	Stratum          string                       `json:"stratum"`
	Backlinks        int                          `json:"backlinks"`
	ContentBacklinks int                          `json:"content_backlinks"`
	Sizes            []int                        `json:"sizes"`
	Methods          map[string]eval.MethodReport `json:"methods"`
	// Moved, Edited and Deleted are the methods' outcomes in those modes,
	// when they ran.
	Moved   map[string]eval.MethodReport `json:"moved,omitempty"`
	Edited  map[string]eval.MethodReport `json:"edited,omitempty"`
	Deleted map[string]eval.MethodReport `json:"deleted,omitempty"`
	// Cost is what the target cost in the paper's mode, or in the
	// migrated mode for its targets; Costs what it cost in the moved,
	// edited and deleted modes, by mode (eval.TargetCost). They hold
	// times, which differ from one run to the next.
	Cost  eval.TargetCost            `json:"cost"`
	Costs map[string]eval.TargetCost `json:"costs,omitempty"`
}

func (res *results) writeTargets(w io.Writer) error {
	enc := newEncoder(w, false)
	line := func(t target, sizes []int) targetLine {
		return targetLine{
			URI:              t.URI,
			Site:             t.Site,
			Title:            t.Title,
			Stratum:          t.Stratum,
			Backlinks:        t.Backlinks,
			ContentBacklinks: t.ContentBacklinks,
			Sizes:            sizes,
		}
	}
	for i, t := range res.targets {
		l := line(t, res.report.Sizes)
		l.Methods, l.Cost = res.report.Targets[i].Methods, res.report.Targets[i].Cost
		for _, m := range res.modeRuns {
			if m.targets != nil {
				continue
			}
			if l.Costs == nil {
				l.Costs = map[string]eval.TargetCost{}
			}
			l.Costs[m.name] = m.report.Targets[i].Cost
			switch m.name {
			case modeMoved:
				l.Moved = m.report.Targets[i].Methods
			case modeEdited:
				l.Edited = m.report.Targets[i].Methods
			case modeDeleted:
				l.Deleted = m.report.Targets[i].Methods
			}
		}
		if err := enc.Encode(l); err != nil {
			return err
		}
	}
	for _, m := range res.modeRuns {
		for i, t := range m.targets {
			l := line(t, m.report.Sizes)
			l.Mode, l.Methods, l.Cost = m.name, m.report.Targets[i].Methods, m.report.Targets[i].Cost
			if err := enc.Encode(l); err != nil {
				return err
			}
		}
	}
	return nil
}

// stratumResult is one stratum of strata.json.
type stratumResult struct {
	Stratum string `json:"stratum"`
	Targets int    `json:"targets"`
	// NoUsableBacklink counts, by navigation setting ("with", "without"),
	// the targets none of whose level-1 backlink pages (at the largest
	// backlink count) passed the filters and held a link to them.
	NoUsableBacklink map[string]int `json:"no_usable_backlink"`
	Runs             []score.Run    `json:"runs"`
}

// strata returns the results by stratum, the overall results last.
func (res *results) strata() []stratumResult {
	maxK := 0
	for _, m := range res.report.Methods {
		maxK = max(maxK, m.Backlinks)
	}
	var out []stratumResult
	for _, name := range append(slices.Clone(strata), "all") {
		sr := stratumResult{Stratum: name, NoUsableBacklink: map[string]int{}}
		t := score.NewTable()
		for i, tg := range res.targets {
			if name != "all" && tg.Stratum != name {
				continue
			}
			sr.Targets++
			rep := res.report.Targets[i]
			for _, m := range res.report.Methods {
				mr := rep.Methods[m.String()]
				for j, size := range res.report.Sizes {
					t.Add(m.String(), size, mr.Ranks[j])
				}
			}
			for _, nav := range res.nav {
				level1 := eval.Method{Depth: 1, Radius: backlink.Anchor, Backlinks: maxK, Nav: nav}
				if mr, ok := rep.Methods[level1.String()]; ok && mr.Kept == 0 {
					sr.NoUsableBacklink[navKey(nav)]++
				}
			}
		}
		sr.Runs = t.Runs()
		out = append(out, sr)
	}
	return out
}

// navKey names a navigation setting in JSON.
func navKey(nav bool) string {
	if nav {
		return "with"
	}
	return "without"
}

func (res *results) writeStrataJSON(w io.Writer) error {
	return newEncoder(w, true).Encode(res.strata())
}

func (res *results) writeStrata(w io.Writer) error {
	st := res.strata()
	fmt.Fprintf(w, "# Results by stratum: corpus %s, %d targets, seed %d\n\n", res.corpus, len(res.targets), res.seed)
	fmt.Fprintln(w, "Strata are the targets' numbers of distinct backlink pages with a link that is not navigation, over the whole corpus (stratum 0: only navigation links point to the target). A target has no usable backlink when none of its level-1 backlink pages passed the filters and held a link to it.")
	fmt.Fprintln(w)
	fmt.Fprint(w, "| | ")
	for _, s := range st {
		fmt.Fprintf(w, "%s | ", s.Stratum)
	}
	fmt.Fprint(w, "\n| :-- |")
	for range st {
		fmt.Fprint(w, " --: |")
	}
	fmt.Fprint(w, "\n| targets |")
	for _, s := range st {
		fmt.Fprintf(w, " %d |", s.Targets)
	}
	fmt.Fprintln(w)
	for _, nav := range res.nav {
		fmt.Fprintf(w, "| no usable backlink, %s |", navKey(nav)+" navigation links")
		for _, s := range st {
			fmt.Fprintf(w, " %d |", s.NoUsableBacklink[navKey(nav)])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	for _, size := range []int{3, 4} {
		if !slices.Contains(res.report.Sizes, size) {
			continue
		}
		for _, what := range []string{"mean nDCG", "found at rank 1 (%)"} {
			fmt.Fprintf(w, "## %s at %d terms, by stratum\n\n| method |", what, size)
			for _, s := range st {
				fmt.Fprintf(w, " %s (%d) |", s.Stratum, s.Targets)
			}
			fmt.Fprint(w, "\n| :-- |")
			for range st {
				fmt.Fprint(w, " --: |")
			}
			fmt.Fprintln(w)
			for _, m := range res.report.Methods {
				fmt.Fprintf(w, "| %s |", m)
				for _, s := range st {
					cell := "n/a"
					for _, r := range s.Runs {
						if r.Method == m.String() && r.Terms == size {
							if what == "mean nDCG" {
								cell = fmt.Sprintf("%.3f", r.MeanNDCG)
							} else {
								cell = fmt.Sprintf("%.1f", r.Buckets[score.BucketFirst])
							}
						}
					}
					fmt.Fprintf(w, " %s |", cell)
				}
				fmt.Fprintln(w)
			}
			fmt.Fprintln(w)
		}
	}
	return nil
}

// outcomes lists the outcomes of backlink pages in the order of the
// filters.
func outcomes() []string {
	return append(append([]string{relink.FilterFetch}, filter.Order...), relink.FilterLink, relink.OutcomeKept)
}

// filtersFile is filters.json.
type filtersFile struct {
	// Pages counts each distinct backlink page of the experiment once.
	Pages map[string]int `json:"pages"`
	// Neighborhoods breaks pages and (target, page) occurrences down by
	// navigation setting and level.
	Neighborhoods []eval.Preprocessing `json:"neighborhoods"`
}

func (res *results) writeFiltersJSON(w io.Writer) error {
	return newEncoder(w, true).Encode(filtersFile{Pages: res.report.Pages, Neighborhoods: res.report.Preprocessing})
}

func (res *results) writeFilters(w io.Writer) error {
	rep := res.report
	fmt.Fprintf(w, "# Pre-processing: corpus %s, %d targets, seed %d\n\n", res.corpus, len(res.targets), res.seed)
	fmt.Fprintln(w, "The backlink pages of every target's neighborhood at the largest backlink count (levels 1 and 2), by the first filter that rejected them, as in the paper's Table \"Pre-Processing Results\". The filters run in the order HTTP status, file type, size, language, soft 404 (filter.Order); a page several filters would catch is counted under the first. \"fetch\" is a page that could not be fetched at all, \"link\" a page that passed the filters but holds no usable link to the page it was listed for (for runs without navigation links: no link that is not navigation).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "## Distinct backlink pages, each counted once")
	fmt.Fprintln(w)
	writeOutcomeTable(w, []string{"pages"}, []map[string]int{rep.Pages})
	fmt.Fprintln(w, "## By navigation setting and level")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Distinct pages count each page once per column; occurrences count a page once for every target whose neighborhood holds it.")
	fmt.Fprintln(w)
	var heads []string
	var cols []map[string]int
	for _, p := range rep.Preprocessing {
		what := fmt.Sprintf("level %d, %s nav", p.Level, navKey(p.Nav))
		heads = append(heads, what+": pages", what+": occurrences")
		cols = append(cols, p.Pages, p.Occurrences)
	}
	writeOutcomeTable(w, heads, cols)
	return nil
}

// writeOutcomeTable writes counts by outcome, one column per map, with the
// percentage of each column's total.
func writeOutcomeTable(w io.Writer, heads []string, cols []map[string]int) {
	fmt.Fprint(w, "| outcome |")
	for _, h := range heads {
		fmt.Fprintf(w, " %s |", h)
	}
	fmt.Fprint(w, "\n| :-- |")
	for range heads {
		fmt.Fprint(w, " --: |")
	}
	fmt.Fprintln(w)
	totals := make([]int, len(cols))
	for i, c := range cols {
		for _, n := range c {
			totals[i] += n
		}
	}
	for _, o := range outcomes() {
		label := o
		if o == relink.OutcomeKept {
			label = "remaining (kept)"
		}
		fmt.Fprintf(w, "| %s |", label)
		for i, c := range cols {
			fmt.Fprintf(w, " %d (%.2f%%) |", c[o], percent(c[o], totals[i]))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprint(w, "| total |")
	for _, t := range totals {
		fmt.Fprintf(w, " %d |", t)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w)
}

func percent(n, total int) float64 {
	if total == 0 {
		return 0
	}
	return 100 * float64(n) / float64(total)
}

func (res *results) writeVersions(ctx context.Context, w io.Writer, cfg *config, s labStore) error {
	fmt.Fprintf(w, "date: %s\n", time.Now().UTC().Format(time.RFC3339))
	fmt.Fprintf(w, "command: experiment %s\n", strings.Join(redactArgs(cfg.args), " "))
	fmt.Fprintf(w, "go: %s %s/%s, %d CPUs, GOMAXPROCS %d\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0))
	fmt.Fprintf(w, "relink: %s\n", gitCommit(ctx))
	if st, err := s.Totals(ctx); err == nil {
		fmt.Fprintf(w, "store: %s: %s\n", storeName(cfg.storePath), strings.TrimSuffix(st.String(), " in 0.0s"))
	}
	fmt.Fprintf(w, "corpus: %s", res.corpus)
	if cfg.manifest == "" {
		fmt.Fprintln(w, " (no manifest given: package versions unknown)")
		return nil
	}
	fmt.Fprintf(w, " (%s)\n", cfg.manifest)
	m, err := store.ReadManifest(cfg.manifest)
	if err != nil {
		return err
	}
	var pkgs []string
	for _, site := range m.Sites {
		if site.Package != "" && !slices.Contains(pkgs, site.Package) {
			pkgs = append(pkgs, site.Package)
		}
	}
	slices.Sort(pkgs)
	fmt.Fprintln(w, "packages (dpkg-query -W):")
	out, err := exec.CommandContext(ctx, "dpkg-query", append([]string{"-W", "-f=${Package} ${Version}\n"}, pkgs...)...).Output()
	if err != nil && len(out) == 0 {
		for _, p := range pkgs {
			fmt.Fprintf(w, "%s unknown (dpkg-query: %v)\n", p, err)
		}
		return nil
	}
	_, err = w.Write(out)
	return err
}

// gitCommit describes the commit of the working directory's repository,
// or says why it cannot.
func gitCommit(ctx context.Context) string {
	out, err := exec.CommandContext(ctx, "git", "rev-parse", "HEAD").Output()
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	commit := string(bytes.TrimSpace(out))
	status, err := exec.CommandContext(ctx, "git", "status", "--porcelain", "--untracked-files=no").Output()
	if err == nil && len(bytes.TrimSpace(status)) > 0 {
		commit += " with uncommitted changes"
	}
	return commit
}

// print writes the reproduced Table 4 beside the paper's, the findings and
// the times.
func (res *results) print(w io.Writer, out string) error {
	md := score.CompareMarkdown(res.report.Table.Runs(), score.PaperTable4(), "1-anchor-10")
	if md == "" {
		md = "(the grid has no method 1-anchor-10)\n"
	}
	fmt.Fprintf(w, "%s\n", md)
	for _, c := range res.checks() {
		fmt.Fprintf(w, "- %s: %s\n", c.title, c.verdict)
	}
	_, err := fmt.Fprintf(w, "\n%d targets (seed %d); ingest %.1f s, grid %.1f s; %d distinct backlink pages, %d distinct queries; results in %s\n",
		len(res.targets), res.seed, res.ingest.Seconds(), res.grid.Seconds(), sum(res.report.Pages), res.report.Queries, out)
	if err != nil {
		return err
	}
	for _, m := range res.latencies() {
		if _, err := fmt.Fprintf(w, "search latency (%s), %s mode: %s\n", res.backend, m.Mode, latencyLine(m.Latency)); err != nil {
			return err
		}
	}
	return res.printTail(w)
}

// modeLatency is the search latency of one mode in latency.json.
type modeLatency struct {
	Mode    string    `json:"mode"`
	Latency []latency `json:"latency"`
}

// latencies returns the search latency of every mode that ran, the
// paper's first.
func (res *results) latencies() []modeLatency {
	out := []modeLatency{{Mode: "paper", Latency: res.latency}}
	for _, m := range res.modeRuns {
		out = append(out, modeLatency{Mode: m.name, Latency: m.latency})
	}
	return out
}

// writeLatency writes latency.json: the backend and, for every mode, the
// median and 99th percentile of the time a search of the store took, by
// the query's number of terms (timedSearcher).
func (res *results) writeLatency(w io.Writer) error {
	return newEncoder(w, true).Encode(struct {
		Backend string        `json:"backend"`
		Modes   []modeLatency `json:"modes"`
	}{res.backend, res.latencies()})
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
