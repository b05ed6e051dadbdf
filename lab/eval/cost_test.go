package eval_test

import (
	"context"
	"runtime/pprof"
	"sync"
	"testing"

	"github.com/linkrot/relink/lab/eval"
	"github.com/linkrot/relink/lexsig"
)

// TestEvaluateCost checks the work each target's cost records: the pages
// parsed for it (again, after the page budget dropped them), the queries
// it sent and looked up, and that a target evaluated a second time finds
// everything in the caches.
func TestEvaluateCost(t *testing.T) {
	for _, tc := range []struct {
		name   string
		budget int64
	}{
		{"every page kept", 0},
		// A budget of one byte keeps the last page inspected alone.
		{"one page kept", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newFakeWeb(t)
			w.results["starter"] = []string{sourdough}
			ev := w.evaluation(eval.Grid{Nav: []bool{true, false}}, sourdough, rye, sourdough)
			ev.PageBudget, ev.Workers = tc.budget, 1
			rep, err := eval.Evaluate(context.Background(), ev)
			if err != nil {
				t.Fatal(err)
			}
			var parsed, reparsed, queries, searches int
			for _, tr := range rep.Targets {
				c := tr.Cost
				parsed += c.Parsed
				reparsed += c.Reparsed
				queries += c.Queries
				searches += c.Searches
				if c.Walked == 0 || c.Lookups == 0 || c.Searches == 0 {
					t.Errorf("%s: cost %+v: want pages walked, lookups and searches", tr.URI, c)
				}
			}
			fetched := 0
			for _, n := range w.fetches {
				fetched += n
			}
			// Every fetch of a backlink page is an inspection of one
			// target; the first of each page is no parse again.
			if parsed != fetched || parsed-reparsed != len(w.fetches) {
				t.Errorf("parsed %d, again %d; want %d fetches of %d pages", parsed, reparsed, fetched, len(w.fetches))
			}
			if tc.budget == 0 && reparsed != 0 {
				t.Errorf("no budget: %d pages parsed again", reparsed)
			}
			if tc.budget > 0 && reparsed == 0 {
				t.Error("a budget of one page: no page parsed again")
			}
			if queries != rep.Queries || searches != rep.Searches {
				t.Errorf("queries %d, searches %d; want the report's %d and %d", queries, searches, rep.Queries, rep.Searches)
			}
			first, again := rep.Targets[0].Cost, rep.Targets[2].Cost
			if again.Queries != 0 || again.Searches != first.Searches || again.Walked != first.Walked || again.Lookups != first.Lookups {
				t.Errorf("the same target again: cost %+v, first %+v: want no query sent and the same work looked up", again, first)
			}
			if tc.budget == 0 && again.Parsed != 0 {
				t.Errorf("the same target again, every page kept: %d pages parsed", again.Parsed)
			}
		})
	}
}

// TestEvaluateProfileLabels checks that the goroutines of a target's
// stages carry its pprof label, so that a CPU profile tells targets apart.
func TestEvaluateProfileLabels(t *testing.T) {
	w := newFakeWeb(t)
	ev := w.evaluation(eval.Grid{}, sourdough, rye)
	var mu sync.Mutex
	labels := map[string]int{}
	ev.Searcher = lexsig.SearcherFunc(func(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
		label, _ := pprof.Label(ctx, "target")
		mu.Lock()
		labels[label]++
		mu.Unlock()
		return w.search(ctx, q, limit)
	})
	if _, err := eval.Evaluate(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	if len(labels) != 2 || labels[sourdough] == 0 || labels[rye] == 0 {
		t.Errorf("searches by target label: %v; want both targets' and no other", labels)
	}
}
