// Command fit fits the judge (relink.Model, the root's judge.json) to the
// experiment's per-target records and checks it on sites it never saw.
//
//	fit [-methods LIST] [-precision P] [-model FILE] [-out DIR] [-ablate] [-interactions LIST] RESULTS...
//
// Each RESULTS directory is an experiment's output (its summary.json and
// targets.jsonl.gz); the records are the answers of the methods -methods
// lists (by default relink's default method, and the same judged by the
// archived title too) in the moved, migrated, edited and deleted modes.
// fit judges each site with a model fitted on every other site (leave one
// site out), chooses the threshold at which those answers are right at
// -precision, fits the model on every site, and writes it with its
// provenance to -model and the figures to DIR/README.md: per corpus and
// mode, per site, the reliability of the confidences, and with -ablate
// what each signal adds on sites it was not fitted on (a signal that does
// not help is left out of the fit).
package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/lab/eval"
	"github.com/linkrot/relink/lab/judgefit"
)

// modes are the experiment's modes of link rot that give records, in the
// order of the report.
var modes = []string{"moved", "migrated", "edited", "deleted"}

// interactions are the products of signals fitted besides the signals:
// how well the title names the page with how clearly the search, the
// fusion and the site single it out, and with the second's title.
var interactions = []string{
	relink.SignalTitleScore + "*" + relink.SignalScoreMargin,
	relink.SignalTitleScore + "*" + relink.SignalFusionSupport,
	relink.SignalTitleScore + "*" + relink.SignalSameHost,
	relink.SignalTitleScore + "*" + relink.SignalSecondTitleScore,
	relink.SignalTitleScore + "*" + relink.SignalMovedLink,
}

type config struct {
	methods   []string
	precision float64
	model     string
	out       string
	ablate    bool
	dump      string
	l2        float64
	// interactions are the products of signals fitted besides the
	// signals (the package's interactions unless -interactions).
	interactions []string
	dirs         []string
}

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "fit:", err)
		}
		os.Exit(2)
	}
}

func parse(args []string, stderr io.Writer) (*config, error) {
	cfg := &config{}
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	def := relink.Default()
	methods := fs.String("methods", def.Name()+","+relink.ArchiveCheck{Base: def}.Name(), "the methods whose answers are the records, comma-separated")
	fs.Float64Var(&cfg.precision, "precision", 0.99, "the precision the threshold is chosen for, on sites the model never saw")
	fs.StringVar(&cfg.model, "model", "", "write the model fitted on every site to `FILE` (judge.json)")
	fs.StringVar(&cfg.out, "out", "", "write the figures to `DIR`/README.md")
	fs.Float64Var(&cfg.l2, "l2", judgefit.DefaultL2, "the penalty on the squared weights")
	fs.StringVar(&cfg.dump, "dump", "", "write every record, judged by a model that never saw its site, as JSON lines to `FILE`")
	terms := fs.String("interactions", strings.Join(interactions, ","), "the products of signals fitted besides the signals, comma-separated (\"\" for none)")
	fs.BoolVar(&cfg.ablate, "ablate", false, "check each signal on sites it was not fitted on, and leave out those that do not help")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: fit [-methods LIST] [-precision P] [-model FILE] [-out DIR] [-ablate] [-interactions LIST] RESULTS...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	cfg.methods = strings.Split(*methods, ",")
	if *terms != "" {
		cfg.interactions = strings.Split(*terms, ",")
	}
	cfg.dirs = fs.Args()
	switch {
	case len(cfg.dirs) == 0:
		return nil, errors.New("no RESULTS directory given")
	case cfg.precision <= 0 || cfg.precision > 1:
		return nil, errors.New("-precision must be in (0, 1]")
	}
	return cfg, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg, err := parse(args, stderr)
	if err != nil {
		return err
	}
	var records []judgefit.Record
	var corpora []string
	var seed uint64
	for _, dir := range cfg.dirs {
		rs, corpus, s, err := readRecords(dir, cfg.methods)
		if err != nil {
			return err
		}
		records = append(records, rs...)
		corpora = append(corpora, corpus)
		seed = s
	}
	fmt.Fprintf(stderr, "fit: %d records of %d corpora\n", len(records), len(corpora))
	opts := judgefit.Options{Signals: append(judgefit.SignalNames(records), cfg.interactions...), L2: cfg.l2}
	var ablation []ablated
	if cfg.ablate {
		if opts.Signals, ablation, err = ablate(records, opts, stderr); err != nil {
			return err
		}
	}
	loso, err := judgefit.LeaveOneOut(records, opts)
	if err != nil {
		return err
	}
	if cfg.dump != "" {
		if err := dump(cfg.dump, loso); err != nil {
			return err
		}
	}
	threshold := judgefit.Threshold(only(loso, cfg.methods[0]), cfg.precision)
	model, err := judgefit.FitCalibrated(records, opts)
	if err != nil {
		return err
	}
	model.Threshold = threshold
	model.Priors = relink.DefaultModel().Priors
	all := make([]judgefit.Judged, len(records))
	for i, r := range records {
		all[i] = judgefit.Judge(model, r)
	}
	rep := &report{cfg: cfg, records: records, loso: loso, all: all, model: model, ablation: ablation, corpora: corpora}
	model.Provenance = relink.Provenance{
		Corpora:   corpora,
		Seed:      seed,
		Modes:     modes,
		Records:   len(records),
		Sites:     len(sites(records)),
		Date:      time.Now().UTC().Format("2006-01-02"),
		Commit:    commit(ctx),
		Method:    fmt.Sprintf("logistic regression (L2 %g, Newton) on the records of %s, then isotonic calibration on out-of-fold probabilities (%d folds of sites); threshold for precision %g under leave-one-site-out", cfg.l2, strings.Join(cfg.methods, " and "), judgefit.DefaultFolds, cfg.precision),
		Precision: cfg.precision,
		Figures:   rep.figures(),
	}
	if cfg.model != "" {
		data, err := json.MarshalIndent(model, "", " ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(cfg.model, append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	if cfg.out != "" {
		if err := os.MkdirAll(cfg.out, 0o755); err != nil {
			return err
		}
		f, err := os.Create(filepath.Join(cfg.out, "README.md"))
		if err != nil {
			return err
		}
		rep.write(f)
		if err := f.Close(); err != nil {
			return err
		}
	}
	rep.summary(stdout)
	return nil
}

// targetLine is what fit reads of a line of targets.jsonl.gz.
type targetLine struct {
	Mode    string                       `json:"mode"`
	URI     string                       `json:"uri"`
	Site    string                       `json:"site"`
	Methods map[string]eval.MethodReport `json:"methods"`
	Moved   map[string]eval.MethodReport `json:"moved"`
	Edited  map[string]eval.MethodReport `json:"edited"`
	Deleted map[string]eval.MethodReport `json:"deleted"`
}

// readRecords reads the records of methods from the experiment's output
// in dir, with its corpus's name and seed.
func readRecords(dir string, methods []string) ([]judgefit.Record, string, uint64, error) {
	var sum struct {
		Corpus string `json:"corpus"`
		Seed   uint64 `json:"seed"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		return nil, "", 0, err
	}
	if err := json.Unmarshal(data, &sum); err != nil {
		return nil, "", 0, fmt.Errorf("%s: %w", dir, err)
	}
	f, err := os.Open(filepath.Join(dir, "targets.jsonl.gz"))
	if err != nil {
		return nil, "", 0, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, "", 0, fmt.Errorf("%s: %w", dir, err)
	}
	var out []judgefit.Record
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var l targetLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, "", 0, fmt.Errorf("%s: %w", dir, err)
		}
		byMode := map[string]map[string]eval.MethodReport{"moved": l.Moved, "edited": l.Edited, "deleted": l.Deleted}
		if l.Mode == "migrated" {
			byMode = map[string]map[string]eval.MethodReport{"migrated": l.Methods}
		}
		for mode, ms := range byMode {
			for _, name := range methods {
				mr, ok := ms[name]
				if !ok {
					continue
				}
				out = append(out, judgefit.Record{
					Corpus: sum.Corpus, Site: l.Site, Mode: mode, Method: name, URI: l.URI,
					Candidate: mr.First != "",
					Right:     mode != "deleted" && len(mr.Ranks) > 0 && mr.Ranks[0] == 1,
					Signals:   mr.Signals,
				})
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, "", 0, fmt.Errorf("%s: %w", dir, err)
	}
	if len(out) == 0 {
		return nil, "", 0, fmt.Errorf("%s: no record of %s in the moved, migrated, edited or deleted modes", dir, strings.Join(methods, ", "))
	}
	slices.SortStableFunc(out, func(a, b judgefit.Record) int {
		return strings.Compare(a.Mode+a.Method+a.URI, b.Mode+b.Method+b.URI)
	})
	return out, sum.Corpus, sum.Seed, nil
}

// ablated is one step of the signals' backward elimination.
type ablated struct {
	signal  string  // the signal left out at this step ("" for the start)
	logLoss float64 // the cross-validated log loss without it (and those before)
}

// ablationFolds is how many groups of sites the signals are checked on.
const ablationFolds = 10

// ablate leaves signals out, one at a time, while leaving one out makes
// the log loss of sites not fitted on (grouped cross-validation) lower:
// each step drops the signal whose absence helps most. It returns the
// signals kept and the steps, the start first.
func ablate(records []judgefit.Record, opts judgefit.Options, stderr io.Writer) ([]string, []ablated, error) {
	loss := func(signals []string) (float64, error) {
		o := opts
		o.Signals = signals
		js, err := judgefit.CrossValidate(records, o, ablationFolds)
		if err != nil {
			return 0, err
		}
		return judgefit.LogLoss(js), nil
	}
	kept := slices.Clone(opts.Signals)
	base, err := loss(kept)
	if err != nil {
		return nil, nil, err
	}
	steps := []ablated{{logLoss: base}}
	for len(kept) > 1 {
		best, bestLoss := "", base
		for _, s := range kept {
			l, err := loss(slices.DeleteFunc(slices.Clone(kept), func(x string) bool { return x == s }))
			if err != nil {
				return nil, nil, err
			}
			if l < bestLoss {
				best, bestLoss = s, l
			}
		}
		if best == "" {
			break
		}
		fmt.Fprintf(stderr, "fit: without %s: log loss %.5f (was %.5f)\n", best, bestLoss, base)
		kept = slices.DeleteFunc(kept, func(x string) bool { return x == best })
		steps = append(steps, ablated{signal: best, logLoss: bestLoss})
		base = bestLoss
	}
	return kept, steps, nil
}

// dump writes js as JSON lines to file.
func dump(file string, js []judgefit.Judged) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, j := range js {
		if err := enc.Encode(j); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// only returns the judged records of method.
func only(js []judgefit.Judged, method string) []judgefit.Judged {
	var out []judgefit.Judged
	for _, j := range js {
		if j.Method == method {
			out = append(out, j)
		}
	}
	return out
}

// sites returns the records' sites, sorted.
func sites(records []judgefit.Record) []string {
	var out []string
	for _, r := range records {
		if !slices.Contains(out, r.Group()) {
			out = append(out, r.Group())
		}
	}
	slices.Sort(out)
	return out
}

// commit returns the commit of the working tree, "" when git cannot tell.
func commit(ctx context.Context) string {
	out, err := exec.CommandContext(ctx, "git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
