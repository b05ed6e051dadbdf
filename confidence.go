package relink

import (
	"net/url"
	"slices"
	"strings"

	"github.com/linkrot/relink/lexsig"
)

// DefaultThreshold is the confidence at or above which a Finder answers with
// its first candidate (Result.Found); below it the answer is "not found".
// It was chosen on the development corpus, for the default method: there,
// in the moved mode, every answer at or above it was right and 88% of the
// pages were answered, and of the pages that were deleted 2.3% got an
// answer (a false suggestion). The README's "Answers a bot can trust" has
// the figures of every corpus.
const DefaultThreshold = 0.8

// Confidence returns how sure relink is, in [0, 1], that the first of
// candidates is the missing page of c. It judges by titles, as a person
// does: people link to a page by its title, so the backlinks' anchor
// phrases (Clues.Phrases, the first three, each without a leading
// "section", "chapter", "appendix" or "part": "Section 36.5" names the
// page titled "36.5. Dynamic SQL") should be in the first candidate's
// title.
//
// A title that holds a phrase whole, in order, scores 1 when its other
// words are the site's (words of the suffixes of the backlink pages' own
// titles, "Django 3.2 documentation", and words that half of those titles
// or more hold, "GDK 3 Reference Manual" in "GdkScreen: GDK 3 Reference
// Manual"), numbers, single letters or stop words, and ForeignTitle when it has words of its own besides: "Database
// migration operations" holds "migration operations" whole, but the page
// the backlinks name has no "database" in its title; a sibling does. A
// phrase of numbers and single letters alone ("36 5", "j 2": a section's
// number) needs no such check. A title that holds
// part of a phrase scores 0.8 times the largest share of one phrase's
// words it holds, counting repeated words as often as the phrase has them,
// and 0.9 times that when it has words of its own besides ("git-ls-remote"
// holds every word of "git remote", but not in order, and "ls" too).
//
// The score is halved when the second candidate's title scores as high,
// unless the search scored the first clearly higher (Result.Score at least
// 1.5 times the second's) or the first is on the missing page's host and
// the second is not: two siblings the backlinks cannot tell apart. Clues
// without anchor phrases judge by the missing URI's words (URLWords)
// instead, at half weight. No candidate, or a first candidate without a
// title, gives 0.
func Confidence(c *Clues, candidates []lexsig.Result) float64 {
	if len(candidates) == 0 || candidates[0].Title == "" {
		return 0
	}
	phrases := c.Phrases()
	weight := 1.0
	if len(phrases) == 0 {
		words := URLWords(c.URI)
		if len(words) == 0 {
			return 0
		}
		phrases = []Phrase{{Words: words, Pages: 1}}
		weight = 0.5
	}
	phrases = phrases[:min(len(phrases), 3)]
	for i, p := range phrases {
		w := p.Words
		for len(w) > 1 && referenceWords[w[0]] {
			w = w[1:]
		}
		phrases[i].Words = w
	}
	site := c.siteWords()
	conf := titleScore(candidates[0].Title, phrases, site)
	if len(candidates) > 1 && conf > 0 && titleScore(candidates[1].Title, phrases, site) >= conf {
		first, second := candidates[0].Score, candidates[1].Score
		byScore := first > 0 && second > 0 && first >= 1.5*second
		byHost := sameHost(candidates[0].URI, c.URI) && !sameHost(candidates[1].URI, c.URI)
		if !byScore && !byHost {
			conf /= 2
		}
	}
	return conf * weight
}

// ForeignTitle is the confidence in a first candidate whose title holds an
// anchor phrase whole but also words that are neither the phrase's nor the
// site's: below DefaultThreshold, since such a title is as often a
// sibling's (the phrase "pg_user" in "pg_user_mapping") as the page's.
const ForeignTitle = 0.7

// referenceWords lead anchor texts that refer to a part of a document by
// its number ("Section 36.5", "Appendix F").
var referenceWords = map[string]bool{"section": true, "chapter": true, "appendix": true, "part": true}

// titleScore scores one title against phrases, as Confidence says.
func titleScore(title string, phrases []Phrase, site map[string]bool) float64 {
	t := lexsig.Tokenize(title)
	best := 0.0
	for _, p := range phrases {
		if len(p.Words) == 0 {
			continue
		}
		if contains(t, p.Words) {
			if identifier(p.Words) || !hasForeign(t, p.Words, site) {
				return 1
			}
			best = max(best, ForeignTitle)
			continue
		}
		share := 0.8 * multisetShare(t, p.Words)
		if hasForeign(t, p.Words, site) {
			share *= 0.9
		}
		best = max(best, share)
	}
	return best
}

// hasForeign reports whether title holds a word that is not in phrase, not
// in site, not a number, not a single letter and not a stop word.
func hasForeign(title, phrase []string, site map[string]bool) bool {
	for _, w := range title {
		if site[w] || len(w) < 2 || isNumber(w) || lexsig.IsStopWord(w) || slices.Contains(phrase, w) {
			continue
		}
		return true
	}
	return false
}

// multisetShare returns the share of phrase's words that title holds,
// each as often as phrase has it.
func multisetShare(title, phrase []string) float64 {
	have := map[string]int{}
	for _, w := range title {
		have[w]++
	}
	n := 0
	for _, w := range phrase {
		if have[w] > 0 {
			have[w]--
			n++
		}
	}
	return float64(n) / float64(len(phrase))
}

// identifier reports whether words are numbers and single letters alone,
// as a section's number is ("36 5", "j 2").
func identifier(words []string) bool {
	return !slices.ContainsFunc(words, func(w string) bool { return len(w) > 1 && !isNumber(w) })
}

func isNumber(w string) bool {
	return w != "" && strings.Trim(w, "0123456789") == ""
}

// sameHost reports whether two URIs have the same host.
func sameHost(a, b string) bool {
	ua, err := url.Parse(a)
	if err != nil {
		return false
	}
	ub, err := url.Parse(b)
	return err == nil && strings.EqualFold(ua.Hostname(), ub.Hostname())
}

// titleSeparators part a page's own title from its site's suffix
// ("Templates — Flask Documentation (2.2.x)").
var titleSeparators = []string{" — ", " – ", " - ", " | ", " :: ", " » "}

// siteWords returns the words of the site suffixes of the kept backlink
// pages' titles (the words after the last title separator), and the words
// that at least half of those titles hold, wherever they stand (a site
// written first, or after ": ", or a namespace its pages share).
func (c *Clues) siteWords() map[string]bool {
	out := map[string]bool{}
	count := map[string]int{}
	titles := 0
	for _, e := range c.Evidence {
		if !e.Kept || e.page == nil || e.page.Title == "" {
			continue
		}
		titles++
		seen := map[string]bool{}
		for _, w := range lexsig.Tokenize(e.page.Title) {
			if !seen[w] {
				seen[w] = true
				count[w]++
			}
		}
	}
	for w, n := range count {
		if titles >= 2 && 2*n >= titles {
			out[w] = true
		}
	}
	for _, e := range c.Evidence {
		if !e.Kept || e.page == nil {
			continue
		}
		title, cut := e.page.Title, -1
		for _, sep := range titleSeparators {
			if i := strings.LastIndex(title, sep); i > 0 && i+len(sep) > cut {
				cut = i + len(sep)
			}
		}
		if cut < 0 {
			continue
		}
		for _, w := range lexsig.Tokenize(title[cut:]) {
			out[w] = true
		}
	}
	return out
}
