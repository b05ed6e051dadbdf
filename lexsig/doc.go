// Package lexsig computes lexical signatures: the few terms that best tell a
// page apart from the rest of the web, ranked by TF-IDF, to be sent to a
// search engine as a query (Ware, Klein and Nelson, §2 "Lexical Signatures"
// and §2.1 "TFIDF").
//
// The steps are Tokenize (split text into lowercase words by relink's one word
// rule), Count or CountInto (term frequencies without stop words, Equation 1),
// Rank (weigh each term by TF × ln(|D|/DF), Equations 2 and 3, and order
// them), and Signature.Top and Signature.Query (keep the top k terms and turn
// them into a Query for a Searcher). RankTop is Rank and Top in one, with
// the document frequencies of fewer terms. Compute does all of them for one
// bag of words:
//
//	sig, err := lexsig.Compute(ctx, lexsig.Tokenize(anchorText), df, 4)
//	if err != nil {
//		return err
//	}
//	results, err := searcher.Search(ctx, sig.Query(lexsig.Conjunctive), 10)
//
// # What the caller provides
//
// Document frequencies come from a DF the caller plugs in: an index of its
// own corpus, a web search engine's hit counts (DFFunc with WithDocs, as the
// paper estimated DF from Yahoo!), or the in-memory MemDF. A DF that can
// answer many terms at once implements BatchDF. Wrap a slow DF in a Cache,
// which asks it once per term however many goroutines look the term up.
// Searching is the caller's Searcher (SearcherFunc adapts a function).
//
// # What it does not do
//
// It does no I/O of its own, stems no words, keeps no global state and
// reads no configuration. It does not extract words from HTML (package
// backlink does) and does not judge search results (package score does). The
// stop-word list is English only.
package lexsig
