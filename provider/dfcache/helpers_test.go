package dfcache

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/linkrot/relink/lexsig"
)

// fakeDF is an underlying DF that counts its calls. Its DF of a term is
// values[term] (0 when absent); terms in fail fail with errFake. When gate
// is not nil, every call waits for it to be closed first.
type fakeDF struct {
	values map[string]int64
	docs   int64
	fail   map[string]bool
	gate   chan struct{}

	mu      sync.Mutex
	calls   map[string]int // per term; "" counts Docs calls under "|D|"
	batches [][]string     // the terms of each DocFreqs call
}

// errFake is the error of a failing fakeDF lookup.
var errFake = errors.New("fake engine unavailable")

func (f *fakeDF) DocFreq(ctx context.Context, term string) (int64, error) {
	f.count(term)
	if err := f.block(ctx); err != nil {
		return 0, err
	}
	if f.fail[term] {
		return 0, errFake
	}
	return f.values[term], nil
}

func (f *fakeDF) Docs(ctx context.Context) (int64, error) {
	f.count("|D|")
	if err := f.block(ctx); err != nil {
		return 0, err
	}
	if f.fail["|D|"] {
		return 0, errFake
	}
	return f.docs, nil
}

func (f *fakeDF) count(term string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls == nil {
		f.calls = make(map[string]int)
	}
	f.calls[term]++
}

func (f *fakeDF) block(ctx context.Context) error {
	if f.gate == nil {
		return nil
	}
	select {
	case <-f.gate:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// callsOf returns how many times term (or "|D|") was asked for.
func (f *fakeDF) callsOf(term string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[term]
}

// total returns the number of single lookups made.
func (f *fakeDF) total() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		n += c
	}
	return n
}

// batchDF is a fakeDF that is also a lexsig.BatchDF.
type batchDF struct{ *fakeDF }

func (b batchDF) DocFreqs(ctx context.Context, terms []string) ([]int64, error) {
	b.mu.Lock()
	b.batches = append(b.batches, slices.Clone(terms))
	b.mu.Unlock()
	if err := b.block(ctx); err != nil {
		return nil, err
	}
	out := make([]int64, len(terms))
	for i, t := range terms {
		if b.fail[t] {
			return nil, errFake
		}
		out[i] = b.values[t]
	}
	return out, nil
}

var _ lexsig.BatchDF = batchDF{}

// openTemp opens a new cache file in a test directory and closes it at the
// end of the test.
func openTemp(t *testing.T, opts *Options) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "df.cache"), opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return db
}
