package eval

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/lexsig"
)

// TargetCost is what evaluating one target cost: its time, by stage, and
// the work done for it. Work shared through the evaluation's caches counts
// for the target that did it first: a backlink page is parsed for the
// first target whose neighborhood holds it (and again for a later one when
// the page budget dropped it meanwhile), a query is searched for the first
// target that asks it.
//
// Go does not measure the CPU time of a goroutine, so the times are wall
// times: they include waiting for the processor while other targets run
// (Evaluation.Workers of them at once) and for the store. CPUSeconds is the
// process's CPU time over the target, measured only when one target runs
// at a time (Workers 1), where it is the target's own and the runtime's
// (garbage collection included). Evaluate labels each target's goroutines
// with pprof label "target" (its canonical URI), so a CPU profile of the
// evaluation attributes its samples to targets (go tool pprof -tags,
// -tagfocus) whatever the number of workers.
type TargetCost struct {
	// Seconds is the wall time from the target's start to its end.
	Seconds float64 `json:"seconds"`
	// CPUSeconds is the process's user and system CPU time over the
	// target when it ran alone (Workers 1); 0 otherwise.
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
	// Stages break Seconds down by stage of the Finder.
	Stages Stages `json:"stages"`
	// Parsed counts the backlink pages fetched, filtered and parsed for
	// this target (relink.Inspection); Reparsed those of them that had
	// been parsed before, for this target or another, and were dropped by
	// the page budget since.
	Parsed   int `json:"parsed"`
	Reparsed int `json:"reparsed"`
	// Walked counts the backlink pages of the neighborhoods the target's
	// methods gathered, summed over the neighborhoods: each was looked up
	// in the page cache and located (its links searched for the page it
	// was listed for) once per neighborhood that holds it.
	Walked int `json:"walked"`
	// Lookups counts the backlink provider calls the methods made (each
	// URI is asked of the provider once per target).
	Lookups int `json:"lookups"`
	// Queries counts the queries sent to the Searcher for this target (no
	// earlier target had asked them, or the search budget had dropped
	// their answers); Searches the queries its methods looked up, repeats
	// included.
	Queries  int `json:"queries"`
	Searches int `json:"searches"`
}

// Stages is the wall time of a target's evaluation by stage, in seconds.
type Stages struct {
	// Clues is Finder.Clues: the neighborhood walked, its pages inspected
	// (fetched, filtered and parsed unless the page cache holds them) and
	// located, and the target's archived copy for the strategies that
	// read it.
	Clues float64 `json:"clues"`
	// Signatures is the grid's Paper.Signature (words drawn around the
	// links, ranked by TF-IDF, DF lookups included) and the strategies'
	// Strategy.Find less the searches it made (their signatures, and any
	// page they fetch).
	Signatures float64 `json:"signatures"`
	// Search is the time spent in the Searcher's Search, cached answers
	// included. A strategy that searches several queries at once counts
	// each search in full.
	Search float64 `json:"search"`
	// Judge is Finder.Answer: the candidates cut and ranked, and their
	// confidence judged.
	Judge float64 `json:"judge"`
}

// Total returns the sum of the stages.
func (s Stages) Total() float64 { return s.Clues + s.Signatures + s.Search + s.Judge }

// costMeter counts a target's cost as its methods run; the counters that
// goroutines of the Finder's stages add to are atomic.
type costMeter struct {
	clues, signatures, judge time.Duration // added by the target's goroutine

	search            atomic.Int64 // nanoseconds
	parsed, reparsed  atomic.Int64
	queries, searches atomic.Int64
	walked            int
	lookups           int64
	start             time.Time
	cpuStart          time.Duration
	cpuMeasured       bool // the target runs alone: the process's CPU time is its own
}

// begin starts the meter; alone says whether the target runs alone.
func (m *costMeter) begin(alone bool) {
	m.start = time.Now()
	if alone {
		m.cpuStart, m.cpuMeasured = processCPU()
	}
}

// timed adds the wall time of f to *d.
func timed(d *time.Duration, f func()) {
	start := time.Now()
	f()
	*d += time.Since(start)
}

// cost returns the target's cost once it is done.
func (m *costMeter) cost() TargetCost {
	c := TargetCost{
		Seconds: time.Since(m.start).Seconds(),
		Stages: Stages{
			Clues:      m.clues.Seconds(),
			Signatures: m.signatures.Seconds(),
			Search:     time.Duration(m.search.Load()).Seconds(),
			Judge:      m.judge.Seconds(),
		},
		Parsed:   int(m.parsed.Load()),
		Reparsed: int(m.reparsed.Load()),
		Walked:   m.walked,
		Lookups:  int(m.lookups),
		Queries:  int(m.queries.Load()),
		Searches: int(m.searches.Load()),
	}
	if m.cpuMeasured {
		if now, ok := processCPU(); ok {
			c.CPUSeconds = (now - m.cpuStart).Seconds()
		}
	}
	return c
}

// meteredSearcher is the Searcher of one target's Finder: the run's search
// cache, with the target's searches timed and counted.
type meteredSearcher struct {
	c *searchCache
	m *costMeter
}

// Search implements lexsig.Searcher.
func (s meteredSearcher) Search(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
	start := time.Now()
	res, searched, err := s.c.search(ctx, q, limit)
	s.m.search.Add(int64(time.Since(start)))
	s.m.searches.Add(1)
	if searched {
		s.m.queries.Add(1)
	}
	return res, err
}

// meteredPages is the PageCache of one target's Finder: the run's page
// cache, with the pages parsed for the target counted.
type meteredPages struct {
	p *recordedPages
	m *costMeter
}

// Inspect implements relink.PageCache.
func (p meteredPages) Inspect(ctx context.Context, key string, inspect func(context.Context) *relink.Inspection) *relink.Inspection {
	return p.p.Inspect(ctx, key, func(ctx context.Context) *relink.Inspection {
		p.m.parsed.Add(1)
		if p.p.inspectedBefore(key) {
			p.m.reparsed.Add(1)
		}
		return inspect(ctx)
	})
}

// inspected records every key inspected through a recordedPages, kept or
// dropped since, to tell a page parsed again from one parsed first.
type inspected struct {
	mu   sync.Mutex
	keys map[string]bool
}

// inspectedBefore reports whether key was inspected before, and records
// that it is now.
func (r *recordedPages) inspectedBefore(key string) bool {
	r.seen.mu.Lock()
	defer r.seen.mu.Unlock()
	if r.seen.keys == nil {
		r.seen.keys = map[string]bool{}
	}
	before := r.seen.keys[key]
	r.seen.keys[key] = true
	return before
}
