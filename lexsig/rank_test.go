package lexsig

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"
)

// approx compares term weights to four decimals, the precision of the
// hand-computed values below.
var approx = cmpopts.EquateApprox(0, 1e-4)

// fakeDF is a DF without BatchDF that answers from a map and counts calls.
type fakeDF struct {
	freqs    map[string]int64
	docs     int64
	docsErr  error
	termErr  map[string]error
	delay    func() time.Duration
	calls    atomic.Int64
	docCalls atomic.Int64

	mu           sync.Mutex
	active, peak int // lookups in flight, now and at most
}

func (f *fakeDF) DocFreq(ctx context.Context, term string) (int64, error) {
	f.calls.Add(1)
	f.mu.Lock()
	f.active++
	f.peak = max(f.peak, f.active)
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.active--
		f.mu.Unlock()
	}()
	if f.delay != nil {
		select {
		case <-time.After(f.delay()):
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
	if err := f.termErr[term]; err != nil {
		return 0, err
	}
	return f.freqs[term], nil
}

func (f *fakeDF) Docs(context.Context) (int64, error) {
	f.docCalls.Add(1)
	return f.docs, f.docsErr
}

// batchOf gives a fakeDF the BatchDF method, answering with fn.
type batchOf struct {
	*fakeDF
	fn func(ctx context.Context, terms []string) ([]int64, error)
}

func (b batchOf) DocFreqs(ctx context.Context, terms []string) ([]int64, error) {
	return b.fn(ctx, terms)
}

// smithsonian is the worked example: the anchor texts of four backlinks of
// a page about time in America (after §2 "Lexical Signatures", Figure 1), a
// collection of |D| = 1000 documents, and document frequencies chosen so
// that the IDFs are easy to compute by hand.
func smithsonian() (map[string]int, *MemDF) {
	tf := Count(Tokenize(`On Time: how Americans keep time.
		Americans and their time, at the Smithsonian.
		The Behring Center exhibition.`))
	df := NewMemDF()
	df.SetDocs(1000)
	for term, n := range map[string]int64{
		"time": 500, "americans": 100, "smithsonian": 2, "behring": 1,
		"exhibition": 20, "center": 50, "keep": 250,
	} {
		df.Set(term, n)
	}
	return tf, df
}

// TestRankWorkedExample reproduces a TF-IDF ranking computed by hand with
// Equations 1-3 (§2.1 "TFIDF"), weight = TF × ln(|D|/DF):
//
//	behring      1 × ln(1000/1)   = 6.9078
//	smithsonian  1 × ln(1000/2)   = 6.2146
//	americans    2 × ln(1000/100) = 4.6052
//	exhibition   1 × ln(1000/20)  = 3.9120
//	center       1 × ln(1000/50)  = 2.9957
//	time         3 × ln(1000/500) = 2.0794
//	keep         1 × ln(1000/250) = 1.3863
//
// "time" occurs most often but is common; "behring" occurs once but is
// rare. "on", "how", "and", "their", "at" and "the" are stop words.
func TestRankWorkedExample(t *testing.T) {
	tf, df := smithsonian()
	want := []Term{
		{Text: "behring", TF: 1, DF: 1, Weight: 6.9078},
		{Text: "smithsonian", TF: 1, DF: 2, Weight: 6.2146},
		{Text: "americans", TF: 2, DF: 100, Weight: 4.6052},
		{Text: "exhibition", TF: 1, DF: 20, Weight: 3.9120},
		{Text: "center", TF: 1, DF: 50, Weight: 2.9957},
		{Text: "time", TF: 3, DF: 500, Weight: 2.0794},
		{Text: "keep", TF: 1, DF: 250, Weight: 1.3863},
	}
	got, err := Rank(t.Context(), tf, df)
	if err != nil {
		t.Fatalf("Rank: %v", err)
	}
	if diff := cmp.Diff(want, got, approx); diff != "" {
		t.Errorf("Rank(worked example) mismatch (-want +got):\n%s", diff)
	}
}

// TestRankOrder checks ordering rules the paper leaves open: ties, unknown
// terms and DF estimates above |D| (§2.1 "TFIDF").
func TestRankOrder(t *testing.T) {
	tests := []struct {
		name  string
		tf    map[string]int
		freqs map[string]int64
		docs  int64
		want  []Term
	}{
		{
			name:  "ties broken by text",
			tf:    map[string]int{"zeta": 1, "alpha": 1, "mu": 1},
			freqs: map[string]int64{"zeta": 10, "alpha": 10, "mu": 10},
			docs:  100,
			want: []Term{
				{Text: "alpha", TF: 1, DF: 10, Weight: 2.3026},
				{Text: "mu", TF: 1, DF: 10, Weight: 2.3026},
				{Text: "zeta", TF: 1, DF: 10, Weight: 2.3026},
			},
		},
		{
			name:  "unknown term weighed as DF 1, reported as 0",
			tf:    map[string]int{"known": 1, "unknown": 1},
			freqs: map[string]int64{"known": 1},
			docs:  100,
			want: []Term{
				{Text: "known", TF: 1, DF: 1, Weight: 4.6052},
				{Text: "unknown", TF: 1, DF: 0, Weight: 4.6052},
			},
		},
		{
			name:  "DF above |D| gives negative weight, ranked last",
			tf:    map[string]int{"web": 5, "rare": 1, "everywhere": 2},
			freqs: map[string]int64{"web": 200, "rare": 50, "everywhere": 100},
			docs:  100,
			want: []Term{
				{Text: "rare", TF: 1, DF: 50, Weight: 0.6931},
				{Text: "everywhere", TF: 2, DF: 100, Weight: 0},
				{Text: "web", TF: 5, DF: 200, Weight: -3.4657},
			},
		},
		{
			name:  "zero and negative counts left out",
			tf:    map[string]int{"kept": 2, "zero": 0, "negative": -3},
			freqs: map[string]int64{"kept": 1},
			docs:  10,
			want:  []Term{{Text: "kept", TF: 2, DF: 1, Weight: 4.6052}},
		},
		{
			name:  "TF outweighs rarity",
			tf:    map[string]int{"often": 10, "once": 1},
			freqs: map[string]int64{"often": 100, "once": 1},
			docs:  1000,
			want: []Term{
				{Text: "often", TF: 10, DF: 100, Weight: 23.0259},
				{Text: "once", TF: 1, DF: 1, Weight: 6.9078},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"single", "batch"} {
				df := DF(&fakeDF{freqs: tc.freqs, docs: tc.docs})
				if path == "batch" {
					m := NewMemDF()
					m.SetDocs(tc.docs)
					for term, n := range tc.freqs {
						m.Set(term, n)
					}
					df = m
				}
				got, err := Rank(t.Context(), tc.tf, df)
				if err != nil {
					t.Fatalf("Rank (%s): %v", path, err)
				}
				if diff := cmp.Diff(tc.want, got, approx); diff != "" {
					t.Errorf("Rank (%s) mismatch (-want +got):\n%s", path, diff)
				}
			}
		})
	}
}

// TestRankEmpty checks that an empty TF map needs no provider.
func TestRankEmpty(t *testing.T) {
	df := &fakeDF{docs: 10}
	got, err := Rank(t.Context(), map[string]int{}, df)
	if err != nil || len(got) != 0 {
		t.Errorf("Rank(empty) = %v, %v; want [], nil", got, err)
	}
	if got == nil {
		t.Error("Rank(empty) = nil, want an empty non-nil slice")
	}
	if n := df.calls.Load() + df.docCalls.Load(); n != 0 {
		t.Errorf("Rank(empty) made %d provider calls, want 0", n)
	}
}

// TestRankCallsDocsOnce checks that |D| is asked once per Rank and each term
// once.
func TestRankCallsDocsOnce(t *testing.T) {
	tf, mem := smithsonian()
	df := &fakeDF{freqs: map[string]int64{}, docs: 1000}
	for term := range tf {
		df.freqs[term], _ = mem.DocFreq(t.Context(), term)
	}
	if _, err := Rank(t.Context(), tf, df); err != nil {
		t.Fatalf("Rank: %v", err)
	}
	if n := df.docCalls.Load(); n != 1 {
		t.Errorf("Rank called Docs %d times, want 1", n)
	}
	if n := df.calls.Load(); n != int64(len(tf)) {
		t.Errorf("Rank called DocFreq %d times, want %d", n, len(tf))
	}
}

// TestRankErrors checks that every failure of the provider is reported and
// can be inspected.
func TestRankErrors(t *testing.T) {
	errBoom := errors.New("boom")
	tf := map[string]int{"alpha": 1, "beta": 2, "gamma": 3}
	freqs := map[string]int64{"alpha": 1, "beta": 2, "gamma": 3}
	tests := []struct {
		name     string
		df       DF
		wantIs   error
		wantTerm string // when a *TermError is expected
	}{
		{"docs error", &fakeDF{freqs: freqs, docsErr: errBoom}, errBoom, ""},
		{"zero docs", &fakeDF{freqs: freqs, docs: 0}, ErrNoDocs, ""},
		{"negative docs", &fakeDF{freqs: freqs, docs: -5}, ErrNoDocs, ""},
		{"term error", &fakeDF{freqs: freqs, docs: 10, termErr: map[string]error{"beta": errBoom}}, errBoom, "beta"},
		{"negative DF", &fakeDF{freqs: map[string]int64{"alpha": 1, "beta": 1, "gamma": -1}, docs: 10}, ErrNegativeDF, "gamma"},
		{
			"batch error",
			batchOf{&fakeDF{docs: 10}, func(context.Context, []string) ([]int64, error) { return nil, errBoom }},
			errBoom, "",
		},
		{
			"batch answers too few",
			batchOf{&fakeDF{docs: 10}, func(context.Context, []string) ([]int64, error) { return []int64{1}, nil }},
			nil, "",
		},
		{
			"batch term error passes through",
			batchOf{&fakeDF{docs: 10}, func(context.Context, []string) ([]int64, error) {
				return nil, &TermError{Term: "gamma", Err: errBoom}
			}},
			errBoom, "gamma",
		},
	}
	for _, tc := range tests {
		for _, r := range rankers {
			t.Run(tc.name+", "+r.name, func(t *testing.T) {
				got, err := r.rank(t.Context(), tf, tc.df)
				if err == nil {
					t.Fatalf("%s = %v, nil; want an error", r.name, got)
				}
				if got != nil {
					t.Errorf("%s returned terms %v with error %v", r.name, got, err)
				}
				if tc.wantIs != nil && !errors.Is(err, tc.wantIs) {
					t.Errorf("%s error %v; want errors.Is %v", r.name, err, tc.wantIs)
				}
				if tc.wantTerm != "" {
					te, ok := errors.AsType[*TermError](err)
					if !ok || te.Term != tc.wantTerm {
						t.Errorf("%s error %v; want a *TermError for %q", r.name, err, tc.wantTerm)
					}
				}
			})
		}
	}
}

// rankers are Rank and RankTop of one term, which looks up every term of a
// tf of fewer than 8 terms (one batch), so fails as Rank does.
var rankers = []struct {
	name string
	rank func(context.Context, map[string]int, DF) ([]Term, error)
}{
	{"Rank", Rank},
	{"RankTop", func(ctx context.Context, tf map[string]int, df DF) ([]Term, error) { return RankTop(ctx, tf, df, 1) }},
}

// TestRankConcurrentLookups checks that a DF without BatchDF is asked
// concurrently, never more than the documented 8 at a time, and that the
// ranking does not depend on the order in which answers arrive.
func TestRankConcurrentLookups(t *testing.T) {
	tf := map[string]int{}
	freqs := map[string]int64{}
	for i := range 60 {
		term := string(rune('a'+i%26)) + string(rune('a'+i/26)) + "x"
		tf[term] = 1 + i%4
		freqs[term] = int64(1 + i%7)
	}
	var want []Term
	for run := range 4 {
		df := &fakeDF{freqs: freqs, docs: 100, delay: func() time.Duration {
			return time.Duration(rand.IntN(3000)) * time.Microsecond
		}}
		got, err := Rank(t.Context(), tf, df)
		if err != nil {
			t.Fatalf("Rank run %d: %v", run, err)
		}
		if df.peak > maxLookups || df.peak < 2 {
			t.Errorf("Rank run %d ran %d lookups at once, want 2..%d", run, df.peak, maxLookups)
		}
		if want == nil {
			want = got
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Rank run %d differs from run 0 (-want +got):\n%s", run, diff)
		}
	}
}

// TestRankCancel checks that cancellation returns ctx.Err() promptly, even
// when the provider ignores it.
func TestRankCancel(t *testing.T) {
	tf := map[string]int{"alpha": 1, "beta": 1, "gamma": 1}
	t.Run("before the call", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		df := &fakeDF{docs: 10}
		if _, err := Rank(ctx, tf, df); !errors.Is(err, context.Canceled) {
			t.Errorf("Rank(cancelled) error = %v, want context.Canceled", err)
		}
		if n := df.calls.Load() + df.docCalls.Load(); n != 0 {
			t.Errorf("Rank(cancelled) made %d provider calls, want 0", n)
		}
	})
	for _, r := range rankers {
		for _, path := range []string{"single", "batch"} {
			t.Run("provider ignoring ctx, "+path+", "+r.name, func(t *testing.T) {
				release := make(chan struct{})
				defer close(release)
				started := make(chan struct{}, 10)
				block := func() { started <- struct{}{}; <-release }
				var df DF = DFFunc(func(context.Context, string) (int64, error) {
					block()
					return 1, nil
				}).WithDocs(10)
				if path == "batch" {
					// A batch provider must itself honour ctx; this one does.
					df = batchOf{&fakeDF{docs: 10}, func(ctx context.Context, terms []string) ([]int64, error) {
						started <- struct{}{}
						<-ctx.Done()
						return nil, ctx.Err()
					}}
				}
				ctx, cancel := context.WithCancel(t.Context())
				go func() { <-started; cancel() }()
				// The DF lookups block until ctx is done: it returns only by the cancel.
				_, err := r.rank(ctx, tf, df)
				if !errors.Is(err, context.Canceled) || err != context.Canceled {
					t.Errorf("%s error = %v, want context.Canceled itself", r.name, err)
				}
			})
		}
	}
}

// TestWeight checks Equations 2 and 3 directly.
func TestWeight(t *testing.T) {
	tests := []struct {
		name     string
		tf       int
		df, docs int64
		want     float64
	}{
		{"rare", 1, 1, 1000, 6.9078},
		{"df 0 as 1", 2, 0, 1000, 13.8155},
		{"df equals docs", 7, 1000, 1000, 0},
		{"tf 0", 0, 3, 1000, 0},
		{"web scale", 1, 1_000_000, 50_000_000_000, 10.8198},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Weight(tc.tf, tc.df, tc.docs)
			if !cmp.Equal(tc.want, got, approx) {
				t.Errorf("Weight(%d, %d, %d) = %.4f, want %.4f", tc.tf, tc.df, tc.docs, got, tc.want)
			}
		})
	}
}

// recordingDF is a BatchDF that answers from a map and records each batch
// it is asked.
type recordingDF struct {
	freqs   map[string]int64
	docs    int64
	mu      sync.Mutex
	batches [][]string
}

func (r *recordingDF) DocFreq(ctx context.Context, term string) (int64, error) {
	f, err := r.DocFreqs(ctx, []string{term})
	if err != nil {
		return 0, err
	}
	return f[0], nil
}

func (r *recordingDF) DocFreqs(_ context.Context, terms []string) ([]int64, error) {
	r.mu.Lock()
	r.batches = append(r.batches, slices.Clone(terms))
	r.mu.Unlock()
	out := make([]int64, len(terms))
	for i, t := range terms {
		out[i] = r.freqs[t]
	}
	return out, nil
}

func (r *recordingDF) Docs(context.Context) (int64, error) { return r.docs, nil }

// lookedUp returns how many terms r was asked for.
func (r *recordingDF) lookedUp() int {
	n := 0
	for _, b := range r.batches {
		n += len(b)
	}
	return n
}

// randomRanking returns a random tf and document frequencies drawn to make
// the cases RankTop must get right common: equal counts, equal weights,
// unknown terms (DF 0), DFs above |D| (weights zero or negative), |D| of 1
// (every weight zero or less) and a few counts much higher than the rest.
func randomRanking(r *rand.Rand) (tf map[string]int, freqs map[string]int64, docs int64) {
	docs = []int64{1, 2, 10, 1000, 1_000_000}[r.IntN(5)]
	tf = map[string]int{}
	freqs = map[string]int64{}
	for i := range 1 + r.IntN(60) {
		term := fmt.Sprintf("t%02d", i)
		switch r.IntN(4) {
		case 0:
			tf[term] = 1
		case 1:
			tf[term] = 1 + r.IntN(3)
		case 2:
			tf[term] = 1 + r.IntN(40)
		default:
			tf[term] = r.IntN(3) - 1 // left out when not positive
		}
		switch r.IntN(5) {
		case 0: // unknown: DF 0
		case 1:
			freqs[term] = 1
		case 2:
			freqs[term] = docs + int64(r.IntN(3)) // weight 0 or below
		default:
			freqs[term] = 1 + r.Int64N(docs)
		}
	}
	return tf, freqs, docs
}

// TestRankTopIsRankPrefix checks RankTop against Rank on random inputs: the
// same terms, order and fields, for n of 1, around the number of terms and
// beyond it, through a BatchDF and a DF without it.
func TestRankTopIsRankPrefix(t *testing.T) {
	pruned := 0 // runs that looked up fewer terms than Rank
	for seed := range uint64(2000) {
		r := rand.New(rand.NewPCG(seed, 7))
		tf, freqs, docs := randomRanking(r)
		want, err := Rank(t.Context(), tf, &fakeDF{freqs: freqs, docs: docs})
		if err != nil {
			t.Fatalf("seed %d: Rank: %v", seed, err)
		}
		for _, n := range []int{1, 2, 1 + r.IntN(10), len(want) - 1, len(want), len(want) + 1 + r.IntN(5)} {
			if n <= 0 {
				continue
			}
			wantTop := want[:min(n, len(want))]
			batch := &recordingDF{freqs: freqs, docs: docs}
			single := &fakeDF{freqs: freqs, docs: docs}
			for _, df := range []DF{batch, single} {
				got, err := RankTop(t.Context(), tf, df, n)
				if err != nil {
					t.Fatalf("seed %d: RankTop(n=%d): %v", seed, n, err)
				}
				if diff := cmp.Diff(wantTop, got); diff != "" {
					t.Fatalf("seed %d: RankTop(n=%d, %T) is not Rank[:%d] (-want +got):\n%s", seed, n, df, n, diff)
				}
			}
			seen := map[string]bool{}
			for _, b := range batch.batches {
				if !slices.IsSorted(b) {
					t.Fatalf("seed %d: RankTop(n=%d) asked a batch out of text order: %q", seed, n, b)
				}
				for _, term := range b {
					if seen[term] {
						t.Fatalf("seed %d: RankTop(n=%d) asked for %q twice", seed, n, term)
					}
					seen[term] = true
				}
			}
			if got := single.calls.Load(); got != int64(batch.lookedUp()) {
				t.Errorf("seed %d: RankTop(n=%d) looked up %d terms one by one, %d in batches", seed, n, got, batch.lookedUp())
			}
			if batch.lookedUp() < len(want) {
				pruned++
			}
		}
	}
	// The draw makes skewed counts common enough that many runs stop early.
	if pruned < 500 {
		t.Errorf("RankTop looked up fewer terms than Rank in %d runs, want at least 500", pruned)
	}
	t.Logf("RankTop looked up fewer terms than Rank in %d runs", pruned)
}

// TestRankTopLooksUpFewer checks that on skewed counts, as a whole page's,
// RankTop looks up the terms that can rank among the first n and no more:
// ten terms counted 50 to 59 times and rare (DF 1), and a thousand counted
// once. With n = 3 the first batch, the 8 highest counts, holds the three
// best (59 × ln 1000 down to 57 × ln 1000); the next count's bound, 51 ×
// ln 1000, is below them, so the lookups stop.
func TestRankTopLooksUpFewer(t *testing.T) {
	tf := map[string]int{}
	freqs := map[string]int64{}
	for i := range 10 {
		term := fmt.Sprintf("often%d", i)
		tf[term], freqs[term] = 50+i, 1
	}
	for i := range 1000 {
		term := fmt.Sprintf("once%04d", i)
		tf[term], freqs[term] = 1, int64(1+i%7)
	}
	want, err := Rank(t.Context(), tf, &recordingDF{freqs: freqs, docs: 1000})
	require.NoError(t, err)
	df := &recordingDF{freqs: freqs, docs: 1000}
	got, err := RankTop(t.Context(), tf, df, 3)
	require.NoError(t, err)
	if diff := cmp.Diff(want[:3], got); diff != "" {
		t.Errorf("RankTop(n=3) mismatch (-want +got):\n%s", diff)
	}
	wantBatches := [][]string{{"often2", "often3", "often4", "often5", "often6", "often7", "often8", "often9"}}
	if diff := cmp.Diff(wantBatches, df.batches); diff != "" {
		t.Errorf("RankTop(n=3) batches mismatch (-want +got):\n%s", diff)
	}
}

// TestRankTopTies checks that a group whose bound equals the n-th best
// weight is still looked up, since a term of the same weight and smaller
// text ranks before it. With |D| = 100, eight terms counted twice of DF 10
// weigh 2 × ln 10 = ln 100, the bound of the terms counted once; "aaa",
// counted once and rare, ties with them and comes first by text.
func TestRankTopTies(t *testing.T) {
	tf := map[string]int{"aaa": 1, "zzz": 1}
	freqs := map[string]int64{"aaa": 1, "zzz": 1}
	for i := range 8 {
		term := fmt.Sprintf("m%d", i)
		tf[term], freqs[term] = 2, 10
	}
	require.Equal(t, Weight(2, 10, 100), Weight(1, 1, 100), "the weights of the case must tie")
	got, err := RankTop(t.Context(), tf, &recordingDF{freqs: freqs, docs: 100}, 2)
	require.NoError(t, err)
	want := []Term{
		{Text: "aaa", TF: 1, DF: 1, Weight: Weight(1, 1, 100)},
		{Text: "m0", TF: 2, DF: 10, Weight: Weight(2, 10, 100)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("RankTop(n=2) mismatch (-want +got):\n%s", diff)
	}
}

// TestRankTopNothing checks that n of zero or less, or an empty tf, gives an
// empty result without calling the provider, even with ctx done.
func TestRankTopNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for _, tc := range []struct {
		name string
		tf   map[string]int
		n    int
	}{
		{"n 0", map[string]int{"alpha": 1}, 0},
		{"n negative", map[string]int{"alpha": 1}, -3},
		{"empty tf", map[string]int{}, 4},
		{"no positive count", map[string]int{"alpha": 0}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			df := &fakeDF{docs: 10}
			got, err := RankTop(ctx, tc.tf, df, tc.n)
			if err != nil || got == nil || len(got) != 0 {
				t.Errorf("RankTop(%v, n=%d) = %v, %v; want [], nil", tc.tf, tc.n, got, err)
			}
			if n := df.calls.Load() + df.docCalls.Load(); n != 0 {
				t.Errorf("RankTop made %d provider calls, want 0", n)
			}
		})
	}
}

// TestRankTopSkipsUnrankable checks the documented limit of RankTop's
// errors: a term that cannot rank among the first n is not looked up, so
// its failure is not seen, where Rank fails.
func TestRankTopSkipsUnrankable(t *testing.T) {
	errBoom := errors.New("boom")
	tf := map[string]int{"tail": 1}
	freqs := map[string]int64{}
	for i := range 8 {
		term := fmt.Sprintf("head%d", i)
		tf[term], freqs[term] = 10, 1
	}
	df := &fakeDF{freqs: freqs, docs: 100, termErr: map[string]error{"tail": errBoom}}
	_, err := Rank(t.Context(), tf, df)
	require.ErrorIs(t, err, errBoom)
	got, err := RankTop(t.Context(), tf, df, 2)
	require.NoError(t, err)
	if len(got) != 2 || got[0].Text != "head0" || got[1].Text != "head1" {
		t.Errorf("RankTop(n=2) = %v, want head0 and head1", got)
	}
}
