package store_test

import (
	"context"
	"flag"
	"slices"
	"testing"
	"time"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/internal/measure"
	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/score"
)

// devStore names a store built from the development corpus, e.g.
//
//	go run ./cmd/relink corpus -manifest ../shared/bench/dev-corpus.json -store /tmp/dev.db
//	go test -run Measure -v ./provider/store -devstore /tmp/dev.db
//
// Without it the measurements skip.
var devStore = flag.String("devstore", "", "store built from the development corpus; enables the TestMeasure tests")

// openDev opens the development store read-only, without a query cache,
// or skips the test.
func openDev(t *testing.T, titleWeight float64) *store.Store {
	t.Helper()
	if *devStore == "" {
		t.Skip("no -devstore")
	}
	s, err := store.Open(*devStore, &store.Options{ReadOnly: true, QueryCache: -1, TitleWeight: titleWeight})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// sample returns up to n pages of the store chosen with a fixed seed among
// those keep accepts.
func sample(t *testing.T, s *store.Store, n int, keep func(store.PageInfo) bool) []store.PageInfo {
	t.Helper()
	var all []store.PageInfo
	for p, err := range s.Pages(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		if keep(p) {
			all = append(all, p)
		}
	}
	return measure.Sample(all, n)
}

// TestMeasureQueryLatency times conjunctive queries of 3 and 4 terms made
// from real page titles (stop words and one-letter words dropped), with the
// query cache off.
func TestMeasureQueryLatency(t *testing.T) {
	s := openDev(t, 0)
	ctx := context.Background()
	pages := sample(t, s, 300, func(p store.PageInfo) bool { return len(measure.TitleTerms(p.Title)) >= 4 })
	for _, k := range []int{3, 4} {
		var times []time.Duration
		found := 0
		for _, p := range pages {
			q := lexsig.Query{Terms: measure.TitleTerms(p.Title)[:k]}
			start := time.Now()
			res, err := s.Search(ctx, q, store.MaxResults)
			times = append(times, time.Since(start))
			if err != nil {
				t.Fatal(err)
			}
			if len(res) > 0 {
				found++
			}
		}
		slices.Sort(times)
		t.Logf("%d-term conjunctive queries: %d, median %v, p99 %v, max %v; %d with results",
			k, len(times), times[len(times)/2], times[len(times)*99/100], times[len(times)-1], found)
	}
}

// TestMeasureTitleWeight runs the paper's best method (level-1 backlinks,
// anchor text, top 10 backlinks, 4 terms, Table 4) over 300 pages with
// content backlinks, for several title weights, and reports the mean nDCG
// of each.
func TestMeasureTitleWeight(t *testing.T) {
	base := openDev(t, 0)
	ctx := context.Background()
	targets := sample(t, base, 300, func(p store.PageInfo) bool { return p.ContentBacklinks > 0 })
	queries := make([]lexsig.Query, len(targets))
	for i, target := range targets {
		q, err := measure.AnchorQuery(ctx, base.WithMissing(target.URI), target.URI)
		if err != nil {
			t.Fatal(err)
		}
		queries[i] = q
	}
	for _, w := range []float64{1, 2, 3, 5, 8, 13, 20, 50} {
		s := openDev(t, w)
		var sum float64
		top := 0
		for i, target := range targets {
			res, err := s.Search(ctx, queries[i], store.MaxResults)
			if err != nil {
				t.Fatal(err)
			}
			rank := slices.IndexFunc(res, func(r lexsig.Result) bool { return r.URI == target.URI }) + 1
			sum += score.DCG(rank)
			if rank == 1 {
				top++
			}
		}
		t.Logf("title weight %v: mean nDCG %.3f, rank 1 for %d of %d", w, sum/float64(len(targets)), top, len(targets))
	}
}

// TestMeasureProviders times Backlinks, Fetch and DocFreq on 300 pages.
func TestMeasureProviders(t *testing.T) {
	s := openDev(t, 0)
	ctx := context.Background()
	pages := sample(t, s, 300, func(store.PageInfo) bool { return true })
	report := func(name string, f func(p store.PageInfo) error) {
		var times []time.Duration
		for _, p := range pages {
			start := time.Now()
			if err := f(p); err != nil {
				t.Fatal(err)
			}
			times = append(times, time.Since(start))
		}
		slices.Sort(times)
		t.Logf("%s: median %v, p99 %v", name, times[len(times)/2], times[len(times)*99/100])
	}
	report("Backlinks(1000)", func(p store.PageInfo) error {
		_, err := s.Backlinks(ctx, p.URI, 1000)
		return err
	})
	report("Fetch", func(p store.PageInfo) error {
		_, err := s.Fetch(ctx, p.URI)
		return err
	})
	report("DocFreqs(title terms)", func(p store.PageInfo) error {
		_, err := s.DocFreqs(ctx, lexsig.Tokenize(p.Title))
		return err
	})
}
