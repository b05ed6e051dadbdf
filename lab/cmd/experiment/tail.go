package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/linkrot/relink/lab/eval"
	"github.com/linkrot/relink/lab/internal/stats"
)

// slowestTargets is how many of each mode's slowest targets summary.json
// lists.
const slowestTargets = 10

// slowTarget is one of the slowest targets of a mode in summary.json:
// its wall time, by stage, and what it did (eval.TargetCost), the times
// rounded to the millisecond.
type slowTarget struct {
	// Mode is the evaluation mode, "paper" for the paper's.
	Mode string `json:"mode"`
	URI  string `json:"uri"`
	eval.TargetCost
}

// spread is the distribution of the targets' wall times of one mode, in
// seconds: the median, the 90th and 99th percentiles and the largest.
type spread struct {
	Targets int     `json:"targets"`
	Median  float64 `json:"median"`
	P90     float64 `json:"p90"`
	P99     float64 `json:"p99"`
	Max     float64 `json:"max"`
}

// modeReport is a mode's name and report, the paper's first.
type modeReport struct {
	name   string
	report *eval.Report
}

// modeReports returns the report of every mode that ran, the paper's
// first.
func (res *results) modeReports() []modeReport {
	out := []modeReport{{"paper", res.report}}
	for _, m := range res.modeRuns {
		out = append(out, modeReport{m.name, m.report})
	}
	return out
}

// slowest returns the slowest targets of every mode, slowest first within
// each mode.
func (res *results) slowest() []slowTarget {
	var out []slowTarget
	for _, m := range res.modeReports() {
		ts := slices.Clone(m.report.Targets)
		slices.SortStableFunc(ts, func(a, b eval.TargetReport) int { return cmp.Compare(b.Cost.Seconds, a.Cost.Seconds) })
		for _, t := range ts[:min(len(ts), slowestTargets)] {
			c := t.Cost
			c.Seconds, c.CPUSeconds = round(c.Seconds, 3), round(c.CPUSeconds, 3)
			st := &c.Stages
			st.Clues, st.Signatures, st.Search, st.Judge = round(st.Clues, 3), round(st.Signatures, 3), round(st.Search, 3), round(st.Judge, 3)
			out = append(out, slowTarget{Mode: m.name, URI: t.URI, TargetCost: c})
		}
	}
	return out
}

// spreads returns the distribution of the targets' wall times of every
// mode, by mode name.
func (res *results) spreads() map[string]spread {
	out := map[string]spread{}
	for _, m := range res.modeReports() {
		secs := make([]float64, len(m.report.Targets))
		for i, t := range m.report.Targets {
			secs[i] = t.Cost.Seconds
		}
		out[m.name] = spread{
			Targets: len(secs),
			Median:  round(stats.Quantile(secs, 0.5), 3),
			P90:     round(stats.Quantile(secs, 0.9), 3),
			P99:     round(stats.Quantile(secs, 0.99), 3),
			Max:     round(stats.Quantile(secs, 1), 3),
		}
	}
	return out
}

// printTail writes each mode's distribution of target times and its
// slowest target.
func (res *results) printTail(w io.Writer) error {
	spreads := res.spreads()
	slow := res.slowest()
	for _, m := range res.modeReports() {
		s := spreads[m.name]
		line := fmt.Sprintf("target seconds, %s mode: median %.2f, p90 %.2f, p99 %.2f, max %.2f", m.name, s.Median, s.P90, s.P99, s.Max)
		if i := slices.IndexFunc(slow, func(t slowTarget) bool { return t.Mode == m.name }); i >= 0 {
			t := slow[i]
			line += fmt.Sprintf(" (%s: clues %.2f, signatures %.2f, search %.2f, judge %.2f; %d pages parsed, %d again)",
				t.URI, t.Stages.Clues, t.Stages.Signatures, t.Stages.Search, t.Stages.Judge, t.Parsed, t.Reparsed)
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}
