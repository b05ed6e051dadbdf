package relink

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
)

// ErrProviderFault is wrapped by the error a Finder reports for a provider
// that broke its contract: one that panicked, answered a fetch with neither
// a page nor an error, a search with a nil result and no error for an
// answer it had, or a negative count. The error says which provider and
// how. A backlink page whose fetch broke it is recorded in the trail as a
// FilterFetch rejection with that reason, as any failed fetch is.
var ErrProviderFault = errors.New("relink: a provider broke its contract")

// guarded returns f with every provider behind the guard: each call is
// refused with ctx.Err() once ctx is done, and again after the call when
// the provider ignored the cancellation; a panic is an error wrapping
// ErrProviderFault, as is a page or count no provider may answer. Every
// exported method of Finder that reaches a provider starts here, so that
// no stage, present or future, calls a provider unguarded. The optional
// interfaces of the providers (backlink.ContentProvider,
// backlink.SchemeFolder, lexsig.BatchDF) are kept.
func (f *Finder) guarded() *Finder {
	if f.safe {
		return f
	}
	g := *f
	g.safe = true
	if f.Backlinks != nil {
		g.Backlinks = safeBacklinks{f.Backlinks}
	}
	g.Fetcher = safeFetcher(f.Fetcher, "Fetcher")
	g.Archive = safeFetcher(f.Archive, "Archive")
	g.Filters.Fetcher = safeFetcher(f.Filters.Fetcher, "Filters.Fetcher")
	g.DF = safeDF(f.DF)
	if f.Searcher != nil {
		g.Searcher = safeSearcher{f.Searcher}
	}
	if f.Pages != nil {
		g.Pages = safePages{f.Pages}
	}
	if f.Candidates != nil {
		g.Candidates = safeCandidates{f.Candidates}
	}
	return &g
}

// guard runs call on behalf of the provider named who: not at all when ctx
// is done, and with its panic turned into an error wrapping
// ErrProviderFault. When ctx ended while call ran and call did not fail,
// it returns ctx.Err() instead of call's answer.
func guard[T any](ctx context.Context, who string, call func() (T, error)) (v T, err error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	defer func() {
		if p := recover(); p != nil {
			v, err = zero, fmt.Errorf("%w: %s panicked: %v", ErrProviderFault, who, p)
		}
	}()
	v, err = call()
	if err == nil && ctx.Err() != nil {
		return zero, ctx.Err()
	}
	return v, err
}

// fault returns an error wrapping ErrProviderFault: who answered what.
func fault(who, what string) error {
	return fmt.Errorf("%w: %s %s", ErrProviderFault, who, what)
}

type guardedFetcher struct {
	f   filter.Fetcher
	who string
}

// safeFetcher returns f behind the guard, or nil for a nil f.
func safeFetcher(f filter.Fetcher, who string) filter.Fetcher {
	if f == nil {
		return nil
	}
	return guardedFetcher{f, who}
}

func (g guardedFetcher) Fetch(ctx context.Context, uri string) (*filter.Page, error) {
	p, err := guard(ctx, g.who, func() (*filter.Page, error) { return g.f.Fetch(ctx, uri) })
	switch {
	case err != nil:
		// A page with an error is no answer (filter.Fetcher's contract).
		return nil, err
	case p == nil:
		return nil, fault(g.who, "answered no page and no error")
	}
	return p, nil
}

type safeSearcher struct{ s lexsig.Searcher }

func (g safeSearcher) Search(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
	return guard(ctx, "Searcher", func() ([]lexsig.Result, error) { return g.s.Search(ctx, q, limit) })
}

// safeBacklinks keeps the optional interfaces of its provider: it folds
// schemes when that does, and lists content backlinks with it when it can,
// and all its backlinks otherwise, as backlink.ContentOnly would.
type safeBacklinks struct{ p backlink.Provider }

func (g safeBacklinks) Backlinks(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
	return guard(ctx, "Backlinks", func() ([]backlink.Backlink, error) { return g.p.Backlinks(ctx, uri, limit) })
}

func (g safeBacklinks) ContentBacklinks(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
	cp, ok := g.p.(backlink.ContentProvider)
	if !ok {
		return g.Backlinks(ctx, uri, limit)
	}
	return guard(ctx, "Backlinks", func() ([]backlink.Backlink, error) { return cp.ContentBacklinks(ctx, uri, limit) })
}

func (g safeBacklinks) FoldsSchemes() bool {
	folds, _ := guard(context.Background(), "Backlinks", func() (bool, error) { return backlink.FoldsSchemes(g.p), nil })
	return folds
}

type guardedDF struct{ df lexsig.DF }

// guardedBatchDF is guardedDF for a DF that looks terms up in batches.
type guardedBatchDF struct {
	guardedDF
	b lexsig.BatchDF
}

// safeDF returns df behind the guard, a lexsig.BatchDF when df is one, or
// nil for a nil df.
func safeDF(df lexsig.DF) lexsig.DF {
	switch d := df.(type) {
	case nil:
		return nil
	case lexsig.BatchDF:
		return guardedBatchDF{guardedDF{df}, d}
	}
	return guardedDF{df}
}

func (g guardedDF) DocFreq(ctx context.Context, term string) (int64, error) {
	n, err := guard(ctx, "DF", func() (int64, error) { return g.df.DocFreq(ctx, term) })
	if err == nil && n < 0 {
		return 0, fault("DF", fmt.Sprintf("answered %d documents for %q", n, term))
	}
	return n, err
}

func (g guardedDF) Docs(ctx context.Context) (int64, error) {
	n, err := guard(ctx, "DF", func() (int64, error) { return g.df.Docs(ctx) })
	if err == nil && n < 0 {
		return 0, fault("DF", fmt.Sprintf("answered %d documents in all", n))
	}
	return n, err
}

func (g guardedBatchDF) DocFreqs(ctx context.Context, terms []string) ([]int64, error) {
	freqs, err := guard(ctx, "DF", func() ([]int64, error) { return g.b.DocFreqs(ctx, terms) })
	if err != nil {
		return nil, err
	}
	for i, n := range freqs {
		if n < 0 && i < len(terms) {
			return nil, fault("DF", fmt.Sprintf("answered %d documents for %q", n, terms[i]))
		}
	}
	return freqs, nil
}

// safePages keeps a caller's PageCache from breaking the trail: a panic or
// a nil Inspection is a FilterFetch rejection saying so.
type safePages struct{ c PageCache }

func (g safePages) Inspect(ctx context.Context, key string, inspect func(context.Context) *Inspection) *Inspection {
	in, err := guard(context.Background(), "Pages", func() (*Inspection, error) { return g.c.Inspect(ctx, key, inspect), nil })
	switch {
	case err != nil:
		return &Inspection{URI: strings.TrimPrefix(key, ArchivedKey("")), Filter: FilterFetch, Reason: err.Error()}
	case in == nil:
		return &Inspection{URI: strings.TrimPrefix(key, ArchivedKey("")), Filter: FilterFetch, Reason: fault("Pages", "answered no inspection").Error()}
	}
	return in
}

// safeCandidates keeps a caller's CandidateCache from breaking a strategy:
// when it panics or answers no reading, the page is read without it.
type safeCandidates struct{ c CandidateCache }

func (g safeCandidates) Candidate(ctx context.Context, uri string, read func(context.Context) *CandidatePage) *CandidatePage {
	p, err := guard(context.Background(), "Candidates", func() (*CandidatePage, error) { return g.c.Candidate(ctx, uri, read), nil })
	if err != nil || p == nil {
		return read(ctx)
	}
	return p
}
