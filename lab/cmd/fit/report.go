package main

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/lab/judgefit"
)

// report is what fit found, to write.
type report struct {
	cfg      *config
	records  []judgefit.Record
	loso     []judgefit.Judged // each site judged by a model that never saw it
	all      []judgefit.Judged // every record judged by the model fitted on all
	model    *relink.Model
	ablation []ablated
	corpora  []string
}

// filter returns the judged records that keep holds.
func filter(js []judgefit.Judged, keep func(judgefit.Judged) bool) []judgefit.Judged {
	var out []judgefit.Judged
	for _, j := range js {
		if keep(j) {
			out = append(out, j)
		}
	}
	return out
}

// of returns the judged records of method in mode ("" for every mode) and
// corpus ("" for every corpus).
func of(js []judgefit.Judged, method, mode, corpus string) []judgefit.Judged {
	return filter(js, func(j judgefit.Judged) bool {
		return j.Method == method && (mode == "" || j.Mode == mode) && (corpus == "" || j.Corpus == corpus)
	})
}

// figures are the provenance's figures: the default method's, under
// leave-one-site-out and for the fit on every site.
func (r *report) figures() map[string]float64 {
	out := map[string]float64{}
	m := r.cfg.methods[0]
	round := func(x float64) float64 { return math.Round(x*10000) / 10000 }
	for _, set := range []struct {
		name string
		js   []judgefit.Judged
	}{{"loso", r.loso}, {"all", r.all}} {
		for _, mode := range modes {
			f := judgefit.At(of(set.js, m, mode, ""), r.model.Threshold)
			if f.Targets == 0 {
				continue
			}
			out[set.name+"."+mode+".answered"] = round(f.Answered)
			if mode != "deleted" {
				out[set.name+"."+mode+".precision"] = round(f.Precision)
			}
			out[set.name+"."+mode+".ece"] = round(f.ECE)
		}
		out[set.name+".ece"] = round(judgefit.ECE(of(set.js, m, "", "")))
	}
	return out
}

// summary prints the default method's figures per mode.
func (r *report) summary(w io.Writer) {
	fmt.Fprintf(w, "threshold %.2f (precision %.3g on sites never seen)\n", r.model.Threshold, r.cfg.precision)
	r.modeTable(w, r.cfg.methods[0], "")
}

// modeTable writes the figures of method per mode, leave-one-site-out and
// fitted on every site, for corpus ("" for all).
func (r *report) modeTable(w io.Writer, method, corpus string) {
	fmt.Fprintln(w, "| mode | targets | first is right | answered (never seen) | precision (never seen) | ECE (never seen) | answered (fit on all) | precision (fit on all) | ECE (fit on all) |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, mode := range modes {
		l := judgefit.At(of(r.loso, method, mode, corpus), r.model.Threshold)
		a := judgefit.At(of(r.all, method, mode, corpus), r.model.Threshold)
		if l.Targets == 0 {
			continue
		}
		prec := func(f judgefit.Figures) string {
			if mode == "deleted" {
				return "–"
			}
			return fmt.Sprintf("%.3f", f.Precision)
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %.3f | %s | %s | %.3f |\n", mode, l.Targets, pct(l.RightFirst), pct(l.Answered), prec(l), l.ECE, pct(a.Answered), prec(a), a.ECE)
	}
	l := judgefit.At(of(r.loso, method, "", corpus), r.model.Threshold)
	a := judgefit.At(of(r.all, method, "", corpus), r.model.Threshold)
	fmt.Fprintf(w, "| every mode | %d | %s | %s | %.3f | %.3f | %s | %.3f | %.3f |\n", l.Targets, pct(l.RightFirst), pct(l.Answered), l.Precision, l.ECE, pct(a.Answered), a.Precision, a.ECE)
	fmt.Fprintln(w)
}

func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// write writes README.md.
func (r *report) write(w io.Writer) {
	m := r.cfg.methods[0]
	p := r.model.Provenance
	fmt.Fprintf(w, "# The judge: fitted on %s, checked on sites it never saw\n\n", strings.Join(r.corpora, ", "))
	fmt.Fprintf(w, "Written by `lab/cmd/fit` on %s at commit %s from %d records (%d sites; targets drawn with seed %d; modes %s) of the methods %s. ",
		p.Date, p.Commit, p.Records, p.Sites, p.Seed, strings.Join(p.Modes, ", "), strings.Join(r.cfg.methods, " and "))
	fmt.Fprintf(w, "%s. A record is one target's answer in one mode; it is right when its first candidate is the page (never, in the deleted mode, where every answer is a false suggestion). ", p.Method)
	fmt.Fprintf(w, "*Never seen* judges each site with a model fitted, and calibrated, on every other site (leave one site out); *fit on all* is the model `judge.json` holds. The threshold, **%.2f**, is the least at which the never-seen answers of %s are right at precision %g.\n\n", r.model.Threshold, m, r.cfg.precision)

	fmt.Fprintf(w, "## %s, every corpus\n\n", m)
	r.modeTable(w, m, "")
	for _, other := range r.cfg.methods[1:] {
		fmt.Fprintf(w, "## %s, every corpus\n\n", other)
		r.modeTable(w, other, "")
	}
	fmt.Fprintf(w, "## %s, per corpus\n\n", m)
	for _, c := range r.corpora {
		fmt.Fprintf(w, "### %s\n\n", c)
		r.modeTable(w, m, c)
	}
	r.siteTable(w, m)
	r.reliability(w, m)
	r.weights(w)
	r.ablationTable(w)
}

// siteTable writes the never-seen figures of method per site.
func (r *report) siteTable(w io.Writer, method string) {
	fmt.Fprintf(w, "## %s, per site, never seen\n\n", method)
	fmt.Fprintln(w, "Answered / precision of the moved, migrated and edited targets, and the deleted targets' false suggestions, each site judged by a model fitted on the others.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| site | moved | migrated | edited | deleted: false suggestions |")
	fmt.Fprintln(w, "|---|---|---|---|---:|")
	for _, site := range sites(r.records) {
		var cells []string
		for _, mode := range modes {
			js := filter(r.loso, func(j judgefit.Judged) bool { return j.Method == method && j.Mode == mode && j.Group() == site })
			f := judgefit.At(js, r.model.Threshold)
			switch {
			case f.Targets == 0:
				cells = append(cells, "")
			case mode == "deleted":
				cells = append(cells, fmt.Sprintf("%s of %d", pct(f.Answered), f.Targets))
			default:
				cells = append(cells, fmt.Sprintf("%s / %.2f of %d", pct(f.Answered), f.Precision, f.Targets))
			}
		}
		fmt.Fprintf(w, "| %s | %s |\n", site, strings.Join(cells, " | "))
	}
	fmt.Fprintln(w)
}

// reliability writes the reliability diagrams of method, never seen, per
// mode and per corpus.
func (r *report) reliability(w io.Writer, method string) {
	fmt.Fprintf(w, "## Reliability of %s's confidence, never seen\n\n", method)
	fmt.Fprintln(w, "Each cell: the share right of the answers whose confidence is in the bin, and their number. A calibrated judge has each share within the bin.")
	fmt.Fprintln(w)
	head := "| set | ECE |"
	rule := "|---|---:|"
	for i := range 10 {
		head += fmt.Sprintf(" %.1f–%.1f |", float64(i)/10, float64(i+1)/10)
		rule += "---|"
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, rule)
	row := func(name string, js []judgefit.Judged) {
		if len(js) == 0 {
			return
		}
		fmt.Fprintf(w, "| %s | %.3f |", name, judgefit.ECE(js))
		for _, b := range judgefit.Reliability(js) {
			if b.Answers == 0 {
				fmt.Fprint(w, " |")
				continue
			}
			fmt.Fprintf(w, " %.2f (%d) |", b.Right, b.Answers)
		}
		fmt.Fprintln(w)
	}
	for _, mode := range modes {
		row(mode, of(r.loso, method, mode, ""))
	}
	for _, c := range r.corpora {
		for _, mode := range modes {
			row(c+", "+mode, of(r.loso, method, mode, c))
		}
	}
	fmt.Fprintln(w)
}

// weights writes the model's weights.
func (r *report) weights(w io.Writer) {
	fmt.Fprintln(w, "## The model fitted on every site")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Bias %.3f. Weights, the log-odds a signal adds per unit (signals are 0 or 1 unless the README says otherwise):\n\n", r.model.Bias)
	fmt.Fprintln(w, "| signal | weight | records with it |")
	fmt.Fprintln(w, "|---|---:|---:|")
	names := slices.Sorted(maps.Keys(r.model.Weights))
	slices.SortStableFunc(names, func(a, b string) int { return cmpAbs(r.model.Weights[b], r.model.Weights[a]) })
	for _, n := range names {
		count := 0
		for _, rec := range r.records {
			if rec.Signals[n] != 0 {
				count++
			}
		}
		fmt.Fprintf(w, "| %s | %+.3f | %d |\n", n, r.model.Weights[n], count)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Calibration: %d points, from %.3f → %.3f to %.3f → %.3f.\n\n", len(r.model.Calibration), first(r.model.Calibration).Raw, first(r.model.Calibration).Right, last(r.model.Calibration).Raw, last(r.model.Calibration).Right)
}

// ablationTable writes the signals' backward elimination.
func (r *report) ablationTable(w io.Writer) {
	if len(r.ablation) == 0 {
		return
	}
	fmt.Fprintln(w, "## Each signal on sites it was not fitted on")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "A signal stays only if it helps sites it was not fitted on. Starting from every signal (log loss %.5f over %d groups of sites, each judged by a regression fitted on the others), each step leaves out the signal whose absence lowers that log loss most, until leaving any out makes it higher.\n\n", r.ablation[0].logLoss, ablationFolds)
	if len(r.ablation) == 1 {
		fmt.Fprintln(w, "Every signal helps: none was left out.")
		fmt.Fprintln(w)
		return
	}
	fmt.Fprintln(w, "| step | signal left out | log loss after |")
	fmt.Fprintln(w, "|---:|---|---:|")
	for i, a := range r.ablation[1:] {
		fmt.Fprintf(w, "| %d | %s | %.5f |\n", i+1, a.signal, a.logLoss)
	}
	fmt.Fprintln(w)
}

func cmpAbs(a, b float64) int {
	switch {
	case math.Abs(a) < math.Abs(b):
		return -1
	case math.Abs(a) > math.Abs(b):
		return 1
	}
	return 0
}

func first(p []relink.CalibrationPoint) relink.CalibrationPoint {
	if len(p) == 0 {
		return relink.CalibrationPoint{}
	}
	return p[0]
}

func last(p []relink.CalibrationPoint) relink.CalibrationPoint {
	if len(p) == 0 {
		return relink.CalibrationPoint{}
	}
	return p[len(p)-1]
}
