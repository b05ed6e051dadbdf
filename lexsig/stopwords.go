package lexsig

import (
	"slices"
	"strings"
)

// stopList is relink's English stop-word list, composed for this package
// from English function words, grouped by kind. The paper discards stop
// words before computing TF-IDF (§2.1 "TFIDF") but does not publish its
// list; this one is deliberately short and limited to words that carry no
// topic, so that content words that happen to be common ("time", "new",
// "page") still reach the ranking, where a low IDF already weighs them down.
var stopList = strings.Fields(`
	a an the
	this that these those
	some any each every either neither no none all both few many much more
	most less least other another such same own several

	i me my mine myself
	we us our ours ourselves
	you your yours yourself yourselves
	he him his himself
	she her hers herself
	it its itself
	they them their theirs themselves
	one

	what which who whom whose whatever whichever whoever
	when where why how whether whenever wherever

	am is are was were be been being
	have has had having
	do does did doing done
	will would shall should can could may might must ought
	get gets got

	not nor cannot

	s t d ll m re ve
	don doesn didn isn aren wasn weren hasn haven hadn
	wouldn shouldn couldn mustn needn

	about above across after against along among around at
	before behind below beneath beside besides between beyond by
	down during except for from in inside into like near of off on onto
	out outside over past per since than through throughout to
	toward towards under until up upon via with within without

	and but or so yet if then because as although though while unless
	whereas

	also very too just only again ever never always often still already
	here there now soon even perhaps quite rather almost else thus hence
	therefore however instead indeed yes

	b c e f g h j k l n o p q r u v w x y z
`)

// stopSet is stopList as a set.
var stopSet = func() map[string]struct{} {
	set := make(map[string]struct{}, len(stopList))
	for _, w := range stopList {
		set[w] = struct{}{}
	}
	return set
}()

// IsStopWord reports whether term is one of relink's English stop words
// (see StopWords). term must be lowercase, as Tokenize and Normalize produce:
// "The" is not a stop word, "the" is.
func IsStopWord(term string) bool {
	_, ok := stopSet[term]
	return ok
}

// StopWords returns relink's English stop words, sorted, as a new slice the
// caller may modify.
//
// The list, written for relink, holds nearly 250 English function words:
// articles and determiners, personal, possessive, reflexive and
// interrogative pronouns, auxiliary and modal verbs, prepositions,
// conjunctions, common adverbs of time, degree and connection, every single
// letter, and the fragments the word rule leaves when it splits a
// contraction at its apostrophe ("s", "t", "d", "ll", "m", "re", "ve",
// "don", "isn", "wouldn" and the like). Content words and numbers are not
// in it, nor is "won" (from "won't"), which is also a verb in its own right.
func StopWords() []string {
	out := slices.Clone(stopList)
	slices.Sort(out)
	return out
}
