package relink

import (
	"context"
	"fmt"
	"hash/maphash"
	"slices"
	"sync"
	"sync/atomic"
	"unique"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
)

// OutcomeKept is the outcome of a backlink page that passed every filter
// and could be parsed. Other outcomes are the filter package's names
// (filter.FilterStatus, ...), FilterFetch and FilterLink.
const OutcomeKept = "kept"

// Inspection is what fetching, filtering and parsing one backlink page
// gave. It does not depend on which page is missing, so one Inspection
// serves every missing URI the page links to. It is immutable once made.
type Inspection struct {
	// URI is the page's URI as it was asked for.
	URI string
	// Kept reports whether the page was fetched, passed every filter and
	// was parsed.
	Kept bool
	// Filter names what caught the page when it was not kept: a filter's
	// name, FilterFetch (no answer at all, or an unreadable one) or
	// FilterLink (the page could not be parsed).
	Filter string
	// Reason says why, in words.
	Reason string
	// Doc is the parsed page when Kept.
	Doc *backlink.Document
	// Title is the text of the page's <title> when Kept.
	Title string
	// Fetches counts the requests fetching and filtering the page made
	// (the page, redirects aside, and any soft-404 probes).
	Fetches int

	tfOnce sync.Once
	tf     []pageTerm // the counted words of the whole page
	words  int        // how many words the page has

	linksOnce sync.Once
	linked    []string // linksTo's, sorted
}

// Outcome returns OutcomeKept for a kept page and the Filter otherwise.
func (in *Inspection) Outcome() string {
	if in.Kept {
		return OutcomeKept
	}
	return in.Filter
}

// termCount is one term's frequency on a page.
type termCount struct {
	term string
	n    int
}

// pageTerm is one term's frequency on a whole page (radius
// backlink.Page), the term interned: while a page holds its handle, the
// handles of equal terms are equal, so pages' counts add up by handle.
type pageTerm struct {
	term unique.Handle[string]
	hash uint64 // termHash(term)
	n    int
}

// termSeed seeds termHash.
var termSeed = maphash.MakeSeed()

// termHash hashes a term's handle, once per page.
func termHash(h unique.Handle[string]) uint64 { return maphash.Comparable(termSeed, h) }

// pageWords returns how many words the whole page has.
func (in *Inspection) pageWords(loc *backlink.Located) int {
	in.count(loc)
	return in.words
}

// pageCounts adds up the term frequencies of whole pages, each page
// counted once for all its uses (Inspection.count), in an open-addressing
// table of the terms' handles: adding a page hashes no string and
// compares handles, not text.
type pageCounts struct {
	slots []int32 // 1 + index in terms, by hash; 0 is empty
	terms []pageTerm
}

// maxPageTerms bounds the room pageCounts makes in advance: pages share
// most of their words, so the sum of their terms overestimates theirs
// together.
const maxPageTerms = 1 << 15

// add adds the whole pages of es, each located by its evidence.
func (pc *pageCounts) add(es []*Evidence) {
	n := 0
	for _, e := range es {
		e.page.count(e.located)
		n += len(e.page.tf)
	}
	if n == 0 {
		return // no table for no terms: most signatures draw no whole page
	}
	pc.terms = make([]pageTerm, 0, min(n, maxPageTerms))
	pc.grow(2 * cap(pc.terms))
	for _, e := range es {
		for _, t := range e.page.tf {
			if 2*len(pc.terms) >= len(pc.slots) {
				pc.grow(2 * len(pc.slots))
			}
			mask := uint64(len(pc.slots) - 1)
			for i := t.hash & mask; ; i = (i + 1) & mask {
				j := pc.slots[i]
				if j == 0 {
					pc.terms = append(pc.terms, t)
					pc.slots[i] = int32(len(pc.terms))
					break
				}
				if u := &pc.terms[j-1]; u.term == t.term {
					u.n += t.n
					break
				}
			}
		}
	}
}

// grow makes the table at least n slots, a power of 2, and places the
// terms again.
func (pc *pageCounts) grow(n int) {
	size := 64
	for size < n {
		size *= 2
	}
	pc.slots = make([]int32, size)
	mask := uint64(size - 1)
	for k, t := range pc.terms {
		i := t.hash & mask
		for pc.slots[i] != 0 {
			i = (i + 1) & mask
		}
		pc.slots[i] = int32(k + 1)
	}
}

// addTo adds the counts to tf.
func (pc *pageCounts) addTo(tf map[string]int) {
	for _, t := range pc.terms {
		tf[t.term.Value()] += t.n
	}
}

// count counts the words of the whole page once, from loc, any of its
// located links.
func (in *Inspection) count(loc *backlink.Located) {
	in.tfOnce.Do(func() {
		words := loc.Words(backlink.Page, true)
		in.words = len(words)
		counts := lexsig.Count(words)
		in.tf = make([]pageTerm, 0, len(counts))
		for t, n := range counts {
			// Interned, so that the page's text is not kept alive by its
			// terms and each term is held once across pages.
			h := unique.Make(t)
			in.tf = append(in.tf, pageTerm{h, termHash(h), n})
		}
	})
}

// linksTo reports whether the kept page links to the canonical URI u with
// a link that is neither navigation nor an image map's. The page's such
// links are canonicalized, sorted and kept once per inspection: every
// target whose neighbourhood keeps the page asks (Clues.linkedApart).
func (in *Inspection) linksTo(u string) bool {
	in.linksOnce.Do(func() {
		if in.Doc == nil {
			return
		}
		for _, l := range in.Doc.Outlinks() {
			if l.Nav || l.Area {
				continue
			}
			if cu, err := canon.Canonicalize(l.URI); err == nil {
				// Interned: pages of a site link to the same pages.
				in.linked = append(in.linked, unique.Make(cu).Value())
			}
		}
		slices.Sort(in.linked)
		in.linked = slices.Clip(slices.Compact(in.linked))
	})
	_, ok := slices.BinarySearch(in.linked, u)
	return ok
}

// PageCache keeps the inspections of backlink pages across finds.
type PageCache interface {
	// Inspect returns the inspection kept under key, calling inspect to
	// make it when none is kept. The key is the page's URI, or
	// ArchivedKey of it for the page's archived copy. An inspection that
	// ended because ctx was done must not be kept. Implementations must
	// be safe for concurrent use.
	Inspect(ctx context.Context, key string, inspect func(context.Context) *Inspection) *Inspection
}

// NewPageCache returns an in-memory PageCache that inspects each page once
// even when many goroutines ask for it at the same time, and keeps the
// inspections of at most about maxBytes of parsed pages
// (backlink.Document.Size, plus a little for each page), dropping the
// least recently used beyond that; a page dropped is inspected again when
// it is asked for. maxBytes 0 or less keeps every inspection for the
// cache's life.
func NewPageCache(maxBytes int64) *MemoryPageCache {
	return &MemoryPageCache{newOnceLRU[*Inspection](maxBytes)}
}

// MemoryPageCache is the PageCache NewPageCache makes. It is safe for
// concurrent use. Len, Dropped and Bytes count its inspections.
type MemoryPageCache struct {
	*onceLRU[*Inspection]
}

// pageOverhead is what an Inspection costs beyond its Document.
const pageOverhead = 256

// Inspect implements PageCache.
func (c *MemoryPageCache) Inspect(ctx context.Context, uri string, inspect func(context.Context) *Inspection) *Inspection {
	return c.get(ctx, uri, inspect, (*Inspection).size)
}

// size returns about how many bytes the inspection holds.
func (in *Inspection) size() int64 {
	n := pageOverhead + int64(len(in.Reason))
	if in.Doc != nil {
		n += int64(in.Doc.Size())
	}
	return n
}

// Inspect fetches the page at uri with the Finder's Fetcher, applies its
// Filters and parses the page: the gather stage's reading of one backlink
// page, before its links to any particular URI are looked for. A fetch
// that fails, or answers no page at all, is an Inspection with Filter
// FilterFetch, not an error. It goes through Pages when the Finder has one.
func (f *Finder) Inspect(ctx context.Context, uri string) *Inspection {
	f = f.guarded()
	return f.inspect(ctx, uri, uri, f.Fetcher, true)
}

// InspectArchived is Inspect of the archived copy of the page at uri,
// fetched with the Finder's Archive; the soft-404 filter is not applied,
// since an archive answers with what it captured. It goes through Pages
// under the key ArchivedKey(uri).
func (f *Finder) InspectArchived(ctx context.Context, uri string) *Inspection {
	f = f.guarded()
	return f.inspect(ctx, ArchivedKey(uri), uri, f.Archive, false)
}

// ArchivedKey is the key under which a PageCache keeps the inspection of the
// archived copy of the page at uri: uri prefixed with "archived:", which is
// no URI a page has.
func ArchivedKey(uri string) string { return "archived:" + uri }

// inspect runs inspectNow through Pages, under key.
func (f *Finder) inspect(ctx context.Context, key, uri string, fetcher filter.Fetcher, probes bool) *Inspection {
	if f.Pages != nil {
		return f.Pages.Inspect(ctx, key, func(ctx context.Context) *Inspection { return f.inspectNow(ctx, uri, fetcher, probes) })
	}
	return f.inspectNow(ctx, uri, fetcher, probes)
}

// inspectNow is Inspect without the cache, with fetcher, and the soft-404
// probes only when probes is true.
func (f *Finder) inspectNow(ctx context.Context, uri string, fetcher filter.Fetcher, probes bool) *Inspection {
	in := &Inspection{URI: uri}
	var n atomic.Int64
	counted := func(fe filter.Fetcher) filter.Fetcher {
		return filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
			n.Add(1)
			return fe.Fetch(ctx, uri)
		})
	}
	defer func() { in.Fetches = int(n.Load()) }()
	if fetcher == nil {
		in.Filter, in.Reason = FilterFetch, "no Fetcher"
		return in
	}
	fs := f.Filters
	switch {
	case !probes:
		fs.Disabled = append(slices.Clip(fs.Disabled), filter.FilterSoft404)
	case fs.Fetcher == nil:
		fs.Fetcher = f.Fetcher
	}
	if fs.Fetcher != nil {
		fs.Fetcher = counted(fs.Fetcher)
	}
	page, err := counted(fetcher).Fetch(ctx, uri)
	switch {
	case err != nil:
		in.Filter, in.Reason = FilterFetch, err.Error()
		return in
	case page == nil:
		in.Filter, in.Reason = FilterFetch, "the fetcher answered no page and no error"
		return in
	}
	rej, err := fs.Check(ctx, page)
	if err != nil {
		in.Filter, in.Reason = FilterFetch, err.Error()
		return in
	}
	if rej != nil {
		in.Filter, in.Reason = rej.Filter, rej.Reason
		return in
	}
	body, _, err := backlink.Decode(page.Body, page.Header.Get("Content-Type"))
	if err == nil {
		in.Doc, err = backlink.Parse(body, page.URI)
		in.Title = backlink.Title(body)
	}
	if err != nil {
		in.Filter, in.Reason = FilterLink, fmt.Sprintf("unreadable page: %v", err)
		return in
	}
	in.Kept = true
	return in
}
