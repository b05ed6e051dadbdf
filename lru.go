package relink

import (
	"container/list"
	"context"
	"sync"
	"sync/atomic"
)

// onceLRU keeps values made once per key, even when many goroutines ask
// for a key at the same time, and drops the least recently used beyond a
// budget of bytes (none when max is 0 or less). It is what the in-memory
// PageCache and CandidateCache share.
type onceLRU[V any] struct {
	mu    sync.Mutex
	m     map[string]*onceEntry[V]
	max   int64
	bytes int64
	lru   *list.List // of *onceEntry[V] kept, most recently used first
	n     atomic.Int64
	drops atomic.Int64
}

type onceEntry[V any] struct {
	mu   sync.Mutex
	key  string
	v    V
	done bool
	size int64
	elem *list.Element // in lru, once kept
}

func newOnceLRU[V any](maxBytes int64) *onceLRU[V] {
	return &onceLRU[V]{m: map[string]*onceEntry[V]{}, max: maxBytes, lru: list.New()}
}

// get returns the value kept under key, calling make to make it when none
// is kept; size says what a value made counts against the budget. A value
// made while ctx ended is returned but not kept.
func (c *onceLRU[V]) get(ctx context.Context, key string, make func(context.Context) V, size func(V) int64) V {
	c.mu.Lock()
	e := c.m[key]
	if e == nil {
		e = &onceEntry[V]{key: key}
		c.m[key] = e
	} else if e.elem != nil {
		c.lru.MoveToFront(e.elem)
	}
	c.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.done {
		return e.v
	}
	v := make(ctx)
	if ctx.Err() != nil {
		return v
	}
	e.v, e.done, e.size = v, true, size(v)
	c.n.Add(1)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m[key] != e {
		return v // dropped meanwhile
	}
	e.elem = c.lru.PushFront(e)
	c.bytes += e.size
	for c.max > 0 && c.bytes > c.max && c.lru.Len() > 1 {
		last := c.lru.Remove(c.lru.Back()).(*onceEntry[V])
		delete(c.m, last.key)
		c.bytes -= last.size
		c.drops.Add(1)
	}
	return v
}

// Len returns the number of values made through the cache (inspections,
// readings), those dropped since included.
func (c *onceLRU[V]) Len() int { return int(c.n.Load()) }

// Dropped returns how many values were dropped to keep to the budget.
func (c *onceLRU[V]) Dropped() int { return int(c.drops.Load()) }

// Bytes returns about how many bytes the kept values hold.
func (c *onceLRU[V]) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}
