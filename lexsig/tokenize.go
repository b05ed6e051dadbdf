package lexsig

import (
	"strings"

	"github.com/linkrot/relink/internal/words"
)

// Tokenize returns the words of text, lowercased with Normalize, in the order
// they occur. Words are split by relink's one word rule (maximal runs of
// Unicode letters, digits and marks; see package internal/words), so the
// terms of a signature are the terms a full-text engine such as SQLite FTS5
// indexes. Apostrophes split words: "don't" gives "don" and "t", both stop
// words. Invalid UTF-8 bytes separate words. Tokenize does not drop stop
// words; Count does. Text with no words gives an empty (nil) slice.
func Tokenize(text string) []string {
	ws := words.Split(text)
	for i, w := range ws {
		ws[i] = Normalize(w)
	}
	return ws
}

// Normalize returns word lowercased with strings.ToLower, which maps every
// rune by its Unicode simple lowercase mapping. It is not locale-aware
// (Turkish dotless ı is not produced from I), it does no full case folding
// ("STRASSE" does not become "straße") and no Unicode normalization
// (precomposed "é" and "e" followed by a combining acute stay different), and
// it keeps diacritics. A word that is already lowercase is returned without
// allocating.
func Normalize(word string) string {
	return strings.ToLower(word)
}
