package main

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/lab/eval"
	"github.com/linkrot/relink/score"
)

// baseline is the paper's preferred method and size, which the project's
// methods are compared with (Table 4's 4-term column).
const (
	baseline      = "1-anchor-10"
	baselineTerms = 4
)

// mode is one evaluation mode's report.
type mode struct {
	name   string // "" for the paper's mode
	title  string
	report *eval.Report
}

// modes returns the modes that ran.
func (res *results) modes() []mode {
	out := []mode{{title: "paper (the page keeps its URI)", report: res.report}}
	for _, m := range res.modeRuns {
		out = append(out, mode{name: m.name, title: modeTitles[m.name], report: m.report})
	}
	return out
}

// allRuns returns the runs of every mode, with their modes and costs.
func (res *results) allRuns() []score.Run {
	var out []score.Run
	for _, m := range res.modes() {
		for _, r := range m.report.Table.Runs() {
			r.Mode = m.name
			if c, ok := m.report.Costs[r.Method]; ok {
				c.Lookups, c.Searches, c.Fetches = round(c.Lookups, 2), round(c.Searches, 2), round(c.Fetches, 2)
				r.Cost = &c
			}
			out = append(out, r)
		}
	}
	return out
}

// compared is one row of the comparison: a method at one size.
type compared struct {
	method string
	terms  int
}

// comparedMethods returns the baseline, the paper's method without
// navigation links, and every strategy.
func comparedMethods() []compared {
	out := []compared{{baseline, baselineTerms}, {baseline + relink.NoNavSuffix, baselineTerms}}
	for _, s := range relink.Strategies() {
		out = append(out, compared{s.Name(), s.Terms()})
	}
	return append(out, compared{rulesMethod, 0}, compared{defaultRulesMethod, 0})
}

// find returns the run of method at terms in rep.
func find(rep *eval.Report, method string, terms int) (score.Run, bool) {
	for _, r := range rep.Table.Runs() {
		if r.Method == method && r.Terms == terms {
			return r, true
		}
	}
	return score.Run{}, false
}

// writeComparison writes comparison.md: every method beside the paper's
// 1-anchor-10 at 4 terms, in every mode, with its cost.
func (res *results) writeComparison(w io.Writer) error {
	fmt.Fprintf(w, "# The project's methods against the paper's: corpus %s, %d targets, seed %d\n\n", res.corpus, len(res.targets), res.seed)
	fmt.Fprintf(w, "Every method on the same targets. Δ is the difference in mean nDCG from %s at %d terms in the same mode. Answered is the share of targets whose answer's confidence reached the threshold (relink.DefaultThreshold), precision the share of those whose first candidate is the page; in the deleted mode every answer is a false suggestion. Cost per target: backlink lookups, search queries, page fetches (backlink pages and their soft-404 probes, and candidate pages for rerank-fetch). Methods marked archive read an archived copy of the page and are kept apart: the others need none.\n\n", baseline, baselineTerms)
	strategies := map[string]relink.Strategy{}
	for _, s := range relink.Strategies() {
		strategies[s.Name()] = s
	}
	for _, m := range res.modes() {
		base, ok := find(m.report, baseline, baselineTerms)
		if !ok {
			continue
		}
		fmt.Fprintf(w, "## Mode: %s\n\n", m.title)
		fmt.Fprintln(w, "| method | terms | archive | mean nDCG | Δ | rank 1 | top 10 | MRR | answered | precision | lookups | searches | fetches |")
		fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|")
		for _, c := range comparedMethods() {
			r, ok := find(m.report, c.method, c.terms)
			if !ok {
				continue
			}
			archive := ""
			if s := strategies[c.method]; s != nil && s.Needs().Archive {
				archive = "yes"
			}
			cost := m.report.Costs[c.method]
			answered, precision := "", ""
			if a := r.Answer; a != nil {
				answered = fmt.Sprintf("%.1f%%", 100*a.Answered)
				if a.Answered > 0 && m.name != "deleted" {
					precision = fmt.Sprintf("%.3f", a.Correct/a.Answered)
				}
			}
			fmt.Fprintf(w, "| %s | %d | %s | %.3f | %+.3f | %.1f%% | %.1f%% | %.3f | %s | %s | %.2f | %.2f | %.2f |\n",
				c.method, c.terms, archive, r.MeanNDCG, r.MeanNDCG-base.MeanNDCG, 100*r.SuccessAt1, 100*r.SuccessAt10, r.MRR,
				answered, precision, cost.Lookups, cost.Searches, cost.Fetches)
		}
		fmt.Fprintln(w)
	}
	_, err := fmt.Fprintf(w, "Best method without an archived copy: %s (relink.Best()).\n", relink.Best().Name())
	return err
}

// writeComparisonFigure draws the mean nDCG of every compared method, one
// bar per mode, as figures/comparison.svg and .png.
func (res *results) writeComparisonFigure(dir string) error {
	methods := comparedMethods()
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Mean nDCG by method (%d targets; %s at %d terms is the paper's)", len(res.targets), baseline, baselineTerms)
	p.Y.Label.Text = "Mean nDCG"
	p.Y.Min, p.Y.Max = 0, 1.25 // room for the legend above the bars
	p.Add(plotter.NewGrid())
	modes := res.modes()
	width := vg.Points(12)
	colors := []color.Color{color.RGBA{R: 31, G: 119, B: 180, A: 255}, color.RGBA{R: 255, G: 127, B: 14, A: 255}, color.RGBA{R: 44, G: 160, B: 44, A: 255}}
	for i, m := range modes {
		vals := make(plotter.Values, len(methods))
		for j, c := range methods {
			if r, ok := find(m.report, c.method, c.terms); ok {
				vals[j] = r.MeanNDCG
			}
		}
		bars, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return err
		}
		bars.Color = colors[i%len(colors)]
		bars.LineStyle.Width = 0
		bars.Offset = width * vg.Length(2*i-len(modes)+1) / 2
		p.Add(bars)
		name := m.name
		if name == "" {
			name = "paper"
		}
		p.Legend.Add(name+" mode", bars)
	}
	p.Legend.Top, p.Legend.Left = true, true // above the paper's method, the lowest bars at the top
	names := make([]string, len(methods))
	for i, c := range methods {
		names[i] = c.method
		if c.terms > 0 && c.method == baseline {
			names[i] += "@" + strconv.Itoa(c.terms)
		}
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.6, float64(len(methods))-0.4 // room for the outer bars
	// Labels slanted down to the left, each ending under its own bars.
	p.X.Tick.Label.Rotation = math.Pi / 5
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	for _, ext := range []string{".svg", ".png"} {
		if err := p.Save(10*vg.Inch, 5*vg.Inch, filepath.Join(dir, "comparison"+ext)); err != nil {
			return fmt.Errorf("figure comparison%s: %w", ext, err)
		}
	}
	return nil
}
