package score

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Run is the result of one method at one lexical-signature size over a set
// of targets: one column of the paper's Tables 3 and 4, and one entry of
// "runs" in the experiment's summary.json (the names of method, terms,
// targets, mean_ndcg and buckets are fixed by the benchmark's interface).
type Run struct {
	// Method names how the signature was drawn, LEVELS-RADIUS-BACKLINKS as
	// in the paper's figures ("1-anchor-10"), or a name of the project's own.
	Method string `json:"method"`
	// Terms is the lexical-signature size (§3.2 "Lexical Signature Size").
	Terms int `json:"terms"`
	// Targets is the number of targets scored.
	Targets int `json:"targets"`
	// MeanNDCG is the mean DCG* over the targets (MeanDCG), the last row of
	// Tables 3 and 4.
	MeanNDCG float64 `json:"mean_ndcg"`
	// Buckets maps each name of BucketNames to the percentage of targets
	// ranked in that bucket (Shares), the first five rows of Tables 3 and 4.
	Buckets map[string]float64 `json:"buckets"`
	// Mode names an evaluation mode other than the paper's, where the target
	// keeps its URI (for example "moved"); empty for the paper's.
	Mode string `json:"mode,omitempty"`
	// UsesArchive reports that the method used an archived copy of the
	// target.
	UsesArchive bool `json:"uses_archive,omitempty"`
	// MRR is the mean reciprocal rank over the targets (MRR).
	MRR float64 `json:"mrr"`
	// SuccessAt1 is the fraction of targets found at rank 1 (SuccessAt).
	SuccessAt1 float64 `json:"success_at_1"`
	// SuccessAt10 is the fraction of targets found in the top 10 results.
	SuccessAt10 float64 `json:"success_at_10"`
	// Cost is what the method cost per target, when it was measured.
	Cost *Cost `json:"cost,omitempty"`
	// Answer is how often the method's confidence reached its threshold,
	// and how often its first candidate was then the page; nil when no
	// confidence was recorded (Table.AddAnswer).
	Answer *Answer `json:"answer,omitempty"`
	// Default marks the runs of the method a relink.Finder uses by
	// default.
	Default bool `json:"default,omitempty"`
}

// Answer is what a method's confidence said over a set of targets: the
// answer of BENCHMARK.md's summary.json.
type Answer struct {
	// Threshold is the confidence at or above which the method answers
	// with its first candidate; below it, it says "not found".
	Threshold float64 `json:"threshold"`
	// Answered is the fraction of targets for which the confidence
	// reached Threshold.
	Answered float64 `json:"answered"`
	// Correct is the fraction of targets for which it did and the first
	// candidate was the page. Correct/Answered is the precision of the
	// method's answers; for deleted pages Correct is 0 and Answered is
	// the rate of false suggestions.
	Correct float64 `json:"correct"`
}

// Cost is what rediscovering one target costs with a method, on average
// over the targets: backlink lookups (one per page whose backlinks are
// asked for), search queries, and page fetches (backlink pages, their
// soft-404 probes, and candidate pages for methods that read them).
type Cost struct {
	Lookups  float64 `json:"lookups"`
	Searches float64 `json:"searches"`
	Fetches  float64 `json:"fetches"`
}

// NewRun returns the Run of method at signature size terms whose targets
// were found at ranks (one rank per target, 0 for not found). Mode and
// UsesArchive are left empty.
func NewRun(method string, terms int, ranks []int) Run {
	return Run{
		Method:      method,
		Terms:       terms,
		Targets:     len(ranks),
		MeanNDCG:    MeanDCG(ranks),
		Buckets:     Shares(ranks),
		MRR:         MRR(ranks),
		SuccessAt1:  SuccessAt(ranks, 1),
		SuccessAt10: SuccessAt(ranks, 10),
	}
}

// MethodInfo describes a method for the Runs of a Table.
type MethodInfo struct {
	// Mode is copied to Run.Mode.
	Mode string
	// UsesArchive is copied to Run.UsesArchive.
	UsesArchive bool
	// Threshold is copied to Run.Answer.Threshold.
	Threshold float64
	// Default is copied to Run.Default.
	Default bool
}

// Table collects the rank at which each target was found, by method and
// signature size, and summarizes them as Runs and as the paper's Tables 3
// and 4. The zero value is an empty table ready to use; a Table must not be
// copied after first use. It is safe for concurrent use, so the workers of
// an evaluation can add to one Table.
type Table struct {
	mu      sync.Mutex
	ranks   map[runKey][]int
	answers map[runKey]*answerCount
	info    map[string]MethodInfo
}

// answerCount counts a run's answers.
type answerCount struct{ answered, correct int }

// runKey identifies one column of a table.
type runKey struct {
	method string
	terms  int
}

// NewTable returns an empty Table, the same as new(Table).
func NewTable() *Table { return new(Table) }

// Add records that, with method and a signature of terms terms, one target
// was found at rank (1 first; 0 for not found, as is any rank below 1 or above
// MaxRank).
func (t *Table) Add(method string, terms, rank int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ranks == nil {
		t.ranks = make(map[runKey][]int)
	}
	k := runKey{method, terms}
	t.ranks[k] = append(t.ranks[k], rank)
}

// AddAnswer records, for one target of method at signature size terms,
// whether the method's confidence reached its threshold (answered) and
// whether its first candidate was then the page (correct). The fractions
// of Run.Answer are over the targets added with Add.
func (t *Table) AddAnswer(method string, terms int, answered, correct bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.answers == nil {
		t.answers = make(map[runKey]*answerCount)
	}
	k := runKey{method, terms}
	a := t.answers[k]
	if a == nil {
		a = &answerCount{}
		t.answers[k] = a
	}
	if answered {
		a.answered++
		if correct {
			a.correct++
		}
	}
}

// Describe sets the mode and archive use reported in every Run of method,
// replacing an earlier description. A method never described has the
// paper's mode and uses no archive.
func (t *Table) Describe(method string, info MethodInfo) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.info == nil {
		t.info = make(map[string]MethodInfo)
	}
	t.info[method] = info
}

// Ranks returns a copy of the ranks added for method at signature size
// terms, in the order they were added; nil if there are none.
func (t *Table) Ranks(method string, terms int) []int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.ranks[runKey{method, terms}])
}

// Methods returns the methods that have at least one rank, sorted.
func (t *Table) Methods() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for k := range t.ranks {
		out = append(out, k.method)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Runs returns one Run for each method and signature size that has at least
// one rank, sorted by method, then by size.
func (t *Table) Runs() []Run {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]Run, 0, len(t.ranks))
	for k, ranks := range t.ranks {
		r := NewRun(k.method, k.terms, ranks)
		info := t.info[k.method]
		r.Mode, r.UsesArchive, r.Default = info.Mode, info.UsesArchive, info.Default
		if a := t.answers[k]; a != nil && len(ranks) > 0 {
			n := float64(len(ranks))
			r.Answer = &Answer{Threshold: info.Threshold, Answered: float64(a.answered) / n, Correct: float64(a.correct) / n}
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Run) int {
		return cmp.Or(cmp.Compare(a.Method, b.Method), cmp.Compare(a.Terms, b.Terms))
	})
	return out
}

// Markdown renders the runs of method as the paper's Tables 3 and 4 do; see
// MarkdownRuns. It returns "" when method has no ranks.
func (t *Table) Markdown(method string) string {
	return MarkdownRuns(t.Runs(), method)
}

// Caption returns the caption of the paper's Tables 3 and 4 for method:
// "Result Rank and nDCG vs Lexical Signature Size (METHOD)".
func Caption(method string) string {
	return "Result Rank and nDCG vs Lexical Signature Size (" + method + ")"
}

// MarkdownRuns renders the runs of method in the layout of the paper's
// Tables 3 and 4 (§4.5 "Measures of Success"): the Caption, a blank line,
// and a Markdown table with one column per signature size present, in
// ascending order, one row per rank bucket holding the percentage of
// targets with two decimals, and a last row "Mean nDCG" with two decimals:
//
//	Result Rank and nDCG vs Lexical Signature Size (1-anchor-10)
//
//	| Result rank | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 10 |
//	| :-- | --: | --: | --: | --: | --: | --: | --: | --: |
//	| 1 | 25.08 | 45.15 | 52.51 | 55.85 | 52.84 | 47.83 | 46.49 | 39.13 |
//	...
//	| Mean nDCG | 0.32 | 0.52 | 0.57 | 0.58 | 0.54 | 0.49 | 0.47 | 0.40 |
//
// Runs of other methods are ignored; when several runs of method have the
// same size, the first is used. A bucket missing from a run's Buckets shows
// as 0.00. It returns "" when runs hold no run of method.
func MarkdownRuns(runs []Run, method string) string {
	cols := columns(runs, method)
	if len(cols) == 0 {
		return ""
	}
	return render(Caption(method), cols, func(r Run, row string) string {
		return cellText(r, row)
	})
}

// CompareMarkdown renders our runs of method next to the paper's (or any
// other reference runs) in one table of the MarkdownRuns layout, each cell
// reading "OURS / PAPER"; a side with no run at a size shows "n/a". The
// caption is Caption(method) followed by ", ours / paper". It returns "" when
// neither side has a run of method.
func CompareMarkdown(ours, paper []Run, method string) string {
	a, b := columns(ours, method), columns(paper, method)
	byTerms := func(cols []Run) map[int]Run {
		m := make(map[int]Run, len(cols))
		for _, r := range cols {
			m[r.Terms] = r
		}
		return m
	}
	oursAt, paperAt := byTerms(a), byTerms(b)
	var cols []Run
	for _, r := range slices.Concat(a, b) {
		if !slices.ContainsFunc(cols, func(c Run) bool { return c.Terms == r.Terms }) {
			cols = append(cols, Run{Terms: r.Terms})
		}
	}
	if len(cols) == 0 {
		return ""
	}
	slices.SortFunc(cols, func(x, y Run) int { return cmp.Compare(x.Terms, y.Terms) })
	side := func(at map[int]Run, terms int, row string) string {
		r, ok := at[terms]
		if !ok {
			return "n/a"
		}
		return cellText(r, row)
	}
	return render(Caption(method)+", ours / paper", cols, func(c Run, row string) string {
		return side(oursAt, c.Terms, row) + " / " + side(paperAt, c.Terms, row)
	})
}

// rowMeanNDCG is the label of the last row of Tables 3 and 4.
const rowMeanNDCG = "Mean nDCG"

// columns returns the first run of method at each size, by ascending size.
func columns(runs []Run, method string) []Run {
	var cols []Run
	for _, r := range runs {
		if r.Method != method || slices.ContainsFunc(cols, func(c Run) bool { return c.Terms == r.Terms }) {
			continue
		}
		cols = append(cols, r)
	}
	slices.SortStableFunc(cols, func(a, b Run) int { return cmp.Compare(a.Terms, b.Terms) })
	return cols
}

// cellText returns the value of row (a bucket name or rowMeanNDCG) for r.
func cellText(r Run, row string) string {
	if row == rowMeanNDCG {
		return fmt.Sprintf("%.2f", r.MeanNDCG)
	}
	return fmt.Sprintf("%.2f", r.Buckets[row])
}

// render writes a table with caption, one column per run of cols, the
// bucket rows and the mean nDCG row, each cell given by cell.
func render(caption string, cols []Run, cell func(r Run, row string) string) string {
	var b strings.Builder
	b.WriteString(caption)
	b.WriteString("\n\n| Result rank |")
	for _, c := range cols {
		fmt.Fprintf(&b, " %d |", c.Terms)
	}
	b.WriteString("\n| :-- |")
	for range cols {
		b.WriteString(" --: |")
	}
	b.WriteString("\n")
	for _, row := range append(BucketNames(), rowMeanNDCG) {
		fmt.Fprintf(&b, "| %s |", row)
		for _, c := range cols {
			fmt.Fprintf(&b, " %s |", cell(c, row))
		}
		b.WriteString("\n")
	}
	return b.String()
}
