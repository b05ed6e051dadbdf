package store

import (
	"container/list"
	"sync"

	"github.com/linkrot/relink/lexsig"
)

// queryCache is a concurrency-safe least-recently-used cache of search
// answers, bounded by the number of results it holds. A nil *queryCache
// caches nothing.
type queryCache struct {
	mu    sync.Mutex
	size  int        // the most results held
	held  int        // results held now
	order *list.List // of *cacheEntry, most recently used first
	items map[string]*list.Element
}

// weight is what an answer counts against the cache's size.
func weight(results []lexsig.Result) int { return max(1, len(results)) }

// cacheEntry is one cached answer.
type cacheEntry struct {
	key     string
	results []lexsig.Result
}

// newQueryCache returns a cache of size results, or nil when size is not
// positive.
func newQueryCache(size int) *queryCache {
	if size <= 0 {
		return nil
	}
	return &queryCache{size: size, order: list.New(), items: make(map[string]*list.Element)}
}

// get returns a copy of the cached answer for key.
func (c *queryCache) get(key string) ([]lexsig.Result, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return append([]lexsig.Result{}, e.Value.(*cacheEntry).results...), true
}

// put stores a copy of results under key.
func (c *queryCache) put(key string, results []lexsig.Result) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		c.order.MoveToFront(e)
		return
	}
	if weight(results) > c.size {
		return
	}
	c.items[key] = c.order.PushFront(&cacheEntry{key: key, results: append([]lexsig.Result{}, results...)})
	c.held += weight(results)
	for c.held > c.size {
		last := c.order.Back()
		e := last.Value.(*cacheEntry)
		c.order.Remove(last)
		delete(c.items, e.key)
		c.held -= weight(e.results)
	}
}

// clear empties the cache, after the index changed.
func (c *queryCache) clear() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.order.Init()
	clear(c.items)
	c.held = 0
}
