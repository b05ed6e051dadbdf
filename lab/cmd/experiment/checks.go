package main

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/lab/eval"
	"github.com/linkrot/relink/score"
)

// check is one of the paper's qualitative findings, checked on our results.
type check struct {
	title    string   // the finding and where the paper states it
	paper    string   // what the paper reports
	evidence []string // our numbers
	verdict  string   // "agrees", "partly agrees" or "differs", with the reason
}

// checks returns the paper's findings checked on res, for each navigation
// setting of the experiment. A finding whose methods are not in the grid is
// left out.
func (res *results) checks() []check {
	var out []check
	for _, nav := range res.nav {
		sfx := suffix(nav)
		where := ""
		if !nav {
			where = " (navigation links left out)"
		}
		for _, c := range []func(string) (check, bool){res.checkDepth, res.checkRadius, res.checkBacklinks, res.checkSize, res.checkBinary} {
			if ch, ok := c(sfx); ok {
				ch.title += where
				out = append(out, ch)
			}
		}
	}
	return out
}

// name returns the method's name with the suffix of a navigation setting.
func name(depth int, r backlink.Radius, k int, sfx string) string {
	return eval.Method{Depth: depth, Radius: r, Backlinks: k, Nav: true}.String() + sfx
}

// verdict grades a share of comparisons that went the paper's way.
func verdict(won, of int) string {
	switch {
	case of == 0:
		return "not checked"
	case won == of:
		return "agrees"
	case 4*won >= 3*of:
		return "mostly agrees"
	case 2*won > of:
		return "partly agrees"
	}
	return "differs"
}

// gridValues returns the radii, backlink counts and sizes of the grid.
func (res *results) gridValues() (radii []backlink.Radius, ks []int) {
	for _, m := range res.report.Methods {
		if !slices.Contains(radii, m.Radius) {
			radii = append(radii, m.Radius)
		}
		if !slices.Contains(ks, m.Backlinks) {
			ks = append(ks, m.Backlinks)
		}
	}
	return radii, ks
}

// checkDepth: level-1 backlinks alone beat levels 1 and 2 (§4.1 "Backlink
// Depth", Figures 7-9).
func (res *results) checkDepth(sfx string) (check, bool) {
	c := check{
		title: "Depth: level-1 backlinks alone beat levels 1 and 2 (§4.1, Figures 7-9)",
		paper: "a dramatic decline in every case when second-level backlinks are included",
	}
	radii, ks := res.gridValues()
	won, of := 0, 0
	for _, r := range radii {
		rWon, rOf := 0, 0
		var at4 []string
		for _, k := range ks {
			for _, size := range res.report.Sizes {
				one, two := res.ndcg(name(1, r, k, sfx), size), res.ndcg(name(2, r, k, sfx), size)
				if math.IsNaN(one) || math.IsNaN(two) {
					continue
				}
				rOf++
				if one > two {
					rWon++
				}
				if size == 4 {
					at4 = append(at4, fmt.Sprintf("%d backlinks %.3f vs %.3f", k, one, two))
				}
			}
		}
		if rOf > 0 {
			c.evidence = append(c.evidence, fmt.Sprintf("%s: level 1 higher in %d of %d (backlinks, size) cells; at 4 terms, level 1 vs levels 1+2: %s",
				r.String(), rWon, rOf, strings.Join(at4, "; ")))
		}
		won, of = won+rWon, of+rOf
	}
	c.verdict = fmt.Sprintf("%s: level 1 has the higher mean nDCG in %d of %d comparisons", verdict(won, of), won, of)
	return c, of > 0
}

// checkRadius: the anchor text is the best radius, ±5 and ±10 perform alike,
// the whole page worst (§4.2 "Radius", Figure 10).
func (res *results) checkRadius(sfx string) (check, bool) {
	c := check{
		title: "Radius: anchor text best, ±5 and ±10 alike, whole page worst (§4.2, Figure 10)",
		paper: "by far the best results from the anchor text alone; each step away from it, to ±5 or ±10 words or the whole page, yields poorer results",
	}
	radii, ks := res.gridValues()
	if !slices.Contains(radii, backlink.Anchor) || len(radii) < 2 {
		return c, false
	}
	k := slices.Min(ks)
	anchorBest, pageWorst, of := 0, 0, 0
	for _, size := range res.report.Sizes {
		var vals []float64
		for _, r := range radii {
			vals = append(vals, res.ndcg(name(1, r, k, sfx), size))
		}
		if slices.ContainsFunc(vals, math.IsNaN) {
			continue
		}
		of++
		if vals[slices.Index(radii, backlink.Anchor)] == slices.Max(vals) {
			anchorBest++
		}
		if i := slices.Index(radii, backlink.Page); i >= 0 && vals[i] == slices.Min(vals) {
			pageWorst++
		}
	}
	for _, r := range radii {
		var line []string
		for _, size := range res.report.Sizes {
			line = append(line, fmt.Sprintf("%.2f", res.ndcg(name(1, r, k, sfx), size)))
		}
		c.evidence = append(c.evidence, fmt.Sprintf("%s (sizes %v): %s", name(1, r, k, sfx), res.report.Sizes, strings.Join(line, " ")))
	}
	c.verdict = fmt.Sprintf("%s: at level 1 with %d backlinks the anchor text is best at %d of %d sizes", verdict(anchorBest, of), k, anchorBest, of)
	if slices.Contains(radii, backlink.Page) {
		c.verdict += fmt.Sprintf(", the whole page worst at %d of %d", pageWorst, of)
	}
	return c, of > 0
}

// best returns the size at which method has its highest mean nDCG (the
// smallest such size) and that nDCG.
func (res *results) best(method string) (int, float64) {
	bestSize, bestNDCG := 0, math.Inf(-1)
	for _, size := range res.report.Sizes {
		if v := res.ndcg(method, size); v > bestNDCG {
			bestSize, bestNDCG = size, v
		}
	}
	return bestSize, bestNDCG
}

// checkBacklinks: 100 and 1000 backlinks reach the highest nDCG (0.61 at 3
// terms) but 10 backlinks come within 0.04 at a tenth of the cost (§4.3
// "Backlink Ranking", Figure 11).
func (res *results) checkBacklinks(sfx string) (check, bool) {
	c := check{
		title: "Backlink count: the top 10 backlinks come close to 100 and 1000 (§4.3, Figure 11)",
		paper: "100 and 1000 backlinks give the highest nDCG, 0.61 at 3 terms; the top 10 give 0.57 (0.58 at 4 terms), a loss of 0.04 for a tenth of the cost; the conclusions say the top 10 produced a better signature",
	}
	_, ks := res.gridValues()
	if len(ks) < 2 {
		return c, false
	}
	type point struct {
		k    int
		size int
		ndcg float64
	}
	var pts []point
	for _, k := range ks {
		size, v := res.best(name(1, backlink.Anchor, k, sfx))
		if math.IsInf(v, -1) {
			return c, false
		}
		pts = append(pts, point{k, size, v})
		c.evidence = append(c.evidence, fmt.Sprintf("%s: best %.3f at %d terms; %.3f at 3 terms, %.3f at 4 terms",
			name(1, backlink.Anchor, k, sfx), v, size, res.ndcg(name(1, backlink.Anchor, k, sfx), 3), res.ndcg(name(1, backlink.Anchor, k, sfx), 4)))
	}
	// Where the counts cannot differ: targets with no more level-1
	// backlinks than the smallest count.
	small, big := name(1, backlink.Anchor, ks[0], sfx), name(1, backlink.Anchor, ks[len(ks)-1], sfx)
	more := 0
	for _, t := range res.report.Targets {
		if t.Methods[big].Backlinks > t.Methods[small].Backlinks {
			more++
		}
	}
	c.evidence = append(c.evidence, fmt.Sprintf("%d of %d targets have more than %d level-1 backlinks; for the others the three counts give the same signature",
		more, len(res.report.Targets), ks[0]))
	top := slices.MaxFunc(pts, func(a, b point) int { return cmp.Compare(a.ndcg, b.ndcg) })
	ten := pts[0]
	gap := top.ndcg - ten.ndcg
	switch {
	case top.k == ten.k:
		c.verdict = fmt.Sprintf("partly agrees: the top %d backlinks give the best signature (%.3f), as the conclusions say, where the results section found 100 and 1000 slightly better", ten.k, ten.ndcg)
	case gap <= 0.05:
		c.verdict = fmt.Sprintf("agrees: %d backlinks give the best nDCG (%.3f) and the top %d come within %.3f", top.k, top.ndcg, ten.k, gap)
	default:
		c.verdict = fmt.Sprintf("differs: %d backlinks give the best nDCG (%.3f), %.3f above the top %d", top.k, top.ndcg, gap, ten.k)
	}
	return c, true
}

// checkSize: the best signature has 3 or 4 terms, and longer ones do worse
// (§4.4 "Lexical Signature Size", Tables 3 and 4).
func (res *results) checkSize(sfx string) (check, bool) {
	c := check{
		title: "Signature size: 3 or 4 terms are best, longer signatures worse (§4.4, Tables 3 and 4)",
		paper: "best at 3 terms for 1-anchor-1000 (0.61) and at 4 for 1-anchor-10 (0.58); 10 terms fall to 0.23 and 0.40",
	}
	won, of := 0, 0
	for _, p := range paperMethods {
		m := p.method + sfx
		size, v := res.best(m)
		if math.IsInf(v, -1) {
			continue
		}
		of++
		last := res.report.Sizes[len(res.report.Sizes)-1]
		if size == 3 || size == 4 {
			won++
		}
		c.evidence = append(c.evidence, fmt.Sprintf("%s: best %.3f at %d terms; %.3f at %d terms", m, v, size, res.ndcg(m, last), last))
	}
	// A signature shorter than a size makes that size's query the same as
	// a smaller one's.
	if len(paperMethods) > 0 {
		m := paperMethods[0].method + sfx
		last := res.report.Sizes[len(res.report.Sizes)-1]
		short, lengths := 0, []int{}
		for _, t := range res.report.Targets {
			n := len(t.Methods[m].Terms)
			lengths = append(lengths, n)
			if n < last {
				short++
			}
		}
		if len(lengths) > 0 {
			slices.Sort(lengths)
			c.evidence = append(c.evidence, fmt.Sprintf("%s: %d of %d targets have fewer than %d distinct terms in their signature (median %d), so their longer queries repeat a shorter one",
				m, short, len(lengths), last, lengths[len(lengths)/2]))
		}
	}
	// Over every level-1 method, where is the best size?
	hist := map[int]int{}
	n := 0
	for _, m := range res.report.Methods {
		if m.Depth == 1 && m.Nav == (sfx == "") {
			size, _ := res.best(m.String())
			hist[size]++
			n++
		}
	}
	var parts []string
	for _, size := range res.report.Sizes {
		if hist[size] > 0 {
			parts = append(parts, fmt.Sprintf("%d terms: %d", size, hist[size]))
		}
	}
	c.evidence = append(c.evidence, fmt.Sprintf("best size over the %d level-1 methods: %s", n, strings.Join(parts, ", ")))
	c.verdict = fmt.Sprintf("%s: %d of the %d methods of Tables 3 and 4 are best at 3 or 4 terms", verdict(won, of), won, of)
	return c, of > 0
}

// checkBinary: most targets are found at rank 1 or not at all (§4.5
// "Measures of Success": fewer than 5% between ranks 2 and 1000 for
// 1-anchor-10 at 4 terms).
func (res *results) checkBinary(sfx string) (check, bool) {
	c := check{
		title: "Binary distribution: targets are found first or not at all (§4.5, Table 4)",
		paper: "1-anchor-10 at 4 terms: 55.85% at rank 1, 39.46% beyond 1000, 4.68% in between",
	}
	m := "1-anchor-10" + sfx
	r, ok := res.run(m, 4)
	if !ok {
		return c, false
	}
	between := r.Buckets[score.BucketPage1] + r.Buckets[score.BucketTop100] + r.Buckets[score.BucketTop1000]
	c.evidence = append(c.evidence, fmt.Sprintf("%s at 4 terms: %.2f%% at rank 1, %.2f%% beyond 1000, %.2f%% in between (mean nDCG %.3f)",
		m, r.Buckets[score.BucketFirst], r.Buckets[score.BucketNotFound], between, r.MeanNDCG))
	switch {
	case between <= 10:
		c.verdict = fmt.Sprintf("agrees: %.2f%% of the targets fall between ranks 2 and 1000", between)
	default:
		c.verdict = fmt.Sprintf("differs: %.2f%% of the targets fall between ranks 2 and 1000, more than 10%%", between)
	}
	return c, true
}

// writeChecks writes the checks as Markdown.
func writeChecks(w io.Writer, checks []check) error {
	fmt.Fprintln(w, "# The paper's findings, checked")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Mean nDCG is the paper's DCG* over the first 1000 results. Verdicts: \"agrees\" when every comparison goes the paper's way, \"mostly\" at three quarters or more, \"partly\" above half, \"differs\" otherwise.")
	for _, c := range checks {
		fmt.Fprintf(w, "\n## %s\n\n- Paper: %s.\n", c.title, c.paper)
		for _, e := range c.evidence {
			fmt.Fprintf(w, "- Ours: %s.\n", e)
		}
		fmt.Fprintf(w, "- Verdict: %s.\n", c.verdict)
	}
	_, err := fmt.Fprintln(w)
	return err
}
