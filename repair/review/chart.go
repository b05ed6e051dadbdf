package review

import (
	"fmt"
	"math"

	"github.com/linkrot/relink/repair"
)

// chart is the bar chart of how many dead links fall at each confidence,
// stacked by verdict: an SVG drawn on the server, its colours from the
// style sheet (classes v-moved, v-gone, ...).
type chart struct {
	Width, Height int
	Bars          []bar
	XTicks        []tick
	YTicks        []tick
	Threshold     *tick // nil when there is none
	Left, Bottom  float64
	Right, Top    float64
}

// bar is one verdict's part of one bucket's bar.
type bar struct {
	X, Y, W, H float64
	Class      string
	Title      string
}

// tick is a label on an axis, at X or Y.
type tick struct {
	X, Y  float64
	Label string
}

// Geometry of the chart, in SVG user units.
const (
	chartWidth, chartHeight = 420, 150
	chartLeft, chartRight   = 34, 412
	chartTop, chartBottom   = 10, 124
	chartBuckets            = 10
)

// newChart counts results by confidence bucket (tenths, 1 in the last)
// and verdict. A threshold above 0 is marked.
func newChart(results []repair.Result, threshold float64) chart {
	var n [chartBuckets]map[repair.Verdict]int
	highest := 0
	for i := range n {
		n[i] = map[repair.Verdict]int{}
	}
	for _, r := range results {
		c := r.Confidence
		if math.IsNaN(c) {
			c = 0
		}
		b := min(max(int(c*chartBuckets), 0), chartBuckets-1)
		n[b][r.Verdict]++
	}
	for _, m := range n {
		t := 0
		for _, k := range m {
			t += k
		}
		highest = max(highest, t)
	}
	ch := chart{Width: chartWidth, Height: chartHeight, Left: chartLeft, Right: chartRight, Top: chartTop, Bottom: chartBottom}
	step := float64(chartRight-chartLeft) / chartBuckets
	scale := 0.0
	if highest > 0 {
		scale = float64(chartBottom-chartTop) / float64(highest)
	}
	for b, m := range n {
		y := float64(chartBottom)
		for _, v := range repair.Verdicts() {
			k := m[v]
			if k == 0 {
				continue
			}
			h := float64(k) * scale
			y -= h
			ch.Bars = append(ch.Bars, bar{X: round(chartLeft + float64(b)*step + 2), Y: round(y), W: round(step - 4), H: round(h),
				Class: "v-" + string(v),
				Title: fmt.Sprintf("confidence %.1f–%.1f: %d %s", float64(b)/chartBuckets, float64(b+1)/chartBuckets, k, v)})
		}
	}
	for b := 0; b <= chartBuckets; b += 2 {
		ch.XTicks = append(ch.XTicks, tick{X: round(chartLeft + float64(b)*step), Y: chartBottom + 14,
			Label: fmt.Sprintf("%.1f", float64(b)/chartBuckets)})
	}
	prev := -1
	for _, k := range []int{0, highest / 2, highest} {
		if k == prev {
			continue
		}
		prev = k
		ch.YTicks = append(ch.YTicks, tick{X: chartLeft - 6, Y: round(chartBottom - float64(k)*scale + 4), Label: fmt.Sprint(k)})
	}
	if threshold > 0 && threshold <= 1 {
		ch.Threshold = &tick{X: round(chartLeft + threshold*float64(chartRight-chartLeft)), Y: chartTop,
			Label: fmt.Sprintf("threshold %.2f", threshold)}
	}
	return ch
}

// round rounds a coordinate to a tenth of a unit, which keeps the SVG
// short.
func round(x float64) float64 { return math.Round(x*10) / 10 }
