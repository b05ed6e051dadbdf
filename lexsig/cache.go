package lexsig

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"unique"
)

// Cache is a DF that remembers the answers of another DF, as the paper kept
// a local cache of the DF values it asked Yahoo! for (§2.1 "TFIDF"). The
// first lookup of a term goes to the underlying DF; later lookups are
// answered from memory. Lookups of the same term that arrive while the first
// is in flight wait for it and share its answer, so each term reaches the
// underlying DF once however many goroutines ask. Errors are not cached: the
// next lookup of a term whose lookup failed asks again. Docs is cached the
// same way.
//
// A Cache is safe for concurrent use. It is unbounded: it keeps every term it
// has seen for its lifetime (a few dozen bytes per term, so a million terms
// take tens of megabytes); drop the Cache to forget them. It keeps the terms
// in memory of their own (interned with package unique), never the strings
// it was given: a term cut from a larger string, such as the words drawn
// from a page, does not keep that string alive. It assumes, as the paper
// did, that DF values do not change while it lives.
type Cache struct {
	df DF

	mu       sync.Mutex
	freqs    map[string]int64
	inflight map[string]*lookup
	docs     int64
	haveDocs bool
	docsCall *lookup
	stats    CacheStats
}

var (
	_ DF      = (*Cache)(nil)
	_ BatchDF = (*Cache)(nil)
)

// lookup is one call to the underlying DF that other callers may wait for.
type lookup struct {
	done chan struct{} // closed when n and err are set
	n    int64
	err  error
}

// errLookupPanicked is what callers waiting on a lookup receive when the
// underlying DF panicked in it; the panic itself goes on in the caller that
// made the call.
var errLookupPanicked = errors.New("lexsig: document frequency lookup panicked")

// CacheStats counts the lookups a Cache has answered.
type CacheStats struct {
	// Hits counts lookups answered from memory.
	Hits int64
	// Shared counts lookups that waited for the same term's lookup in
	// flight.
	Shared int64
	// Misses counts lookups that went to the underlying DF (failed ones
	// included).
	Misses int64
}

// NewCache returns an empty Cache in front of df. It panics if df is nil.
func NewCache(df DF) *Cache {
	if df == nil {
		panic("lexsig: NewCache with nil DF")
	}
	return &Cache{
		df:       df,
		freqs:    make(map[string]int64),
		inflight: make(map[string]*lookup),
	}
}

// Stats returns the counts of lookups of terms (not of Docs) so far.
func (c *Cache) Stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// Len returns the number of terms whose document frequency is cached.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.freqs)
}

// DocFreq returns the document frequency of term from memory, or from the
// underlying DF on the term's first lookup. Errors of the underlying DF are
// returned as they are and not cached. When ctx is done while waiting for
// another caller's lookup, DocFreq returns ctx.Err(); when that other
// caller's lookup is abandoned because its own ctx is done, DocFreq asks
// again with ctx.
func (c *Cache) DocFreq(ctx context.Context, term string) (int64, error) {
	for {
		c.mu.Lock()
		if n, ok := c.freqs[term]; ok {
			c.stats.Hits++
			c.mu.Unlock()
			return n, nil
		}
		if l, ok := c.inflight[term]; ok {
			c.stats.Shared++
			c.mu.Unlock()
			n, err, retry := wait(ctx, l)
			if retry {
				continue
			}
			return n, err
		}
		l := &lookup{done: make(chan struct{})}
		c.inflight[term] = l
		c.stats.Misses++
		c.mu.Unlock()

		c.run(l, func() (int64, error) { return c.df.DocFreq(ctx, term) }, func(n int64) {
			c.freqs[unique.Make(term).Value()] = n
		}, func() { delete(c.inflight, term) })
		return l.n, l.err
	}
}

// DocFreqs returns the document frequency of each of terms, in order, as
// DocFreq would. When the underlying DF implements BatchDF, the terms that
// are neither cached nor in flight are looked up with one DocFreqs call;
// otherwise up to 8 of them are looked up at a time. A failed lookup gives
// the underlying error (a *TermError when the underlying DF has no
// DocFreqs); when ctx is done DocFreqs returns ctx.Err().
func (c *Cache) DocFreqs(ctx context.Context, terms []string) ([]int64, error) {
	b, ok := c.df.(BatchDF)
	if !ok {
		return lookupEach(ctx, dfOnly{c}, terms)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]int64, len(terms))
	var (
		lead    []string
		leading = make(map[string]*lookup)
		later   []int // indexes of terms another caller is looking up
	)
	c.mu.Lock()
	for i, t := range terms {
		if n, ok := c.freqs[t]; ok {
			c.stats.Hits++
			out[i] = n
			continue
		}
		if _, ok := leading[t]; ok {
			c.stats.Shared++
			later = append(later, i)
			continue
		}
		if _, ok := c.inflight[t]; ok {
			later = append(later, i) // DocFreq counts it
			continue
		}
		l := &lookup{done: make(chan struct{})}
		c.inflight[t] = l
		leading[t] = l
		lead = append(lead, t)
		c.stats.Misses++
	}
	c.mu.Unlock()

	if len(lead) > 0 {
		if err := c.runBatch(lead, leading, func() ([]int64, error) { return b.DocFreqs(ctx, lead) }); err != nil {
			return nil, err
		}
		for i, t := range terms {
			if l, ok := leading[t]; ok {
				out[i] = l.n
			}
		}
	}
	for _, i := range later {
		if l, ok := leading[terms[i]]; ok {
			out[i] = l.n
			continue
		}
		n, err := c.DocFreq(ctx, terms[i])
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// Docs returns |D| from memory, or from the underlying DF the first time.
// Errors are not cached; concurrent first calls share one call to the
// underlying Docs, as DocFreq does.
func (c *Cache) Docs(ctx context.Context) (int64, error) {
	for {
		c.mu.Lock()
		if c.haveDocs {
			c.mu.Unlock()
			return c.docs, nil
		}
		if l := c.docsCall; l != nil {
			c.mu.Unlock()
			n, err, retry := wait(ctx, l)
			if retry {
				continue
			}
			return n, err
		}
		l := &lookup{done: make(chan struct{})}
		c.docsCall = l
		c.mu.Unlock()

		c.run(l, func() (int64, error) { return c.df.Docs(ctx) }, func(n int64) {
			c.docs, c.haveDocs = n, true
		}, func() { c.docsCall = nil })
		return l.n, l.err
	}
}

// run makes the call of lookup l, stores a successful answer with keep and
// forgets l with forget (both under c.mu), then releases l's waiters. If
// call panics, the waiters receive errLookupPanicked and the panic goes on.
func (c *Cache) run(l *lookup, call func() (int64, error), keep func(int64), forget func()) {
	l.err = errLookupPanicked
	defer func() {
		c.mu.Lock()
		if l.err == nil {
			keep(l.n)
		}
		forget()
		c.mu.Unlock()
		close(l.done)
	}()
	l.n, l.err = call()
}

// runBatch is run for the lookups of the terms lead, made by one batch call;
// leading maps each term of lead to its lookup. It returns the call's error.
func (c *Cache) runBatch(lead []string, leading map[string]*lookup, call func() ([]int64, error)) (err error) {
	var freqs []int64
	err = errLookupPanicked
	defer func() {
		c.mu.Lock()
		for i, t := range lead {
			l := leading[t]
			if err == nil {
				l.n = freqs[i]
				c.freqs[unique.Make(t).Value()] = l.n
			}
			l.err = err
			delete(c.inflight, t)
		}
		c.mu.Unlock()
		for _, t := range lead {
			close(leading[t].done)
		}
	}()
	freqs, err = call()
	if err == nil && len(freqs) != len(lead) {
		err = fmt.Errorf("lexsig: cache: DocFreqs answered %d frequencies for %d terms", len(freqs), len(lead))
	}
	return err
}

// wait waits for lookup l and returns its answer. retry reports that l was
// abandoned because its caller's context was done while ctx is not, so the
// caller should look again.
func wait(ctx context.Context, l *lookup) (n int64, err error, retry bool) {
	select {
	case <-l.done:
	case <-ctx.Done():
		return 0, ctx.Err(), false
	}
	if l.err != nil && isContextErr(l.err) && ctx.Err() == nil {
		return 0, nil, true
	}
	return l.n, l.err, false
}

// isContextErr reports whether err comes from a done context.
func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// dfOnly hides the BatchDF method of a Cache, so that lookupEach calls its
// DocFreq.
type dfOnly struct{ c *Cache }

// DocFreq returns d.c.DocFreq(ctx, term).
func (d dfOnly) DocFreq(ctx context.Context, term string) (int64, error) {
	return d.c.DocFreq(ctx, term)
}

// Docs returns d.c.Docs(ctx).
func (d dfOnly) Docs(ctx context.Context) (int64, error) { return d.c.Docs(ctx) }
