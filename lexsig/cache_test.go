package lexsig

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"
	"unsafe"
	"weak"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// countingDF is an underlying DF for Cache tests: it answers len(term) as
// the DF of every term, after a short pause that makes lookups overlap, and
// counts how often each term and Docs reach it.
type countingDF struct {
	mu    sync.Mutex
	calls map[string]int
	docs  int
	// fail, when set, decides whether a call of the term fails.
	fail func(term string, call int) error
}

func newCountingDF() *countingDF { return &countingDF{calls: map[string]int{}} }

func (c *countingDF) answer(ctx context.Context, term string) (int64, error) {
	c.mu.Lock()
	c.calls[term]++
	n := c.calls[term]
	c.mu.Unlock()
	select {
	case <-time.After(time.Duration(rand.IntN(200)) * time.Microsecond):
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	if c.fail != nil {
		if err := c.fail(term, n); err != nil {
			return 0, err
		}
	}
	return int64(len(term)), nil
}

func (c *countingDF) DocFreq(ctx context.Context, term string) (int64, error) {
	return c.answer(ctx, term)
}

func (c *countingDF) Docs(context.Context) (int64, error) {
	c.mu.Lock()
	c.docs++
	c.mu.Unlock()
	time.Sleep(time.Millisecond)
	return 1_000_000, nil
}

func (c *countingDF) callsOf(term string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls[term]
}

// countingBatchDF is a countingDF with DocFreqs.
type countingBatchDF struct{ *countingDF }

func (c countingBatchDF) DocFreqs(ctx context.Context, terms []string) ([]int64, error) {
	out := make([]int64, len(terms))
	for i, t := range terms {
		n, err := c.answer(ctx, t)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// TestCacheOncePerTerm hammers a Cache from many goroutines, with single
// and batch lookups in random order, and checks that every term reached the
// underlying DF exactly once, as the paper's local DF cache was meant to
// save queries to the search engine (§2.1 "TFIDF"). Run it with -race.
func TestCacheOncePerTerm(t *testing.T) {
	terms := make([]string, 300)
	for i := range terms {
		terms[i] = fmt.Sprintf("term%d%s", i, string(rune('a'+i%26)))
	}
	for _, batch := range []bool{false, true} {
		t.Run(fmt.Sprintf("underlying batch=%v", batch), func(t *testing.T) {
			under := newCountingDF()
			var df DF = under
			if batch {
				df = countingBatchDF{under}
			}
			c := NewCache(df)
			const goroutines = 48
			var (
				wg      sync.WaitGroup
				lookups sync.Map // goroutine -> number of terms it asked for
			)
			for g := range goroutines {
				wg.Go(func() {
					ctx := t.Context()
					order := rand.Perm(len(terms))
					asked := 0
					for i := 0; i < len(order); {
						if g%2 == 0 && rand.IntN(2) == 0 {
							term := terms[order[i]]
							n, err := c.DocFreq(ctx, term)
							if err != nil || n != int64(len(term)) {
								t.Errorf("DocFreq(%q) = %d, %v; want %d, nil", term, n, err, len(term))
							}
							i++
							asked++
							continue
						}
						end := min(len(order), i+1+rand.IntN(20))
						chunk := make([]string, 0, end-i+1)
						for _, j := range order[i:end] {
							chunk = append(chunk, terms[j])
						}
						chunk = append(chunk, chunk[0]) // a repeat within one batch
						got, err := c.DocFreqs(ctx, chunk)
						if err != nil {
							t.Errorf("DocFreqs: %v", err)
						}
						for k, term := range chunk {
							if err == nil && got[k] != int64(len(term)) {
								t.Errorf("DocFreqs(...%q...) = %d, want %d", term, got[k], len(term))
							}
						}
						asked += len(chunk)
						i = end
					}
					if _, err := c.Docs(ctx); err != nil {
						t.Errorf("Docs: %v", err)
					}
					lookups.Store(g, asked)
				})
			}
			wg.Wait()
			for _, term := range terms {
				if n := under.callsOf(term); n != 1 {
					t.Errorf("term %q reached the underlying DF %d times, want 1", term, n)
				}
			}
			if under.docs != 1 {
				t.Errorf("Docs reached the underlying DF %d times, want 1", under.docs)
			}
			total := int64(0)
			lookups.Range(func(_, v any) bool { total += int64(v.(int)); return true })
			st := c.Stats()
			if st.Misses != int64(len(terms)) {
				t.Errorf("Stats().Misses = %d, want %d", st.Misses, len(terms))
			}
			if sum := st.Hits + st.Shared + st.Misses; sum != total {
				t.Errorf("Stats() = %+v sums to %d lookups, want %d", st, sum, total)
			}
			if c.Len() != len(terms) {
				t.Errorf("Len() = %d, want %d", c.Len(), len(terms))
			}
		})
	}
}

// TestCacheErrorsNotCached checks that a failed lookup is asked again.
func TestCacheErrorsNotCached(t *testing.T) {
	errFlaky := errors.New("flaky")
	failFirst := func(term string, call int) error {
		if term == "flaky" && call == 1 {
			return errFlaky
		}
		return nil
	}
	tests := []struct {
		name  string
		batch bool
	}{
		{"single", false},
		{"batch", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			under := newCountingDF()
			under.fail = failFirst
			var df DF = under
			if tc.batch {
				df = countingBatchDF{under}
			}
			c := NewCache(df)
			ctx := t.Context()
			if _, err := c.DocFreqs(ctx, []string{"steady", "flaky"}); !errors.Is(err, errFlaky) {
				t.Fatalf("first DocFreqs error = %v, want %v", err, errFlaky)
			}
			got, err := c.DocFreqs(ctx, []string{"steady", "flaky"})
			if err != nil {
				t.Fatalf("second DocFreqs: %v", err)
			}
			if diff := cmp.Diff([]int64{6, 5}, got); diff != "" {
				t.Errorf("second DocFreqs mismatch (-want +got):\n%s", diff)
			}
			if n := under.callsOf("flaky"); n != 2 {
				t.Errorf("flaky reached the underlying DF %d times, want 2", n)
			}
			if n, err := c.DocFreq(ctx, "flaky"); n != 5 || err != nil {
				t.Errorf("DocFreq(flaky) = %d, %v; want 5, nil", n, err)
			}
			if n := under.callsOf("flaky"); n != 2 {
				t.Errorf("flaky reached the underlying DF %d times after a cached lookup, want 2", n)
			}
		})
	}
}

// stepDF is an underlying DF whose lookups block until the test lets them
// go: the first lookup of each run waits for its ctx or for release.
type stepDF struct {
	started chan string
	release chan struct{}
	mu      sync.Mutex
	calls   int
	docsErr error
}

func (s *stepDF) DocFreq(ctx context.Context, term string) (int64, error) {
	s.mu.Lock()
	s.calls++
	first := s.calls == 1
	s.mu.Unlock()
	s.started <- term
	if first {
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-s.release:
		}
	}
	return 42, nil
}

func (s *stepDF) Docs(context.Context) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if s.calls == 1 && s.docsErr != nil {
		return 0, s.docsErr
	}
	return 7, nil
}

// waitShared waits until c has counted n shared lookups.
func waitShared(t *testing.T, c *Cache, n int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for c.Stats().Shared < n {
		if time.Now().After(deadline) {
			t.Fatalf("no waiting lookup after 5s: %+v", c.Stats())
		}
		time.Sleep(time.Millisecond)
	}
}

// TestCacheLeaderCancelled checks that a caller waiting for another's lookup
// asks again when that other caller gives up, instead of failing with the
// other caller's cancellation.
func TestCacheLeaderCancelled(t *testing.T) {
	under := &stepDF{started: make(chan string, 4), release: make(chan struct{})}
	c := NewCache(under)
	leaderCtx, cancelLeader := context.WithCancel(t.Context())
	leaderErr := make(chan error, 1)
	go func() {
		_, err := c.DocFreq(leaderCtx, "x")
		leaderErr <- err
	}()
	<-under.started
	waiterDone := make(chan struct{})
	var n int64
	var err error
	go func() {
		defer close(waiterDone)
		n, err = c.DocFreq(t.Context(), "x")
	}()
	waitShared(t, c, 1)
	cancelLeader()
	if err := <-leaderErr; !errors.Is(err, context.Canceled) {
		t.Errorf("leader error = %v, want context.Canceled", err)
	}
	<-waiterDone
	if n != 42 || err != nil {
		t.Errorf("waiter DocFreq = %d, %v; want 42, nil", n, err)
	}
	if under.calls != 2 {
		t.Errorf("underlying DF called %d times, want 2", under.calls)
	}
}

// TestCacheWaiterCancelled checks that a waiting caller returns when its own
// ctx is done, and that the lookup it waited for still completes and is
// cached.
func TestCacheWaiterCancelled(t *testing.T) {
	under := &stepDF{started: make(chan string, 4), release: make(chan struct{})}
	c := NewCache(under)
	leaderDone := make(chan struct{})
	go func() {
		defer close(leaderDone)
		if n, err := c.DocFreq(t.Context(), "x"); n != 42 || err != nil {
			t.Errorf("leader DocFreq = %d, %v; want 42, nil", n, err)
		}
	}()
	<-under.started
	ctx, cancel := context.WithCancel(t.Context())
	waiterErr := make(chan error, 1)
	go func() {
		_, err := c.DocFreq(ctx, "x")
		waiterErr <- err
	}()
	waitShared(t, c, 1)
	cancel()
	if err := <-waiterErr; !errors.Is(err, context.Canceled) {
		t.Errorf("waiter error = %v, want context.Canceled", err)
	}
	close(under.release)
	<-leaderDone
	if n, err := c.DocFreq(t.Context(), "x"); n != 42 || err != nil {
		t.Errorf("DocFreq after = %d, %v; want 42, nil", n, err)
	}
	if st := c.Stats(); st.Hits != 1 || st.Misses != 1 {
		t.Errorf("Stats() = %+v, want 1 hit and 1 miss", st)
	}
}

// panicDF panics on its first lookup.
type panicDF struct {
	mu    sync.Mutex
	calls int
}

func (p *panicDF) DocFreq(context.Context, string) (int64, error) {
	p.mu.Lock()
	p.calls++
	n := p.calls
	p.mu.Unlock()
	if n == 1 {
		panic("provider bug")
	}
	return 3, nil
}

func (p *panicDF) Docs(context.Context) (int64, error) { return 10, nil }

// TestCachePanic checks that a panicking provider does not leave the term
// stuck in flight.
func TestCachePanic(t *testing.T) {
	c := NewCache(&panicDF{})
	func() {
		defer func() {
			if recover() == nil {
				t.Error("DocFreq did not pass on the provider's panic")
			}
		}()
		_, _ = c.DocFreq(t.Context(), "x")
	}()
	if n, err := c.DocFreq(t.Context(), "x"); n != 3 || err != nil {
		t.Errorf("DocFreq after panic = %d, %v; want 3, nil", n, err)
	}
}

// TestCacheDocs checks that |D| is cached but a failure is not.
func TestCacheDocs(t *testing.T) {
	errDown := errors.New("down")
	under := &stepDF{docsErr: errDown}
	c := NewCache(under)
	if _, err := c.Docs(t.Context()); !errors.Is(err, errDown) {
		t.Fatalf("first Docs error = %v, want %v", err, errDown)
	}
	for range 3 {
		if n, err := c.Docs(t.Context()); n != 7 || err != nil {
			t.Errorf("Docs() = %d, %v; want 7, nil", n, err)
		}
	}
	if under.calls != 2 {
		t.Errorf("underlying Docs called %d times, want 2", under.calls)
	}
}

// TestCacheRank checks that ranking through a Cache gives the same result
// as ranking directly, and that a second ranking asks the provider nothing.
func TestCacheRank(t *testing.T) {
	tf, mem := smithsonian()
	under := &fakeDF{freqs: map[string]int64{}, docs: 1000}
	for term := range tf {
		under.freqs[term], _ = mem.DocFreq(t.Context(), term)
	}
	want, err := Rank(t.Context(), tf, mem)
	if err != nil {
		t.Fatal(err)
	}
	c := NewCache(under)
	for run := range 2 {
		got, err := Rank(t.Context(), tf, c)
		if err != nil {
			t.Fatalf("Rank run %d: %v", run, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Rank through Cache run %d mismatch (-want +got):\n%s", run, diff)
		}
	}
	if n := under.calls.Load(); n != int64(len(tf)) {
		t.Errorf("underlying DocFreq called %d times over two rankings, want %d", n, len(tf))
	}
	if n := under.docCalls.Load(); n != 1 {
		t.Errorf("underlying Docs called %d times over two rankings, want 1", n)
	}
}

func TestNewCacheNil(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("NewCache(nil) did not panic")
		}
	}()
	NewCache(nil)
}

// TestCacheKeepsNoTermsText: a term cut from a larger string (the words
// drawn from a page share one buffer) does not keep that string alive once
// the Cache holds the term's frequency, by DocFreq or by DocFreqs.
func TestCacheKeepsNoTermsText(t *testing.T) {
	for _, batch := range []bool{false, true} {
		// Neither DF keeps the terms it is asked about: MemDF answers
		// DocFreqs at once (BatchDF), the DFFunc one term at a time.
		mem := NewMemDF()
		mem.Set("kettle", 3)
		var df DF = DFFunc(mem.DocFreq).WithDocs(10)
		if batch {
			df = mem
		}
		c := NewCache(df)
		page := new([1 << 20]byte)
		copy(page[:], "kettle descaling vinegar")
		gone := weak.Make(page)
		term := unsafe.String(&page[0], len("kettle"))
		var err error
		if batch {
			_, err = c.DocFreqs(context.Background(), []string{term})
		} else {
			_, err = c.DocFreq(context.Background(), term)
		}
		require.NoError(t, err)
		page, term = nil, ""
		runtime.GC()
		runtime.GC()
		if gone.Value() != nil {
			t.Errorf("batch %t: the page's buffer is alive after the Cache kept its term", batch)
		}
		if n, err := c.DocFreq(context.Background(), "kettle"); err != nil || c.Len() != 1 {
			t.Errorf("batch %t: DocFreq(kettle) = %d, %v with %d terms cached; want the cached answer", batch, n, err, c.Len())
		}
	}
}
