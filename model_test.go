package relink_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/linkrot/relink"
)

// TestDefaultThreshold: the constant is the default model's threshold, as
// the fit chose it.
func TestDefaultThreshold(t *testing.T) {
	m := relink.DefaultModel()
	if m.Threshold != relink.DefaultThreshold {
		t.Errorf("judge.json's threshold %v, DefaultThreshold %v: set the constant to the fit's", m.Threshold, relink.DefaultThreshold)
	}
	if len(m.Weights) == 0 {
		t.Error("the default model has no weights")
	}
	m.Weights[relink.SignalPhraseInTitle] = 100
	if relink.DefaultModel().Weights[relink.SignalPhraseInTitle] == 100 {
		t.Error("DefaultModel returned the shared model, not a copy")
	}
}

// TestModelConfidence: the logistic probability, calibrated by linear
// interpolation (flat past the ends), then each prior as an independent
// finding.
func TestModelConfidence(t *testing.T) {
	m := &relink.Model{
		Bias:        -1,
		Weights:     map[string]float64{"a": 2},
		Calibration: []relink.CalibrationPoint{{Raw: 0.2, Right: 0.1}, {Raw: 0.8, Right: 0.7}},
		Priors:      map[string]float64{relink.SignalRedirectPermanent: 0.9},
	}
	sig := func(z float64) float64 { return 1 / (1 + math.Exp(-z)) }
	for _, tt := range []struct {
		signals map[string]float64
		want    float64
	}{
		{nil, 0.1 + (sig(-1)-0.2)*1},      // 0.269 → between the points
		{map[string]float64{"a": 1}, 0.7}, // 0.731 → 0.631
		{map[string]float64{"a": 10}, 0.7},
		{map[string]float64{"a": -10}, 0.1},
		{map[string]float64{"unknown": 1}, 0.1 + (sig(-1)-0.2)*1},
		{relink.WithRedirect(nil, true), 1 - (1-(0.1+(sig(-1)-0.2)))*(1-0.9)},
	} {
		want := tt.want
		if tt.signals != nil && tt.signals["a"] == 1 {
			want = 0.1 + (sig(1) - 0.2)
		}
		if got := m.Confidence(tt.signals); math.Abs(got-want) > 1e-12 {
			t.Errorf("Confidence(%v) = %v, want %v", tt.signals, got, want)
		}
	}
	if c := m.Contributions(map[string]float64{"a": 0.5, "b": 1}); c["a"] != 1 || c["b"] != 0 {
		t.Errorf("Contributions = %v", c)
	}
}

// TestParseModel: a model that is not one is refused with a reason.
func TestParseModel(t *testing.T) {
	for _, bad := range []string{
		`{`,
		`{"bias": 1, "weights": {}, "calibration": [{"raw": 0.5, "right": 0.6}, {"raw": 0.4, "right": 0.7}], "threshold": 0.5}`,
		`{"bias": 1, "weights": {}, "calibration": [{"raw": 0.5, "right": 1.5}], "threshold": 0.5}`,
		`{"bias": 1, "weights": {}, "threshold": 2}`,
		`{"bias": 1, "weights": {}, "priors": {"x": -1}, "threshold": 0.5}`,
	} {
		if _, err := relink.ParseModel([]byte(bad)); err == nil {
			t.Errorf("ParseModel(%s) = nil error", bad)
		}
	}
	m, err := relink.ParseModel([]byte(`{"bias": -2, "weights": {"a": 4}, "threshold": 0.5}`))
	if err != nil || m.Threshold != 0.5 {
		t.Fatalf("ParseModel = %+v, %v", m, err)
	}
}

// TestWithRedirect: a copy with the redirect's signal; the input is left
// alone.
func TestWithRedirect(t *testing.T) {
	in := map[string]float64{relink.SignalPhraseInTitle: 1}
	out := relink.WithRedirect(in, false)
	if len(in) != 1 || out[relink.SignalRedirectTemporary] != 1 || out[relink.SignalPhraseInTitle] != 1 {
		t.Errorf("WithRedirect(%v) = %v", in, out)
	}
}

func ExampleModel_Confidence() {
	m := &relink.Model{Bias: -3, Weights: map[string]float64{relink.SignalPhraseInTitle: 6}}
	fmt.Printf("%.2f\n", m.Confidence(map[string]float64{relink.SignalPhraseInTitle: 1}))
	fmt.Printf("%.2f\n", m.Confidence(nil))
	// Output:
	// 0.95
	// 0.05
}
