package lexsig

// Count returns the term frequencies of words: how many times each term
// occurs (the paper's Equation 1, TF_{i,j} = n_{i,j}, §2.1 "TFIDF"). Each
// word is lowercased with Normalize; empty words and stop words (IsStopWord)
// are dropped. words should come from Tokenize or another user of the same
// word rule (backlink.Extract); Count does not split them further. The result
// is never nil.
func Count(words []string) map[string]int {
	tf := make(map[string]int)
	CountInto(tf, words)
	return tf
}

// CountInto adds the term frequencies of words to tf, as Count computes them,
// so that the TF of a term over several backlink pages is the sum over the
// pages (Equation 1: the number of times the term appears in the backlinks of
// the target). tf must not be nil unless words holds no countable term.
func CountInto(tf map[string]int, words []string) {
	for _, w := range words {
		if w == "" {
			continue
		}
		w = Normalize(w)
		if IsStopWord(w) {
			continue
		}
		tf[w]++
	}
}
