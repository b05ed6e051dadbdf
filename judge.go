package relink

import (
	"math"
	"slices"
	"strings"

	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/lexsig"
)

// The names of the judge's signals: what it saw of a strategy's first
// candidate. Each is a number, most of them 0 or 1; Result.Signals holds
// those that are not 0, and the Model weighs them. The names are part of
// the tool's JSON (fix's and find's "signals"); new ones may appear.
const (
	// SignalPhraseInTitle: an anchor phrase (or, without anchors, the
	// words of the missing URI) is whole in the first candidate's title,
	// which has no word of its own besides the site's, the template's,
	// a path's directories, a template's parameters, numbers, single
	// letters and stop words.
	SignalPhraseInTitle = "anchor_phrase_in_title"
	// SignalTitleOwnWords: a phrase is whole in the title, beside words
	// of the title's own that neither the site's titles nor the URI
	// explain: as often a sibling's title ("pg_user_mapping" for the
	// phrase "pg_user") as the page's.
	SignalTitleOwnWords = "title_own_words"
	// SignalSitePattern: the title's own words beside a whole phrase are
	// the site's pattern of titles: another title on the missing page's
	// host holds them too, without the phrase ("Struct Reference").
	SignalSitePattern = "site_pattern"
	// SignalPhraseShare: the largest share of one phrase's words the
	// title holds, when it holds none whole (0 when it does).
	SignalPhraseShare = "phrase_share"
	// SignalShareOwnWords: a title that holds part of a phrase has words
	// of its own besides.
	SignalShareOwnWords = "share_own_words"
	// SignalTitleSpellsURI: the title spells the name the missing URI
	// spells ("org.apache.commons.lang3.function.FailableConsumer" for
	// .../lang3/function/class-use/FailableConsumer.html), with one word
	// of its own at most, the kind of page it is.
	SignalTitleSpellsURI = "title_spells_uri"
	// SignalHeadingSpellsURI: the first candidate's heading, read when
	// the strategy fetched it, spells the missing URI's name.
	SignalHeadingSpellsURI = "heading_spells_uri"
	// SignalTitleScore: how well the first candidate's title (or
	// heading) names the page, in [0, 1]: 1 when a phrase is whole in it
	// without words of its own, or they are the site's pattern, or it
	// spells the URI's name; 0.7 for a phrase whole beside words of its
	// own; 0.8 times the share of a phrase's words it holds (0.9 times
	// that beside words of its own); at most 0.5 with a sibling's sign.
	SignalTitleScore = "title_score"
	// SignalSecondTitleScore: the same of the second candidate's title.
	SignalSecondTitleScore = "second_title_score"
	// SignalBacklinksKept: how many backlink pages were kept, n, as
	// log2(1+n)/4, at most 1 (15 pages or more): how much evidence the
	// answer rests on.
	SignalBacklinksKept = "backlinks_kept"
	// SignalSibling: the first candidate is known to be another page than
	// the missing one by its name: its title or heading holds another
	// dotted name that ends alike, other versions only, the same file in
	// another directory, or its URI is a sibling's of the same pattern
	// beside the missing URI.
	SignalSibling = "sibling"
	// SignalURLWordsOnly: no backlink gave an anchor phrase; the title is
	// judged by the missing URI's words instead.
	SignalURLWordsOnly = "url_words_only"
	// SignalAnchorPages: how many backlink pages use the first anchor
	// phrase (how many people named the page so), n, as log2(1+n)/4, at
	// most 1 (15 pages or more).
	SignalAnchorPages = "anchor_pages"
	// SignalSecondAlike: the second candidate's title matches the
	// phrases as well as the first's.
	SignalSecondAlike = "second_alike"
	// SignalSecondUnresolved: the second candidate is alike and nothing
	// tells the two apart: the search did not score the first clearly
	// higher (1.5 times), the first is not alone on the missing page's
	// host, and the first's title holds no word of the URI's path that
	// the second's lacks.
	SignalSecondUnresolved = "second_unresolved"
	// SignalScoreMargin: how much higher the search scored the first
	// candidate than the second: log2 of the ratio of their scores (for a
	// fusion, of their support), at most 4, over 4; 1 when there is no
	// second candidate.
	SignalScoreMargin = "score_margin"
	// SignalLinkedApart: a backlink page links to the first candidate
	// too, with a link of its content (not navigation) apart from its
	// link to the missing page: its author knew them as two pages, so
	// the candidate is another page than the missing one.
	SignalLinkedApart = "linked_apart"
	// SignalSameHost: the first candidate is on the missing page's host.
	SignalSameHost = "same_host"
	// SignalNoTitle: the first candidate has neither title nor heading.
	SignalNoTitle = "no_title"
	// SignalFusionSupport: for a fusion of several queries, the share of
	// the support a clear answer gets (the first candidate's fused score
	// over 0.15, at most 1); 1 for other strategies.
	SignalFusionSupport = "fusion_support"
	// SignalMovedLink: the first candidate is where a backlink page's own
	// link to the missing page now points, on the page's new version
	// (MovedLink).
	SignalMovedLink = "moved_link"
	// SignalMovedLinkAgree: two backlink pages or more moved their link
	// there.
	SignalMovedLinkAgree = "moved_link_agree"
	// SignalMovedLinkTie: another candidate has as many moved links.
	SignalMovedLinkTie = "moved_link_tie"
	// SignalArchiveAgrees: the title of the missing page's archived copy
	// is the first candidate's (ArchiveCheck).
	SignalArchiveAgrees = "archive_agrees"
	// SignalArchiveDisagrees: the first candidate's title shares fewer
	// than half of the archived title's own words.
	SignalArchiveDisagrees = "archive_disagrees"
	// SignalEnclosingName: the first candidate's title holds a dotted
	// name that the missing URI's path spells but that ends before the
	// page's name does: the name of what encloses the page, a package or
	// a class ("Uses of Package org.apache.commons.lang3.tuple" for
	// .../lang3/tuple/MutablePair.html), whose page it is.
	SignalEnclosingName = "enclosing_name"
	// SignalTitleNamesPath: the first candidate's title holds, as one
	// dotted name of two parts or more, the name the missing URI's path
	// spells, to its end ("org.junit.experimental.max Class Hierarchy"
	// for .../org/junit/experimental/max/package-tree.html), and no name
	// of what encloses it.
	SignalTitleNamesPath = "title_names_path"
	// SignalInnerName: the first candidate's title holds a dotted name
	// that starts with the name the missing URI's path spells, to its
	// end, and goes on: the name of a page inside the named one, a nested
	// class's, a member's or a subpackage's ("Uses of Class
	// org.jsoup.nodes.Entities.EscapeMode" for .../org/jsoup/nodes/
	// Entities.html), whose page it is.
	SignalInnerName = "inner_name"
	// SignalTextSimilarity: the similarity of the first candidate's text
	// to the words around the backlinks' links (the cosine of their
	// words' counts, in [0, 1]), when the strategy read the page (Rerank
	// reads the first two when their titles leave the answer unsure).
	SignalTextSimilarity = "text_similarity"
	// SignalRedirectPermanent and SignalRedirectTemporary: an archive
	// recorded the missing URI redirecting, permanently (301, 308) or
	// not, to the first candidate (Model.Redirected).
	SignalRedirectPermanent = "redirect_permanent"
	SignalRedirectTemporary = "redirect_temporary"
)

// Seen is what a strategy saw besides its candidates, for the judge: the
// strategies report it in their Outcome, and the judge reads it with the
// candidates the Finder kept.
type Seen struct {
	// Headings are the headings (backlink.Heading) of the candidate pages
	// the strategy fetched, by URI.
	Headings map[string]string
	// Similarity is the similarity of the text of the candidate pages
	// the strategy fetched to the words around the backlinks' links
	// (cosine of their words' counts), by URI.
	Similarity map[string]float64
	// Fused says the candidates' Score is their support across the
	// queries of a Fusion.
	Fused bool
	// MovedLinks says the candidates are where the backlink pages' links
	// to the missing page now point (MovedLink), their Score the number
	// of pages that agree.
	MovedLinks bool
	// ArchiveChecked says the first candidate's title is to be compared
	// with the title of the missing page's archived copy (ArchiveCheck).
	ArchiveChecked bool
}

// Signals returns what the judge sees of the first of candidates for the
// missing page of c, by name (the Signal constants), those that are not 0.
// It returns nil when there is no candidate.
func Signals(c *Clues, candidates []lexsig.Result, seen Seen) map[string]float64 {
	s, _ := judgeTitles(c, candidates, seen)
	return s
}

// judgeTitles returns the signals of Signals, and whether the titles
// alone name the page beyond doubt (the first candidate's title or
// heading names it, no sibling's sign, no alike second, anchors given):
// then Rerank reads no heading.
func judgeTitles(c *Clues, candidates []lexsig.Result, seen Seen) (map[string]float64, bool) {
	if len(candidates) == 0 {
		return nil, false
	}
	out := map[string]float64{}
	set := func(name string, on bool) {
		if on {
			out[name] = 1
		}
	}
	first := candidates[0]
	heading := seen.Headings[first.URI]
	t := c.target()
	set(SignalSameHost, t.sameHost(first.URI))
	set(SignalLinkedApart, c.linkedApart(first.URI))
	set(SignalNoTitle, first.Title == "" && heading == "")
	support := 1.0
	if seen.Fused {
		support = min(1, first.Score/fusionSupport)
	}
	if support > 0 {
		out[SignalFusionSupport] = support
	}
	switch {
	case len(candidates) == 1:
		out[SignalScoreMargin] = 1
	case first.Score > 0 && candidates[1].Score > 0 && first.Score > candidates[1].Score:
		out[SignalScoreMargin] = min(math.Log2(first.Score/candidates[1].Score), 4) / 4
	}
	if sim := seen.Similarity[first.URI]; sim > 0 {
		out[SignalTextSimilarity] = sim
	}
	if seen.MovedLinks {
		set(SignalMovedLink, true)
		set(SignalMovedLinkAgree, first.Score >= 2)
		set(SignalMovedLinkTie, len(candidates) > 1 && candidates[1].Score >= first.Score)
	}
	if seen.ArchiveChecked {
		switch archiveAgreement(c, candidates) {
		case agrees:
			set(SignalArchiveAgrees, true)
		case disagrees:
			set(SignalArchiveDisagrees, true)
		}
	}

	if n := len(c.kept()); n > 0 {
		out[SignalBacklinksKept] = pages(n)
	}
	phrases := c.Phrases()
	if len(phrases) > 0 {
		if n := phrases[0].Pages; n > 0 {
			out[SignalAnchorPages] = pages(n)
		}
	} else {
		if len(t.words) == 0 {
			return out, false
		}
		phrases = []Phrase{{Words: t.words, Pages: 1}}
		set(SignalURLWordsOnly, true)
	}
	if first.Title == "" && heading == "" {
		return out, false
	}
	j := newTitleJudge(c, t, candidates, phrases, out[SignalURLWordsOnly] == 0)
	m := j.match(0, heading)
	set(SignalPhraseInTitle, m.whole && !m.foreign)
	set(SignalTitleOwnWords, m.whole && m.foreign && !m.pattern && !m.spelled)
	set(SignalSitePattern, m.whole && m.foreign && m.pattern)
	if !m.whole && m.share > 0 {
		out[SignalPhraseShare] = m.share
	}
	set(SignalShareOwnWords, !m.whole && m.share > 0 && m.foreign)
	set(SignalEnclosingName, m.enclosing)
	set(SignalTitleNamesPath, m.pathName && !m.enclosing)
	set(SignalInnerName, m.inner)
	set(SignalTitleSpellsURI, m.spelled)
	set(SignalHeadingSpellsURI, m.headingSpelled)
	set(SignalSibling, m.sibling)
	score := m.score()
	if score > 0 {
		out[SignalTitleScore] = score
	}
	second := 0.0
	if len(candidates) > 1 {
		second = j.match(1, "").score()
	}
	if second > 0 {
		out[SignalSecondTitleScore] = second
	}
	unresolved := false
	if len(candidates) > 1 && score > 0 && second >= score {
		set(SignalSecondAlike, true)
		a, b := candidates[0].Score, candidates[1].Score
		byScore := a > 0 && b > 0 && a >= 1.5*b
		byHost := t.sameHost(candidates[0].URI) && !t.sameHost(candidates[1].URI)
		unresolved = !byScore && !byHost && !byURI(candidates[0].Title, candidates[1].Title, t)
		set(SignalSecondUnresolved, unresolved)
	}
	return out, score >= 1 && !unresolved && out[SignalURLWordsOnly] == 0
}

// pages scales a count of pages to [0, 1]: log2(1+n)/4, at most 1. The
// first pages count most, and a page that a hundred pages link to weighs
// no more than one that fifteen do: a judge fitted on a few such pages
// must not read a hundred as ever more sure.
func pages(n int) float64 {
	return min(math.Log2(1+float64(n))/4, 1)
}

// titleJudge compares candidates' titles with the phrases that name the
// missing page, as people link to a page by its title.
type titleJudge struct {
	c          *Clues
	t          *target
	candidates []lexsig.Result
	phrases    []Phrase
	site       map[string]bool
	template   map[string]bool
}

// newTitleJudge readies the comparison. The phrases are the first three
// anchor phrases (with anchors) and the words of the URI's last segment,
// each without a leading reference word ("section 36.5", "next") or a
// trailing file type ("hebrew.txt"). The site's words are the backlink
// pages' titles' (siteWords) and the URI path's; the template's, where the
// first candidate is on the missing page's host, those most of the other
// candidates' titles on that host hold (templateWords).
func newTitleJudge(c *Clues, t *target, candidates []lexsig.Result, phrases []Phrase, anchors bool) *titleJudge {
	phrases = phrases[:min(len(phrases), 3)]
	if anchors && len(t.slug) > 0 && hasContentWord(strings.Join(t.slug, " ")) {
		phrases = append(slices.Clone(phrases), Phrase{Words: t.slug})
	}
	for i, p := range phrases {
		phrases[i].Words = trimPhrase(p.Words)
	}
	j := &titleJudge{c: c, t: t, candidates: candidates, phrases: phrases, site: withWords(c.siteWords(), t.pathWords)}
	if t.sameHost(candidates[0].URI) {
		j.template = templateWords(candidates, t)
	}
	return j
}

// titleMatch is how one candidate's title (and heading) names the page.
type titleMatch struct {
	whole   bool    // a phrase is whole in the title
	foreign bool    // beside it (or beside a part), words of the title's own
	share   float64 // the largest share of a phrase's words, when none is whole
	pattern bool    // the own words beside a whole phrase are the site's pattern
	spelled bool    // the title spells the URI's name
	// headingSpelled: the heading spells the URI's name.
	headingSpelled bool
	sibling        bool // the candidate is known to be another page
	// enclosing: the title names what encloses the page (enclosingName),
	// a sign of another page too.
	enclosing bool
	// pathName: the title holds the dotted name the URI's path spells,
	// whole (pathNames).
	pathName bool
	// inner: the title names a page inside the one the URI's path
	// names (pathNames).
	inner bool
}

// score orders matches as the titles name the page: 1 for a title that
// names it (a phrase whole without words of its own, or explained by the
// site's pattern or the URI's name), less for a title that holds a phrase
// beside words of its own (0.7) or part of one (0.8 of the share, 0.9 of
// that beside words of its own), and at most 0.5 for a sibling's. It is
// only compared: which of two candidates' titles names the page better.
func (m titleMatch) score() float64 {
	s := 0.0
	switch {
	case m.whole && (!m.foreign || m.pattern || m.spelled), m.spelled, m.headingSpelled:
		s = 1
	case m.whole:
		s = 0.7
	default:
		s = 0.8 * m.share
		if m.foreign {
			s *= 0.9
		}
	}
	if m.sibling {
		s = min(s, 0.5)
	}
	return s
}

// match compares candidate i's title, and heading when not "", with the
// phrases.
func (j *titleJudge) match(i int, heading string) titleMatch {
	cand := j.candidates[i]
	title := cand.Title
	site := withWords(j.site, templateArgs(title))
	m := titleScore(title, j.phrases, site, j.template)
	if m.whole && m.foreign {
		m.pattern = patterned(j.candidates, i, j.c, j.phrases, site)
		m.spelled = spelled(title, j.phrases, site, j.t, false)
	}
	if !m.spelled && (!m.whole || m.foreign) {
		m.spelled = spelled(title, nil, site, j.t, false)
	}
	if heading != "" {
		m.headingSpelled = spelled(heading, nil, withWords(site, templateArgs(heading)), j.t, true)
	}
	m.enclosing, m.pathName, m.inner = pathNames(title, j.t)
	if m.enclosing {
		m.spelled = false
	}
	m.sibling = m.enclosing || sibling(cand, j.t) || heading != "" && otherName(heading, j.t)
	return m
}

// linkedApart reports whether a kept backlink page of c links to uri with a
// link that is neither navigation nor an image map's (SignalLinkedApart).
// Each page's such links are canonicalized and sorted once per inspection
// (Inspection.linksTo); the answers are kept per Clues, since the judge
// asks of the same first candidate for every size of a signature.
func (c *Clues) linkedApart(uri string) bool {
	u, err := canon.Canonicalize(uri)
	if err != nil || u == c.URI {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if ok, seen := c.linked[u]; seen {
		return ok
	}
	ok := false
	for _, e := range c.kept() {
		if e.page != nil && e.page.linksTo(u) {
			ok = true
			break
		}
	}
	if c.linked == nil {
		c.linked = map[string]bool{}
	}
	c.linked[u] = ok
	return ok
}

// titlesSure reports whether the first candidate's title names the page
// beyond doubt (judgeTitles): Rerank then reads no heading.
func titlesSure(c *Clues, candidates []lexsig.Result) bool {
	_, sure := judgeTitles(c, candidates, Seen{})
	return sure
}
