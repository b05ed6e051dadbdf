package lexsig

import (
	"context"
	"sync"
)

// MemDF is a DF held in memory: document frequencies counted from documents
// added with AddDocument, or set with Set and SetDocs. It suits tests,
// small corpora and DF tables loaded from a file. The zero value is an empty
// collection ready to use; a MemDF must not be copied after first use. It is
// safe for concurrent use.
type MemDF struct {
	mu   sync.RWMutex
	df   map[string]int64
	docs int64
}

var (
	_ DF      = (*MemDF)(nil)
	_ BatchDF = (*MemDF)(nil)
)

// NewMemDF returns an empty MemDF, the same as new(MemDF).
func NewMemDF() *MemDF { return new(MemDF) }

// AddDocument adds one document to the collection: |D| grows by one and the
// document frequency of each distinct term of words, lowercased with
// Normalize, grows by one however often the term occurs. Empty words are
// skipped; stop words are counted like any other term. A document with no
// words still counts toward |D|.
func (m *MemDF) AddDocument(words []string) {
	seen := make(map[string]struct{}, len(words))
	for _, w := range words {
		if w != "" {
			seen[Normalize(w)] = struct{}{}
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.df == nil {
		m.df = make(map[string]int64, len(seen))
	}
	for t := range seen {
		m.df[t]++
	}
	m.docs++
}

// Set sets the document frequency of term, lowercased with Normalize, to n.
// Setting 0 forgets the term. Set does not change |D|.
func (m *MemDF) Set(term string, n int64) {
	term = Normalize(term)
	m.mu.Lock()
	defer m.mu.Unlock()
	if n == 0 {
		delete(m.df, term)
		return
	}
	if m.df == nil {
		m.df = make(map[string]int64)
	}
	m.df[term] = n
}

// SetDocs sets |D|, the number of documents in the collection, to n.
func (m *MemDF) SetDocs(n int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.docs = n
}

// Len returns the number of distinct terms with a non-zero document
// frequency.
func (m *MemDF) Len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.df)
}

// DocFreq returns the document frequency of term, lowercased with
// Normalize: 0 for a term no document holds. It fails only when ctx is done.
func (m *MemDF) DocFreq(ctx context.Context, term string) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	term = Normalize(term)
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.df[term], nil
}

// DocFreqs returns the document frequency of each of terms, as DocFreq
// would, in the order of terms. It fails only when ctx is done.
func (m *MemDF) DocFreqs(ctx context.Context, terms []string) ([]int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]int64, len(terms))
	m.mu.RLock()
	defer m.mu.RUnlock()
	for i, t := range terms {
		out[i] = m.df[Normalize(t)]
	}
	return out, nil
}

// Docs returns |D|: the value of the last SetDocs (0 if none) plus the
// number of documents AddDocument has added since. It fails only when ctx is
// done.
func (m *MemDF) Docs(ctx context.Context) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.docs, nil
}
