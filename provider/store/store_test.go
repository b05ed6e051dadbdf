package store_test

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/internal/words"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/store"
)

// The canonical URIs of the fixture web's pages (see FixtureWeb).
const (
	f0 = "https://files.example.org/docs"                  // filesite/index.html
	fg = "https://files.example.org/docs/guide"            // filesite/guide/index.html
	fi = "https://files.example.org/docs/guide/intro.html" // filesite/guide/intro.html
	fa = "https://files.example.org/docs/api.html"         // filesite/api.html
	fl = "https://files.example.org/docs/latin1.html"      // filesite/latin1.html
	fm = "https://files.example.org/docs/moved.html"       // filesite/moved.html, a redirect stub
	d0 = "https://dir.example.net/en/1.0"                  // dirsite/index.html
	dt = "https://dir.example.net/en/1.0/tutorial"         // dirsite/tutorial.html
	dr = "https://dir.example.net/en/1.0/reference"        // dirsite/reference/index.html
	dm = "https://dir.example.net/en/1.0/reference/models" // dirsite/reference/models.html
)

// fixtureStore ingests the fixture web into a new store.
func fixtureStore(t *testing.T) (*store.Store, string, store.Stats) {
	t.Helper()
	root, m := store.FixtureWeb(t)
	s, err := store.Open(filepath.Join(t.TempDir(), "web.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	st, err := s.IngestManifest(context.Background(), m, store.IngestOptions{})
	if err != nil {
		t.Fatalf("IngestManifest: %v", err)
	}
	return s, root, st
}

// fixtureStats is what the fixture web holds, counted by hand from the
// files: 9 pages, the stub moved.html, and 33 links of which 7 are
// navigation (two in filesite's <nav>, two in the guide's sphinxsidebar,
// two "¶" permalinks, one rel="next") and 1 is an image-map <area>.
var fixtureStats = store.Stats{
	Pages: 9, Redirects: 1, Links: 33, NavLinks: 7, AreaLinks: 1,
	Skipped: map[string]int{store.ReasonBinary: 1, store.ReasonEmpty: 1, store.ReasonUnreadable: 1},
}

var ignoreTime = cmpopts.IgnoreFields(store.Stats{}, "Duration")

func TestIngestManifestCounts(t *testing.T) {
	s, _, st := fixtureStore(t)
	if diff := cmp.Diff(fixtureStats, st, ignoreTime); diff != "" {
		t.Errorf("IngestManifest stats (-want +got):\n%s", diff)
	}
	total, err := s.Totals(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fixtureStats, total, ignoreTime); diff != "" {
		t.Errorf("Totals (-want +got):\n%s", diff)
	}
	want := "9 pages, 1 redirects, 33 links (7 navigation, 1 image-map), skipped: 1 binary, 1 empty, 1 unreadable in 0.0s"
	if got := fixtureStats.String(); got != want {
		t.Errorf("Stats.String() = %q, want %q", got, want)
	}
}

// TestBacklinks checks the backlink rank stand-in (in-degree, then URI),
// the link options and missing pages. The in-degrees, counted by hand:
// dt, fi, fa and dm have 4 linking pages; f0, fg, d0 and dr have 2; fl 0.
func TestBacklinks(t *testing.T) {
	s, _, _ := fixtureStore(t)
	ctx := context.Background()
	tests := []struct {
		name    string
		uri     string
		limit   int
		opts    store.BacklinkOptions
		missing []string
		want    []string
	}{
		{name: "every link", uri: fi, want: []string{dt, d0, f0, fg}},
		{name: "navigation excluded", uri: fi, opts: store.BacklinkOptions{ExcludeNav: true}, want: []string{dt, d0, f0}},
		{name: "image maps included", uri: fi, opts: store.BacklinkOptions{Area: true}, want: []string{dt, fa, d0, f0, fg}},
		{name: "missing backlink page", uri: fi, missing: []string{dt}, want: []string{d0, f0, fg}},
		{name: "missing target keeps its backlinks", uri: fi, missing: []string{fi}, want: []string{dt, d0, f0, fg}},
		{name: "limit", uri: fi, limit: 2, want: []string{dt, d0}},
		{name: "non-canonical URI", uri: "HTTPS://files.example.org:443/docs/guide/intro.html#x", want: []string{dt, d0, f0, fg}},
		{name: "self-link not counted", uri: dt, want: []string{dm, fi, d0, dr}},
		{name: "nav-only backlink dropped", uri: fa, opts: store.BacklinkOptions{ExcludeNav: true}, want: []string{f0, fg, fl}},
		{name: "redirect stub", uri: fm, want: []string{f0}},
		{name: "nobody links", uri: fl, want: []string{}},
		{name: "unknown URI", uri: "https://nowhere.example/", want: []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := s
			if tt.missing != nil {
				v = s.WithMissing(tt.missing...)
			}
			got, err := v.BacklinksWith(ctx, tt.uri, tt.limit, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]backlink.Backlink, len(tt.want))
			for i, u := range tt.want {
				want[i] = backlink.Backlink{URI: u, Rank: i + 1, Level: 1}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("BacklinksWith(%q, %d, %+v) (-want +got):\n%s", tt.uri, tt.limit, tt.opts, diff)
			}
		})
	}
	if _, err := s.Backlinks(ctx, "no scheme", 10); err == nil {
		t.Error("Backlinks of a relative URI: no error")
	}
	p := s.Provider(store.BacklinkOptions{ExcludeNav: true})
	got, err := p.Backlinks(ctx, fi, 0)
	if err != nil || len(got) != 3 {
		t.Errorf("Provider(ExcludeNav).Backlinks(fi) = %v, %v, want 3 backlinks", got, err)
	}
}

func TestPageInfo(t *testing.T) {
	s, root, _ := fixtureStore(t)
	ctx := context.Background()
	got, err := s.PageInfo(ctx, fi)
	if err != nil {
		t.Fatal(err)
	}
	want := store.PageInfo{
		URI: fi, Site: "files", Title: "Introduction to widgets",
		Words: 27, Backlinks: 4, ContentBacklinks: 3,
		Source: "file:" + filepath.Join(root, "filesite/guide/intro.html"),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PageInfo(%q) (-want +got):\n%s", fi, diff)
	}
	if _, err := s.PageInfo(ctx, fm); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("PageInfo of a redirect: %v, want ErrNotFound", err)
	}
	var uris []string
	for p, err := range s.Pages(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		uris = append(uris, p.URI)
	}
	wantURIs := []string{d0, dr, dm, dt, f0, fa, fg, fi, fl}
	if diff := cmp.Diff(wantURIs, uris); diff != "" {
		t.Errorf("Pages (-want +got):\n%s", diff)
	}
}

// TestFetch checks the fetcher: pages, redirects, 404s and missing pages
// (BENCHMARK.md, "What the numbers mean": a missing target answers 404).
func TestFetch(t *testing.T) {
	s, root, _ := fixtureStore(t)
	ctx := context.Background()
	tests := []struct {
		name    string
		uri     string
		missing []string
		status  int
		final   string
	}{
		{name: "file page", uri: fi, status: 200, final: "https://files.example.org/docs/guide/intro.html"},
		{name: "file index", uri: f0 + "/", status: 200, final: "https://files.example.org/docs/"},
		{name: "dir page", uri: dt, status: 200, final: "https://dir.example.net/en/1.0/tutorial/"},
		{name: "redirect stub", uri: fm, status: 200, final: "https://files.example.org/docs/guide/intro.html"},
		{name: "unknown", uri: "https://files.example.org/docs/none.html", status: 404, final: "https://files.example.org/docs/none.html"},
		{name: "missing", uri: fi, missing: []string{fi}, status: 404, final: fi},
		{name: "redirect to missing", uri: fm, missing: []string{fi}, status: 404, final: fi},
		{name: "missing stub", uri: fm, missing: []string{fm}, status: 404, final: fm},
		{name: "other page of a view", uri: fa, missing: []string{fi}, status: 200, final: fa},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := s.WithMissing(tt.missing...).Fetch(ctx, tt.uri)
			if err != nil {
				t.Fatal(err)
			}
			if p.Status != tt.status || p.URI != tt.final {
				t.Errorf("Fetch(%q) = %d %q, want %d %q", tt.uri, p.Status, p.URI, tt.status, tt.final)
			}
			if ct := p.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
				t.Errorf("Fetch(%q) Content-Type = %q", tt.uri, ct)
			}
		})
	}
	if _, err := s.Fetch(ctx, "/relative"); err == nil {
		t.Error("Fetch of a relative URI: no error")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Fetch(cancelled, fi); !errors.Is(err, context.Canceled) {
		t.Errorf("Fetch with a cancelled context: %v", err)
	}

	// The stored HTML is the file with only its <a> and <area> hrefs
	// rewritten to the public URLs they stand for.
	orig, err := os.ReadFile(filepath.Join(root, "dirsite/reference/index.html"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(
		`href="models.html"`, `href="https://dir.example.net/en/1.0/reference/models/"`,
		`href="../tutorial.html"`, `href="https://dir.example.net/en/1.0/tutorial/"`,
	).Replace(string(orig))
	p, err := s.Fetch(ctx, dr)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, string(p.Body)); diff != "" {
		t.Errorf("stored body of %s (-want +got):\n%s", dr, diff)
	}
}

// TestMarkMissing checks the persisted missing set.
func TestMarkMissing(t *testing.T) {
	s, _, _ := fixtureStore(t)
	ctx := context.Background()
	if err := s.MarkMissing(ctx, fa+"/", "bad uri"); err == nil {
		t.Error("MarkMissing accepted a bad URI")
	}
	if err := s.MarkMissing(ctx, fa); err != nil {
		t.Fatal(err)
	}
	view := s.WithMissing(fi)
	if got, want := view.Missing(), []string{fa, fi}; !slices.Equal(got, want) {
		t.Errorf("Missing() = %v, want %v", got, want)
	}
	p, err := s.Fetch(ctx, fa)
	if err != nil || p.Status != 404 {
		t.Fatalf("Fetch(%q) after MarkMissing = %v, %v, want 404", fa, p, err)
	}
	path := s.Path()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := store.Open(path, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if !s2.IsMissing(fa) {
		t.Errorf("IsMissing(%q) after reopening = false", fa)
	}
	if err := s2.ClearMissing(ctx); !errors.Is(err, store.ErrReadOnly) {
		t.Errorf("ClearMissing on a read-only store: %v, want ErrReadOnly", err)
	}
	s3, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s3.Close()
	if err := s3.ClearMissing(ctx, fa); err != nil {
		t.Fatal(err)
	}
	if s3.IsMissing(fa) {
		t.Errorf("IsMissing(%q) after ClearMissing = true", fa)
	}
}

// TestExtractOnFetchedPages checks that backlink.Extract, given a fetched
// page and its URI, finds every link the store recorded on it, in both
// root styles: the stored hrefs are absolute, so a "dir" page served at
// a/b/ resolves them as its file did.
func TestExtractOnFetchedPages(t *testing.T) {
	s, _, _ := fixtureStore(t)
	ctx := context.Background()
	checked := 0
	for info, err := range s.Pages(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		page, err := s.Fetch(ctx, info.URI)
		if err != nil {
			t.Fatal(err)
		}
		links, err := s.Links(ctx, info.URI)
		if err != nil {
			t.Fatal(err)
		}
		anchors := map[string][]string{}
		var targets []string
		for _, l := range links {
			if l.Area {
				continue
			}
			if _, ok := anchors[l.URI]; !ok {
				targets = append(targets, l.URI)
			}
			anchors[l.URI] = append(anchors[l.URI], words.Split(l.Anchor)...)
		}
		for _, target := range targets {
			got, err := backlink.Extract(page.Body, page.URI, target, backlink.Anchor)
			if err != nil {
				t.Errorf("Extract(%s, %s): %v", page.URI, target, err)
				continue
			}
			want := anchors[target]
			if want == nil {
				want = []string{}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Extract(%s, %s) (-want +got):\n%s", page.URI, target, diff)
			}
			checked++
		}
	}
	if checked < 25 {
		t.Errorf("checked %d links, want every distinct link of the fixture (25 or more)", checked)
	}
	tests := []struct {
		page, target string
		want         []string
	}{
		{f0, fi, []string{"gentle", "introduction", "to", "widgets"}},
		{dt, dm, []string{"model", "fields"}},
		{d0, dt, []string{"the", "tutorial", "stable", "tutorial"}},
		{dt, fi, []string{"widget", "introduction"}},
		{fi, dt, []string{"dir", "tutorial"}},
		{fa, dm, []string{"models", "of", "the", "other", "manual"}},
		{dm, dt, []string{"tutorial", "tutorial", "by", "absolute", "path"}},
	}
	for _, tt := range tests {
		page, err := s.Fetch(ctx, tt.page)
		if err != nil {
			t.Fatal(err)
		}
		got, err := backlink.Extract(page.Body, page.URI, tt.target, backlink.Anchor)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("Extract(%s, %s) = %q, %v, want %q", tt.page, tt.target, got, err, tt.want)
		}
	}
}

// resultURIs returns the URIs of results.
func resultURIs(rs []lexsig.Result) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.URI)
	}
	return out
}

// TestSearchModes checks which pages each kind of query matches
// (conjunctive by default, like a web search engine; §3.3).
func TestSearchModes(t *testing.T) {
	s, _, _ := fixtureStore(t)
	ctx := context.Background()
	tests := []struct {
		name    string
		query   lexsig.Query
		limit   int
		missing []string
		want    []string // sorted
	}{
		{name: "conjunctive", query: lexsig.Query{Terms: []string{"brass", "gears"}}, want: []string{f0, fi}},
		{name: "conjunctive narrows", query: lexsig.Query{Terms: []string{"brass", "whale"}}, want: []string{fi}},
		{name: "case folded", query: lexsig.Query{Terms: []string{"WHALE", "Oil"}}, want: []string{fi}},
		{name: "disjunctive", query: lexsig.Query{Terms: []string{"whale", "tables"}, Mode: lexsig.Disjunctive}, want: []string{d0, fi}},
		{name: "phrase", query: lexsig.Query{Terms: []string{"gentle", "introduction"}, Phrase: true}, want: []string{f0}},
		{name: "phrase out of order", query: lexsig.Query{Terms: []string{"introduction", "gentle"}, Phrase: true}, want: []string{}},
		{name: "title words", query: lexsig.Query{Terms: []string{"friends"}}, want: []string{f0}},
		{name: "decoded latin-1", query: lexsig.Query{Terms: []string{"café", "naïve"}}, want: []string{fl}},
		{name: "missing page stays indexed", query: lexsig.Query{Terms: []string{"whale"}}, missing: []string{fi}, want: []string{fi}},
		{name: "term of two words is a phrase", query: lexsig.Query{Terms: []string{"whale-oil"}}, want: []string{fi}},
		{name: "FTS syntax is plain text", query: lexsig.Query{Terms: []string{"AND", "NEAR(", "title:x", "*", `"`}}, want: []string{}},
		{name: "no words", query: lexsig.Query{Terms: []string{"--", ""}}, want: []string{}},
		{name: "empty", query: lexsig.Query{}, want: []string{}},
		{name: "limit", query: lexsig.Query{Terms: []string{"gadgets"}}, limit: 1, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.WithMissing(tt.missing...).Search(ctx, tt.query, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == nil { // the limit case
				if len(got) != tt.limit {
					t.Errorf("Search(%q, %d) gave %d results", tt.query, tt.limit, len(got))
				}
				return
			}
			uris := resultURIs(got)
			sort.Strings(uris)
			if diff := cmp.Diff(tt.want, uris); diff != "" {
				t.Errorf("Search(%q) (-want +got):\n%s", tt.query, diff)
			}
			for i, r := range got {
				if r.Rank != i+1 || (i > 0 && r.Score > got[i-1].Score) {
					t.Errorf("Search(%q) result %d = %+v: ranks must count from 1 with scores not increasing", tt.query, i, r)
				}
			}
		})
	}
}

// indexed is a page as the full-text index sees it.
type indexed struct {
	uri          string
	title, body  []string // lowercased words
	titleN, allN int
}

// indexedPages reads every page back from the store and splits it the way
// ingest indexes it: title words and visible words, lowercased.
func indexedPages(t *testing.T, s *store.Store) []indexed {
	t.Helper()
	ctx := context.Background()
	var out []indexed
	for info, err := range s.Pages(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.Fetch(ctx, info.URI)
		if err != nil {
			t.Fatal(err)
		}
		body, err := backlink.Words(p.Body, p.Header.Get("Content-Type"))
		if err != nil {
			t.Fatal(err)
		}
		title := lexsig.Tokenize(info.Title)
		out = append(out, indexed{uri: info.URI, title: title, body: lexsig.Tokenize(strings.Join(body, " ")),
			titleN: len(title), allN: len(title) + len(body)})
	}
	return out
}

// bm25 is FTS5's bm25() for a query of single-word terms, written out
// (k1 = 1.2, b = 0.75, IDF = ln((N - n + 0.5) / (n + 0.5)) floored at
// 1e-6, term frequency weighted by column), as higher-is-better scores.
func bm25(pages []indexed, terms []string, titleWeight float64, conjunctive bool) map[string]float64 {
	const k1, b = 1.2, 0.75
	var total float64
	for _, p := range pages {
		total += float64(p.allN)
	}
	avgdl := total / float64(len(pages))
	idf := map[string]float64{}
	for _, term := range terms {
		n := 0
		for _, p := range pages {
			if slices.Contains(p.title, term) || slices.Contains(p.body, term) {
				n++
			}
		}
		v := math.Log((float64(len(pages)) - float64(n) + 0.5) / (float64(n) + 0.5))
		if v <= 0 {
			v = 1e-6
		}
		idf[term] = v
	}
	scores := map[string]float64{}
	for _, p := range pages {
		var score float64
		matched := 0
		for _, term := range terms {
			var f float64
			for _, w := range p.title {
				if w == term {
					f += titleWeight
				}
			}
			for _, w := range p.body {
				if w == term {
					f++
				}
			}
			if f > 0 {
				matched++
			}
			score += idf[term] * f * (k1 + 1) / (f + k1*(1-b+b*float64(p.allN)/avgdl))
		}
		if matched == len(terms) || (!conjunctive && matched > 0) {
			scores[p.uri] = score
		}
	}
	return scores
}

// TestSearchRanking compares Search's order and scores with BM25 computed
// by brute force from the pages' words.
func TestSearchRanking(t *testing.T) {
	s, _, _ := fixtureStore(t)
	pages := indexedPages(t, s)
	queries := []lexsig.Query{
		{Terms: []string{"widget"}},
		{Terms: []string{"tutorial"}},
		{Terms: []string{"gadgets", "widgets"}},
		{Terms: []string{"widget", "class"}},
		{Terms: []string{"tutorial", "reference", "models"}, Mode: lexsig.Disjunctive},
		{Terms: []string{"the", "gears", "gadget", "fields"}, Mode: lexsig.Disjunctive},
	}
	for _, q := range queries {
		got, err := s.Search(context.Background(), q, 0)
		if err != nil {
			t.Fatal(err)
		}
		scores := bm25(pages, q.Terms, store.DefaultTitleWeight, q.Mode == lexsig.Conjunctive)
		want := make([]string, 0, len(scores))
		for u := range scores {
			want = append(want, u)
		}
		sort.Slice(want, func(i, j int) bool {
			a, b := scores[want[i]], scores[want[j]]
			if math.Abs(a-b) > 1e-9 {
				return a > b
			}
			return want[i] < want[j]
		})
		if diff := cmp.Diff(want, resultURIs(got)); diff != "" {
			t.Errorf("Search(%q) order (-want +got):\n%s", q, diff)
			continue
		}
		for _, r := range got {
			if w := scores[r.URI]; math.Abs(r.Score-w) > 1e-9*math.Max(1, w) {
				t.Errorf("Search(%q): %s scores %v, want %v", q, r.URI, r.Score, w)
			}
		}
	}
}

// TestDocFreq compares DocFreq with a count over the pages' words, for
// every term of the fixture (|D| is the number of pages, §2.1 Equation 2).
func TestDocFreq(t *testing.T) {
	s, _, _ := fixtureStore(t)
	ctx := context.Background()
	checkDocFreqs(t, s, 100)
	// "widget" is on f0 (title), fg (sidebar), fa, d0 and dt.
	for term, n := range map[string]int64{"WIDGET": 5, "nonexistentterm": 0, "c++": 0, "": 0, "two words": 0} {
		if got, err := s.DocFreq(ctx, term); err != nil || got != n {
			t.Errorf("DocFreq(%q) = %d, %v, want %d", term, got, err, n)
		}
	}
	if n, err := s.Docs(ctx); err != nil || n != 9 {
		t.Errorf("Docs() = %d, %v, want 9", n, err)
	}
}

// TestTerms checks that Terms lists every term of the index once, in byte
// order, with DocFreq's count, and stops at its callback's error.
func TestTerms(t *testing.T) {
	s, _, _ := fixtureStore(t)
	ctx := context.Background()
	var terms []string
	err := s.Terms(ctx, func(term string, n int64) error {
		if len(terms) > 0 && term <= terms[len(terms)-1] {
			t.Errorf("Terms: %q after %q", term, terms[len(terms)-1])
		}
		terms = append(terms, term)
		if want, err := s.DocFreq(ctx, term); err != nil || n != want {
			t.Errorf("Terms gives %q %d, DocFreq %d, %v", term, n, want, err)
		}
		return nil
	})
	if err != nil || len(terms) < 100 || !slices.Contains(terms, "widget") {
		t.Fatalf("Terms: %d terms, %v", len(terms), err)
	}
	stop := errors.New("stop")
	calls := 0
	if err := s.Terms(ctx, func(string, int64) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
		t.Errorf("Terms after the callback's error: %v after %d calls", err, calls)
	}
}

// checkDocFreqs compares DocFreq and DocFreqs with a count over the pages'
// words for every term of the store, which must have at least min terms.
func checkDocFreqs(t *testing.T, s *store.Store, min int) {
	t.Helper()
	ctx := context.Background()
	pages := indexedPages(t, s)
	want := map[string]int64{}
	for _, p := range pages {
		seen := map[string]bool{}
		for _, w := range append(slices.Clone(p.title), p.body...) {
			if !seen[w] {
				seen[w] = true
				want[w]++
			}
		}
	}
	terms := slices.Sorted(func(yield func(string) bool) {
		for w := range want {
			if !yield(w) {
				return
			}
		}
	})
	if len(terms) < min {
		t.Fatalf("only %d distinct terms in the store", len(terms))
	}
	batch, err := s.DocFreqs(ctx, terms)
	if err != nil {
		t.Fatal(err)
	}
	for i, term := range terms {
		got, err := s.DocFreq(ctx, term)
		if err != nil {
			t.Fatal(err)
		}
		if got != want[term] || batch[i] != want[term] {
			t.Errorf("DocFreq(%q) = %d, DocFreqs = %d, want %d", term, got, batch[i], want[term])
		}
	}
}

// TestResume interrupts an ingest and runs it again: the second run
// finishes the job, and the store ends up as one uninterrupted run leaves
// it, without duplicates.
func TestResume(t *testing.T) {
	_, m := store.FixtureWeb(t)
	s, err := store.Open(filepath.Join(t.TempDir(), "resume.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	opts := store.IngestOptions{Workers: 2, BatchSize: 2, Progress: func(p store.Progress) {
		if p.Files >= 6 {
			cancel()
		}
	}}
	cut, err := s.IngestManifest(ctx, m, opts)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted IngestManifest: %v, want context.Canceled", err)
	}
	partial, err := s.Totals(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if cut.Pages != partial.Pages || cut.Links != partial.Links {
		t.Errorf("interrupted IngestManifest reported %d pages and %d links, the store holds %d and %d",
			cut.Pages, cut.Links, partial.Pages, partial.Links)
	}
	if partial.Pages == 0 || partial.Pages >= fixtureStats.Pages {
		t.Errorf("after the interruption the store holds %d pages, want some but not all", partial.Pages)
	}
	checkDocFreqs(t, s, 10) // exact from the index while the copy is stale
	st, err := s.IngestManifest(context.Background(), m, store.IngestOptions{BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	if st.Resumed == 0 || st.Skipped[store.ReasonDuplicate] != 0 {
		t.Errorf("second run: %d resumed, %d duplicates; want some resumed, no duplicates", st.Resumed, st.Skipped[store.ReasonDuplicate])
	}
	total, err := s.Totals(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fixtureStats, total, ignoreTime); diff != "" {
		t.Errorf("Totals after resuming (-want +got):\n%s", diff)
	}
	again, err := s.IngestManifest(context.Background(), m, store.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Pages != 0 || again.Resumed != 13 {
		t.Errorf("third run added %d pages and passed over %d files, want 0 and 13", again.Pages, again.Resumed)
	}
	bl, err := s.Backlinks(context.Background(), fi, 0)
	if err != nil || len(bl) != 4 || bl[0].URI != dt {
		t.Errorf("Backlinks(fi) after resuming = %v, %v", bl, err)
	}
}

// TestIngestDir checks a plain directory with a base URL: the file style.
func TestIngestDir(t *testing.T) {
	root, _ := store.FixtureWeb(t)
	s, err := store.Open(filepath.Join(t.TempDir(), "dir.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st, err := s.IngestDir(context.Background(), filepath.Join(root, "dirsite"), "https://Example.COM/x", store.IngestOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if st.Pages != 4 {
		t.Errorf("IngestDir: %d pages, want 4", st.Pages)
	}
	got, err := s.Backlinks(context.Background(), "https://example.com/x/tutorial.html", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"https://example.com/x/reference/models.html", "https://example.com/x", "https://example.com/x/reference"}
	var uris []string
	for _, b := range got {
		uris = append(uris, b.URI)
	}
	if diff := cmp.Diff(want, uris); diff != "" {
		t.Errorf("Backlinks of the tutorial (-want +got):\n%s", diff)
	}
	if _, err := s.IngestDir(context.Background(), filepath.Join(root, "absent"), "https://example.com/", store.IngestOptions{}); err == nil {
		t.Error("IngestDir of a missing directory: no error")
	}
}

// TestConcurrentUse runs every read method from many goroutines while
// views come and go (run with -race).
func TestConcurrentUse(t *testing.T) {
	s, _, _ := fixtureStore(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 8 {
		wg.Go(func() {
			v := s.WithMissing([]string{fi, fa, dt, d0}[i%4])
			for range 20 {
				if _, err := v.Search(ctx, lexsig.Query{Terms: []string{"widget", "gears"}[:1+i%2]}, 10); err != nil {
					errs <- err
				}
				if _, err := v.Fetch(ctx, []string{fi, fm, dm}[i%3]); err != nil {
					errs <- err
				}
				if _, err := v.Backlinks(ctx, fi, 10); err != nil {
					errs <- err
				}
				if _, err := v.DocFreqs(ctx, []string{"widget", "gadget"}); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// emptyStore finishes an ingest of nothing into the store at path: a
// complete store without pages.
func emptyStore(t *testing.T, path string) {
	t.Helper()
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.IngestWARC(context.Background(), nil, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := store.Open(filepath.Join(dir, "absent.db"), &store.Options{ReadOnly: true}); err == nil {
		t.Error("read-only Open of a missing file: no error")
	}
	if _, err := store.Open(filepath.Join(dir, "no-such-dir", "x.db"), nil); err == nil {
		t.Error("Open in a missing directory: no error")
	}
	s, err := store.Open(filepath.Join(dir, "ro.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := store.Open(filepath.Join(dir, "ro.db"), &store.Options{ReadOnly: true}); !errors.Is(err, store.ErrIncomplete) {
		t.Errorf("read-only Open of a store no ingest filled: %v, want ErrIncomplete", err)
	}
	emptyStore(t, filepath.Join(dir, "ro.db"))
	ro, err := store.Open(filepath.Join(dir, "ro.db"), &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	_, m := store.FixtureWeb(t)
	if _, err := ro.IngestManifest(context.Background(), m, store.IngestOptions{}); !errors.Is(err, store.ErrReadOnly) {
		t.Errorf("IngestManifest on a read-only store: %v, want ErrReadOnly", err)
	}

	// A file written by a later version of the package is refused.
	future := filepath.Join(dir, "future.db")
	db, err := sql.Open("sqlite", future)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('schema_version', '99')`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range []*store.Options{nil, {ReadOnly: true}} {
		if _, err := store.Open(future, opts); !errors.Is(err, store.ErrSchema) {
			t.Errorf("Open(%+v) of a schema 99 file: %v, want ErrSchema", opts, err)
		}
	}
}

// clickDir is where Debian's python-click-doc package puts its HTML; the
// CI script installs the package, elsewhere the test skips.
const clickDir = "/usr/share/doc/python-click-doc/html"

// TestRealClickDoc ingests a real Sphinx "dirhtml" manual written by other
// people, with the development corpus's rules for it (dev-corpus.json),
// and checks the page count and one backlink read off the files:
// quickstart.html links to setuptools.html#setuptools-integration in its
// text ("have a look at the Setuptools Integration").
func TestRealClickDoc(t *testing.T) {
	if _, err := os.Stat(clickDir); err != nil {
		t.Skipf("%s not installed (Debian package python-click-doc)", clickDir)
	}
	const base = "https://click.palletsprojects.com/en/8.1.x/"
	m := &store.Manifest{Name: "click", Version: store.ManifestVersion, Sites: []store.Site{{
		Name:    "click",
		Package: "python-click-doc",
		Roots:   []store.Root{{Dir: clickDir, Base: base, Style: store.StyleDir}},
		Aliases: []string{"https://click.palletsprojects.com/en/latest/", "https://click.palletsprojects.com/"},
		Exclude: `(^|/)(_static|_sources|_images|_downloads|_modules|_autosummary_templates)/|(^|/)(search|404)\.html$`,
	}}}
	s, err := store.Open(filepath.Join(t.TempDir(), "click.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	st, err := s.IngestManifest(ctx, m, store.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Debian 12's python-click-doc 8.1.3 has 25 such pages; other releases
	// add or drop a few.
	if st.Pages < 20 || st.Pages > 40 || st.Links < 1000 || len(st.Skipped) != 0 {
		t.Errorf("click: %v; want 20-40 pages, 1000 links or more, nothing skipped", st)
	}
	const quickstart, setuptools = base + "quickstart", base + "setuptools"
	bl, err := s.BacklinksWith(ctx, setuptools, 0, store.BacklinkOptions{ExcludeNav: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(bl, func(b backlink.Backlink) bool { return b.URI == quickstart }) {
		t.Errorf("content backlinks of %s = %v, want %s among them", setuptools, bl, quickstart)
	}
	p, err := s.Fetch(ctx, quickstart)
	if err != nil || p.Status != 200 || p.URI != quickstart+"/" {
		t.Fatalf("Fetch(%q) = %v, %v", quickstart, p, err)
	}
	got, err := backlink.Extract(p.Body, p.URI, setuptools, backlink.Anchor)
	if err != nil || !slices.Contains(got, "Integration") {
		t.Errorf("Extract(quickstart, setuptools) = %q, %v, want the anchor Setuptools Integration", got, err)
	}
	res, err := s.Search(ctx, lexsig.Query{Terms: []string{"setuptools", "entry", "points"}}, 10)
	if err != nil || len(res) == 0 {
		t.Errorf("Search(setuptools entry points) = %v, %v, want results", res, err)
	}
}

// TestSearchLimitTies checks that a limited search gives the first results
// of the unlimited one, ties broken by URI, also where rows beyond the
// limit share the score of the last result kept: pages of the same words
// score the same.
func TestSearchLimitTies(t *testing.T) {
	page := func(title, text string) string {
		return "<html><head><title>" + title + "</title></head><body><p>" + text + "</p></body></html>"
	}
	// Five pages tie on "kettle", two score higher (the word twice) and
	// one lower (a longer text). The first directory's pages are indexed
	// first: its tied pages come after the second's in URI order.
	dirs := []map[string]string{{
		"c.html": page("Kettle", "a kettle boils water"),
		"d.html": page("Kettle", "a kettle boils water"),
		"e.html": page("Kettle", "a kettle boils water"),
		"y.html": page("Kettle kettle", "a kettle boils water"),
		"z.html": page("Kettle kettle", "a kettle boils water"),
		"m.html": page("Kettle", "a kettle boils water in a pot on a stove in a kitchen"),
		"n.html": page("Teapot", "a teapot holds tea"),
	}, {
		"a.html": page("Kettle", "a kettle boils water"),
		"b.html": page("Kettle", "a kettle boils water"),
	}}
	s, err := store.Open(filepath.Join(t.TempDir(), "ties.db"), &store.Options{QueryCache: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx := context.Background()
	for _, files := range dirs {
		dir := t.TempDir()
		for name, html := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(html), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.IngestDir(ctx, dir, "https://ties.example/", store.IngestOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	q := lexsig.Query{Terms: []string{"kettle"}}
	all, err := s.Search(ctx, q, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"y", "z", "a", "b", "c", "d", "e", "m"}
	for i, w := range want {
		want[i] = "https://ties.example/" + w + ".html"
	}
	if diff := cmp.Diff(want, resultURIs(all)); diff != "" {
		t.Fatalf("Search(%q) (-want +got):\n%s", q, diff)
	}
	if all[1].Score <= all[2].Score || all[2].Score != all[6].Score || all[6].Score <= all[7].Score {
		t.Fatalf("Search(%q) scores %v: want two, five and one tied", q, all)
	}
	for limit := 1; limit <= len(all)+1; limit++ {
		got, err := s.Search(ctx, q, limit)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(all[:min(limit, len(all))], got); diff != "" {
			t.Errorf("Search(%q, %d) (-want +got):\n%s", q, limit, diff)
		}
	}
}
