package lexsig

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMemDF checks DF counting: a term counts once per document that holds
// it, |D| once per document (Equation 2's {d : t_i ∈ d} and |D|).
func TestMemDF(t *testing.T) {
	var m MemDF // the zero value is usable
	m.AddDocument(Tokenize("Time and time again"))
	m.AddDocument(Tokenize("TIME flies"))
	m.AddDocument(nil)
	m.AddDocument([]string{"", "Again"})
	ctx := t.Context()
	tests := []struct {
		name string
		term string
		want int64
	}{
		{"in two documents, repeated in one", "time", 2},
		{"uppercase lookup normalized", "Time", 2},
		{"in two documents", "again", 2},
		{"in one document", "flies", 1},
		{"stop words counted too", "and", 1},
		{"unknown", "nowhere", 0},
		{"empty never counted", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := m.DocFreq(ctx, tc.term)
			if err != nil || got != tc.want {
				t.Errorf("DocFreq(%q) = %d, %v; want %d, nil", tc.term, got, err, tc.want)
			}
		})
	}
	if n, err := m.Docs(ctx); n != 4 || err != nil {
		t.Errorf("Docs() = %d, %v; want 4, nil", n, err)
	}
	terms := []string{"time", "nowhere", "again", "time"}
	got, err := m.DocFreqs(ctx, terms)
	if err != nil {
		t.Fatalf("DocFreqs: %v", err)
	}
	if diff := cmp.Diff([]int64{2, 0, 2, 2}, got); diff != "" {
		t.Errorf("DocFreqs(%q) mismatch (-want +got):\n%s", terms, diff)
	}
	if n := m.Len(); n != 4 {
		t.Errorf("Len() = %d, want 4 (time, and, again, flies)", n)
	}
}

func TestMemDFSet(t *testing.T) {
	m := NewMemDF()
	m.SetDocs(1_000_000)
	m.Set("Behring", 12)
	m.Set("gone", 3)
	m.Set("gone", 0)
	m.AddDocument([]string{"behring"})
	ctx := t.Context()
	if n, _ := m.DocFreq(ctx, "behring"); n != 13 {
		t.Errorf("DocFreq(behring) = %d, want 13", n)
	}
	if n, _ := m.DocFreq(ctx, "gone"); n != 0 {
		t.Errorf("DocFreq(gone) = %d after Set 0, want 0", n)
	}
	if n := m.Len(); n != 1 {
		t.Errorf("Len() = %d, want 1", n)
	}
	if n, _ := m.Docs(ctx); n != 1_000_001 {
		t.Errorf("Docs() = %d, want 1000001", n)
	}
}

func TestMemDFCancelled(t *testing.T) {
	m := NewMemDF()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := m.DocFreq(ctx, "x"); !errors.Is(err, context.Canceled) {
		t.Errorf("DocFreq(cancelled) error = %v, want context.Canceled", err)
	}
	if _, err := m.DocFreqs(ctx, []string{"x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("DocFreqs(cancelled) error = %v, want context.Canceled", err)
	}
	if _, err := m.Docs(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Docs(cancelled) error = %v, want context.Canceled", err)
	}
}

// TestMemDFConcurrent checks that adding and looking up at once is safe
// (run with -race) and loses no document.
func TestMemDFConcurrent(t *testing.T) {
	m := NewMemDF()
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			for range 100 {
				m.AddDocument([]string{"shared", fmt.Sprintf("own%d", g)})
				if _, err := m.DocFreq(t.Context(), "shared"); err != nil {
					t.Errorf("DocFreq: %v", err)
				}
			}
		})
	}
	wg.Wait()
	ctx := t.Context()
	if n, _ := m.DocFreq(ctx, "shared"); n != 1600 {
		t.Errorf("DocFreq(shared) = %d, want 1600", n)
	}
	if n, _ := m.DocFreq(ctx, "own7"); n != 100 {
		t.Errorf("DocFreq(own7) = %d, want 100", n)
	}
	if n, _ := m.Docs(ctx); n != 1600 {
		t.Errorf("Docs() = %d, want 1600", n)
	}
}
