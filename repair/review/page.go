package review

import (
	"bytes"
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/linkrot/relink/repair"
)

// The orders of the table (the query's sort).
const (
	sortInput         = ""               // input order
	sortVerdict       = "verdict"        // moved, gone, alive, unknown; then by confidence, highest first
	sortConfidence    = "confidence"     // highest first
	sortConfidenceAsc = "confidence-asc" // lowest first
)

// maxCandidates is how many candidates a dead link shows, each with a
// digit key; maxRejected how many of its rejected backlinks.
const (
	maxCandidates = 9
	maxRejected   = 5
)

// counts are the decisions of the results: accepted, rejected and open.
type counts struct {
	Accepted int `json:"accepted"`
	Rejected int `json:"rejected"`
	Open     int `json:"open"`
}

// pageData is what the page template shows.
type pageData struct {
	Token    string
	Sort     string
	Sel      int
	Rows     []row
	Counts   counts
	Chart    chart
	Legend   []repair.Verdict
	SortConf string // the sort the confidence header links to
	// Total is how many dead links there are; Page and Pages the page
	// shown (from 1) and how many; Prev and Next the pages before and
	// after it, 0 for none.
	Total, Page, Pages, Prev, Next int
}

// row is one dead link: its line of the table and its evidence.
type row struct {
	ID         int
	Res        repair.Result
	Confidence string
	Decision   string // accept, reject, or "" when open
	Chosen     string // the URI accepted
	Selected   bool
	CanAccept  bool // the result proposes a web URL other than the dead one
	Kept       []context
	Rejected   []repair.Backlink
	MoreRej    int
	Candidates []candidate
	MoreCands  int
	// Top is the candidate set beside the archived copy: the one
	// accepted, else the one proposed, else the first; nil for none.
	Top *candidate
	// TopLabel says which one Top is.
	TopLabel string
}

// context is a kept backlink with its anchor marked in the words around
// it.
type context struct {
	URI                  string
	Before, Mark, After  string
	Anchor               string
	HasContext, HasMarks bool
}

// candidate is one candidate of a dead link, numbered from 1.
type candidate struct {
	repair.Candidate
	N        int
	Score    string
	Proposed bool // the result's URI
	Chosen   bool // the URI accepted
}

// page serves the review page.
func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	order := q.Get("sort")
	switch order {
	case sortInput, sortVerdict, sortConfidence, sortConfidenceAsc:
	default:
		order = sortInput
	}
	s.mu.Lock()
	d := pageData{Token: s.opts.Token, Sort: order, Counts: s.counts(), Legend: repair.Verdicts(),
		Chart: newChart(s.results, s.opts.Threshold), SortConf: sortConfidence}
	ids := s.order(order)
	on := s.pageOf(ids, q.Get("page"), q.Get("sel"))
	d.Total, d.Page, d.Pages, d.Sel = len(ids), on.page, on.pages, on.sel
	if on.page > 1 {
		d.Prev = on.page - 1
	}
	if on.page < on.pages {
		d.Next = on.page + 1
	}
	for _, id := range on.ids {
		d.Rows = append(d.Rows, s.row(id, id == on.sel))
	}
	s.mu.Unlock()
	if order == sortConfidence {
		d.SortConf = sortConfidenceAsc
	}
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, d); err != nil {
		http.Error(w, "the page could not be made: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
}

// onPage is the page a request shows: its rows, the row selected, its
// number (from 1) and how many pages there are.
type onPage struct {
	ids         []int
	sel         int
	page, pages int
}

// pageOf returns the page of ids (in the order shown) that a request's
// page and sel name: page when it is one (its row sel when sel is on it,
// else its first open row, else its first); else the page of row sel;
// else that of the first open row. Only the rows of one page are made
// into HTML, so that a request's memory does not grow with the results.
// The caller holds s.mu.
func (s *Server) pageOf(ids []int, page, sel string) onPage {
	size := s.opts.PageSize
	if size <= 0 {
		size = DefaultPageSize
	}
	p := onPage{pages: max(1, (len(ids)+size-1)/size), sel: -1}
	if id, err := strconv.Atoi(sel); err == nil && id >= 0 && id < len(s.results) {
		p.sel = id
	}
	n, err := strconv.Atoi(page)
	switch {
	case err == nil && n >= 1 && n <= p.pages:
		p.page = n
	case p.sel >= 0:
		p.page = slices.Index(ids, p.sel)/size + 1
	default:
		p.sel = s.firstOpen(ids)
		p.page = slices.Index(ids, p.sel)/size + 1
	}
	p.page = max(p.page, 1)
	p.ids = ids[(p.page-1)*size : min(p.page*size, len(ids))]
	if !slices.Contains(p.ids, p.sel) {
		p.sel = s.firstOpen(p.ids)
	}
	return p
}

// counts counts the decisions of the results. The caller holds s.mu.
func (s *Server) counts() counts {
	var c counts
	for _, r := range s.results {
		switch s.state.by[r.Dead].Decision {
		case repair.Accept:
			c.Accepted++
		case repair.Reject:
			c.Rejected++
		default:
			c.Open++
		}
	}
	return c
}

// order returns the indexes of the results in the order sort names.
func (s *Server) order(sort string) []int {
	ids := make([]int, len(s.results))
	for i := range ids {
		ids[i] = i
	}
	rank := map[repair.Verdict]int{}
	for i, v := range repair.Verdicts() {
		rank[v] = i + 1
	}
	conf := func(a, b int) int { return cmp.Compare(s.results[b].Confidence, s.results[a].Confidence) }
	switch sort {
	case sortVerdict:
		slices.SortStableFunc(ids, func(a, b int) int {
			ra, rb := rank[s.results[a].Verdict], rank[s.results[b].Verdict]
			if ra == 0 {
				ra = len(rank) + 1
			}
			if rb == 0 {
				rb = len(rank) + 1
			}
			return cmp.Or(cmp.Compare(ra, rb), conf(a, b))
		})
	case sortConfidence:
		slices.SortStableFunc(ids, conf)
	case sortConfidenceAsc:
		slices.SortStableFunc(ids, func(a, b int) int { return conf(b, a) })
	}
	return ids
}

// firstOpen returns the first of ids without a decision, or the first.
// The caller holds s.mu.
func (s *Server) firstOpen(ids []int) int {
	for _, id := range ids {
		if _, ok := s.state.by[s.results[id].Dead]; !ok {
			return id
		}
	}
	if len(ids) == 0 {
		return 0
	}
	return ids[0]
}

// next returns the row after id in the order sort, or id when it is the
// last.
func (s *Server) next(id int, sort string) int {
	ids := s.order(sort)
	if i := slices.Index(ids, id); i >= 0 && i+1 < len(ids) {
		return ids[i+1]
	}
	return id
}

// row returns the view of result id. The caller holds s.mu.
func (s *Server) row(id int, selected bool) row {
	res := s.results[id]
	x := s.state.by[res.Dead]
	rw := row{ID: id, Res: res, Confidence: fmt.Sprintf("%.2f", res.Confidence),
		Decision: string(x.Decision), Selected: selected,
		CanAccept: webURL(res.URI) && res.URI != res.Dead}
	if x.Decision == repair.Accept {
		rw.Chosen = x.URI
	}
	for _, b := range res.Backlinks {
		if !b.Kept {
			if len(rw.Rejected) < maxRejected {
				rw.Rejected = append(rw.Rejected, b)
			} else {
				rw.MoreRej++
			}
			continue
		}
		rw.Kept = append(rw.Kept, newContext(b))
	}
	for i, c := range res.Candidates {
		if i == maxCandidates {
			rw.MoreCands = len(res.Candidates) - maxCandidates
			break
		}
		rw.Candidates = append(rw.Candidates, candidate{Candidate: c, N: i + 1,
			Score:    strconv.FormatFloat(c.Score, 'g', 3, 64),
			Proposed: c.URI == res.URI, Chosen: rw.Chosen != "" && c.URI == rw.Chosen})
	}
	for _, pick := range []struct {
		label string
		ok    func(candidate) bool
	}{
		{"Chosen new page", func(c candidate) bool { return c.Chosen }},
		{"Proposed new page", func(c candidate) bool { return c.Proposed }},
		{"First candidate", func(candidate) bool { return true }},
	} {
		if i := slices.IndexFunc(rw.Candidates, pick.ok); i >= 0 {
			rw.Top, rw.TopLabel = &rw.Candidates[i], pick.label
			break
		}
	}
	if rw.Top == nil {
		rw.TopLabel = "Proposed new page"
	}
	return rw
}

// newContext marks the anchor text of b in the words around it, where it
// is found there.
func newContext(b repair.Backlink) context {
	c := context{URI: b.URI, Anchor: b.Anchor, Before: b.Context, HasContext: b.Context != ""}
	if b.Anchor == "" || b.Context == "" {
		return c
	}
	if i := strings.Index(b.Context, b.Anchor); i >= 0 {
		c.Before, c.Mark, c.After = b.Context[:i], b.Anchor, b.Context[i+len(b.Anchor):]
		c.HasMarks = true
	}
	return c
}
