package relink

import (
	"github.com/linkrot/relink/lexsig"
)

// DefaultThreshold is the confidence at or above which a Finder answers with
// its first candidate (Result.Found); below it the answer is "not found".
// It was chosen on the development corpus, for the default method: there,
// in the moved mode, every answer at or above it was right and 82% of the
// pages were answered, and of the pages that were deleted 4% got an
// answer (a false suggestion). The README's "Answers a bot can trust" has
// the figures of every corpus.
const DefaultThreshold = 0.8

// Confidence returns how sure relink is, in [0, 1], that the first of
// candidates is the missing page of c. It judges by titles, as a person
// does: people link to a page by its title, so the backlinks' anchor
// phrases (Clues.Phrases, the first three) should be in the first
// candidate's title. A title that holds a phrase whole, in order, scores 1;
// one that holds part of a phrase scores 0.8 times the largest share of one
// phrase's words it holds. The score is halved when the second candidate's
// title scores as high, unless the search scored the first clearly higher
// (Result.Score at least 1.5 times the second's): two siblings the
// backlinks cannot tell apart. Clues without anchor phrases judge by the
// missing URI's words (URLWords) instead, at half weight. No candidate, or a
// first candidate without a title, gives 0.
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
	score := func(title string) float64 {
		share, whole := agreement(lexsig.Tokenize(title), phrases)
		if whole {
			return 1
		}
		return 0.8 * share
	}
	conf := score(candidates[0].Title)
	if len(candidates) > 1 && conf > 0 && score(candidates[1].Title) >= conf {
		first, second := candidates[0].Score, candidates[1].Score
		if !(first > 0 && second > 0 && first >= 1.5*second) {
			conf /= 2
		}
	}
	return conf * weight
}
