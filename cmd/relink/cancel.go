package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// readInput opens the file path (standard input, stdin, for "-") and
// returns what read makes of it, or gives up as soon as ctx is done: a
// FIFO with no writer blocks its open, and a pipe or terminal nobody
// writes to blocks its read, for ever, and Ctrl-C or SIGTERM must still
// end the run at once. Open and read run in a goroutine; when ctx is done
// first, a read deadline in the past wakes a read blocked on a pipe or
// FIFO (os.File.SetReadDeadline), and readInput returns an error matching
// ctx.Err() without waiting (a goroutine blocked in open stays so until
// the process ends, which it is about to). An error opening the file is
// returned as os.Open returns it.
func readInput[T any](ctx context.Context, stdin io.Reader, path string, read func(io.Reader) (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	var (
		mu     sync.Mutex
		opened *os.File // the file being read, to wake on cancel
		gaveUp bool
	)
	if f, ok := stdin.(*os.File); ok && path == "-" {
		opened = f
	}
	done := make(chan result, 1)
	go func() {
		r := stdin
		if path != "-" {
			f, err := os.Open(path)
			if err != nil {
				done <- result{err: err}
				return
			}
			defer f.Close()
			mu.Lock()
			opened = f
			if gaveUp {
				f.SetReadDeadline(time.Now())
			}
			mu.Unlock()
			r = f
		}
		if r == nil {
			r = eofReader{}
		}
		v, err := read(r)
		done <- result{v, err}
	}()
	select {
	case res := <-done:
		return res.v, res.err
	case <-ctx.Done():
	}
	mu.Lock()
	gaveUp = true
	if opened != nil {
		opened.SetReadDeadline(time.Now()) // ErrNoDeadline on a regular file, which never blocks
	}
	mu.Unlock()
	var zero T
	return zero, interrupted(ctx)
}

// interrupted returns ctx's error with its cause when that says more (the
// signal received): "context canceled (interrupt signal received)".
func interrupted(ctx context.Context) error {
	if cause := context.Cause(ctx); cause != nil && cause != ctx.Err() {
		return fmt.Errorf("%w (%v)", ctx.Err(), cause)
	}
	return ctx.Err()
}

// eofReader is an empty input.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
