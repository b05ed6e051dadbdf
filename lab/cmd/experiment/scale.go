package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"sync"
	"time"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/lab/draw"
	"github.com/linkrot/relink/provider/store"
)

// scaleConfig is the part of the command line that runs at scale need:
// the targets of a smaller corpus drawn inside a larger store, the soft
// memory limit and the memory profile.
type scaleConfig struct {
	// drawManifest, when set, names the manifest whose sites the targets
	// are drawn from (drawFromSites).
	drawManifest string
	// memoryLimit is the soft memory limit in MB (debug.SetMemoryLimit);
	// 0 leaves the runtime's (GOMEMLIMIT, or none). limitSet says that
	// the command line gave it: the default does not override GOMEMLIMIT.
	memoryLimit int64
	limitSet    bool
	// memProfile, when set, is where the heap profile of the moment the
	// live heap was largest is written.
	memProfile string
}

// The experiment's default budgets in MB, for -page-budget and
// -search-budget. They keep a run of 1000 targets through the paper's grid
// on a store of 54,000 pages within 2.5 GB (lab/results/scale); the
// results are the same with any budget, only the time differs. Parsed
// pages are counted by backlink.Document.Size; the term counts of whole
// pages (radius page) come on top, about a tenth more, and so do the
// pages of the neighborhoods being evaluated, which the budget may have
// dropped from the cache while they are in use.
const (
	DefaultPageBudget   = 256
	DefaultSearchBudget = 128
)

// DefaultCandidateBudget is the default of -candidate-budget, in MB: the
// readings of candidate pages (a heading and word counts each, for
// Rerank) kept for the whole run, so that a page among the first
// candidates of many targets is fetched and parsed once.
const DefaultCandidateBudget = 64

// DefaultMemoryLimit is the experiment's soft memory limit in MB: the Go
// runtime collects garbage more often as its memory nears it, instead of
// letting the heap grow to twice what is live (GOGC=100). It is soft: the
// run goes on above it, and memory the runtime does not manage (SQLite's
// page cache) is not counted. A GOMEMLIMIT in the environment is kept
// unless -memory-limit is given.
const DefaultMemoryLimit = 1536

// DefaultGCPercent is the experiment's GOGC while its soft memory limit
// holds: the heap may grow to five times what is live, up to the limit,
// which bounds it (the runtime collects as it nears the limit, whatever
// the percent). The run's 1000 targets over the large corpus take a
// tenth less CPU than with GOGC=100, at the same peak within a few
// percent (lab/results/tail). A GOGC in the environment is kept, and
// without a memory limit the runtime's percent is left as it is.
const DefaultGCPercent = 400

// flags registers the scale flags on fs.
func (sc *scaleConfig) flags(fs *flag.FlagSet) {
	fs.StringVar(&sc.drawManifest, "draw", "", "draw the targets only from the pages of the sites of manifest `FILE`, each with a backlink page of those sites, with the same seed rule: the targets of a smaller corpus, evaluated inside a larger store that holds its sites")
	sc.memoryLimit = DefaultMemoryLimit
	fs.Func("memory-limit", "soft limit in `MB` on the memory of the Go runtime (debug.SetMemoryLimit; 0: the runtime's, GOMEMLIMIT or none) (default "+strconv.Itoa(DefaultMemoryLimit)+", or GOMEMLIMIT when set)", func(s string) error {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("want a number of MB, 0 or more")
		}
		sc.memoryLimit, sc.limitSet = n, true
		return nil
	})
	fs.StringVar(&sc.memProfile, "memprofile", "", "write a heap profile of the moment the live heap was largest to `FILE`, and report the peak on stderr")
}

// draw draws the targets of cfg from s: from every page with a backlink
// page (drawTargets), or from the pages of -draw's sites (drawFromSites).
func (cfg *config) draw(ctx context.Context, s labStore) ([]target, int, error) {
	if cfg.scale.drawManifest == "" {
		return drawTargets(ctx, s, cfg.targets, cfg.seed)
	}
	m, err := store.ReadManifest(cfg.scale.drawManifest)
	if err != nil {
		return nil, 0, fmt.Errorf("-draw: %w", err)
	}
	sites := map[string]bool{}
	for _, site := range m.Sites {
		sites[site.Name] = true
	}
	return drawFromSites(ctx, s, cfg.targets, cfg.seed, sites)
}

// drawFromSites draws n targets with seed as drawTargets does, from the
// pages of the named sites that a page of those sites links to. In a
// store built from a manifest that holds the sites and more, the
// candidates, and so the targets, are those that drawTargets draws from
// a store of those sites alone: links from the other sites neither add a
// candidate nor remove one. Only what the store holds beside the targets
// differs (more pages to search, more backlinks).
func drawFromSites(ctx context.Context, s interface {
	draw.Pager
	backlink.Provider
}, n int, seed uint64, sites map[string]bool) ([]target, int, error) {
	in := map[string]bool{}
	var linked []store.PageInfo
	for p, err := range s.Pages(ctx) {
		if err != nil {
			return nil, 0, err
		}
		if !sites[p.Site] {
			continue
		}
		in[p.URI] = true
		if p.Backlinks > 0 {
			linked = append(linked, p)
		}
	}
	var pages []store.PageInfo
	for _, p := range linked {
		bl, err := s.Backlinks(ctx, p.URI, 0)
		if err != nil {
			return nil, 0, err
		}
		for _, b := range bl {
			if in[b.URI] {
				pages = append(pages, p)
				break
			}
		}
	}
	return draw.Pick(pages, n, seed)
}

// watch applies the soft memory limit (and with it DefaultGCPercent) and,
// with -memprofile, samples the
// Go heap every second until the returned function is called, keeping the
// heap profile of the moment the live heap was largest; the function
// writes it and reports the peaks, or the error of writing it, on w, and
// puts the memory limit back.
func (sc *scaleConfig) watch(w io.Writer) (stop func()) {
	restore := func() {}
	if sc.memoryLimit > 0 && (sc.limitSet || os.Getenv("GOMEMLIMIT") == "") {
		prev := debug.SetMemoryLimit(sc.memoryLimit << 20)
		prevGC := -1
		if os.Getenv("GOGC") == "" {
			prevGC = debug.SetGCPercent(DefaultGCPercent)
		}
		restore = func() {
			debug.SetMemoryLimit(prev)
			if prevGC >= 0 {
				debug.SetGCPercent(prevGC)
			}
		}
	}
	if sc.memProfile == "" {
		return restore
	}
	p := &heapPeak{start: time.Now(), done: make(chan struct{})}
	p.wg.Go(p.run)
	return func() {
		defer restore()
		close(p.done)
		p.wg.Wait()
		p.sample() // the end of the run may be the peak
		if err := os.WriteFile(sc.memProfile, p.profile, 0o644); err != nil {
			fmt.Fprintln(w, "experiment: -memprofile:", err)
			return
		}
		fmt.Fprintf(w, "experiment: peak live heap %.0f MB, profiled at %.0f MB after %s (Go memory then %.0f MB); peak Go memory %.0f MB; heap profile in %s\n",
			mb(p.maxLive), mb(p.live), p.at.Round(time.Second), mb(p.goTotal), mb(p.maxTotal), sc.memProfile)
	}
}

// heapPeak samples the Go heap and keeps the profile of its largest
// live heap.
type heapPeak struct {
	start time.Time
	done  chan struct{}
	wg    sync.WaitGroup

	live, goTotal     uint64 // bytes, when profiled
	maxLive, maxTotal uint64 // bytes, the peaks sampled
	at                time.Duration
	profile           []byte
}

// The runtime/metrics samples heapPeak reads: the heap live after the last
// collection, and all memory the Go runtime has from the system.
var heapMetrics = []string{"/gc/heap/live:bytes", "/memory/classes/total:bytes"}

func (p *heapPeak) run() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-t.C:
			p.sample()
		}
	}
}

// sample reads the metrics, and takes a heap profile when the live heap
// is a tenth above the last one profiled.
func (p *heapPeak) sample() {
	s := make([]metrics.Sample, len(heapMetrics))
	for i, name := range heapMetrics {
		s[i].Name = name
	}
	metrics.Read(s)
	live, total := s[0].Value.Uint64(), s[1].Value.Uint64()
	p.maxLive, p.maxTotal = max(p.maxLive, live), max(p.maxTotal, total)
	if live < p.live+p.live/10 {
		return
	}
	var b bytes.Buffer
	if err := pprof.Lookup("heap").WriteTo(&b, 0); err != nil {
		return
	}
	p.live, p.goTotal, p.at, p.profile = live, total, time.Since(p.start), b.Bytes()
}

// mb converts bytes to MB.
func mb(b uint64) float64 { return float64(b) / (1 << 20) }
