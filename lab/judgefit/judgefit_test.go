package judgefit_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/lab/judgefit"
)

// records makes n records of site with signal name on, right of them.
func records(corpus, site, name string, n, right int) []judgefit.Record {
	out := make([]judgefit.Record, n)
	for i := range out {
		out[i] = judgefit.Record{Corpus: corpus, Site: site, Mode: "moved", Method: "m", Candidate: true, Right: i < right, Signals: map[string]float64{}}
		if name != "" {
			out[i].Signals[name] = 1
		}
	}
	return out
}

// TestFitRecoversRates: with one binary signal, the fitted probabilities
// are the shares right with and without it (with a small penalty).
func TestFitRecoversRates(t *testing.T) {
	var rs []judgefit.Record
	rs = append(rs, records("c", "a", "title", 1000, 900)...)
	rs = append(rs, records("c", "a", "", 1000, 100)...)
	m, err := judgefit.Fit(rs, judgefit.Options{L2: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	p := func(s map[string]float64) float64 { return 1 / (1 + math.Exp(-m.Logit(s))) }
	if got := p(map[string]float64{"title": 1}); math.Abs(got-0.9) > 0.005 {
		t.Errorf("with the signal: %v, want 0.9", got)
	}
	if got := p(nil); math.Abs(got-0.1) > 0.005 {
		t.Errorf("without: %v, want 0.1", got)
	}
}

// TestFitSeparable: a signal that is always right gets a large but finite
// weight: the penalty keeps Newton's method from diverging.
func TestFitSeparable(t *testing.T) {
	rs := append(records("c", "a", "title", 50, 50), records("c", "a", "", 50, 0)...)
	m, err := judgefit.Fit(rs, judgefit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w := m.Weights["title"]; math.IsInf(w, 0) || math.IsNaN(w) || w < 3 {
		t.Errorf("weight %v, want a large finite one", w)
	}
	if _, err := judgefit.Fit(records("c", "a", "x", 3, 3)[:0], judgefit.Options{}); err != judgefit.ErrNoRecords {
		t.Errorf("no records: %v, want ErrNoRecords", err)
	}
}

// TestIsotonic: the calibration ascends and pools the violators.
func TestIsotonic(t *testing.T) {
	raw := []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}
	right := []float64{0, 1, 0, 0, 1, 1}
	got := judgefit.Isotonic(raw, right)
	want := []relink.CalibrationPoint{{Raw: 0.1, Right: 0}, {Raw: 0.3, Right: 1.0 / 3}, {Raw: 0.55, Right: 1}}
	if len(got) != len(want) {
		t.Fatalf("%v, want %v", got, want)
	}
	for i := range got {
		if math.Abs(got[i].Raw-want[i].Raw) > 1e-12 || math.Abs(got[i].Right-want[i].Right) > 1e-12 {
			t.Errorf("point %d: %v, want %v", i, got[i], want[i])
		}
	}
}

// TestLeaveOneOut: a site's records are judged by a model that never saw
// them: a signal that only one site has is unknown to that site's model.
func TestLeaveOneOut(t *testing.T) {
	var rs []judgefit.Record
	for _, site := range []string{"a", "b", "c"} {
		rs = append(rs, records("c", site, "title", 100, 95)...)
		rs = append(rs, records("c", site, "", 100, 5)...)
	}
	rs = append(rs, records("c", "d", "odd", 20, 20)...)
	js, err := judgefit.LeaveOneOut(rs, judgefit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range js {
		if j.Site == "d" && j.Confidence > 0.5 {
			t.Fatalf("site d judged %v by a model that never saw its signal", j.Confidence)
		}
	}
	if f := judgefit.At(js, 0.5); f.Precision < 0.94 || f.Answered < 0.4 {
		t.Errorf("at 0.5: %+v", f)
	}
}

// TestThreshold: the least threshold whose answers reach the precision.
func TestThreshold(t *testing.T) {
	js := []judgefit.Judged{
		{Record: judgefit.Record{Candidate: true, Right: true}, Confidence: 0.95},
		{Record: judgefit.Record{Candidate: true, Right: true}, Confidence: 0.9},
		{Record: judgefit.Record{Candidate: true, Right: false}, Confidence: 0.8},
		{Record: judgefit.Record{Candidate: true, Right: true}, Confidence: 0.7},
	}
	if got := judgefit.Threshold(js, 0.99); got != 0.81 {
		t.Errorf("Threshold = %v, want 0.81", got)
	}
	if got := judgefit.Threshold(js, 0.6); got != 0.5 {
		t.Errorf("Threshold at 0.6 = %v, want 0.5", got)
	}
}

func ExampleECE() {
	js := []judgefit.Judged{
		{Record: judgefit.Record{Candidate: true, Right: true}, Confidence: 0.95},
		{Record: judgefit.Record{Candidate: true, Right: false}, Confidence: 0.95},
		{Record: judgefit.Record{Candidate: true, Right: false}, Confidence: 0.05},
		{Record: judgefit.Record{Candidate: true, Right: false}, Confidence: 0.05},
	}
	// The 0.95 bin is right half the time, the 0.05 bin never.
	fmt.Printf("%.3f\n", judgefit.ECE(js))
	// Output: 0.250
}

func ExampleFit() {
	var rs []judgefit.Record
	for i := range 200 {
		rs = append(rs, judgefit.Record{Site: "a", Candidate: true, Right: i%10 != 0, Signals: map[string]float64{"title": 1}})
		rs = append(rs, judgefit.Record{Site: "a", Candidate: true, Right: i%10 == 0, Signals: map[string]float64{}})
	}
	m, _ := judgefit.Fit(rs, judgefit.Options{})
	// Nine in ten right with the signal, one in ten without; the penalty
	// pulls both a little toward even.
	fmt.Printf("%.2f %.2f\n", m.Confidence(map[string]float64{"title": 1}), m.Confidence(nil))
	// Output: 0.85 0.15
}
