package main

import (
	"context"
	"net/http/httptrace"
	"sync/atomic"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/repair"
)

// The services fix counts requests to (repair.Calls).
const (
	serviceFetch     = "fetch"
	serviceSearch    = "search"
	serviceArchive   = "archive"
	serviceBacklinks = "backlinks"
)

// callCounter counts the HTTP requests sent for one dead link, by service.
// It is safe for concurrent use.
type callCounter struct {
	fetch, search, archive, backlinks atomic.Int64
}

// add counts one request to service.
func (c *callCounter) add(service string) {
	switch service {
	case serviceFetch:
		c.fetch.Add(1)
	case serviceSearch:
		c.search.Add(1)
	case serviceArchive:
		c.archive.Add(1)
	case serviceBacklinks:
		c.backlinks.Add(1)
	}
}

// calls returns the counts so far.
func (c *callCounter) calls() repair.Calls {
	return repair.Calls{
		Fetch: int(c.fetch.Load()), Search: int(c.search.Load()),
		Archive: int(c.archive.Load()), Backlinks: int(c.backlinks.Load()),
	}
}

type (
	counterKey struct{}
	serviceKey struct{}
)

// withCounter returns ctx carrying c: the requests the counting providers
// send under it are counted there.
func withCounter(ctx context.Context, c *callCounter) context.Context {
	return context.WithValue(ctx, counterKey{}, c)
}

// countAs returns ctx with an HTTP client trace that counts every request
// written under it as one to service, in the counter ctx carries. Every
// client relink uses makes its requests with the context it is given, so
// retries, redirects, robots.txt and soft-404 probes are counted, and
// answers from a cache, which send nothing, are not. A context already
// counting for a service keeps it: a provider that calls another (an
// archive fetching its mementos) counts as the outer one.
func countAs(ctx context.Context, service string) context.Context {
	c, _ := ctx.Value(counterKey{}).(*callCounter)
	if c == nil || ctx.Value(serviceKey{}) != nil {
		return ctx
	}
	ctx = context.WithValue(ctx, serviceKey{}, service)
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		WroteRequest: func(info httptrace.WroteRequestInfo) {
			if info.Err == nil {
				c.add(service)
			}
		},
	})
}

// countingFetcher counts the requests of a Fetcher as service's.
type countingFetcher struct {
	f       filter.Fetcher
	service string
}

func (f countingFetcher) Fetch(ctx context.Context, uri string) (*filter.Page, error) {
	return f.f.Fetch(countAs(ctx, f.service), uri)
}

// countingSearcher counts the requests of a Searcher as searches.
type countingSearcher struct{ s lexsig.Searcher }

func (s countingSearcher) Search(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
	return s.s.Search(countAs(ctx, serviceSearch), q, limit)
}

// countingDF counts the requests of a DF (an engine's hit counts) as
// searches, and keeps its batch lookup.
type countingDF struct{ df lexsig.DF }

func (d countingDF) DocFreq(ctx context.Context, term string) (int64, error) {
	return d.df.DocFreq(countAs(ctx, serviceSearch), term)
}

func (d countingDF) Docs(ctx context.Context) (int64, error) {
	return d.df.Docs(countAs(ctx, serviceSearch))
}

var (
	_ filter.Fetcher  = countingFetcher{}
	_ lexsig.Searcher = countingSearcher{}
	_ lexsig.BatchDF  = countingDF{}
)

// DocFreqs looks terms up in one batch when the DF behind can.
func (d countingDF) DocFreqs(ctx context.Context, terms []string) ([]int64, error) {
	ctx = countAs(ctx, serviceSearch)
	if b, ok := d.df.(lexsig.BatchDF); ok {
		return b.DocFreqs(ctx, terms)
	}
	out := make([]int64, len(terms))
	for i, t := range terms {
		n, err := d.df.DocFreq(ctx, t)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// knownBacklinks is the backlink provider of one dead link: the pages the
// link checker found it on (its report's sources) first, then what the
// configured providers list. It folds the http and https forms of a URI
// itself, and counts the providers' requests as backlinks'.
type knownBacklinks struct {
	// p is the configured providers; nil for none (a run without a store
	// or -backlinks-from).
	p backlink.Provider
	// target is the dead link's canonical URI, sources its known
	// backlinks' canonical http(s) URIs.
	target  string
	sources []string
}

var (
	_ backlink.ContentProvider = knownBacklinks{}
	_ backlink.SchemeFolder    = knownBacklinks{}
)

// FoldsSchemes reports true: both forms are asked of the provider.
func (k knownBacklinks) FoldsSchemes() bool { return true }

// Backlinks returns the known backlinks of uri, then the provider's, at
// most limit in all.
func (k knownBacklinks) Backlinks(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
	return k.merge(ctx, uri, limit, false)
}

// ContentBacklinks is Backlinks with the provider's content backlinks;
// the known backlinks are all listed, and the Finder reads on each page
// whether its link is navigation.
func (k knownBacklinks) ContentBacklinks(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
	return k.merge(ctx, uri, limit, true)
}

func (k knownBacklinks) merge(ctx context.Context, uri string, limit int, content bool) ([]backlink.Backlink, error) {
	m := merged{limit: limit, seen: map[string]bool{}}
	if c, err := canon.Canonicalize(uri); err == nil && schemeless(c) == schemeless(k.target) {
		for _, s := range k.sources {
			m.add(backlink.Backlink{URI: s, Level: 1})
		}
	}
	if k.p == nil || m.full() {
		return m.out, nil
	}
	p := backlink.BothSchemes(k.p)
	if content {
		p = backlink.BothSchemes(backlink.ContentOnly(k.p))
	}
	more, err := p.Backlinks(countAs(ctx, serviceBacklinks), uri, limit)
	if err != nil {
		return nil, err
	}
	for _, l := range more {
		m.add(l)
	}
	return m.out, nil
}

// merged is a list of backlinks without repeats (by canonical URI, scheme
// aside), ranked anew, of at most limit.
type merged struct {
	out   []backlink.Backlink
	seen  map[string]bool
	limit int
}

// add appends l unless the list is full or holds it.
func (m *merged) add(l backlink.Backlink) {
	key := schemeless(canonOr(l.URI))
	if m.full() || m.seen[key] {
		return
	}
	m.seen[key] = true
	l.Rank = len(m.out) + 1
	m.out = append(m.out, l)
}

// full reports whether the list holds limit backlinks.
func (m *merged) full() bool { return len(m.out) >= m.limit }

// sources are backlink providers asked in turn (the store, a wiki's
// citations), each about both forms of a URI, their lists merged in that
// order without repeats, until limit.
type sources []backlink.Provider

var (
	_ backlink.ContentProvider = sources{}
	_ backlink.SchemeFolder    = sources{}
)

// FoldsSchemes reports true: each provider is asked about both forms.
func (s sources) FoldsSchemes() bool { return true }

// Backlinks returns the providers' backlinks of uri, merged. A provider
// that fails fails the call.
func (s sources) Backlinks(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
	return s.list(ctx, uri, limit, false)
}

// ContentBacklinks returns the providers' content backlinks of uri
// (backlink.ContentOnly), merged.
func (s sources) ContentBacklinks(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
	return s.list(ctx, uri, limit, true)
}

func (s sources) list(ctx context.Context, uri string, limit int, content bool) ([]backlink.Backlink, error) {
	m := merged{limit: limit, seen: map[string]bool{}}
	for _, p := range s {
		if m.full() {
			break
		}
		if content {
			p = backlink.ContentOnly(p)
		}
		more, err := backlink.BothSchemes(p).Backlinks(ctx, uri, limit)
		if err != nil {
			return nil, err
		}
		for _, l := range more {
			m.add(l)
		}
	}
	return m.out, nil
}

// schemeless returns a canonical URI without its scheme.
func schemeless(u string) string {
	for _, s := range []string{"https://", "http://"} {
		if len(u) > len(s) && u[:len(s)] == s {
			return u[len(s):]
		}
	}
	return u
}
