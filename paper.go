package relink

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/lexsig"
)

// Links chooses which links to the missing page give the paper's method
// its words.
type Links int

const (
	// AllLinks counts every link, navigation included: what the paper did.
	AllLinks Links = iota
	// ContentLinks leaves navigation links out twice: the neighborhood
	// holds only pages that link to the missing page with a link that is
	// not navigation (Needs.ContentLinks), and navigation links give no
	// words. The experiment's "-nonav" methods.
	ContentLinks
	// PreferContent keeps the backlinks of AllLinks but draws no words
	// from navigation links or from links whose text is their own address
	// (backlink.Link.Address), unless no other link gives a word: a page
	// that only such links point to is still searched for.
	PreferContent
)

// links names the settings of Links, in order.
var linksNames = []string{"all", "content", "prefer-content"}

// String returns "all", "content" or "prefer-content".
func (l Links) String() string {
	if l < 0 || int(l) >= len(linksNames) {
		return "links(" + strconv.Itoa(int(l)) + ")"
	}
	return linksNames[l]
}

// suffix is what a Paper's name ends with for l: nothing for the paper's
// setting, NoNavSuffix for ContentLinks, "-prefer" for PreferContent.
func (l Links) suffix() string {
	switch l {
	case ContentLinks:
		return NoNavSuffix
	case PreferContent:
		return PreferSuffix
	}
	return ""
}

// ParseLinks parses the String form of a Links value.
func ParseLinks(s string) (Links, error) {
	for i, n := range linksNames {
		if s == n {
			return Links(i), nil
		}
	}
	return 0, fmt.Errorf("relink: unknown links setting %q (want %s)", s, strings.Join(linksNames, ", "))
}

// Name suffixes of Paper methods (see Paper.Name).
const (
	// NoNavSuffix ends the name of a method that leaves navigation links
	// out (ContentLinks), as in "1-anchor-10-nonav". The plain names mean
	// what the paper did: every link counts (BENCHMARK.md,
	// "summary.json").
	NoNavSuffix = "-nonav"
	// PreferSuffix ends the name of a method that prefers content links
	// (PreferContent).
	PreferSuffix = "-prefer"
	// OrSuffix ends the name of a method whose query is disjunctive.
	OrSuffix = "-or"
)

// Paper is the paper's method (§3): the backlink neighborhood of Depth
// levels, the first Backlinks backlinks of each queried page, the words
// within Radius of each link to the missing page, ranked by TF-IDF, the top
// Size as one query. Its zero value is the paper's best setting (Table 4):
// level 1, the top 10 backlinks, anchor text, 4 terms, every link counted,
// a conjunctive query.
type Paper struct {
	// Depth is 1 for level-1 backlinks, 2 for levels 1 and 2 (§3.2
	// "Backlink Depth"); zero means DefaultDepth.
	Depth int
	// Backlinks is how many backlinks are asked for per queried page
	// (§3.2 "Backlink Ranking": 10, 100 or 1000); zero means
	// DefaultBacklinks.
	Backlinks int
	// Radius is where words are drawn (§3.2 "Radius"); the zero value is
	// backlink.Anchor.
	Radius backlink.Radius
	// Size is the signature size (§3.2 "Lexical Signature Size"); zero
	// means DefaultTerms.
	Size int
	// Links chooses the links that give words; the zero value counts
	// every link, as the paper did.
	Links Links
	// Mode combines the terms; the zero value is conjunctive, as a web
	// search engine does.
	Mode lexsig.Mode
}

// Name returns LEVELS-RADIUS-BACKLINKS as the paper's figures and the
// benchmark name methods ("1-anchor-10", "2-ten-1000"; the radius as
// backlink.Radius.String gives it), followed by the Links setting's suffix
// (NoNavSuffix, PreferSuffix) and OrSuffix for a disjunctive query. The
// signature size is not part of the name: it is Terms.
func (p Paper) Name() string {
	s := strconv.Itoa(orDefault(p.Depth, DefaultDepth)) + "-" + p.Radius.String() + "-" +
		strconv.Itoa(orDefault(p.Backlinks, DefaultBacklinks)) + p.Links.suffix()
	if p.Mode == lexsig.Disjunctive {
		s += OrSuffix
	}
	return s
}

// Terms returns the signature size.
func (p Paper) Terms() int { return orDefault(p.Size, DefaultTerms) }

// Needs returns the neighborhood of Depth levels and Backlinks backlinks,
// of content links alone for ContentLinks.
func (p Paper) Needs() Needs {
	return Needs{Depth: orDefault(p.Depth, DefaultDepth), Backlinks: orDefault(p.Backlinks, DefaultBacklinks), ContentLinks: p.Links == ContentLinks}
}

// Find searches the signature's query (Signature, then Query).
func (p Paper) Find(ctx context.Context, c *Clues, t Tools) (*Outcome, error) {
	sig, err := p.Signature(ctx, c, t.DF)
	if err != nil {
		return nil, err
	}
	out := &Outcome{Signature: sig}
	out.Candidates, err = t.search(ctx, out, p.Query(sig))
	return out, err
}

// Signature ranks every word the kept evidence gives by TF-IDF against df
// (Equation 1), highest first: the whole signature, of which Query takes
// the top Size. Words are drawn for Radius around the links Links chooses;
// each page of the neighborhood is counted as often as it links, and a
// level-2 page around its links to the level-1 page it was found through.
func (p Paper) Signature(ctx context.Context, c *Clues, df lexsig.DF) (lexsig.Signature, error) {
	terms, err := lexsig.Rank(ctx, p.count(c), df)
	if err != nil {
		return nil, fmt.Errorf("relink: rank terms: %w", err)
	}
	return lexsig.Signature(terms), nil
}

// Top returns the top Size terms of the signature, the same as
// Signature(ctx, c, df).Top(p.Terms()), with Signature's errors, by a
// cheaper path: lexsig.RankTop looks up only the terms that can rank among
// them (a term it leaves out is never looked up, so a failed lookup of such
// a term goes unseen). Query of the result is Query of the whole
// signature; so is Query of a Paper of a smaller Size.
func (p Paper) Top(ctx context.Context, c *Clues, df lexsig.DF) (lexsig.Signature, error) {
	terms, err := lexsig.RankTop(ctx, p.count(c), df, p.Terms())
	if err != nil {
		return nil, fmt.Errorf("relink: rank terms: %w", err)
	}
	return lexsig.Signature(terms), nil
}

// count returns the term frequencies of the words the kept evidence of c
// gives to p's signature (Signature).
func (p Paper) count(c *Clues) map[string]int {
	keep := p.keep(c)
	var pages []*Evidence
	var drawn []*Evidence
	for _, e := range c.Evidence {
		switch {
		case !e.Kept:
		case p.Radius == backlink.Page && e.page != nil:
			pages = append(pages, e) // every word of the page, counted once per page
		default:
			drawn = append(drawn, e)
		}
	}
	var pc pageCounts
	pc.add(pages)
	tf := make(map[string]int, len(pc.terms))
	pc.addTo(tf)
	for _, e := range drawn {
		lexsig.CountInto(tf, e.drawOf(p.Radius, e.Via, keep))
	}
	return tf
}

// Query returns the query of sig's top Size terms, combined by Mode. It
// has no terms when sig has none.
func (p Paper) Query(sig lexsig.Signature) lexsig.Query {
	return sig.Top(p.Terms()).Query(p.Mode)
}

// keep returns the links whose words count for c: every link for
// AllLinks, links that are not navigation for ContentLinks, and for
// PreferContent the describing links, or every link when no describing
// link gives a word.
func (p Paper) keep(c *Clues) func(backlink.Link) bool {
	switch p.Links {
	case ContentLinks:
		return func(l backlink.Link) bool { return !l.Nav }
	case PreferContent:
		if len(c.words(p.Radius, describing)) > 0 {
			return describing
		}
	}
	return nil
}

// wordCounts returns how many words each evidence of c gives to p's
// signature, 0 for evidence not kept. The counts depend on the radius and
// the links setting alone, so c keeps them for the other sizes and modes.
func (p Paper) wordCounts(c *Clues) []int {
	key := wordsKey{p.Radius, p.Links}
	c.mu.Lock()
	defer c.mu.Unlock()
	if n, ok := c.counts[key]; ok {
		return n
	}
	keep := p.keep(c)
	n := make([]int, len(c.Evidence))
	for i, e := range c.Evidence {
		switch {
		case !e.Kept:
		case p.Radius == backlink.Page && e.page != nil:
			n[i] = e.page.pageWords(e.located)
		default:
			n[i] = len(e.drawOf(p.Radius, e.Via, keep))
		}
	}
	if c.counts == nil {
		c.counts = map[wordsKey][]int{}
	}
	c.counts[key] = n
	return n
}

// wordsKey names the words a Paper draws from clues.
type wordsKey struct {
	r     backlink.Radius
	links Links
}
