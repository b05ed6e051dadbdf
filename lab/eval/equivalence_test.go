package eval_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/lab/eval"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/score"
	"github.com/stretchr/testify/require"
)

// ciCorpus is the real corpus of the equivalence test: four small Debian
// documentation packages (Flask, Werkzeug, Jinja, Click; about 160 pages)
// that scripts/test.sh installs. Elsewhere the test skips, unless
// RELINK_REQUIRE_CORPUS is set (as the test script sets it), where a
// missing corpus fails it.
const ciCorpus = "../corpus/ci.json"

// equivalenceTargets is how many targets the test compares.
const equivalenceTargets = 50

// TestEvaluateIsFind holds the experiment to the library: for every target
// of a real corpus and every method of the paper's grid and of
// relink.Strategies(), the rank Evaluate records equals the rank of the
// target in what Finder.Find returns with the same providers. Grid methods
// are compared at the paper's signature size (4) and, for the paper's best
// method, at every size.
func TestEvaluateIsFind(t *testing.T) {
	s := ciStore(t)
	ctx := context.Background()
	targets := drawTargets(t, s, equivalenceTargets, 1)

	grid := eval.Grid{Nav: []bool{true, false}}
	if raceEnabled {
		t.Skip("the equivalence test runs without the race detector (scripts/test.sh runs it so): it compares ranks, not goroutines, and takes minutes under -race")
	}
	// The paper's setting keeps the backlink pages among the candidates;
	// the Finder's default leaves them out. The missing URI is kept: it is
	// the page to find here.
	for _, keep := range []bool{true, false} {
		ev := eval.Evaluation{
			Targets:           targets,
			Missing:           func(target string) eval.View { v := s.WithMissing(target); return eval.View{Backlinks: v, Fetcher: v} },
			DF:                s,
			Searcher:          s,
			Grid:              grid,
			Strategies:        relink.Strategies(),
			LeaveOutBacklinks: !keep,
		}
		if !keep {
			// Budgets far below what the run reads: pages, candidate
			// pages and answers are dropped and read again, with the
			// same outcomes.
			ev.PageBudget, ev.SearchBudget, ev.CandidateBudget = 1<<20, 256<<10, 64<<10
		}
		rep, err := eval.Evaluate(ctx, ev)
		require.NoError(t, err)

		type job struct {
			target   int
			strategy relink.Strategy
			name     string
			size     int // index into rep.Sizes, or -1 for a Strategy
		}
		var jobs []job
		for i := range targets {
			for _, m := range rep.Methods {
				for j, size := range rep.Sizes {
					if size == relink.DefaultTerms || m.String() == "1-anchor-10" {
						jobs = append(jobs, job{i, m.Paper(size), m.String(), j})
					}
				}
			}
			for _, st := range relink.Strategies() {
				jobs = append(jobs, job{i, st, st.Name(), -1})
			}
		}
		df := lexsig.NewCache(s)
		pages := relink.NewPageCache(4 << 20)
		var (
			compared, found atomic.Int64
			mu              sync.Mutex
			diffs           []string
			next            atomic.Int64
			wg              sync.WaitGroup
		)
		for range 2 {
			wg.Go(func() {
				for n := int(next.Add(1) - 1); n < len(jobs); n = int(next.Add(1) - 1) {
					jb := jobs[n]
					target := targets[jb.target]
					view := s.WithMissing(target)
					f := &relink.Finder{Backlinks: view, Fetcher: view, DF: df, Searcher: s, Strategy: jb.strategy,
						Pages: pages, Results: score.MaxRank, KeepMissing: true, KeepBacklinks: keep}
					res, err := f.Find(ctx, target)
					if err != nil && !errors.Is(err, relink.ErrNoQuery) {
						t.Errorf("Find(%s) with %s: %v", target, jb.name, err)
						return
					}
					got := rankOf(res.Candidates, target)
					mr := rep.Targets[jb.target].Methods[jb.name]
					want := mr.Ranks[max(jb.size, 0)]
					if conf := mr.Confidences[max(jb.size, 0)]; conf != res.Confidence {
						got, want = -1, -2 // reported below as a difference
						t.Errorf("%s with %s: confidence %v in Evaluate, %v in Find", target, jb.name, conf, res.Confidence)
					}
					compared.Add(1)
					if got > 0 {
						found.Add(1)
					}
					if got != want {
						mu.Lock()
						diffs = append(diffs, strings.Join([]string{target, jb.name, "size", itoa(jb.strategy.Terms()), "Evaluate", itoa(want), "Find", itoa(got)}, " "))
						mu.Unlock()
					}
				}
			})
		}
		wg.Wait()
		slices.Sort(diffs)
		for _, d := range diffs[:min(len(diffs), 20)] {
			t.Error("rank differs:", d)
		}
		t.Logf("keep backlinks %t: %d targets × methods compared (%d targets, %d grid methods, %d strategies), %d found by both, %d differ",
			keep, compared.Load(), len(targets), len(rep.Methods), len(relink.Strategies()), found.Load(), len(diffs))
		require.GreaterOrEqual(t, found.Load(), int64(len(targets)), "too few targets found for the comparison to mean much")
	}
}

// rankOf returns the rank of target among candidates, 1 first, or 0.
func rankOf(candidates []lexsig.Result, target string) int {
	for i, c := range candidates {
		if u, err := canon.Canonicalize(c.URI); err == nil && u == target {
			return i + 1
		}
	}
	return 0
}

func itoa(n int) string {
	return strconv.Itoa(n)
}

// ciStore builds the store of the CI corpus in a temporary directory, or
// skips the test when the corpus is not installed.
func ciStore(t *testing.T) *store.Store {
	t.Helper()
	m, err := store.ReadManifest(ciCorpus)
	require.NoError(t, err)
	for _, site := range m.Sites {
		for _, r := range site.Roots {
			if _, err := os.Stat(r.Dir); err != nil {
				if os.Getenv("RELINK_REQUIRE_CORPUS") != "" {
					t.Fatalf("the CI corpus is not installed (%v): run bash scripts/test.sh as root", err)
				}
				t.Skipf("the CI corpus is not installed (%v); scripts/test.sh installs it as root", err)
			}
		}
	}
	s, err := store.Open(filepath.Join(t.TempDir(), "ci.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	_, err = s.IngestManifest(context.Background(), m, store.IngestOptions{})
	require.NoError(t, err)
	return s
}

// drawTargets draws n pages that have a backlink page, with seed, as the
// experiment draws its targets.
func drawTargets(t *testing.T, s *store.Store, n int, seed uint64) []string {
	t.Helper()
	var uris []string
	for p, err := range s.Pages(context.Background()) {
		require.NoError(t, err)
		if p.Backlinks > 0 {
			uris = append(uris, p.URI)
		}
	}
	slices.Sort(uris)
	require.GreaterOrEqual(t, len(uris), n, "pages with backlinks")
	perm := rand.New(rand.NewPCG(seed, 0)).Perm(len(uris))[:n]
	slices.Sort(perm)
	out := make([]string, n)
	for i, j := range perm {
		out[i] = uris[j]
	}
	return out
}
