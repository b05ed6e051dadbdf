// Command bysize compares runs of the experiment on the same targets inside
// indexes of growing size: it reads each run's summary.json (and its
// targets.jsonl, when there is one), and writes the mean nDCG of the
// paper's method and of the library's default method by index size, as a
// Markdown table and a figure.
//
// Usage:
//
//	bysize [-out DIR] [-method NAME:TERMS]... [LABEL=]RUNDIR...
//
// Each RUNDIR is the -out directory of an experiment run, the smallest
// index first; the runs should have drawn the same targets (experiment
// -draw). LABEL names the index in the table and the figure (default: the
// summary's corpus). It writes into DIR:
//
//   - bysize.md: for each index (corpus and pages), the mean nDCG and the
//     share found at rank 1 of each method, and, when the runs' targets
//     are at hand, how many targets each method ranks lower than in the
//     smallest index;
//   - bysize.json: the same numbers;
//   - bysize.svg and bysize.png: mean nDCG against the index's pages, one
//     line per method.
//
// The methods are the paper's 1-anchor-10 at 4 terms and the run marked
// default (relink.Default), in the paper's mode, unless -method names
// others.
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/linkrot/relink/score"
)

// method names one line of the comparison: a method at a signature size,
// or the default method (default true, name and terms then come from the
// run marked default).
type method struct {
	name   string
	terms  int
	isDflt bool
}

// summary is the part of an experiment's summary.json that bysize reads.
type summary struct {
	Corpus  string      `json:"corpus"`
	Targets int         `json:"targets"`
	Seed    uint64      `json:"seed"`
	Pages   int         `json:"pages"`
	Runs    []score.Run `json:"runs"`
}

// Index is one run's results, in bysize.json.
type Index struct {
	// Dir is the run's directory, and Label the index's name in the table
	// (the corpus unless the command line gave one).
	Dir   string `json:"dir"`
	Label string `json:"label"`
	// Corpus, Pages, Targets and Seed are the run's summary's.
	Corpus  string `json:"corpus"`
	Pages   int    `json:"pages"`
	Targets int    `json:"targets"`
	Seed    uint64 `json:"seed"`
	// Methods has one entry per compared method, in order.
	Methods []Result `json:"methods"`
}

// Result is one method's outcome in one index.
type Result struct {
	// Method is the method's name and Terms its signature size.
	Method string `json:"method"`
	Terms  int    `json:"terms"`
	// MeanNDCG and SuccessAt1 are the run's (score.Run).
	MeanNDCG   float64 `json:"mean_ndcg"`
	SuccessAt1 float64 `json:"success_at_1"`
	// Lower and Higher count the targets the method ranks lower and
	// higher than in the first index; nil without the targets' lines.
	Lower  *int `json:"lower,omitempty"`
	Higher *int `json:"higher,omitempty"`
}

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "bysize:", err)
		os.Exit(1)
	}
}

// run parses args, reads the runs and writes the table and the figure.
func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bysize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", ".", "`DIR`ectory to write bysize.md, bysize.json and the figure into")
	var methods []method
	fs.Func("method", "a method to compare, `NAME:TERMS` (\"1-anchor-10:4\") or \"default\"; repeatable (default 1-anchor-10:4 and default)", func(s string) error {
		m, err := parseMethod(s)
		if err == nil {
			methods = append(methods, m)
		}
		return err
	})
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bysize [-out DIR] [-method NAME:TERMS]... [LABEL=]RUNDIR...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errors.New("no run directory")
	}
	if len(methods) == 0 {
		methods = []method{{name: "1-anchor-10", terms: 4}, {isDflt: true}}
	}
	indexes, err := compare(fs.Args(), methods)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	raw, err := json.MarshalIndent(indexes, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*out, "bysize.json"), append(raw, '\n'), 0o644); err != nil {
		return err
	}
	md := table(indexes)
	if err := os.WriteFile(filepath.Join(*out, "bysize.md"), []byte(md), 0o644); err != nil {
		return err
	}
	if err := figure(indexes, filepath.Join(*out, "bysize")); err != nil {
		return err
	}
	_, err = io.WriteString(stdout, md)
	return err
}

// parseMethod parses a -method value.
func parseMethod(s string) (method, error) {
	if s == "default" {
		return method{isDflt: true}, nil
	}
	name, terms, ok := strings.Cut(s, ":")
	n, err := strconv.Atoi(terms)
	if !ok || name == "" || err != nil || n < 1 {
		return method{}, fmt.Errorf("-method %q: want NAME:TERMS or default", s)
	}
	return method{name: name, terms: n}, nil
}

// compare reads the runs in dirs and returns each one's results for the
// methods.
func compare(dirs []string, methods []method) ([]Index, error) {
	var (
		out   []Index
		first []map[string]int // the first index's ranks, by method, by target
	)
	for i, arg := range dirs {
		label, dir, ok := strings.Cut(arg, "=")
		if !ok {
			label, dir = "", arg
		}
		raw, err := os.ReadFile(filepath.Join(dir, "summary.json"))
		if err != nil {
			return nil, err
		}
		var sum summary
		if err := json.Unmarshal(raw, &sum); err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		if label == "" {
			label = sum.Corpus
		}
		idx := Index{Dir: dir, Label: label, Corpus: sum.Corpus, Pages: sum.Pages, Targets: sum.Targets, Seed: sum.Seed}
		ms := make([]method, len(methods))
		for j, m := range methods {
			r, err := find(sum.Runs, m)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", dir, err)
			}
			ms[j] = method{name: r.Method, terms: r.Terms}
			idx.Methods = append(idx.Methods, Result{Method: r.Method, Terms: r.Terms, MeanNDCG: r.MeanNDCG, SuccessAt1: r.SuccessAt1})
		}
		ranks, err := targetRanks(filepath.Join(dir, "targets.jsonl"), ms)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		if i == 0 {
			first = ranks
		} else if ranks != nil && first != nil {
			for j := range ms {
				lower, higher := 0, 0
				for uri, r := range ranks[j] {
					was, ok := first[j][uri]
					switch {
					case !ok:
					case worse(r, was):
						lower++
					case worse(was, r):
						higher++
					}
				}
				idx.Methods[j].Lower, idx.Methods[j].Higher = &lower, &higher
			}
		}
		out = append(out, idx)
	}
	return out, nil
}

// find returns m's run in the paper's mode.
func find(runs []score.Run, m method) (score.Run, error) {
	for _, r := range runs {
		if r.Mode != "" {
			continue
		}
		if (m.isDflt && r.Default) || (!m.isDflt && r.Method == m.name && r.Terms == m.terms) {
			return r, nil
		}
	}
	if m.isDflt {
		return score.Run{}, errors.New("no run marked default in the paper's mode")
	}
	return score.Run{}, fmt.Errorf("no run of %s at %d terms in the paper's mode", m.name, m.terms)
}

// worse reports whether rank a is worse than rank b (0: not found).
func worse(a, b int) bool {
	if a == 0 {
		return b != 0
	}
	return b != 0 && a > b
}

// targetLine is the part of a line of targets.jsonl that bysize reads.
type targetLine struct {
	URI     string                           `json:"uri"`
	Sizes   []int                            `json:"sizes"`
	Methods map[string]struct{ Ranks []int } `json:"methods"`
}

// targetRanks reads each target's rank for each method from the
// targets.jsonl at path, or from path+".gz" as the experiment writes it; a
// run with neither (scale.sh keeps only summaries) gives nil, no error.
func targetRanks(path string, ms []method) ([]map[string]int, error) {
	r, err := openTargets(path)
	if r == nil || err != nil {
		return nil, err
	}
	defer r.Close()
	out := make([]map[string]int, len(ms))
	for j := range out {
		out[j] = map[string]int{}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var l targetLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, err
		}
		for j, m := range ms {
			ranks := l.Methods[m.name].Ranks
			switch {
			case len(ranks) == 1: // a strategy: one size
				out[j][l.URI] = ranks[0]
			default:
				for k, size := range l.Sizes {
					if size == m.terms && k < len(ranks) {
						out[j][l.URI] = ranks[k]
					}
				}
			}
		}
	}
	return out, sc.Err()
}

// openTargets opens the targets.jsonl at path, or else path+".gz" and
// its gzip stream; nil, and no error, when there is neither.
func openTargets(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err == nil {
		return f, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	f, err = os.Open(path + ".gz")
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s.gz: %w", path, err)
	}
	return gzipFile{zr, f}, nil
}

// gzipFile is a gzip stream that closes its file too.
type gzipFile struct {
	*gzip.Reader
	f *os.File
}

// Close closes the stream and the file.
func (g gzipFile) Close() error {
	return errors.Join(g.Reader.Close(), g.f.Close())
}

// table returns the comparison as Markdown.
func table(indexes []Index) string {
	var b strings.Builder
	b.WriteString("| index | pages | targets |")
	for _, r := range indexes[0].Methods {
		fmt.Fprintf(&b, " %s: mean nDCG | rank 1 |", label(r))
	}
	b.WriteString("\n|---|---|---|")
	for range indexes[0].Methods {
		b.WriteString("---|---|")
	}
	b.WriteString("\n")
	for _, idx := range indexes {
		fmt.Fprintf(&b, "| %s | %d | %d |", idx.Label, idx.Pages, idx.Targets)
		for _, r := range idx.Methods {
			fmt.Fprintf(&b, " %.3f | %.1f%% |", r.MeanNDCG, 100*r.SuccessAt1)
		}
		b.WriteString("\n")
	}
	if len(indexes) > 1 && indexes[1].Methods[0].Lower != nil {
		fmt.Fprintf(&b, "\nTargets ranked lower (higher) than in %s:\n\n| index |", indexes[0].Label)
		for _, r := range indexes[0].Methods {
			fmt.Fprintf(&b, " %s |", label(r))
		}
		b.WriteString("\n|---|")
		for range indexes[0].Methods {
			b.WriteString("---|")
		}
		b.WriteString("\n")
		for _, idx := range indexes[1:] {
			fmt.Fprintf(&b, "| %s |", idx.Label)
			for _, r := range idx.Methods {
				if r.Lower == nil {
					b.WriteString(" |")
					continue
				}
				fmt.Fprintf(&b, " %d (%d) |", *r.Lower, *r.Higher)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// label names a result's method in the table and the legend.
func label(r Result) string {
	return fmt.Sprintf("%s, %d terms", r.Method, r.Terms)
}

// figure draws mean nDCG against the index's pages, one line per method,
// as SVG and PNG at base.
func figure(indexes []Index, base string) error {
	p := plot.New()
	p.Title.Text = "The same targets inside larger indexes"
	p.X.Label.Text = "Pages in the index"
	p.Y.Label.Text = "Mean nDCG"
	n := len(indexes[0].Methods)
	p.Y.Min, p.Y.Max = 0, 1+0.06*float64(n+1)
	var yTicks []plot.Tick
	for v := 0.0; v <= 1.001; v += 0.2 {
		yTicks = append(yTicks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 1, 64)})
	}
	p.Y.Tick.Marker = plot.ConstantTicks(yTicks)
	var ticks []plot.Tick
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, idx := range indexes {
		x := float64(idx.Pages)
		lo, hi = min(lo, x), max(hi, x)
		ticks = append(ticks, plot.Tick{Value: x, Label: fmt.Sprintf("%s\n%d", idx.Label, idx.Pages)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = lo-0.05*(hi-lo+1), hi+0.05*(hi-lo+1)
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	for j := range n {
		var pts plotter.XYs
		for _, idx := range indexes {
			pts = append(pts, plotter.XY{X: float64(idx.Pages), Y: idx.Methods[j].MeanNDCG})
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		c := plotutil.Color(j)
		line.Color, line.Width, line.Dashes = c, vg.Points(1.2), plotutil.Dashes(j%3)
		points.GlyphStyle = draw.GlyphStyle{Color: c, Shape: plotutil.Shape(j), Radius: vg.Points(3)}
		p.Add(line, points)
		p.Legend.Add(label(indexes[0].Methods[j]), line, points)
	}
	for _, ext := range []string{".svg", ".png"} {
		if err := p.Save(7*vg.Inch, 4.5*vg.Inch, base+ext); err != nil {
			return fmt.Errorf("figure %s: %w", base+ext, err)
		}
	}
	return nil
}
