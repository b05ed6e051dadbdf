package relink

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/linkrot/relink/lexsig"
)

// Model is the judge: the one combination of the signals (the Signal
// constants) into a confidence. It is a logistic regression over the
// signals the corpora measure, fitted by the lab's fit command
// (lab/cmd/fit), followed by a calibration that maps its probability to
// the share of answers that were right at that probability on sites the
// regression was not fitted on; then the signals no corpus measures
// (Priors) add their confidence as independent findings. The confidence
// is thus a probability: of the answers given at 0.9, about nine in ten
// are right.
//
// DefaultModel is the model the lab fitted; a Finder uses it unless its
// Model is set. A Model is read-only once in use.
type Model struct {
	// Bias is the log-odds of an answer with every signal at 0.
	Bias float64 `json:"bias"`
	// Weights are the log-odds each term adds per unit of its value, by
	// term: a signal's name, or names joined by "*" for the product of
	// those signals (an interaction: "title_score*score_margin"). A
	// signal in no term adds nothing.
	Weights map[string]float64 `json:"weights"`
	// Calibration maps the regression's probability (Raw) to the share of
	// answers that were right (Right): ascending in Raw and in Right,
	// linear between points, flat past the ends. Without points the
	// probability is the confidence.
	Calibration []CalibrationPoint `json:"calibration"`
	// Priors are the confidences of signals that no corpus measures (an
	// archived redirect), judged, not fitted: a signal present adds its
	// prior as an independent finding, c' = 1 - (1-c)(1-prior).
	Priors map[string]float64 `json:"priors,omitempty"`
	// Threshold is the least confidence at which the answers, judged on
	// sites the model never saw, were right at the precision the fit
	// aimed at (Provenance.Precision); DefaultThreshold is the default
	// model's.
	Threshold float64 `json:"threshold"`
	// Provenance says where the model came from.
	Provenance Provenance `json:"provenance"`
}

// CalibrationPoint is one point of a Model's calibration.
type CalibrationPoint struct {
	Raw   float64 `json:"raw"`
	Right float64 `json:"right"`
}

// Provenance says how a Model was fitted: on what, when, by which code,
// and how it did on the sites each fold left out.
type Provenance struct {
	// Corpora are the corpora whose per-target records the model was
	// fitted on, Seed the seed of their targets' draw.
	Corpora []string `json:"corpora"`
	Seed    uint64   `json:"seed"`
	// Modes are the experiment's modes of link rot the records come from.
	Modes []string `json:"modes"`
	// Records is the number of per-target records, Sites of sites.
	Records int `json:"records"`
	Sites   int `json:"sites"`
	// Date is the day of the fit (YYYY-MM-DD) and Commit the commit of
	// the code that gave the records and ran the fit.
	Date   string `json:"date"`
	Commit string `json:"commit"`
	// Method says how the model was fitted and checked.
	Method string `json:"method"`
	// Precision is the precision the threshold was chosen for.
	Precision float64 `json:"precision"`
	// Figures are the fit's figures under leave-one-site-out, by name
	// (answered and precision per mode, false suggestions, ECE).
	Figures map[string]float64 `json:"figures,omitempty"`
}

//go:embed judge.json
var defaultModelJSON []byte

var defaultModel = sync.OnceValue(func() *Model {
	m, err := ParseModel(defaultModelJSON)
	if err != nil {
		panic("relink: the embedded judge.json: " + err.Error())
	}
	return m
})

// DefaultModel returns a copy of the model the lab fitted (judge.json,
// with its provenance).
func DefaultModel() *Model { return defaultModel().clone() }

// ParseModel reads a Model from its JSON form (judge.json is one) and
// checks it: finite numbers, a calibration ascending in both, confidences
// and the threshold in [0, 1].
func ParseModel(data []byte) (*Model, error) {
	var m Model
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("relink: model: %w", err)
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	return &m, nil
}

// check reports what is wrong with m, or nil.
func (m *Model) check() error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	unit := func(x float64) bool { return x >= 0 && x <= 1 }
	if !finite(m.Bias) {
		return fmt.Errorf("relink: model: bias %v is not a number", m.Bias)
	}
	for name, w := range m.Weights {
		if !finite(w) {
			return fmt.Errorf("relink: model: weight of %s %v is not a number", name, w)
		}
	}
	for i, p := range m.Calibration {
		if !unit(p.Raw) || !unit(p.Right) {
			return fmt.Errorf("relink: model: calibration point %d (%v, %v) is outside [0, 1]", i, p.Raw, p.Right)
		}
		if i > 0 && (p.Raw < m.Calibration[i-1].Raw || p.Right < m.Calibration[i-1].Right) {
			return fmt.Errorf("relink: model: calibration point %d does not ascend", i)
		}
	}
	for name, p := range m.Priors {
		if !unit(p) {
			return fmt.Errorf("relink: model: prior of %s %v is outside [0, 1]", name, p)
		}
	}
	if !unit(m.Threshold) {
		return fmt.Errorf("relink: model: threshold %v is outside [0, 1]", m.Threshold)
	}
	return nil
}

// clone returns a deep copy of m.
func (m *Model) clone() *Model {
	c := *m
	c.Weights = maps.Clone(m.Weights)
	c.Calibration = slices.Clone(m.Calibration)
	c.Priors = maps.Clone(m.Priors)
	c.Provenance.Corpora = slices.Clone(m.Provenance.Corpora)
	c.Provenance.Modes = slices.Clone(m.Provenance.Modes)
	c.Provenance.Figures = maps.Clone(m.Provenance.Figures)
	return &c
}

// Logit returns the regression's log-odds for signals.
func (m *Model) Logit(signals map[string]float64) float64 {
	z := m.Bias
	for _, term := range sortedKeys(m.Weights) {
		z += m.Weights[term] * Term(signals, term)
	}
	return z
}

// Term returns the value of a Model's term in signals: the signal's value
// for a name, the product of their values for names joined by "*".
func Term(signals map[string]float64, term string) float64 {
	v := 1.0
	for name := range strings.SplitSeq(term, "*") {
		v *= signals[name]
		if v == 0 {
			return 0
		}
	}
	return v
}

// Confidence returns the confidence signals give: the regression's
// probability, calibrated, with the priors of the signals that have one.
// Signals with neither a weight nor a prior count for nothing.
func (m *Model) Confidence(signals map[string]float64) float64 {
	c := m.calibrate(1 / (1 + math.Exp(-m.Logit(signals))))
	for _, name := range sortedKeys(signals) {
		if p, ok := m.Priors[name]; ok && signals[name] != 0 {
			c = 1 - (1-c)*(1-p)
		}
	}
	return c
}

// Contributions returns what each term of the model adds to the log-odds
// of signals (its weight times its value), by term, for the terms that add
// something.
func (m *Model) Contributions(signals map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for term, w := range m.Weights {
		if v := Term(signals, term); v != 0 && w != 0 {
			out[term] = w * v
		}
	}
	return out
}

// calibrate maps a probability p through the calibration.
func (m *Model) calibrate(p float64) float64 {
	pts := m.Calibration
	switch {
	case len(pts) == 0:
		return p
	case p <= pts[0].Raw:
		return pts[0].Right
	case p >= pts[len(pts)-1].Raw:
		return pts[len(pts)-1].Right
	}
	i := sort.Search(len(pts), func(i int) bool { return pts[i].Raw >= p })
	a, b := pts[i-1], pts[i]
	if b.Raw == a.Raw {
		return b.Right
	}
	return a.Right + (b.Right-a.Right)*(p-a.Raw)/(b.Raw-a.Raw)
}

// Judge returns the confidence that the first of candidates is the
// missing page of c, with the signals it saw (Signals): 0 and none without
// a candidate.
func (m *Model) Judge(c *Clues, candidates []lexsig.Result, seen Seen) (float64, map[string]float64) {
	if len(candidates) == 0 {
		return 0, nil
	}
	s := Signals(c, candidates, seen)
	return m.Confidence(s), s
}

// Confidence returns how sure the default model (DefaultModel) is, in
// [0, 1], that the first of candidates is the missing page of c, from what
// their titles say (Signals, with nothing seen besides).
func Confidence(c *Clues, candidates []lexsig.Result) float64 {
	conf, _ := defaultModel().Judge(c, candidates, Seen{})
	return conf
}

// sortedKeys returns the keys of m in order, so that sums come out the
// same on every run.
func sortedKeys(m map[string]float64) []string {
	return slices.Sorted(maps.Keys(m))
}

// DefaultThreshold is the default model's threshold (Model.Threshold): the
// least confidence at which relink answers with its first candidate
// (Result.Found); below it the answer is "not found". The lab's fit chose
// it so that, on sites the model never saw (leave one site out), the
// answers at or above it were right at the precision Provenance.Precision
// states; judge.json has the figures.
const DefaultThreshold = 0.83

// WithRedirect returns a copy of signals with the signal of an archived
// redirect of the missing URI to the first candidate added: a permanent
// one (HTTP 301 or 308) is the site's own word for where the page went
// (SignalRedirectPermanent); another (302, 303, 307) also leads to login
// pages and campaigns (SignalRedirectTemporary). With nil signals it gives
// the signals of a candidate known by the redirect alone. The default
// model's priors weigh them.
func WithRedirect(signals map[string]float64, permanent bool) map[string]float64 {
	out := maps.Clone(signals)
	if out == nil {
		out = map[string]float64{}
	}
	name := SignalRedirectTemporary
	if permanent {
		name = SignalRedirectPermanent
	}
	out[name] = 1
	return out
}
