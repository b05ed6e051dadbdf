package ingest

import (
	"context"
	"strings"
	"testing"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/corpus"
)

// TestRunJobPanic checks that a page whose parsing panics becomes a
// skipped file with the panic recorded, not a crashed ingest.
func TestRunJobPanic(t *testing.T) {
	it := runJob(job{run: func() Item { panic("boom") }})
	if it.Skip != corpus.ReasonInternal || it.Detail != "panic: boom" {
		t.Errorf("runJob(panicking job) = skip %q, detail %q; want %q, %q", it.Skip, it.Detail, corpus.ReasonInternal, "panic: boom")
	}
	it = runJob(job{run: func() Item { return skipped(corpus.ReasonEmpty, nil) }})
	if it.Skip != corpus.ReasonEmpty {
		t.Errorf("runJob(plain job) = skip %q, want %q", it.Skip, corpus.ReasonEmpty)
	}
}

// TestReadAhead checks the bounds of the window between the producer and
// the writer: items and bytes, one item however large, and a wait that
// cancellation ends.
func TestReadAhead(t *testing.T) {
	ctx := context.Background()
	done, cancel := context.WithCancel(ctx)
	cancel()
	r := newReadAhead(2, 100)
	if !r.acquire(done, 500) {
		t.Fatal("an empty window refused an item larger than its bytes")
	}
	if r.acquire(done, 1) {
		t.Error("a window over its bytes took another item")
	}
	r.release(500)
	for i := range 2 {
		if !r.acquire(ctx, 10) {
			t.Fatalf("item %d of 2 refused", i)
		}
	}
	if r.acquire(done, 10) {
		t.Error("a full window took a third item")
	}
	// A waiting acquire takes the room a release makes.
	got := make(chan bool)
	go func() { got <- r.acquire(ctx, 10) }()
	r.release(10)
	if !<-got {
		t.Error("acquire after a release failed")
	}
	if r.items != 2 || r.bytes != 20 {
		t.Errorf("window holds %d items, %d bytes; want 2, 20", r.items, r.bytes)
	}
}

// TestCores checks the sharing of processors: the writer takes one at
// once even when none is free, and a waiting worker starts only once one
// is free again.
func TestCores(t *testing.T) {
	c := newCores(1)
	c.wait() // a worker holds the only processor
	c.take() // the writer does not wait for it
	if c.free != -1 {
		t.Fatalf("free = %d after a worker and the writer took one of 1; want -1", c.free)
	}
	started := make(chan struct{})
	go func() {
		c.wait()
		close(started)
	}()
	c.leave() // the first worker ends its page: the writer still holds one
	c.leave() // the writer waits for items
	<-started
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.free != 0 {
		t.Errorf("free = %d with the second worker running; want 0", c.free)
	}
}

// TestIndexText checks that the full-text index's input holds the words
// lowercased exactly as lexsig.Normalize lowercases them, ASCII or not.
func TestIndexText(t *testing.T) {
	ws := []string{"Widget", "HTML5", "already", "ÉCOLE", "İstanbul", "Straße", "ǅemal", "A", "", "MiXeD-Case_9"}
	want := make([]string, len(ws))
	for i, w := range ws {
		want[i] = lexsig.Normalize(w)
	}
	if got := indexText(ws); got != strings.Join(want, " ") {
		t.Errorf("indexText(%q) = %q, want %q", ws, got, strings.Join(want, " "))
	}
	if got := indexText(nil); got != "" {
		t.Errorf("indexText(nil) = %q, want empty", got)
	}
}
