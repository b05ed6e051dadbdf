package relink

import (
	"github.com/linkrot/relink/lexsig"
)

// DefaultThreshold is the confidence at or above which a Finder answers with
// its first candidate (Result.Found); below it the answer is "not found".
// It was chosen on the development corpus's moved mode, where it keeps the
// precision of the default method's answers near 0.97 (see the README's
// "Answers a bot can trust").
const DefaultThreshold = 0.5

// Confidence returns how sure relink is, in [0, 1], that the first of
// candidates is the missing page of c. It judges by titles, as a person
// does: people link to a page by its title, so the backlinks' anchor
// phrases (Clues.Phrases, the first three) should be in the first
// candidate's title. The confidence is the largest share of one phrase's
// words that the title holds (1 when a phrase is in it whole, in order),
// halved when the second candidate's title agrees as much (two siblings
// the backlinks cannot tell apart). Clues without anchor phrases judge by
// the missing URI's words (URLWords) instead, at half weight. No candidate,
// or a first candidate without a title, gives 0.
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
		return share
	}
	conf := score(candidates[0].Title)
	if len(candidates) > 1 && conf > 0 && score(candidates[1].Title) >= conf {
		conf /= 2
	}
	return conf * weight
}
