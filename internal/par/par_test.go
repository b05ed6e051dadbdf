package par_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/linkrot/relink/internal/par"
)

func TestDoBound(t *testing.T) {
	var running, peak atomic.Int32
	out := make([]int, 50)
	err := par.Do(context.Background(), len(out), 4, func(ctx context.Context, i int) error {
		r := running.Add(1)
		defer running.Add(-1)
		for p := peak.Load(); r > p && !peak.CompareAndSwap(p, r); p = peak.Load() {
		}
		time.Sleep(time.Millisecond)
		out[i] = i * i
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		if v != i*i {
			t.Fatalf("out[%d] = %d, want %d", i, v, i*i)
		}
	}
	if p := peak.Load(); p > 4 || p < 2 {
		t.Errorf("peak concurrency %d, want 2..4", p)
	}
}

func TestDoFirstError(t *testing.T) {
	// Calls after the failing one block until their context is cancelled,
	// so the bound below does not depend on scheduling: each of the other
	// workers may hold one such call, and none may start another after the
	// failure cancels them. Their own context errors must not replace the
	// first error.
	const limit = 4
	boom := errors.New("boom")
	var calls atomic.Int32
	err := par.Do(context.Background(), 1000, limit, func(ctx context.Context, i int) error {
		calls.Add(1)
		switch {
		case i < 3:
			return nil
		case i == 3:
			return boom
		default:
			<-ctx.Done()
			return ctx.Err()
		}
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Do = %v, want boom", err)
	}
	if c, most := calls.Load(), int32(4+limit-1); c > most {
		t.Errorf("%d calls, want at most %d: the rest not started after the failure at 3", c, most)
	}
}

func TestDoCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	block := make(chan struct{})
	defer close(block)
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	// fn never returns before the test ends: Do must return on the cancel alone.
	err := par.Do(ctx, 3, 3, func(ctx context.Context, i int) error {
		<-block // ignores its context, as a badly behaved provider might
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Do = %v, want context.Canceled", err)
	}
}

func ExampleDo() {
	squares := make([]int, 5)
	err := par.Do(context.Background(), len(squares), 2, func(ctx context.Context, i int) error {
		squares[i] = i * i
		return nil
	})
	fmt.Println(squares, err)
	// Output: [0 1 4 9 16] <nil>
}

// A panic in a worker reaches the caller's goroutine, where recover sees it
// (a panic left in the worker would end the process).
func TestDoPanic(t *testing.T) {
	defer func() {
		if v := recover(); v != "boom" {
			t.Fatalf("recovered %v, want boom", v)
		}
	}()
	_ = par.Do(context.Background(), 10, 3, func(ctx context.Context, i int) error {
		if i == 4 {
			panic("boom")
		}
		return nil
	})
	t.Fatal("Do returned instead of panicking")
}
