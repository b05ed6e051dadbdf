package filter

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/internal/words"
)

// Filters applies the five filters of §3.1 "Pre-processing Link
// Neighborhood" to fetched backlink pages. The zero value (and a nil
// *Filters) is ready to use: it applies the status, file type, size and
// language filters with the paper's settings and skips the soft 404 filter,
// which needs a Fetcher.
//
// A Filters may be used by several goroutines at once, provided its fields are
// not changed meanwhile and its Fetcher and Random are themselves safe for
// concurrent use.
type Filters struct {
	// Fetcher fetches the two probe URIs of the soft 404 filter. When it is
	// nil the soft 404 filter is skipped and every page passes it.
	Fetcher Fetcher
	// MinTokens is the fewest words a page must show to pass the size
	// filter; zero or negative means DefaultMinTokens (50, §3.1 "File
	// size").
	MinTokens int
	// Disabled names filters not to apply (FilterStatus, FilterFileType,
	// FilterSize, FilterLanguage, FilterSoft404). Names that are not filter
	// names are ignored.
	Disabled []string
	// Random returns the string inserted into the soft 404 probe URIs; nil
	// means RandomString(ProbeLength), 20 random lowercase letters and
	// digits as in the paper. A Random that returns "" turns the soft 404
	// filter off, since the probes would be the page itself.
	Random func() string
}

// Check applies the filters to p in the order of [Order] (HTTP status, file
// type, size, language, soft 404) and returns the rejection of the first
// filter that catches it, or nil when p is kept. A nil p is treated as an
// empty page with status 0.
//
// Check returns an error only when ctx is done, before or during the soft 404
// probes; the rejection is then nil. A probe the Fetcher gives no answer for
// (an error while ctx is not done) never makes a page a soft 404.
//
// Check renders p's body once with package backlink (body bytes and the
// Content-Type's charset go in, the visible text comes out) and uses the
// same text for the size and language filters and the soft 404 comparison.
// A body that cannot be rendered shows no words: the size filter rejects it,
// the language filter finds it undetermined, and it is not a soft 404. The
// work is linear in the size of the body; the language filter reads only the
// first [LanguageMaxBytes] bytes of the text. The soft 404 filter fetches at
// most two probe URIs, and only the first when that one gives no 2xx page,
// or its page is not similar to p's, or both probe URIs are the same.
func (f *Filters) Check(ctx context.Context, p *Page) (*Rejection, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if f == nil {
		f = &Filters{}
	}
	if p == nil {
		p = &Page{}
	}
	if f.enabled(FilterStatus) {
		if r := checkStatus(p); r != nil {
			return r, nil
		}
	}
	if f.enabled(FilterFileType) {
		if r := checkFileType(p); r != nil {
			return r, nil
		}
	}
	soft404 := f.enabled(FilterSoft404) && f.Fetcher != nil
	if !f.enabled(FilterSize) && !f.enabled(FilterLanguage) && !soft404 {
		return nil, nil
	}
	text, renderErr := backlink.Render(p.Body, p.Header.Get("Content-Type"))
	ws := words.Split(text)
	if f.enabled(FilterSize) {
		if renderErr != nil {
			return &Rejection{Filter: FilterSize, Reason: fmt.Sprintf("no words: %v", renderErr)}, nil
		}
		if r := checkSize(len(ws), f.minTokens()); r != nil {
			return r, nil
		}
	}
	if f.enabled(FilterLanguage) {
		if r := checkLanguage(text); r != nil {
			return r, nil
		}
	}
	if soft404 && renderErr == nil {
		return f.checkSoft404(ctx, p, lower(ws))
	}
	return nil, nil
}

// enabled reports whether the filter called name is to be applied.
func (f *Filters) enabled(name string) bool {
	return !slices.Contains(f.Disabled, name)
}

// minTokens returns the size filter's threshold.
func (f *Filters) minTokens() int {
	if f.MinTokens > 0 {
		return f.MinTokens
	}
	return DefaultMinTokens
}

// random returns a fresh probe string.
func (f *Filters) random() string {
	if f.Random != nil {
		return f.Random()
	}
	return RandomString(ProbeLength)
}

// checkSoft404 is the soft 404 filter (§3.1 "Soft 404s"), the same decision
// as IsSoft404 but fetching the second probe only when it can change the
// outcome. orig is p's lowercased words.
func (f *Filters) checkSoft404(ctx context.Context, p *Page, orig []string) (*Rejection, error) {
	firstURI, lastURI, err := ProbeURIs(p.URI, f.random())
	if err != nil {
		// No probe can be built (a relative URI, an empty random
		// string): the filter cannot run, so the page passes.
		return nil, nil
	}
	first, err := f.probe(ctx, firstURI)
	if err != nil || first == nil || !IsSuccess(first.Status) {
		return nil, err
	}
	j1, ok := similarity(orig, first)
	if !ok {
		return nil, nil
	}
	last := first
	if lastURI != firstURI {
		if last, err = f.probe(ctx, lastURI); err != nil || last == nil {
			return nil, err
		}
	}
	j2, ok := similarity(orig, last)
	if !ok {
		return nil, nil
	}
	return &Rejection{Filter: FilterSoft404, Reason: fmt.Sprintf(
		"%s answered %s with Jaccard %.2f, %s answered %s with Jaccard %.2f",
		firstURI, statusReason(first.Status), j1, lastURI, statusReason(last.Status), j2)}, nil
}

// probe fetches uri. It returns a nil page when the fetcher gives no answer,
// and an error only when ctx is done.
func (f *Filters) probe(ctx context.Context, uri string) (*Page, error) {
	page, err := f.Fetcher.Fetch(ctx, uri)
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, fmt.Errorf("filter: soft 404 probe %s: %w", uri, ctxErr)
	}
	if err != nil {
		return nil, nil
	}
	return page, nil
}

// similarity returns the Jaccard similarity of orig and probe's lowercased
// words, and whether it exceeds Soft404Threshold. A probe that cannot be
// rendered is not similar.
func similarity(orig []string, probe *Page) (float64, bool) {
	w, err := pageWords(probe)
	if err != nil {
		return 0, false
	}
	j := Jaccard(orig, w)
	return j, j > Soft404Threshold
}

// pageWords returns the lowercased words p shows, rendered by package
// backlink.
func pageWords(p *Page) ([]string, error) {
	w, err := backlink.Words(p.Body, p.Header.Get("Content-Type"))
	if err != nil {
		return nil, err
	}
	return lower(w), nil
}

// lower lowercases ws in place and returns it.
func lower(ws []string) []string {
	for i, w := range ws {
		ws[i] = strings.ToLower(w)
	}
	return ws
}
