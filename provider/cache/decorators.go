package cache

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/internal/retry"
	"github.com/linkrot/relink/lexsig"
)

// DefaultMaxBody is the largest page body Fetcher keeps when its MaxBody
// is zero: 2 MiB.
const DefaultMaxBody = 2 << 20

// The kinds the decorators store their records under, by default.
const (
	KindPage      = "page"
	KindSearch    = "search"
	KindBacklinks = "backlinks"
	KindProbe     = "soft404"
	KindRobots    = "robots"
	KindDF        = "df"
)

// Remember returns the value stored under kind and key in d (decoded from
// JSON into a T), or else asks for it and stores the answer (as JSON)
// unless ask failed. A nil d asks every time. It serves any answer the
// decorators do not cover, such as an archive's list of a URI's
// historical redirects.
func Remember[T any](d Records, kind, key string, ask func() (T, error)) (T, error) {
	return remember(d, kind, key, ask, func(T) bool { return true })
}

// remember is Remember, storing only the answers keep accepts.
func remember[T any](d Records, kind, key string, ask func() (T, error), keep func(T) bool) (T, error) {
	return rememberIf(d, kind, key, ask, keep, keep)
}

// rememberIf is remember, using only the records use accepts: another
// is a miss, counted as corrupt by a Dir, and asked again.
func rememberIf[T any](d Records, kind, key string, ask func() (T, error), keep, use func(T) bool) (T, error) {
	var v T
	if none(d) {
		return ask()
	}
	if getJSON(d, kind, key, &v) {
		if use(v) {
			return v, nil
		}
		miss(d)
	}
	v, err := ask()
	if err == nil && keep(v) {
		putJSON(d, kind, key, v)
	}
	return v, err
}

// key joins the parts of a record's key with a byte no part holds.
func key(parts ...string) string { return strings.Join(parts, "\x00") }

// Fetcher is a filter.Fetcher that keeps the pages of another in a Dir: a
// URI fetched within MaxAge is answered from the Dir, page and status as
// they were, and sends no request. It keeps every answer but those worth
// a retry (408, 429, 5xx) and bodies above MaxBody; errors are never kept.
// The key is Name and the URI as asked, not canonicalized.
type Fetcher struct {
	// Dir holds the pages; nil keeps none.
	Dir Records
	// Name tells apart the pages of fetchers that answer one URI
	// differently: an archive's address, a proxy standing in for the web.
	// Empty is a name too.
	Name string
	// Kind names the records; empty means KindPage. Give each source of
	// pages its own (an archive's copies are not the live pages).
	Kind string
	// Fetcher fetches what the Dir lacks.
	Fetcher filter.Fetcher
	// MaxBody is the largest body kept, in bytes; zero or less means
	// DefaultMaxBody.
	MaxBody int
}

var _ filter.Fetcher = (*Fetcher)(nil)

// Fetch returns uri's page from the Dir, or from the Fetcher.
func (f *Fetcher) Fetch(ctx context.Context, uri string) (*filter.Page, error) {
	kind := f.Kind
	if kind == "" {
		kind = KindPage
	}
	most := f.MaxBody
	if most <= 0 {
		most = DefaultMaxBody
	}
	return rememberIf(f.Dir, kind, key(f.Name, uri), func() (*filter.Page, error) {
		return f.Fetcher.Fetch(ctx, uri)
	}, func(p *filter.Page) bool {
		return p != nil && !retry.Status(p.Status) && len(p.Body) <= most
	}, fetched)
}

// fetched reports whether a kept page is one a fetch can give: it came
// from an http or https URI (or says not where). A record of a page from
// a javascript: URI, say, was planted, and is not used.
func fetched(p *filter.Page) bool {
	if p == nil || p.URI == "" {
		return p != nil
	}
	u, err := url.Parse(p.URI)
	return err == nil && (strings.EqualFold(u.Scheme, "http") || strings.EqualFold(u.Scheme, "https")) && u.Host != ""
}

// Searcher is a lexsig.Searcher that keeps the answers of another in a
// Dir, by Name, query and limit. Only answers without error are kept.
type Searcher struct {
	// Dir holds the answers; nil keeps none.
	Dir Records
	// Name tells the engine's answers from others' in the Dir: its name
	// and, when it matters, its address ("brave", "searxng
	// https://searx.example").
	Name string
	// Searcher answers what the Dir lacks.
	Searcher lexsig.Searcher
}

var _ lexsig.Searcher = (*Searcher)(nil)

// Search returns the answer to query from the Dir, or from the Searcher.
func (s *Searcher) Search(ctx context.Context, query lexsig.Query, limit int) ([]lexsig.Result, error) {
	q, err := json.Marshal(query)
	if err != nil {
		return s.Searcher.Search(ctx, query, limit)
	}
	return remember(s.Dir, KindSearch, key(s.Name, strconv.Itoa(limit), string(q)), func() ([]lexsig.Result, error) {
		return s.Searcher.Search(ctx, query, limit)
	}, func([]lexsig.Result) bool { return true })
}

// Backlinks is a backlink.Provider that keeps the lists of another in a
// Dir, by Name, URI and limit. Only lists without error are kept. It
// folds schemes when its Provider does (backlink.SchemeFolder).
type Backlinks struct {
	// Dir holds the lists; nil keeps none.
	Dir Records
	// Name tells the provider's lists from others' ("mediawiki
	// https://en.wikipedia.org/w/api.php").
	Name string
	// Provider lists what the Dir lacks.
	Provider backlink.Provider
}

var _ backlink.SchemeFolder = (*Backlinks)(nil)

// Backlinks returns uri's backlinks from the Dir, or from the Provider.
func (b *Backlinks) Backlinks(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
	return remember(b.Dir, KindBacklinks, key(b.Name, strconv.Itoa(limit), uri), func() ([]backlink.Backlink, error) {
		return b.Provider.Backlinks(ctx, uri, limit)
	}, func([]backlink.Backlink) bool { return true })
}

// FoldsSchemes reports whether the Provider folds schemes.
func (b *Backlinks) FoldsSchemes() bool { return backlink.FoldsSchemes(b.Provider) }

// Probes is the filter.Fetcher of soft-404 probes (filter.Filters'
// Fetcher) that remembers, per origin (scheme, host and port), the hosts
// that answer a made-up path with an error status (a 404, say): the
// paper's check calls no page of such a host a soft 404 (filter.IsSoft404
// is false when the first probe is not 2xx), so a later probe there is
// answered from the Dir with that status, an empty body and no request.
// A host whose probe answered 2xx is probed each time, since the verdict
// then depends on the page. It assumes that a host answers every made-up
// path alike.
type Probes struct {
	// Dir holds the verdicts; nil keeps none.
	Dir Records
	// Name tells apart the verdicts of fetchers that see hosts
	// differently, as Fetcher.Name.
	Name string
	// Fetcher fetches the probes.
	Fetcher filter.Fetcher
}

var _ filter.Fetcher = (*Probes)(nil)

// probeVerdict is a host's recorded answer to a probe.
type probeVerdict struct {
	Status int `json:"status"`
}

// Fetch answers the probe uri.
func (p *Probes) Fetch(ctx context.Context, uri string) (*filter.Page, error) {
	u, err := url.Parse(uri)
	if none(p.Dir) || err != nil || u.Host == "" {
		return p.Fetcher.Fetch(ctx, uri)
	}
	origin := key(p.Name, strings.ToLower(u.Scheme+"://"+u.Host))
	var v probeVerdict
	if getJSON(p.Dir, KindProbe, origin, &v) && v.Status != 0 && !filter.IsSuccess(v.Status) {
		return &filter.Page{URI: uri, Status: v.Status}, nil
	}
	page, err := p.Fetcher.Fetch(ctx, uri)
	if err == nil && page != nil && page.Status >= 400 && !retry.Status(page.Status) {
		putJSON(p.Dir, KindProbe, origin, probeVerdict{Status: page.Status})
	}
	return page, err
}

// Robots keeps robots.txt answers by origin in a Dir: a provider/web
// RobotsStore (its Client.Robots), so that a robots.txt fetched by one
// run is not fetched again by the next within MaxAge.
type Robots struct {
	// Dir holds the answers; nil keeps none.
	Dir Records
	// Name tells apart the answers of clients that see hosts differently
	// (a proxy standing in for the web), as Fetcher.Name.
	Name string
}

// robotsAnswer is a robots.txt answer as kept.
type robotsAnswer struct {
	Status int    `json:"status"`
	Body   []byte `json:"body"`
}

// LoadRobots returns origin's robots.txt answer, or ok false.
func (r *Robots) LoadRobots(origin string) (status int, body []byte, ok bool) {
	var a robotsAnswer
	if !getJSON(r.Dir, KindRobots, key(r.Name, origin), &a) {
		return 0, nil, false
	}
	return a.Status, a.Body, true
}

// StoreRobots keeps origin's robots.txt answer.
func (r *Robots) StoreRobots(origin string, status int, body []byte) {
	putJSON(r.Dir, KindRobots, key(r.Name, origin), robotsAnswer{status, body})
}

// DF is a lexsig.DF that keeps the document frequencies of another in a
// Dir, by Name and term, and |D| by Name: for a DF whose answers cost a
// request (an engine's hit counts). Only answers without error are kept.
type DF struct {
	// Dir holds the numbers; nil keeps none.
	Dir Records
	// Name tells the numbers' source from others': where they come from
	// and |D| (relink's DF cache source names, "google/|D|=4310000000").
	Name string
	// DF answers what the Dir lacks.
	DF lexsig.DF
}

var _ lexsig.DF = (*DF)(nil)

// DocFreq returns term's document frequency from the Dir, or from the DF.
func (d *DF) DocFreq(ctx context.Context, term string) (int64, error) {
	return Remember(d.Dir, KindDF, key(d.Name, "term", term), func() (int64, error) {
		return d.DF.DocFreq(ctx, term)
	})
}

// Docs returns |D| from the Dir, or from the DF.
func (d *DF) Docs(ctx context.Context) (int64, error) {
	return Remember(d.Dir, KindDF, key(d.Name, "docs"), func() (int64, error) {
		return d.DF.Docs(ctx)
	})
}
