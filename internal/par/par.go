// Package par runs indexed work on a bounded number of goroutines, for the
// packages that call slow providers (backlink queries, DF lookups, page
// fetches) many times at once.
package par

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

// Do calls fn(ctx, i) for every i in [0, n), at most limit calls at a time
// (limit below 1 means 1), and returns once every call has returned or as
// soon as one fails or ctx is done.
//
// The first error of fn cancels the context the other calls get and is
// returned; no further calls start. When ctx is done Do returns ctx.Err() at
// once, without waiting for calls in flight: they see their context
// cancelled and must not write anything the caller reads after Do returns
// with an error. Results are the caller's to collect, by index, so their
// order never depends on which call finishes first.
//
// A panic of fn stops the work as an error would and is raised again in
// the goroutine that called Do, where the caller's recover can catch it.
func Do(ctx context.Context, n, limit int, fn func(ctx context.Context, i int) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if n <= 0 {
		return nil
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next     atomic.Int64
		failOnce sync.Once
		failure  error
		wg       sync.WaitGroup
	)
	for range min(max(limit, 1), n) {
		wg.Go(func() {
			for cctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := call(fn, cctx, i); err != nil {
					failOnce.Do(func() { failure = err })
					cancel()
					return
				}
			}
		})
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	if p, ok := failure.(*panicked); ok {
		panic(p.value) // in the caller's goroutine, where it can be recovered
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return failure
}

// panicked carries a panic of fn to the caller's goroutine.
type panicked struct{ value any }

func (p *panicked) Error() string { return fmt.Sprintf("par: panic: %v", p.value) }

// call calls fn, turning a panic into a *panicked error.
func call(fn func(ctx context.Context, i int) error, ctx context.Context, i int) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &panicked{v}
		}
	}()
	return fn(ctx, i)
}
