// Package judgefit fits the judge (relink.Model) to the experiment's
// per-target records and checks it on sites it never saw.
//
// A Record is one answer of the default method: the signals the judge saw
// of its first candidate (relink.Result.Signals) and whether that
// candidate was the page. Fit fits a logistic regression to records, with
// an L2 penalty, by Newton's method; Isotonic fits the calibration that
// maps its probability to the share of answers that were right (pool
// adjacent violators); LeaveOneOut judges each site by a model fitted on
// every other site, calibration included, so that its figures are those of
// sites the model never saw. ECE measures how far confidences are from the
// shares right.
package judgefit

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"

	"github.com/linkrot/relink"
)

// Record is one target's answer in one mode.
type Record struct {
	// Corpus and Site name where the target is: a site is left out of
	// its own fit by its corpus and name together.
	Corpus string `json:"corpus"`
	Site   string `json:"site"`
	// Mode is the experiment's mode (moved, migrated, edited, deleted);
	// Method the strategy's name.
	Mode   string `json:"mode"`
	Method string `json:"method"`
	URI    string `json:"uri"`
	// Candidate says there was a first candidate; without one the
	// confidence is 0 and the record is left out of the fit.
	Candidate bool `json:"candidate"`
	// Right says the first candidate is the page (never in the deleted
	// mode).
	Right bool `json:"right"`
	// Signals are the judge's signals of the first candidate.
	Signals map[string]float64 `json:"signals"`
}

// Group returns the record's site, with its corpus: the unit left out.
func (r Record) Group() string { return r.Corpus + "/" + r.Site }

// Options are a fit's settings.
type Options struct {
	// Signals are the terms fitted, in order: signals' names, or names
	// joined by "*" for their product (relink.Term); nil means every
	// signal the records hold.
	Signals []string
	// L2 is the penalty on the squared weights (not on the bias); zero
	// means DefaultL2.
	L2 float64
	// Folds is how many groups of sites the inner fits that calibrate a
	// model leave out in turn; zero means DefaultFolds.
	Folds int
}

// DefaultL2 is the default penalty: small enough that a signal that is on
// in a few dozen answers still counts, large enough that a signal that
// always agrees with the answer gets a finite weight. Of 0.1, 0.3, 1, 3
// and 10, 3 gave the most answers at precision 0.99 under
// leave-one-site-out on the corpora holdout and holdout2.
const DefaultL2 = 3.0

// DefaultFolds is the default number of inner folds of a calibration.
const DefaultFolds = 5

// ErrNoRecords is returned when there is nothing to fit.
var ErrNoRecords = errors.New("judgefit: no record with a candidate")

// SignalNames returns the names of the signals records hold, sorted.
func SignalNames(records []Record) []string {
	set := map[string]bool{}
	for _, r := range records {
		for name := range r.Signals {
			set[name] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// Fit fits the regression of the records with a candidate and returns it
// as a Model without calibration.
func Fit(records []Record, opts Options) (*relink.Model, error) {
	names := opts.Signals
	if names == nil {
		names = SignalNames(records)
	}
	// Records with the same signals are one point of the fit, weighed
	// by their number: most signals are 0 or 1, so thousands of records
	// make a few hundred points.
	type point struct {
		x        []float64
		n, right float64
	}
	points := map[string]*point{}
	var order []string
	for _, r := range records {
		if !r.Candidate {
			continue
		}
		x := make([]float64, len(names)+1)
		x[0] = 1
		for i, n := range names {
			x[i+1] = relink.Term(r.Signals, n)
		}
		key := fmt.Sprint(x)
		p := points[key]
		if p == nil {
			p = &point{x: x}
			points[key] = p
			order = append(order, key)
		}
		p.n++
		p.right += b2f(r.Right)
	}
	if len(points) == 0 {
		return nil, ErrNoRecords
	}
	xs, ns, rights := make([][]float64, len(order)), make([]float64, len(order)), make([]float64, len(order))
	for i, k := range order {
		xs[i], ns[i], rights[i] = points[k].x, points[k].n, points[k].right
	}
	w, err := newton(xs, ns, rights, cmpOr(opts.L2, DefaultL2))
	if err != nil {
		return nil, err
	}
	m := &relink.Model{Bias: w[0], Weights: map[string]float64{}}
	for i, n := range names {
		if w[i+1] != 0 {
			m.Weights[n] = w[i+1]
		}
	}
	return m, nil
}

// FitCalibrated fits the regression on records, and its calibration on
// the records' out-of-fold probabilities: the sites split into Folds
// groups, each judged by a regression fitted on the others.
func FitCalibrated(records []Record, opts Options) (*relink.Model, error) {
	m, err := Fit(records, opts)
	if err != nil {
		return nil, err
	}
	groups := groupsOf(records)
	folds := min(cmpOr(opts.Folds, DefaultFolds), len(groups))
	var raw, right []float64
	for k := range folds {
		var train, test []Record
		for _, r := range records {
			if groups[r.Group()]%folds == k {
				test = append(test, r)
			} else {
				train = append(train, r)
			}
		}
		fm, err := Fit(train, opts)
		if errors.Is(err, ErrNoRecords) {
			continue
		} else if err != nil {
			return nil, err
		}
		for _, r := range test {
			if r.Candidate {
				raw = append(raw, sigmoid(fm.Logit(r.Signals)))
				right = append(right, b2f(r.Right))
			}
		}
	}
	m.Calibration = Isotonic(raw, right)
	return m, nil
}

// Judged is a record with the confidence a model gave it.
type Judged struct {
	Record
	Confidence float64 `json:"confidence"`
}

// CrossValidate judges the records of each of folds groups of sites (the
// sites in sorted order, dealt in turn) by the regression (Fit, without
// calibration) fitted on the other groups, and returns them in the order
// given: LeaveOneOut's check at a fraction of its cost, for choosing
// signals (the calibration, which keeps the order of the probabilities,
// changes little of which signals help).
func CrossValidate(records []Record, opts Options, folds int) ([]Judged, error) {
	if opts.Signals == nil {
		opts.Signals = SignalNames(records)
	}
	groups := groupsOf(records)
	folds = min(folds, len(groups))
	out := make([]Judged, len(records))
	for k := range folds {
		var train []Record
		for _, r := range records {
			if groups[r.Group()]%folds != k {
				train = append(train, r)
			}
		}
		m, err := Fit(train, opts)
		if err != nil {
			return nil, fmt.Errorf("judgefit: without fold %d: %w", k, err)
		}
		for i, r := range records {
			if groups[r.Group()]%folds == k {
				out[i] = Judge(m, r)
			}
		}
	}
	return out, nil
}

// LogLoss returns the mean log loss of the judged records with a
// candidate (confidences clamped to [1e-6, 1-1e-6]), 0 without any.
func LogLoss(js []Judged) float64 {
	sum, n := 0.0, 0
	for _, j := range js {
		if !j.Candidate {
			continue
		}
		p := min(max(j.Confidence, 1e-6), 1-1e-6)
		if j.Right {
			sum -= math.Log(p)
		} else {
			sum -= math.Log(1 - p)
		}
		n++
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// LeaveOneOut judges the records of each site by a calibrated model
// (FitCalibrated) fitted on every other site's, and returns them in the
// order given.
func LeaveOneOut(records []Record, opts Options) ([]Judged, error) {
	if opts.Signals == nil {
		opts.Signals = SignalNames(records)
	}
	bySite := map[string][]int{}
	for i, r := range records {
		bySite[r.Group()] = append(bySite[r.Group()], i)
	}
	out := make([]Judged, len(records))
	for _, site := range slices.Sorted(maps.Keys(bySite)) {
		var train []Record
		for _, r := range records {
			if r.Group() != site {
				train = append(train, r)
			}
		}
		m, err := FitCalibrated(train, opts)
		if err != nil {
			return nil, fmt.Errorf("judgefit: without %s: %w", site, err)
		}
		for _, i := range bySite[site] {
			out[i] = Judge(m, records[i])
		}
	}
	return out, nil
}

// Judge returns r with the confidence m gives it: 0 without a candidate.
func Judge(m *relink.Model, r Record) Judged {
	j := Judged{Record: r}
	if r.Candidate {
		j.Confidence = m.Confidence(r.Signals)
	}
	return j
}

// groupsOf numbers the records' sites in sorted order.
func groupsOf(records []Record) map[string]int {
	set := map[string]bool{}
	for _, r := range records {
		set[r.Group()] = true
	}
	out := map[string]int{}
	for i, g := range slices.Sorted(maps.Keys(set)) {
		out[g] = i
	}
	return out
}

// Isotonic returns the calibration of probabilities raw whose outcomes
// are right (1 or 0): the non-decreasing fit that pools adjacent
// violators, as one point per pooled block at its mean probability and
// mean outcome.
func Isotonic(raw, right []float64) []relink.CalibrationPoint {
	idx := make([]int, len(raw))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return raw[idx[a]] < raw[idx[b]] })
	type block struct{ sumX, sumY, n float64 }
	var bs []block
	for _, i := range idx {
		bs = append(bs, block{raw[i], right[i], 1})
		for len(bs) > 1 {
			a, b := bs[len(bs)-2], bs[len(bs)-1]
			if a.sumY/a.n < b.sumY/b.n {
				break
			}
			bs = append(bs[:len(bs)-2], block{a.sumX + b.sumX, a.sumY + b.sumY, a.n + b.n})
		}
	}
	out := make([]relink.CalibrationPoint, 0, len(bs))
	for _, b := range bs {
		p := relink.CalibrationPoint{Raw: b.sumX / b.n, Right: b.sumY / b.n}
		if n := len(out); n > 0 && p.Raw <= out[n-1].Raw {
			// Equal probabilities pooled apart by order alone: keep the
			// higher share, so that the points ascend.
			out[n-1].Right = max(out[n-1].Right, p.Right)
			continue
		}
		out = append(out, p)
	}
	return out
}

// Bin is one bin of a reliability diagram.
type Bin struct {
	// Low and High bound the confidences of the bin, [Low, High) (the
	// last bin holds 1).
	Low, High float64
	// Answers is the number of records in the bin, Confidence their mean
	// confidence and Right the share of them that were right.
	Answers    int
	Confidence float64
	Right      float64
}

// Reliability returns the ten bins of confidence of the judged records
// that had a candidate.
func Reliability(js []Judged) []Bin {
	bins := make([]Bin, 10)
	for i := range bins {
		bins[i].Low, bins[i].High = float64(i)/10, float64(i+1)/10
	}
	for _, j := range js {
		if !j.Candidate {
			continue
		}
		i := min(int(j.Confidence*10), 9)
		b := &bins[i]
		b.Answers++
		b.Confidence += j.Confidence
		b.Right += b2f(j.Right)
	}
	for i := range bins {
		if n := float64(bins[i].Answers); n > 0 {
			bins[i].Confidence /= n
			bins[i].Right /= n
		}
	}
	return bins
}

// ECE returns the expected calibration error of the judged records with a
// candidate: over ten bins of confidence, the mean gap between the bin's
// mean confidence and its share right, weighted by the bin's records. It
// is 0 without such records.
func ECE(js []Judged) float64 {
	total, sum := 0, 0.0
	for _, b := range Reliability(js) {
		total += b.Answers
		sum += float64(b.Answers) * math.Abs(b.Confidence-b.Right)
	}
	if total == 0 {
		return 0
	}
	return sum / float64(total)
}

// Figures are what answering at a threshold gives.
type Figures struct {
	// Targets is the number of records.
	Targets int `json:"targets"`
	// Answered is the share of the records answered (confidence at or
	// above the threshold), Precision the share of the answers that were
	// right (1 without answers).
	Answered  float64 `json:"answered"`
	Precision float64 `json:"precision"`
	// RightFirst is the share of records whose first candidate is the
	// page, answered or not: what a perfect judge would answer.
	RightFirst float64 `json:"right_first"`
	// ECE is the records' expected calibration error.
	ECE float64 `json:"ece"`
}

// At returns the figures of js at threshold.
func At(js []Judged, threshold float64) Figures {
	f := Figures{Targets: len(js), Precision: 1}
	answered, right, first := 0, 0, 0
	for _, j := range js {
		if j.Right {
			first++
		}
		if j.Candidate && j.Confidence >= threshold {
			answered++
			if j.Right {
				right++
			}
		}
	}
	if len(js) > 0 {
		f.Answered = float64(answered) / float64(len(js))
		f.RightFirst = float64(first) / float64(len(js))
	}
	if answered > 0 {
		f.Precision = float64(right) / float64(answered)
	}
	f.ECE = ECE(js)
	return f
}

// Threshold returns the least threshold, in steps of 0.01 from 0.5, at
// which the answers of js (those at or above it) are right at precision
// or better; 1 when none is.
func Threshold(js []Judged, precision float64) float64 {
	for step := 50; step <= 99; step++ {
		t := float64(step) / 100
		if At(js, t).Precision >= precision {
			return t
		}
	}
	return 1
}

// newton fits the weights of a logistic regression on points xs (each
// with a leading 1 for the bias), point k standing for ns[k] records of
// which rights[k] were right, penalizing the squared weights but the
// bias's by l2, by Newton's method.
func newton(xs [][]float64, ns, rights []float64, l2 float64) ([]float64, error) {
	d := len(xs[0])
	w := make([]float64, d)
	for range 100 {
		grad := make([]float64, d)
		hess := make([][]float64, d)
		for i := range hess {
			hess[i] = make([]float64, d)
		}
		for k, x := range xs {
			p := sigmoid(dot(w, x))
			for i := range d {
				grad[i] += (rights[k] - ns[k]*p) * x[i]
				for j := range d {
					hess[i][j] -= ns[k] * p * (1 - p) * x[i] * x[j]
				}
			}
		}
		for i := 1; i < d; i++ {
			grad[i] -= l2 * w[i]
			hess[i][i] -= l2
		}
		hess[0][0] -= 1e-9
		step, err := solve(hess, grad)
		if err != nil {
			return nil, err
		}
		moved := 0.0
		for i := range w {
			w[i] -= step[i]
			moved = max(moved, math.Abs(step[i]))
		}
		if moved < 1e-9 {
			break
		}
	}
	return w, nil
}

// solve solves a x = b by Gaussian elimination with partial pivoting.
func solve(a [][]float64, b []float64) ([]float64, error) {
	n := len(b)
	m := make([][]float64, n)
	for i := range m {
		m[i] = append(slices.Clone(a[i]), b[i])
	}
	for col := range n {
		pivot := col
		for r := col + 1; r < n; r++ {
			if math.Abs(m[r][col]) > math.Abs(m[pivot][col]) {
				pivot = r
			}
		}
		if math.Abs(m[pivot][col]) < 1e-15 {
			return nil, errors.New("judgefit: singular system")
		}
		m[col], m[pivot] = m[pivot], m[col]
		for r := col + 1; r < n; r++ {
			f := m[r][col] / m[col][col]
			for c := col; c <= n; c++ {
				m[r][c] -= f * m[col][c]
			}
		}
	}
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		s := m[i][n]
		for j := i + 1; j < n; j++ {
			s -= m[i][j] * x[j]
		}
		x[i] = s / m[i][i]
	}
	return x, nil
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func cmpOr[T comparable](a, b T) T {
	var zero T
	if a != zero {
		return a
	}
	return b
}
