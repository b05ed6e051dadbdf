package dfcache

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"

	"github.com/linkrot/relink/lexsig"
)

// TestPersists checks the point of the package (§2.1 "TFIDF": a local cache
// of DF values): a value asked for once is answered from the file in the
// same run and after the file is closed and opened again.
func TestPersists(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "df.cache")
	engine := &fakeDF{values: map[string]int64{"rediscover": 120, "signature": 4500}, docs: 20_000_000_000}

	db, err := Open(path, nil)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	src := db.Wrap(engine, "yahoo-2009")
	for range 2 {
		for _, term := range []string{"rediscover", "signature", "unseen"} {
			got, err := src.DocFreq(ctx, term)
			if err != nil || got != engine.values[term] {
				t.Fatalf("DocFreq(%q) = %d, %v, want %d", term, got, err, engine.values[term])
			}
		}
		if got, err := src.Docs(ctx); err != nil || got != engine.docs {
			t.Fatalf("Docs = %d, %v, want %d", got, err, engine.docs)
		}
	}
	if diff := cmp.Diff(Stats{Hits: 3, Misses: 3, Stored: 3}, src.Stats()); diff != "" {
		t.Errorf("Stats (-want +got):\n%s", diff)
	}
	if err := db.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	db, err = Open(path, nil)
	if err != nil {
		t.Fatalf("Open again: %v", err)
	}
	defer db.Close()
	src = db.Wrap(engine, "yahoo-2009")
	got, err := src.DocFreqs(ctx, []string{"signature", "rediscover", "unseen"})
	if err != nil {
		t.Fatalf("DocFreqs after reopening: %v", err)
	}
	if diff := cmp.Diff([]int64{4500, 120, 0}, got); diff != "" {
		t.Errorf("DocFreqs after reopening (-want +got):\n%s", diff)
	}
	if n, err := src.Docs(ctx); err != nil || n != engine.docs {
		t.Errorf("Docs after reopening = %d, %v, want %d", n, err, engine.docs)
	}
	for _, term := range []string{"rediscover", "signature", "unseen", "|D|"} {
		if n := engine.callsOf(term); n != 1 {
			t.Errorf("the engine was asked for %s %d times, want 1", term, n)
		}
	}
	if n, err := db.Len("yahoo-2009"); err != nil || n != 3 {
		t.Errorf("Len = %d, %v, want 3", n, err)
	}
}

// TestSourcesApart checks that the DF values and |D| of two engines stored
// in one file are never answered for each other.
func TestSourcesApart(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t, nil)
	a := db.Wrap(&fakeDF{values: map[string]int64{"term": 10}, docs: 1000}, "engine-a")
	b := db.Wrap(&fakeDF{values: map[string]int64{"term": 77}, docs: 5000}, "engine-b")
	for _, tc := range []struct {
		name     string
		src      *Source
		df, docs int64
	}{
		{"a first", a, 10, 1000},
		{"b first", b, 77, 5000},
		{"a again", a, 10, 1000},
		{"b again", b, 77, 5000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := tc.src.DocFreq(ctx, "term"); err != nil || got != tc.df {
				t.Errorf("DocFreq(%q) = %d, %v, want %d", "term", got, err, tc.df)
			}
			if got, err := tc.src.Docs(ctx); err != nil || got != tc.docs {
				t.Errorf("Docs = %d, %v, want %d", got, err, tc.docs)
			}
		})
	}
	names, err := db.Sources()
	if err != nil {
		t.Fatalf("Sources: %v", err)
	}
	if diff := cmp.Diff([]string{"engine-a", "engine-b"}, names); diff != "" {
		t.Errorf("Sources (-want +got):\n%s", diff)
	}
}

// TestDocFreqs checks batch lookups: the answers in order, and which terms
// reach the underlying DF (only distinct ones the file lacks, in one call
// when it is a BatchDF).
func TestDocFreqs(t *testing.T) {
	values := map[string]int64{"alpha": 1, "beta": 2, "gamma": 3, "delta": 4}
	long := strings.Repeat("x", MaxTermBytes+1)
	tests := []struct {
		name      string
		batch     bool
		cached    []string // looked up with DocFreq first
		terms     []string
		want      []int64
		batches   [][]string // DocFreqs calls of the BatchDF
		wantCalls int        // single DocFreq calls, those of cached included
		wantStats Stats
	}{
		{
			name:      "batch, nothing cached",
			batch:     true,
			terms:     []string{"alpha", "beta", "alpha", "zeta"},
			want:      []int64{1, 2, 1, 0},
			batches:   [][]string{{"alpha", "beta", "zeta"}},
			wantStats: Stats{Misses: 3, Stored: 3},
		},
		{
			name:      "batch, some cached",
			batch:     true,
			cached:    []string{"beta", "delta"},
			terms:     []string{"alpha", "beta", "gamma", "delta"},
			want:      []int64{1, 2, 3, 4},
			batches:   [][]string{{"alpha", "gamma"}},
			wantCalls: 2,
			wantStats: Stats{Hits: 2, Misses: 4, Stored: 4},
		},
		{
			name:      "batch, all cached",
			batch:     true,
			cached:    []string{"alpha", "beta"},
			terms:     []string{"beta", "alpha", "beta"},
			want:      []int64{2, 1, 2},
			wantCalls: 2,
			wantStats: Stats{Hits: 2, Misses: 2, Stored: 2},
		},
		{
			name:      "plain DF, one call per distinct term",
			terms:     []string{"gamma", "alpha", "gamma", "beta"},
			want:      []int64{3, 1, 3, 2},
			wantCalls: 3,
			wantStats: Stats{Misses: 3, Stored: 3},
		},
		{
			name:      "terms that cannot be stored go to the DF each time",
			batch:     true,
			terms:     []string{"", "alpha", long, ""},
			want:      []int64{0, 1, 0, 0},
			wantCalls: 3, // "" and long, and alpha, alone, with DocFreq
			wantStats: Stats{Misses: 3, Stored: 1},
		},
		{
			name:      "no terms",
			batch:     true,
			terms:     []string{},
			want:      []int64{},
			wantStats: Stats{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			db := openTemp(t, nil)
			engine := &fakeDF{values: values, docs: 100}
			var df lexsig.DF = engine
			if tc.batch {
				df = batchDF{engine}
			}
			src := db.Wrap(df, "src")
			for _, term := range tc.cached {
				if _, err := src.DocFreq(ctx, term); err != nil {
					t.Fatalf("DocFreq(%q): %v", term, err)
				}
			}
			got, err := src.DocFreqs(ctx, tc.terms)
			if err != nil {
				t.Fatalf("DocFreqs(%q): %v", tc.terms, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("DocFreqs(%q) (-want +got):\n%s", tc.terms, diff)
			}
			if diff := cmp.Diff(tc.batches, engine.batches); diff != "" {
				t.Errorf("batches asked of the engine (-want +got):\n%s", diff)
			}
			if got := engine.total(); got != tc.wantCalls {
				t.Errorf("the engine answered %d single lookups, want %d", got, tc.wantCalls)
			}
			if diff := cmp.Diff(tc.wantStats, src.Stats()); diff != "" {
				t.Errorf("Stats (-want +got):\n%s", diff)
			}
		})
	}
}

// TestErrorsNotStored checks that a failed lookup is returned and asked
// for again, and that negative frequencies and a non-positive |D| are not
// stored.
func TestErrorsNotStored(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		batch   bool
		lookup  func(s *Source) (int64, error)
		engine  *fakeDF
		wantErr error
		want    int64
		asked   string // the term (or "|D|") asked for
	}{
		{
			name:    "DocFreq error",
			engine:  &fakeDF{fail: map[string]bool{"down": true}},
			lookup:  func(s *Source) (int64, error) { return s.DocFreq(ctx, "down") },
			wantErr: errFake,
			asked:   "down",
		},
		{
			name:    "DocFreqs error of a plain DF",
			engine:  &fakeDF{fail: map[string]bool{"down": true}},
			lookup:  func(s *Source) (int64, error) { return first(s.DocFreqs(ctx, []string{"down"})) },
			wantErr: errFake,
			asked:   "down",
		},
		{
			name:    "Docs error",
			engine:  &fakeDF{fail: map[string]bool{"|D|": true}},
			lookup:  func(s *Source) (int64, error) { return s.Docs(ctx) },
			wantErr: errFake,
			asked:   "|D|",
		},
		{
			name:   "negative frequency",
			engine: &fakeDF{values: map[string]int64{"odd": -5}},
			lookup: func(s *Source) (int64, error) { return s.DocFreq(ctx, "odd") },
			want:   -5,
			asked:  "odd",
		},
		{
			name:   "zero |D|",
			engine: &fakeDF{docs: 0},
			lookup: func(s *Source) (int64, error) { return s.Docs(ctx) },
			want:   0,
			asked:  "|D|",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db := openTemp(t, nil)
			src := db.Wrap(tc.engine, "src")
			for i := range 2 {
				got, err := tc.lookup(src)
				if !errors.Is(err, tc.wantErr) || got != tc.want {
					t.Fatalf("lookup %d = %d, %v, want %d, %v", i+1, got, err, tc.want, tc.wantErr)
				}
			}
			if n := tc.engine.callsOf(tc.asked); n != 2 {
				t.Errorf("the engine was asked for %s %d times, want 2 (nothing stored)", tc.asked, n)
			}
			if n, err := db.Len("src"); err != nil || n != 0 {
				t.Errorf("Len = %d, %v, want 0", n, err)
			}
		})
	}
}

// first returns the first of a DocFreqs answer.
func first(ns []int64, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return ns[0], nil
}

// TestConcurrentLookups checks that goroutines asking for the same terms
// at once, with DocFreq and DocFreqs, reach the underlying DF once per
// term, and all get the right answers.
func TestConcurrentLookups(t *testing.T) {
	for _, batch := range []bool{false, true} {
		name := map[bool]string{false: "plain DF", true: "BatchDF"}[batch]
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db := openTemp(t, &Options{BatchDelay: time.Millisecond})
			engine := &fakeDF{values: map[string]int64{"one": 1, "two": 2, "three": 3}, docs: 9, gate: make(chan struct{})}
			var df lexsig.DF = engine
			if batch {
				df = batchDF{engine}
			}
			src := db.Wrap(df, "src")
			const workers = 12
			var wg sync.WaitGroup
			errs := make(chan error, workers)
			for i := range workers {
				wg.Go(func() {
					if i%2 == 0 {
						got, err := src.DocFreqs(ctx, []string{"three", "one", "two"})
						if err != nil {
							errs <- err
						} else if diff := cmp.Diff([]int64{3, 1, 2}, got); diff != "" {
							t.Errorf("DocFreqs (-want +got):\n%s", diff)
						}
						return
					}
					term := []string{"one", "two", "three"}[i%3]
					got, err := src.DocFreq(ctx, term)
					if err != nil {
						errs <- err
					} else if got != engine.values[term] {
						t.Errorf("DocFreq(%q) = %d, want %d", term, got, engine.values[term])
					}
					if n, err := src.Docs(ctx); err != nil || n != 9 {
						t.Errorf("Docs = %d, %v, want 9", n, err)
					}
				})
			}
			// Let the lookups in flight end once they have all been asked for.
			for {
				calls := engine.total()
				engine.mu.Lock()
				for _, b := range engine.batches {
					calls += len(b)
				}
				engine.mu.Unlock()
				if calls > 0 {
					break
				}
				time.Sleep(time.Millisecond)
			}
			time.Sleep(20 * time.Millisecond) // give the others time to join; the assertions hold either way
			close(engine.gate)
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Errorf("lookup: %v", err)
			}
			asked := map[string]int{}
			engine.mu.Lock()
			for term, n := range engine.calls {
				asked[term] += n
			}
			for _, b := range engine.batches {
				for _, term := range b {
					asked[term]++
				}
			}
			engine.mu.Unlock()
			for _, term := range []string{"one", "two", "three", "|D|"} {
				if asked[term] != 1 {
					t.Errorf("the engine was asked for %s %d times, want 1", term, asked[term])
				}
			}
			st := src.Stats()
			if st.Misses != 3 || st.Stored != 3 {
				t.Errorf("Stats = %+v, want 3 misses and 3 stored", st)
			}
		})
	}
}

// TestWaiterContext checks cancellation while a lookup is in flight: a
// waiter whose ctx ends gets ctx.Err(), and a waiter whose leader gave up
// (its ctx ended) asks again itself.
func TestWaiterContext(t *testing.T) {
	db := openTemp(t, nil)
	engine := &fakeDF{values: map[string]int64{"slow": 42}, gate: make(chan struct{})}
	src := db.Wrap(engine, "src")

	leaderCtx, cancelLeader := context.WithCancel(context.Background())
	leaderErr := make(chan error, 1)
	go func() {
		_, err := src.DocFreq(leaderCtx, "slow")
		leaderErr <- err
	}()
	for engine.callsOf("slow") == 0 {
		time.Sleep(time.Millisecond)
	}

	// A waiter whose own ctx ends while it waits.
	waitCtx, cancelWait := context.WithCancel(context.Background())
	waitErr := make(chan error, 1)
	go func() {
		_, err := src.DocFreq(waitCtx, "slow")
		waitErr <- err
	}()
	for src.Stats().Shared < 1 {
		time.Sleep(time.Millisecond)
	}
	cancelWait()
	if err := <-waitErr; !errors.Is(err, context.Canceled) {
		t.Errorf("DocFreq of a waiter whose ctx ended = %v, want context.Canceled", err)
	}

	// A waiter whose leader gives up asks again and gets the answer.
	got := make(chan int64, 1)
	go func() {
		n, err := src.DocFreq(context.Background(), "slow")
		if err != nil {
			t.Errorf("DocFreq after the leader gave up: %v", err)
		}
		got <- n
	}()
	for src.Stats().Shared < 2 {
		time.Sleep(time.Millisecond)
	}
	cancelLeader()
	if err := <-leaderErr; !errors.Is(err, context.Canceled) {
		t.Errorf("leader's DocFreq = %v, want context.Canceled", err)
	}
	close(engine.gate)
	if n := <-got; n != 42 {
		t.Errorf("DocFreq after the leader gave up = %d, want 42", n)
	}
	if n := engine.callsOf("slow"); n != 2 {
		t.Errorf("the engine was asked %d times, want 2", n)
	}
}

// TestPanicReleases checks that a panic of the underlying DF reaches its
// caller and does not leave the term stuck in flight.
func TestPanicReleases(t *testing.T) {
	db := openTemp(t, nil)
	calls := 0
	src := db.Wrap(lexsig.DFFunc(func(ctx context.Context, term string) (int64, error) {
		calls++
		if calls == 1 {
			panic("engine exploded")
		}
		return 7, nil
	}).WithDocs(10), "src")
	func() {
		defer func() {
			if r := recover(); r != "engine exploded" {
				t.Errorf("recover() = %v, want the engine's panic", r)
			}
		}()
		src.DocFreq(context.Background(), "term")
	}()
	if n, err := src.DocFreq(context.Background(), "term"); err != nil || n != 7 {
		t.Errorf("DocFreq after a panic = %d, %v, want 7", n, err)
	}
}

// TestMaxAge checks that values older than MaxAge are asked for again and
// replaced, and younger ones are not.
func TestMaxAge(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t, &Options{MaxAge: 24 * time.Hour})
	clock := time.Date(2009, 3, 1, 0, 0, 0, 0, time.UTC)
	db.now = func() time.Time { return clock }
	engine := &fakeDF{values: map[string]int64{"news": 100}, docs: 1000}
	src := db.Wrap(engine, "src")

	steps := []struct {
		name    string
		advance time.Duration
		value   int64 // the engine's answer from now on
		want    int64
		calls   int // the engine's lookups of "news" so far
	}{
		{"first lookup", 0, 100, 100, 1},
		{"within the day", 23 * time.Hour, 200, 100, 1},
		{"a day after storing", time.Hour, 300, 100, 1},
		{"past a day", time.Nanosecond, 400, 400, 2},
		{"replaced value is fresh", time.Hour, 500, 400, 2},
	}
	for _, s := range steps {
		clock = clock.Add(s.advance)
		engine.values["news"] = s.value
		got, err := src.DocFreq(ctx, "news")
		if err != nil || got != s.want {
			t.Errorf("%s: DocFreq = %d, %v, want %d", s.name, got, err, s.want)
		}
		if n := engine.callsOf("news"); n != s.calls {
			t.Errorf("%s: the engine was asked %d times, want %d", s.name, n, s.calls)
		}
	}
	if st := src.Stats(); st.Expired != 1 {
		t.Errorf("Stats().Expired = %d, want 1", st.Expired)
	}
}

// TestOffline checks a Source without an underlying DF: it answers what
// the file holds and ErrNotCached for the rest.
func TestOffline(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t, nil)
	if _, err := db.Wrap(&fakeDF{values: map[string]int64{"kept": 5}, docs: 50}, "src").DocFreqs(ctx, []string{"kept"}); err != nil {
		t.Fatalf("DocFreqs: %v", err)
	}
	offline := db.Wrap(nil, "src")
	tests := []struct {
		name    string
		lookup  func() (int64, error)
		want    int64
		wantErr error
	}{
		{"stored term", func() (int64, error) { return offline.DocFreq(ctx, "kept") }, 5, nil},
		{"missing term", func() (int64, error) { return offline.DocFreq(ctx, "other") }, 0, ErrNotCached},
		{"missing term in a batch", func() (int64, error) { return first(offline.DocFreqs(ctx, []string{"kept", "other"})) }, 0, ErrNotCached},
		{"missing |D|", func() (int64, error) { return db.Wrap(nil, "elsewhere").Docs(ctx) }, 0, ErrNotCached},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.lookup()
			if got != tc.want || !errors.Is(err, tc.wantErr) {
				t.Errorf("lookup = %d, %v, want %d, %v", got, err, tc.want, tc.wantErr)
			}
			var e *Error
			if tc.wantErr != nil && !errors.As(err, &e) {
				t.Errorf("error %v is not an *Error", err)
			}
		})
	}
}

// TestLocked checks what a second opener of a file gets (bbolt's flock):
// ErrLocked while a writer holds it, and access once it is closed.
func TestLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "df.cache")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	for _, opts := range []*Options{
		{LockTimeout: -1},
		{LockTimeout: 60 * time.Millisecond},
		{LockTimeout: -1, ReadOnly: true},
	} {
		_, err := Open(path, opts)
		var e *Error
		if !errors.Is(err, ErrLocked) || !errors.As(err, &e) || e.Op != "open" || e.Path != path {
			t.Errorf("second Open(%+v) = %v, want an *Error of open wrapping ErrLocked", *opts, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}

	// Read-only opens share the file.
	r1, err := Open(path, &Options{ReadOnly: true, LockTimeout: -1})
	if err != nil {
		t.Fatalf("read-only Open: %v", err)
	}
	defer r1.Close()
	r2, err := Open(path, &Options{ReadOnly: true, LockTimeout: -1})
	if err != nil {
		t.Fatalf("second read-only Open: %v", err)
	}
	defer r2.Close()
	if _, err := Open(path, &Options{LockTimeout: -1}); !errors.Is(err, ErrLocked) {
		t.Errorf("Open for writing while read-only opens hold the file = %v, want ErrLocked", err)
	}
}

// TestReadOnly checks that a read-only DB answers from the file and the
// underlying DF but stores nothing.
func TestReadOnly(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "df.cache")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	engine := &fakeDF{values: map[string]int64{"old": 3, "new": 4}, docs: 10}
	if _, err := db.Wrap(engine, "src").DocFreq(ctx, "old"); err != nil {
		t.Fatalf("DocFreq: %v", err)
	}
	db.Close()

	ro, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only Open: %v", err)
	}
	defer ro.Close()
	src := ro.Wrap(engine, "src")
	got, err := src.DocFreqs(ctx, []string{"old", "new", "new"})
	if err != nil {
		t.Fatalf("DocFreqs: %v", err)
	}
	if diff := cmp.Diff([]int64{3, 4, 4}, got); diff != "" {
		t.Errorf("DocFreqs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Stats{Hits: 1, Misses: 1}, src.Stats()); diff != "" {
		t.Errorf("Stats (-want +got):\n%s", diff)
	}
	if n, err := ro.Len("src"); err != nil || n != 1 {
		t.Errorf("Len = %d, %v, want 1", n, err)
	}
}

// TestOpenErrors checks files Open refuses.
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "text")
	if err := os.WriteFile(text, []byte(strings.Repeat("term\t1\n", 2000)), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.db")
	bdb, err := bolt.Open(other, 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := bdb.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("widgets")); return err }); err != nil {
		t.Fatal(err)
	}
	bdb.Close()
	future := filepath.Join(dir, "future.db")
	bdb, err = bolt.Open(future, 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := bdb.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket(metaBucket)
		if err != nil {
			return err
		}
		return b.Put(formatKey, []byte("relink-dfcache/2"))
	}); err != nil {
		t.Fatal(err)
	}
	bdb.Close()

	tests := []struct {
		name    string
		path    string
		opts    *Options
		wantErr error
	}{
		{"text file", text, nil, ErrFormat},
		{"another program's bbolt file", other, nil, ErrFormat},
		{"a later format", future, nil, ErrFormat},
		{"missing file read-only", filepath.Join(dir, "missing"), &Options{ReadOnly: true}, os.ErrNotExist},
		{"missing directory", filepath.Join(dir, "no", "df.cache"), nil, os.ErrNotExist},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db, err := Open(tc.path, tc.opts)
			if err == nil {
				db.Close()
			}
			var e *Error
			if !errors.Is(err, tc.wantErr) || !errors.As(err, &e) || e.Op != "open" {
				t.Errorf("Open(%q) = %v, want an *Error of open wrapping %v", tc.path, err, tc.wantErr)
			}
		})
	}
}

// TestCorruptEntry checks that a stored value of the wrong layout is an
// error, not a wrong answer.
func TestCorruptEntry(t *testing.T) {
	db := openTemp(t, nil)
	if err := db.bolt.Update(func(tx *bolt.Tx) error {
		b, err := tx.Bucket(sourcesBucket).CreateBucket([]byte("src"))
		if err != nil {
			return err
		}
		terms, err := b.CreateBucket(termsBucket)
		if err != nil {
			return err
		}
		return terms.Put([]byte("bad"), []byte("12"))
	}); err != nil {
		t.Fatal(err)
	}
	src := db.Wrap(&fakeDF{}, "src")
	if _, err := src.DocFreq(context.Background(), "bad"); !errors.Is(err, ErrCorrupt) {
		t.Errorf("DocFreq of a corrupt entry = %v, want ErrCorrupt", err)
	}
	if _, err := src.DocFreqs(context.Background(), []string{"good", "bad"}); !errors.Is(err, ErrCorrupt) {
		t.Errorf("DocFreqs over a corrupt entry = %v, want ErrCorrupt", err)
	}
}

// TestClosed checks lookups after Close.
func TestClosed(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "df.cache"), nil)
	if err != nil {
		t.Fatal(err)
	}
	src := db.Wrap(&fakeDF{values: map[string]int64{"t": 1}}, "src")
	db.Close()
	if _, err := src.DocFreq(context.Background(), "t"); !errors.Is(err, ErrClosed) {
		t.Errorf("DocFreq after Close = %v, want ErrClosed", err)
	}
	if _, err := src.DocFreqs(context.Background(), []string{"t"}); !errors.Is(err, ErrClosed) {
		t.Errorf("DocFreqs after Close = %v, want ErrClosed", err)
	}
	if _, err := db.Sources(); !errors.Is(err, ErrClosed) {
		t.Errorf("Sources after Close = %v, want ErrClosed", err)
	}
}

// TestDoneContext checks that lookups with a done context fail with its
// error without touching the underlying DF.
func TestDoneContext(t *testing.T) {
	db := openTemp(t, nil)
	engine := &fakeDF{}
	src := db.Wrap(engine, "src")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := src.DocFreq(ctx, "t"); !errors.Is(err, context.Canceled) {
		t.Errorf("DocFreq = %v, want context.Canceled", err)
	}
	if _, err := src.DocFreqs(ctx, []string{"t"}); !errors.Is(err, context.Canceled) {
		t.Errorf("DocFreqs = %v, want context.Canceled", err)
	}
	if _, err := src.Docs(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Docs = %v, want context.Canceled", err)
	}
	if n := engine.total(); n != 0 {
		t.Errorf("the engine was asked %d times, want 0", n)
	}
}

// TestRankThroughCache checks the cache in lexsig.Rank, which uses its
// DocFreqs: the ranking equals the one against the underlying DF.
func TestRankThroughCache(t *testing.T) {
	ctx := context.Background()
	mem := lexsig.NewMemDF()
	mem.AddDocument([]string{"link", "rot", "web"})
	mem.AddDocument([]string{"web", "archive"})
	mem.AddDocument([]string{"web"})
	tf := map[string]int{"link": 2, "web": 3, "archive": 1, "missing": 1}
	want, err := lexsig.Rank(ctx, tf, mem)
	if err != nil {
		t.Fatal(err)
	}
	db := openTemp(t, nil)
	for i := range 2 {
		got, err := lexsig.Rank(ctx, tf, db.Wrap(mem, "mem"))
		if err != nil {
			t.Fatalf("Rank %d: %v", i+1, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Rank %d through the cache (-want +got):\n%s", i+1, diff)
		}
	}
	if st := db.Stats(); st.Hits != 4 || st.Misses != 4 {
		t.Errorf("Stats = %+v, want 4 hits and 4 misses", st)
	}
}
