package relink

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
)

// Clues is everything a Strategy may use about one missing page: its URI,
// the backlink pages gathered for it, and, for the strategies that need one,
// an archived copy. Finder.Clues gathers them.
type Clues struct {
	// URI is the canonical missing URI.
	URI string
	// Evidence are the backlink pages of the neighborhood the strategy
	// asked for (Needs), gathered (Finder.Gather), kept or not, level 1
	// first, each level in backlink rank order. Navigation links are
	// included unless Needs.ContentLinks; strategies that leave them out
	// of their words do so themselves.
	Evidence []*Evidence
	// Archive is the last good archived copy of the page, or nil when
	// there is none. Only strategies whose Needs.Archive is true read it.
	Archive *filter.Page

	// What is drawn from Evidence once and kept for every strategy and
	// every judgement of the same clues, which a Finder never changes
	// once gathered: the experiment judges one Clues dozens of times.
	mu      sync.Mutex
	counts  map[wordsKey][]int // Paper.wordCounts
	phrases *[]Phrase          // Phrases, once made
	site    map[string]bool    // siteWords, once made
	parsed  *target            // target, once made
	linked  map[string]bool    // linkedApart's answers by canonical URI
}

// why says why the clues gave no query: no backlinks, none kept (and why
// not), or no word to search.
func (c *Clues) why() string {
	if len(c.Evidence) == 0 {
		return "no backlinks"
	}
	kept, by := 0, map[string]int{}
	for _, e := range c.Evidence {
		if e.Kept {
			kept++
		} else {
			by[e.Filter]++
		}
	}
	if kept == 0 {
		names := make([]string, 0, len(by))
		for n := range by {
			names = append(names, n)
		}
		slices.Sort(names)
		parts := make([]string, len(names))
		for i, n := range names {
			parts[i] = fmt.Sprintf("%s %d", n, by[n])
		}
		return fmt.Sprintf("none of %d backlink pages kept (%s)", len(c.Evidence), strings.Join(parts, ", "))
	}
	return fmt.Sprintf("%d of %d backlink pages kept, but they give no word to search", kept, len(c.Evidence))
}

// Tools are the providers a Strategy calls.
type Tools struct {
	// DF answers document frequencies for TF-IDF.
	DF lexsig.DF
	// Searcher runs queries.
	Searcher lexsig.Searcher
	// Fetcher retrieves candidate pages for strategies that read them
	// (Rerank with Fetch). It may be nil for the others.
	Fetcher filter.Fetcher
	// Candidates, when not nil, keeps what Rerank reads of candidate
	// pages (ReadCandidate) across calls; nil reads a page each time it
	// is asked for.
	Candidates CandidateCache
	// Results is how many results each query asks for; zero means
	// DefaultResults.
	Results int
}

// Outcome is what a Strategy found, with what it cost.
type Outcome struct {
	// Candidates are the candidate URIs, best first, ranked anew from 1.
	Candidates []lexsig.Result
	// Queries are the queries searched, in order, each once.
	Queries []lexsig.Query
	// Fetches counts the candidate pages fetched (backlink pages are
	// not counted: every strategy shares them).
	Fetches int
	// Step names what produced the candidates when a strategy chooses
	// among several (Cascade: the step that was confident), or "".
	Step string
	// Signature is every ranked term of the lexical signature the
	// strategy searched, when it searched one (Paper), or nil.
	Signature lexsig.Signature
	// Seen is what the strategy saw besides the candidates, for the judge
	// (Model.Judge): the headings it read, whether it fused, moved links,
	// an archived title to compare.
	Seen Seen
}

// Needs is what a Strategy's clues must hold.
type Needs struct {
	// Depth is the number of backlink levels (§3.2 "Backlink Depth");
	// zero means DefaultDepth (1).
	Depth int
	// Backlinks is how many backlinks are asked for per queried page
	// (§3.2 "Backlink Ranking"); zero means DefaultBacklinks.
	Backlinks int
	// ContentLinks asks for the pages that link to the missing page with a
	// link that is not navigation (see backlink.ContentProvider); a page
	// whose every link is navigation is not kept.
	ContentLinks bool
	// Archive asks for the page's archived copy (Finder.Archive).
	Archive bool
	// ArchivedBacklinks asks for a backlink page that is gone from the
	// web (no answer, or an HTTP error status) to be read from its
	// archived copy (Finder.Archive) instead: when a site reorganises,
	// its own old pages that linked to the missing page are gone too, and
	// their links live on only in old copies. The paper's method fetches
	// its backlink pages live, as the paper did.
	ArchivedBacklinks bool
}

// union returns the needs that satisfy both n and o.
func (n Needs) union(o Needs) Needs {
	return Needs{
		Depth:        max(orDefault(n.Depth, DefaultDepth), orDefault(o.Depth, DefaultDepth)),
		Backlinks:    max(orDefault(n.Backlinks, DefaultBacklinks), orDefault(o.Backlinks, DefaultBacklinks)),
		ContentLinks: n.ContentLinks && o.ContentLinks,
		Archive:      n.Archive || o.Archive,

		ArchivedBacklinks: n.ArchivedBacklinks || o.ArchivedBacklinks,
	}
}

// needsOf returns the union of the needs of strategies.
func needsOf(ss []Strategy) Needs {
	var n Needs
	for i, s := range ss {
		if i == 0 {
			n = s.Needs()
			continue
		}
		n = n.union(s.Needs())
	}
	return n
}

// Strategy turns the clues about a missing page into ranked candidates. The
// paper's method is one (Paper); Default returns the project's best.
// Strategies are values: they hold settings, not state, and are safe for
// concurrent use when the Tools are.
type Strategy interface {
	// Name names the strategy in reports, such as summary.json's method.
	Name() string
	// Terms is the size of the signatures the strategy searches (phrase
	// queries aside), reported as summary.json's terms; 0 when it
	// searches no signature of a fixed size.
	Terms() int
	// Needs says what the clues must hold: how many backlinks, how deep,
	// and whether an archived copy is read. A composite strategy needs
	// what its members need together, and its members then see that.
	Needs() Needs
	// Find runs the strategy. Only a provider's failure or ctx's end is
	// an error; clues that give nothing to search give an Outcome without
	// queries.
	Find(ctx context.Context, c *Clues, t Tools) (*Outcome, error)
}

// search runs q, records it in out, and returns its results.
func (t Tools) search(ctx context.Context, out *Outcome, q lexsig.Query) ([]lexsig.Result, error) {
	if len(q.Terms) == 0 {
		return nil, nil
	}
	out.Queries = append(out.Queries, q)
	res, err := t.Searcher.Search(ctx, q, orDefault(t.Results, DefaultResults))
	if err != nil {
		return nil, fmt.Errorf("relink: search %q: %w", q, err)
	}
	return res, nil
}

// links returns the evidence's links to target, the missing page: the
// located page's, or, for evidence known only from the backlink provider's
// anchor texts, one link per anchor text (never navigation, an address
// when its text is one).
func (e *Evidence) links(target string) []backlink.Link {
	if e.located != nil {
		return e.located.Links()
	}
	out := make([]backlink.Link, len(e.anchors))
	for i, a := range e.anchors {
		out[i] = backlink.Link{URI: target, Anchor: strings.Join(lexsig.Tokenize(a), " "), Address: backlink.IsAddress(a, target)}
	}
	return out
}

// kept returns the evidence that was kept.
func (c *Clues) kept() []*Evidence {
	var out []*Evidence
	for _, e := range c.Evidence {
		if e != nil && e.Kept {
			out = append(out, e)
		}
	}
	return out
}

// words returns the words of every kept backlink page for radius r around
// the links keep accepts (every link when keep is nil). Evidence known only
// from anchor texts gives the words of the anchors keep accepts, whatever
// the radius.
func (c *Clues) words(r backlink.Radius, keep func(backlink.Link) bool) [][]string {
	var out [][]string
	for _, e := range c.kept() {
		if w := e.drawOf(r, c.URI, keep); len(w) > 0 {
			out = append(out, w)
		}
	}
	return out
}

// drawOf returns the words for radius r around the evidence's links to
// target that keep accepts (every link when keep is nil). Evidence known
// only from anchor texts gives the words of the anchors keep accepts,
// whatever the radius.
func (e *Evidence) drawOf(r backlink.Radius, target string, keep func(backlink.Link) bool) []string {
	if e.located != nil {
		words, cut := e.located.Draw(r, keep)
		if cut {
			e.cut.Store(true)
		}
		return words
	}
	var out []string
	for _, l := range e.links(target) {
		if keep == nil || keep(l) {
			out = append(out, strings.Fields(l.Anchor)...)
		}
	}
	return out
}

// describing reports whether a link's text may describe the page it points
// to: it is not navigation and not the link's own address written out
// (backlink.Link.Address), whose words are the URI's.
func describing(l backlink.Link) bool { return !l.Nav && !l.Address }

// wholePage reports whether a link describes the page and points at the
// whole of it, not at a part (backlink.Link.Fragment): its text names the
// page, not one of its sections.
func wholePage(l backlink.Link) bool { return describing(l) && l.Fragment == "" }

// anyLink keeps every link but those whose text is their own address.
func anyLink(l backlink.Link) bool { return !l.Address }

// Phrase is an anchor text used by the backlinks, with how many backlink
// pages use it.
type Phrase struct {
	// Words are the anchor's words, lowercased.
	Words []string
	// Pages is the number of kept backlink pages whose links to the
	// missing page carry this anchor text.
	Pages int
}

// Phrases returns the anchor texts of the backlinks' links to the missing
// page, most used first (then fewer words, then by text). Links to a part
// of the page (with a fragment, backlink.Link.Fragment) are counted only
// when no link to the whole page has words, and navigation links only
// when no other link has any: "feeding" in a link to "#feeding", or a
// "next" or sidebar anchor, says less about the page than the link a
// person wrote to it. A link whose text is its own address
// (backlink.Link.Address) never counts: it names the old URI, not the
// page. Each page counts a phrase once.
// The phrases are found once per Clues; each call returns a copy of its
// own.
func (c *Clues) Phrases() []Phrase {
	c.mu.Lock()
	if c.phrases == nil {
		ps := c.phrasesNow()
		c.phrases = &ps
	}
	ps := *c.phrases
	c.mu.Unlock()
	if ps == nil {
		return nil
	}
	out := make([]Phrase, len(ps))
	for i, p := range ps {
		out[i] = Phrase{Words: slices.Clone(p.Words), Pages: p.Pages}
	}
	return out
}

// phrasesNow finds the phrases of Phrases.
func (c *Clues) phrasesNow() []Phrase {
	kept := c.kept()
	pages := make([][]backlink.Link, len(kept))
	for i, e := range kept {
		pages[i] = e.links(c.URI)
	}
	for _, keep := range []func(backlink.Link) bool{wholePage, describing, anyLink} {
		count := map[string]int{}
		for _, links := range pages {
			seen := map[string]bool{}
			for _, link := range links {
				if !keep(link) {
					continue
				}
				key := strings.Join(lexsig.Tokenize(link.Anchor), " ")
				if key == "" || seen[key] || !hasContentWord(key) {
					continue
				}
				seen[key] = true
				count[key]++
			}
		}
		if len(count) == 0 {
			continue
		}
		out := make([]Phrase, 0, len(count))
		for k, n := range count {
			out = append(out, Phrase{Words: strings.Fields(k), Pages: n})
		}
		slices.SortFunc(out, func(a, b Phrase) int {
			return cmp.Or(cmp.Compare(b.Pages, a.Pages), cmp.Compare(len(a.Words), len(b.Words)),
				strings.Compare(strings.Join(a.Words, " "), strings.Join(b.Words, " ")))
		})
		return out
	}
	return nil
}

// hasContentWord reports whether the space-separated words hold one that is
// not a stop word.
func hasContentWord(s string) bool {
	for w := range strings.FieldsSeq(s) {
		if !lexsig.IsStopWord(w) {
			return true
		}
	}
	return false
}

// URLWords returns the words of a URI's path and query, as Tokenize splits
// them, without stop words and without the words that name a file type or a
// directory index ("html", "php", "index", ...), which say nothing about
// the page. The host is left out: it names the site, not the page. Names
// that Doxygen escaped into a file name are read back first
// ("classEigen_1_1FullPivLU.html" gives eigen, fullpivlu).
func URLWords(uri string) []string {
	u, err := url.Parse(uri)
	if err != nil {
		return nil
	}
	var out []string
	for _, w := range lexsig.Tokenize(generatedNames(u.Path) + " " + u.RawQuery) {
		if lexsig.IsStopWord(w) || urlNoise[w] {
			continue
		}
		out = append(out, w)
	}
	return out
}

// SlugWords returns the words of the last segment of a URI's path that is
// not a directory index or a file type alone ("docs/best-practices.html"
// gives best, practices; "guide/intro/" gives intro), as Tokenize splits
// them, stop words kept: a slug's words are a phrase in the page's title
// ("ConjHelper_8h_source.html", Doxygen's name for the page "ConjHelper.h
// Source File", gives conjhelper, h, source). It returns nil for a URI
// without such a segment.
func SlugWords(uri string) []string {
	u, err := url.Parse(uri)
	if err != nil {
		return nil
	}
	segs := strings.Split(generatedNames(u.Path), "/")
	for i := len(segs) - 1; i >= 0; i-- {
		var words []string
		for _, w := range lexsig.Tokenize(segs[i]) {
			if !urlNoise[w] {
				words = append(words, w)
			}
		}
		if len(words) > 0 {
			return words
		}
	}
	return nil
}

// pageKinds are the kinds of page that Doxygen writes before a name in
// its file names ("structssh__timestamp.html").
var pageKinds = []string{"class", "struct", "union", "namespace", "interface"}

// generatedNames returns path with the names that Doxygen writes into
// its file names read back: "_8" before a letter is a dot, "_1_1" a "::",
// "__" an underscore, and a leading "class", "struct", "union",
// "namespace" or "interface" names the kind of page, not the page
// ("classEigen_1_1FullPivLU.html" gives "Eigen FullPivLU.html",
// "ConjHelper_8h_source.html" "ConjHelper h_source.html"). A segment is
// read so only when it has such an escape, or its kind is followed by a
// capital; other paths ("release_3_0_5.html", "structure.html") are kept
// as they are.
func generatedNames(path string) string {
	segs := strings.Split(path, "/")
	for i, seg := range segs {
		escaped := strings.Contains(seg, "_1_1") || strings.Contains(seg, "__") || hasDotEscape(seg)
		for _, kind := range pageKinds {
			rest, ok := strings.CutPrefix(seg, kind)
			if ok && rest != "" && (escaped || unicode.IsUpper(rune(rest[0]))) {
				seg = rest
				escaped = true
				break
			}
		}
		if !escaped {
			continue
		}
		seg = strings.ReplaceAll(seg, "_1_1", " ")
		seg = strings.ReplaceAll(seg, "__", "_")
		var b strings.Builder
		for j := 0; j < len(seg); j++ {
			if dotEscapeAt(seg, j) {
				b.WriteByte(' ')
				j++
				continue
			}
			b.WriteByte(seg[j])
		}
		segs[i] = b.String()
	}
	return strings.Join(segs, "/")
}

// hasDotEscape reports whether seg holds Doxygen's escape of a dot: "_8"
// before a letter ("ConjHelper_8h").
func hasDotEscape(seg string) bool {
	for i := range seg {
		if dotEscapeAt(seg, i) {
			return true
		}
	}
	return false
}

// dotEscapeAt reports whether Doxygen's escape of a dot ("_8" before a
// letter) starts at seg[i].
func dotEscapeAt(seg string, i int) bool {
	return i+2 < len(seg) && seg[i] == '_' && seg[i+1] == '8' && isLetter(seg[i+2])
}

func isLetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// urlNoise are the words of paths that name a format or an index page.
var urlNoise = map[string]bool{
	"html": true, "htm": true, "shtml": true, "xhtml": true, "php": true,
	"asp": true, "aspx": true, "jsp": true, "cgi": true, "index": true,
	"default": true, "www": true, "http": true, "https": true,
}

// memoSearcher remembers the answers of one Find's strategy, whose members
// often share queries.
type memoSearcher struct {
	s  lexsig.Searcher
	mu sync.Mutex
	m  map[string][]lexsig.Result
}

// Search answers a query asked before from memory.
func (m *memoSearcher) Search(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
	key := strconv.Itoa(limit) + "\x00" + QueryKey(q)
	m.mu.Lock()
	defer m.mu.Unlock()
	if res, ok := m.m[key]; ok {
		return res, nil
	}
	res, err := m.s.Search(ctx, q, limit)
	if err != nil {
		return nil, err
	}
	if m.m == nil {
		m.m = map[string][]lexsig.Result{}
	}
	m.m[key] = res
	return res, nil
}

// QueryKey returns a string that identifies q: two queries have the same
// key exactly when they have the same terms, mode and phrase setting. It
// suits caches of search answers.
func QueryKey(q lexsig.Query) string {
	return q.Mode.String() + "\x00" + strconv.FormatBool(q.Phrase) + "\x00" + strings.Join(q.Terms, "\x00")
}
