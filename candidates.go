package relink

import (
	"context"
	"math"
	"unique"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
)

// CandidatePage is what a strategy reads of a candidate page: Rerank
// compares its heading with the missing URI's name and its words with
// the words around the backlinks' links. It is immutable once made.
type CandidatePage struct {
	// URI is the page's URI as it was asked for.
	URI string
	// From is the URI the page was read from, redirects followed
	// (filter.Page.URI), or "" when no page could be read: the fetch
	// failed, answered a status other than 2xx, or a body that could not
	// be decoded.
	From string
	// Heading is the page's heading (backlink.Heading), "" when it has
	// none or was not read.
	Heading string

	terms []termCount // the page's words counted; nil when it could not be parsed
	norm  float64     // the sum of the squares of the counts
}

// ReadCandidate fetches the page at uri with f and reads it: its heading
// and its words (backlink.Document.Words). A page that cannot be fetched,
// answers other than 2xx or cannot be decoded is a CandidatePage with no
// From; one that cannot be parsed has its heading and no words.
func ReadCandidate(ctx context.Context, f filter.Fetcher, uri string) *CandidatePage {
	p := &CandidatePage{URI: uri}
	from, body := fetchText(ctx, f, uri)
	if body == nil {
		return p
	}
	p.From, p.Heading = from, backlink.Heading(body)
	doc, err := backlink.Parse(body, uri)
	if err != nil {
		return p
	}
	counts := lexsig.Count(doc.Words())
	p.terms = make([]termCount, 0, len(counts))
	for t, n := range counts {
		// Interned, as Inspection's counts are: a page kept for the
		// run holds each term once, shared with the other pages.
		p.terms = append(p.terms, termCount{unique.Make(t).Value(), n})
		p.norm += float64(n * n)
	}
	return p
}

// similarity returns the cosine similarity of the page's word counts and
// words, 0 when either has none. It is cosine(words, counts of the page's
// words): every sum is of integers, exact in any order.
func (p *CandidatePage) similarity(words map[string]int) float64 {
	var dot, norm float64
	for _, x := range words {
		norm += float64(x * x)
	}
	for _, tc := range p.terms {
		if x, ok := words[tc.term]; ok {
			dot += float64(x * tc.n)
		}
	}
	if norm == 0 || p.norm == 0 {
		return 0
	}
	return dot / math.Sqrt(norm*p.norm)
}

// size returns about how many bytes the page's reading holds, its
// interned terms aside.
func (p *CandidatePage) size() int64 {
	return candidateOverhead + int64(len(p.URI)+len(p.From)+len(p.Heading)) + int64(cap(p.terms))*termCountSize
}

const (
	// candidateOverhead is what a CandidatePage costs beyond its
	// strings and terms, with its place in a cache.
	candidateOverhead = 192
	// termCountSize is the size of one termCount.
	termCountSize = 24
)

// CandidateCache keeps what strategies read of candidate pages across
// finds, so that a page among the candidates of many missing URIs, or of
// several strategies for one, is fetched and parsed once.
type CandidateCache interface {
	// Candidate returns the reading kept for uri, calling read to make it
	// when none is kept. A reading made while ctx ended must not be
	// kept. Implementations must be safe for concurrent use.
	//
	// A reading depends on the Fetcher that read it: a cache shared by
	// Finders whose Fetchers answer differently (each with another page
	// missing, as in an experiment) must not answer one with another's
	// reading of a page that is not the same for both (the missing page,
	// or one that redirects).
	Candidate(ctx context.Context, uri string, read func(context.Context) *CandidatePage) *CandidatePage
}

// NewCandidateCache returns an in-memory CandidateCache that reads each
// page once even when many goroutines ask for it at the same time, and
// keeps the readings of at most about maxBytes (their word counts, each
// term held once for every page), dropping the least recently used beyond
// that. maxBytes 0 or less keeps every reading for the cache's life.
func NewCandidateCache(maxBytes int64) *MemoryCandidateCache {
	return &MemoryCandidateCache{newOnceLRU[*CandidatePage](maxBytes)}
}

// MemoryCandidateCache is the CandidateCache NewCandidateCache makes. It is
// safe for concurrent use. Len, Dropped and Bytes count its readings.
type MemoryCandidateCache struct {
	*onceLRU[*CandidatePage]
}

// Candidate implements CandidateCache.
func (c *MemoryCandidateCache) Candidate(ctx context.Context, uri string, read func(context.Context) *CandidatePage) *CandidatePage {
	return c.get(ctx, uri, read, (*CandidatePage).size)
}

// candidate returns the reading of the candidate page at uri, through
// t.Candidates when there is one.
func (t Tools) candidate(ctx context.Context, uri string) *CandidatePage {
	read := func(ctx context.Context) *CandidatePage { return ReadCandidate(ctx, t.Fetcher, uri) }
	if t.Candidates == nil {
		return read(ctx)
	}
	return t.Candidates.Candidate(ctx, uri, read)
}
