package postgres_test

import (
	"context"
	"flag"
	"slices"
	"testing"
	"time"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/corpus"
	"github.com/linkrot/relink/provider/internal/measure"
	"github.com/linkrot/relink/provider/postgres"
	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/score"
)

// The measurements read the development corpus ingested into PostgreSQL
// (-devpg, a DSN) and, beside it, into an SQLite store (-devstore), e.g.
//
//	relink corpus -manifest lab/corpus/dev.json -store postgres://.../dev
//	go test -run Measure -v ./provider/postgres -devpg postgres://.../dev -devstore dev.db
//
// Without -devpg they skip.
var (
	devPG    = flag.String("devpg", "", "DSN of a database holding the development corpus; enables the TestMeasure tests")
	devStore = flag.String("devstore", "", "SQLite store of the development corpus, measured beside -devpg")
)

// TestMeasureRanking compares BM25 from the term table with ts_rank_cd
// (and, with -devstore, SQLite's FTS5 BM25) on the paper's best method:
// for 300 pages with content backlinks, the 4-term anchor-text signature
// of each (level-1 backlinks, top 10, Table 4) is searched and the
// target's rank scored by nDCG (score.DCG); each ranking's latency is
// timed on the same queries.
func TestMeasureRanking(t *testing.T) {
	if *devPG == "" {
		t.Skip("no -devpg")
	}
	ctx := context.Background()
	open := func(r postgres.Ranking) *postgres.Store {
		s, err := postgres.Open(ctx, postgres.DSN(*devPG), &postgres.Options{ReadOnly: true, Ranking: r})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	base := open(postgres.RankBM25)
	var all []corpus.PageInfo
	for p, err := range base.Pages(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		if p.ContentBacklinks > 0 {
			all = append(all, p)
		}
	}
	targets := measure.Sample(all, 300)
	queries := make([]lexsig.Query, len(targets))
	for i, target := range targets {
		q, err := measure.AnchorQuery(ctx, base.WithMissing(target.URI), target.URI)
		if err != nil {
			t.Fatal(err)
		}
		queries[i] = q
	}
	rankings := []struct {
		name string
		s    lexsig.Searcher
	}{{"postgres bm25", base}, {"postgres ts_rank_cd", open(postgres.RankCD)}}
	if *devStore != "" {
		lite, err := store.Open(*devStore, &store.Options{ReadOnly: true, QueryCache: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer lite.Close()
		rankings = append(rankings, struct {
			name string
			s    lexsig.Searcher
		}{"sqlite fts5 bm25", lite})
	}
	for _, rk := range rankings {
		var sum float64
		var times []time.Duration
		top := 0
		for i, target := range targets {
			start := time.Now()
			res, err := rk.s.Search(ctx, queries[i], postgres.MaxResults)
			times = append(times, time.Since(start))
			if err != nil {
				t.Fatal(err)
			}
			rank := slices.IndexFunc(res, func(r lexsig.Result) bool { return r.URI == target.URI }) + 1
			sum += score.DCG(rank)
			if rank == 1 {
				top++
			}
		}
		slices.Sort(times)
		t.Logf("%s: mean nDCG %.3f, rank 1 for %d of %d; latency median %v, p99 %v",
			rk.name, sum/float64(len(targets)), top, len(targets), times[len(times)/2], times[len(times)*99/100])
	}
}

// TestMeasureProviders times Backlinks, Fetch, DocFreqs and 3- and 4-term
// conjunctive title queries on 300 pages of -devpg.
func TestMeasureProviders(t *testing.T) {
	if *devPG == "" {
		t.Skip("no -devpg")
	}
	ctx := context.Background()
	s, err := postgres.Open(ctx, postgres.DSN(*devPG), &postgres.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var pages []corpus.PageInfo
	for p, err := range s.Pages(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, p)
	}
	pages = measure.Sample(pages, 300)
	report := func(name string, f func(p corpus.PageInfo) (bool, error)) {
		var times []time.Duration
		for _, p := range pages {
			start := time.Now()
			ran, err := f(p)
			if err != nil {
				t.Fatal(err)
			}
			if ran {
				times = append(times, time.Since(start))
			}
		}
		slices.Sort(times)
		if len(times) > 0 {
			t.Logf("%s: %d, median %v, p99 %v", name, len(times), times[len(times)/2], times[len(times)*99/100])
		}
	}
	report("Backlinks(1000)", func(p corpus.PageInfo) (bool, error) {
		_, err := s.Backlinks(ctx, p.URI, 1000)
		return true, err
	})
	report("Fetch", func(p corpus.PageInfo) (bool, error) {
		_, err := s.Fetch(ctx, p.URI)
		return true, err
	})
	report("DocFreqs(title terms)", func(p corpus.PageInfo) (bool, error) {
		_, err := s.DocFreqs(ctx, lexsig.Tokenize(p.Title))
		return true, err
	})
	for _, k := range []int{3, 4} {
		report("Search, conjunctive title terms: "+string(rune('0'+k)), func(p corpus.PageInfo) (bool, error) {
			ts := measure.TitleTerms(p.Title)
			if len(ts) < k {
				return false, nil
			}
			_, err := s.Search(ctx, lexsig.Query{Terms: ts[:k]}, postgres.MaxResults)
			return true, err
		})
	}
}
