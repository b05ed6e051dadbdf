package main

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/backlink"
)

// figure is one plot of mean nDCG against signature size, one line per
// method, as every figure of the paper's §4 is drawn.
type figure struct {
	file    string   // base name, without extension
	title   string   // the paper's caption, or ours
	methods []string // one line each
}

// figures returns the paper's figures for the grid of res, for each
// navigation setting: the effect of radius (Figure 10), of depth for each
// radius (Figures 7-9, and the whole page, which the paper left out) and of
// the backlink count (Figure 11).
func (res *results) figures() []figure {
	radii, ks := res.gridValues()
	var out []figure
	for _, nav := range res.nav {
		sfx := suffix(nav)
		note := ""
		if !nav {
			note = ", navigation links left out"
		}
		k := slices.Min(ks)
		f := figure{file: "radius" + sfx, title: "Effect of Radius (First-Level Backlinks, top " + strconv.Itoa(k) + note + ")"}
		for _, r := range radii {
			f.methods = append(f.methods, name(1, r, k, sfx))
		}
		out = append(out, f)
		for _, r := range radii {
			f := figure{
				file:  "depth-" + r.String() + sfx,
				title: fmt.Sprintf("First- and Second-Level Backlinks, radius %s%s (levels-radius-ranks)", r.String(), note),
			}
			for _, depth := range []int{1, 2} {
				for _, k := range ks {
					f.methods = append(f.methods, name(depth, r, k, sfx))
				}
			}
			out = append(out, f)
		}
		f = figure{file: "backlinks" + sfx, title: "Effect of Backlink Rank (First-Level Backlinks, anchor text" + note + ")"}
		for _, k := range ks {
			f.methods = append(f.methods, name(1, backlink.Anchor, k, sfx))
		}
		out = append(out, f)
	}
	if len(res.nav) == 2 {
		f := figure{file: "navigation", title: "With and without navigation links (First-Level Backlinks, anchor text)"}
		for _, k := range ks {
			f.methods = append(f.methods, name(1, backlink.Anchor, k, ""), name(1, backlink.Anchor, k, relink.NoNavSuffix))
		}
		out = append(out, f)
	}
	return out
}

// writeFigures draws every figure as SVG and PNG into dir.
func (res *results) writeFigures(dir string) error {
	for _, f := range res.figures() {
		p, err := res.plot(f)
		if err != nil {
			return fmt.Errorf("figure %s: %w", f.file, err)
		}
		for _, ext := range []string{".svg", ".png"} {
			if err := p.Save(7*vg.Inch, 4.5*vg.Inch, filepath.Join(dir, f.file+ext)); err != nil {
				return fmt.Errorf("figure %s: %w", f.file+ext, err)
			}
		}
	}
	return nil
}

// plot draws one figure. As in the paper's Figures 7-9, level-1 methods are
// black and level-2 methods red when both appear; otherwise each line has a
// color of its own. Each line has its own glyph and dashes.
func (res *results) plot(f figure) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = f.title
	p.X.Label.Text = "Terms in lexical signature"
	p.Y.Label.Text = "Mean nDCG"
	// The axis goes above 1 to leave room for the legend over the lines;
	// its ticks stop at 1, the highest nDCG.
	p.Y.Min, p.Y.Max = 0, 1+0.06*float64(len(f.methods)+1)
	var yTicks []plot.Tick
	for v := 0.0; v <= 1.001; v += 0.2 {
		yTicks = append(yTicks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 1, 64)})
	}
	p.Y.Tick.Marker = plot.ConstantTicks(yTicks)
	p.X.Min = 0.5
	p.X.Max = float64(slices.Max(res.report.Sizes)) + 0.5
	var ticks []plot.Tick
	for _, s := range res.report.Sizes {
		ticks = append(ticks, plot.Tick{Value: float64(s), Label: strconv.Itoa(s)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = false
	levels := map[byte]bool{}
	for _, m := range f.methods {
		levels[m[0]] = true
	}
	byLevel := len(levels) > 1
	for i, m := range f.methods {
		var pts plotter.XYs
		for _, s := range res.report.Sizes {
			if v := res.ndcg(m, s); !math.IsNaN(v) {
				pts = append(pts, plotter.XY{X: float64(s), Y: v})
			}
		}
		if len(pts) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		c := plotutil.Color(i)
		if byLevel {
			c = color.Black
			if m[0] == '2' {
				c = color.RGBA{R: 0xd0, A: 0xff}
			}
		}
		line.Color = c
		line.Width = vg.Points(1.2)
		line.Dashes = plotutil.Dashes(i % 3)
		points.Color = c
		points.Shape = plotutil.Shape(i)
		points.Radius = vg.Points(3)
		points.GlyphStyle = draw.GlyphStyle{Color: c, Shape: plotutil.Shape(i), Radius: vg.Points(3)}
		p.Add(line, points)
		p.Legend.Add(m, line, points)
	}
	return p, nil
}
