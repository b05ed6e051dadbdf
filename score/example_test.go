package score_test

import (
	"encoding/json"
	"fmt"
	"log"
	"os"

	"github.com/linkrot/relink/score"
)

func ExampleDCG() {
	for _, rank := range []int{1, 2, 10, 1000, 1001, 0} {
		fmt.Printf("rank %4d: %.4f\n", rank, score.DCG(rank))
	}
	// Output:
	// rank    1: 1.0000
	// rank    2: 0.6309
	// rank   10: 0.2891
	// rank 1000: 0.1003
	// rank 1001: 0.0000
	// rank    0: 0.0000
}

func ExampleBucket() {
	for _, rank := range []int{1, 7, 42, 999, 0} {
		fmt.Printf("%d -> %s\n", rank, score.Bucket(rank))
	}
	// Output:
	// 1 -> 1
	// 7 -> 2-10
	// 42 -> 11-100
	// 999 -> 101-1000
	// 0 -> >1000
}

func ExampleMRR() {
	ranks := []int{1, 2, 0, 4} // the third target was not found
	fmt.Printf("MRR %.4f\n", score.MRR(ranks))
	fmt.Printf("mean nDCG %.4f\n", score.MeanDCG(ranks))
	fmt.Printf("success@1 %.2f, success@10 %.2f\n", score.SuccessAt(ranks, 1), score.SuccessAt(ranks, 10))
	// Output:
	// MRR 0.4375
	// mean nDCG 0.5154
	// success@1 0.25, success@10 0.75
}

func ExampleTable_Markdown() {
	var t score.Table
	// Four targets, each looked for with 3- and 4-term signatures.
	for _, obs := range []struct{ terms, rank int }{
		{3, 1}, {3, 1}, {3, 12}, {3, 0},
		{4, 1}, {4, 1}, {4, 1}, {4, 0},
	} {
		t.Add("1-anchor-10", obs.terms, obs.rank)
	}
	fmt.Print(t.Markdown("1-anchor-10"))
	// Output:
	// Result Rank and nDCG vs Lexical Signature Size (1-anchor-10)
	//
	// | Result rank | 3 | 4 |
	// | :-- | --: | --: |
	// | 1 | 50.00 | 75.00 |
	// | 2-10 | 0.00 | 0.00 |
	// | 11-100 | 25.00 | 0.00 |
	// | 101-1000 | 0.00 | 0.00 |
	// | >1000 | 25.00 | 25.00 |
	// | Mean nDCG | 0.57 | 0.75 |
}

func ExampleTable_Runs() {
	t := score.NewTable()
	t.Add("1-anchor-10", 4, 1)
	t.Add("1-anchor-10", 4, 0)
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false) // keep ">1000" readable
	if err := enc.Encode(t.Runs()); err != nil {
		log.Fatal(err)
	}
	// Output:
	// [{"method":"1-anchor-10","terms":4,"targets":2,"mean_ndcg":0.5,"buckets":{"1":50,"101-1000":0,"11-100":0,"2-10":0,">1000":50},"mrr":0.5,"success_at_1":0.5,"success_at_10":0.5}]
}

func ExampleCompareMarkdown() {
	var t score.Table
	for _, rank := range []int{1, 1, 3, 0} {
		t.Add("1-anchor-10", 4, rank)
	}
	// Compare with the paper's 4-term column alone.
	md := score.CompareMarkdown(t.Runs(), score.PaperTable4()[3:4], "1-anchor-10")
	fmt.Print(md)
	// Output:
	// Result Rank and nDCG vs Lexical Signature Size (1-anchor-10), ours / paper
	//
	// | Result rank | 4 |
	// | :-- | --: |
	// | 1 | 50.00 / 55.85 |
	// | 2-10 | 25.00 / 3.34 |
	// | 11-100 | 0.00 / 0.67 |
	// | 101-1000 | 0.00 / 0.67 |
	// | >1000 | 25.00 / 39.46 |
	// | Mean nDCG | 0.62 / 0.58 |
}
