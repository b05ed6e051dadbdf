package pgqueue_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestLimiterShared books slots from two processes' limiters on one key,
// on a clock the test moves: each request gets the next slot, one
// interval after the last, whichever process asks; time that passed
// frees the slots; a pause holds every process back.
func TestLimiterShared(t *testing.T) {
	q, _ := open(t)
	ctx := context.Background()
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	var (
		mu  sync.Mutex
		now = t0
	)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	a, b := q.Limiter(), q.Limiter()
	a.Now, b.Now = clock, clock
	const every = time.Second

	var waits []time.Duration
	for i := range 6 {
		l := a
		if i%2 == 1 {
			l = b
		}
		d, err := l.Reserve(ctx, "search brave", every)
		require.NoError(t, err)
		waits = append(waits, d)
	}
	for i, d := range waits {
		if want := time.Duration(i) * every; d != want {
			t.Errorf("reservation %d waits %v, want %v", i, d, want)
		}
	}
	// Another key has its own slots.
	if d, err := b.Reserve(ctx, "host example.org", every); err != nil || d != 0 {
		t.Errorf("another key's first reservation waits %v, %v; want 0", d, err)
	}
	// Half a second later the next slot is 5.5 s away; ten seconds
	// later there is none booked.
	advance(500 * time.Millisecond)
	if d, err := a.Reserve(ctx, "search brave", every); err != nil || d != 5500*time.Millisecond {
		t.Errorf("after 0.5 s the reservation waits %v, %v; want 5.5s", d, err)
	}
	advance(10 * time.Second)
	if d, err := b.Reserve(ctx, "search brave", every); err != nil || d != 0 {
		t.Errorf("after 10.5 s the reservation waits %v, %v; want 0", d, err)
	}
	// A 429 pauses the key for a minute, for both.
	require.NoError(t, a.Pause(ctx, "search brave", time.Minute))
	if d, err := b.Reserve(ctx, "search brave", every); err != nil || d != time.Minute {
		t.Errorf("after a pause the reservation waits %v, %v; want 1m", d, err)
	}
	// Many at once from both: every slot is taken once.
	advance(time.Hour)
	var (
		wg  sync.WaitGroup
		got = map[time.Duration]int{}
	)
	for i := range 20 {
		l := a
		if i%2 == 1 {
			l = b
		}
		wg.Go(func() {
			d, err := l.Reserve(ctx, "search brave", every)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			got[d]++
			mu.Unlock()
		})
	}
	wg.Wait()
	for i := range 20 {
		if got[time.Duration(i)*every] != 1 {
			t.Errorf("slot %d taken %d times, want once: %v", i, got[time.Duration(i)*every], got)
		}
	}
	// No interval reserves nothing.
	if d, err := a.Reserve(ctx, "search brave", 0); err != nil || d != 0 {
		t.Errorf("Reserve with no interval = %v, %v; want 0", d, err)
	}
}
