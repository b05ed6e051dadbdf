// Package score measures how well a lexical signature rediscovered a missing
// page, the way Ware, Klein and Nelson did (§3.3 "Scoring of Results" and §4.5
// "Measures of Success"), and renders the results as the paper's tables.
//
// The input is the rank at which each target page appeared in the results of
// its signature's query: 1 for the first result, 0 when it was not among the
// first MaxRank (1000) results. DCG gives one target's score (the paper's
// Equation DCG*, which equals nDCG here); MeanDCG, MRR, SuccessAt and Shares
// summarize many; Bucket places a rank in the rows of the paper's Tables 3
// and 4. A Table collects ranks by method and signature size from concurrent
// workers and returns Runs (the entries of the experiment's summary.json) and
// Markdown in the layout of Tables 3 and 4:
//
//	var t score.Table
//	for _, target := range targets {
//		t.Add("1-anchor-10", 4, rankOf(target)) // 0 if not found
//	}
//	fmt.Print(t.Markdown("1-anchor-10"))
//	fmt.Print(score.CompareMarkdown(t.Runs(), score.PaperTable4(), "1-anchor-10"))
//
// PaperTable3 and PaperTable4 hold the paper's published numbers, to compare
// with.
//
// The caller finds the ranks: package score does no searching, does not
// compare URIs (canonicalize both sides with package canon first) and does no
// I/O. It does not compute graded-relevance nDCG: the paper's relevance is
// binary with one relevant result.
package score
