package lexsig_test

import (
	"context"
	"fmt"
	"log"
	"strings"
	"sync/atomic"

	"github.com/linkrot/relink/lexsig"
)

// corpus returns a small collection of documents as a MemDF.
func corpus() *lexsig.MemDF {
	df := lexsig.NewMemDF()
	for _, doc := range []string{
		"Time zones of the Americans",
		"The Smithsonian museums",
		"Time and again",
		"A time line of American history",
		"Exhibition hall of the Behring Center",
		"What time is it",
	} {
		df.AddDocument(lexsig.Tokenize(doc))
	}
	return df
}

func ExampleTokenize() {
	fmt.Printf("%q\n", lexsig.Tokenize("Don't miss the Smithsonian's 'On Time' exhibit!"))
	// Output:
	// ["don" "t" "miss" "the" "smithsonian" "s" "on" "time" "exhibit"]
}

func ExampleCount() {
	tf := lexsig.Count(lexsig.Tokenize("Time, and time again: the time of Americans"))
	fmt.Println(tf["time"], tf["americans"], tf["the"])
	// Output:
	// 3 1 0
}

func ExampleRank() {
	ctx := context.Background()
	// The anchor texts of three backlinks of a missing page.
	tf := map[string]int{}
	for _, anchor := range []string{"On Time exhibition", "Smithsonian: On Time", "time at the Behring Center"} {
		lexsig.CountInto(tf, lexsig.Tokenize(anchor))
	}
	terms, err := lexsig.Rank(ctx, tf, corpus())
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range terms {
		fmt.Printf("%-12s tf=%d df=%d weight=%.3f\n", t.Text, t.TF, t.DF, t.Weight)
	}
	// Output:
	// behring      tf=1 df=1 weight=1.792
	// center       tf=1 df=1 weight=1.792
	// exhibition   tf=1 df=1 weight=1.792
	// smithsonian  tf=1 df=1 weight=1.792
	// time         tf=3 df=4 weight=1.216
}

func ExampleRankTop() {
	ctx := context.Background()
	// The word counts of a long page: a few words often, most once.
	tf := map[string]int{
		"smithsonian": 9, "time": 7, "behring": 6, "exhibition": 5, "center": 5,
		"americans": 4, "history": 3, "zones": 3, "hall": 2, "museums": 2,
		"again": 1, "line": 1, "american": 1, "arrow": 1, "flies": 1,
	}
	mem := corpus()
	var lookups atomic.Int64
	df := lexsig.DFFunc(func(ctx context.Context, term string) (int64, error) {
		lookups.Add(1)
		return mem.DocFreq(ctx, term)
	}).WithDocs(6)
	top, err := lexsig.RankTop(ctx, tf, df, 2)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range top {
		fmt.Printf("%-12s tf=%d df=%d weight=%.3f\n", t.Text, t.TF, t.DF, t.Weight)
	}
	fmt.Printf("%d of %d terms looked up\n", lookups.Load(), len(tf))
	// Output:
	// smithsonian  tf=9 df=1 weight=16.126
	// behring      tf=6 df=1 weight=10.751
	// 8 of 15 terms looked up
}

func ExampleCompute() {
	words := lexsig.Tokenize("Smithsonian exhibition: On Time, at the Behring Center. Time!")
	sig, err := lexsig.Compute(context.Background(), words, corpus(), 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(sig)
	fmt.Println(sig.Query(lexsig.Disjunctive))
	// Output:
	// behring center exhibition
	// behring OR center OR exhibition
}

func ExampleMemDF() {
	ctx := context.Background()
	var df lexsig.MemDF
	df.AddDocument(lexsig.Tokenize("Time flies like an arrow"))
	df.AddDocument(lexsig.Tokenize("Fruit flies like a banana"))
	df.Set("arrow", 40) // a figure from elsewhere overrides the count

	for _, term := range []string{"flies", "banana", "arrow", "kiwi"} {
		n, err := df.DocFreq(ctx, term)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(term, n)
	}
	docs, err := df.Docs(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("|D| =", docs)
	// Output:
	// flies 2
	// banana 1
	// arrow 40
	// kiwi 0
	// |D| = 2
}

func ExampleCache() {
	ctx := context.Background()
	var queries atomic.Int64 // Rank may look terms up concurrently
	slow := lexsig.DFFunc(func(ctx context.Context, term string) (int64, error) {
		queries.Add(1) // stands for a request to a search engine
		return int64(1000 * len(term)), nil
	}).WithDocs(1_000_000)

	cache := lexsig.NewCache(slow)
	for range 3 {
		if _, err := lexsig.Rank(ctx, map[string]int{"behring": 1, "time": 2}, cache); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println("queries:", queries.Load())
	fmt.Printf("%+v\n", cache.Stats())
	// Output:
	// queries: 2
	// {Hits:4 Shared:0 Misses:2}
}

func ExampleDFFunc() {
	// Hit counts as a web search engine might report them, and |D| an
	// estimate of the size of its index, as the paper did (§2.1).
	hits := map[string]int64{"smithsonian": 9_000_000, "behring": 400_000, "time": 3_000_000_000}
	df := lexsig.DFFunc(func(ctx context.Context, term string) (int64, error) {
		return hits[term], nil
	}).WithDocs(50_000_000_000)

	terms, err := lexsig.Rank(context.Background(), map[string]int{"smithsonian": 1, "behring": 1, "time": 2}, df)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(lexsig.Signature(terms).Top(2))
	// Output:
	// behring smithsonian
}

func ExampleQuery_String() {
	terms := []string{"behring", "smithsonian", "time"}
	fmt.Println(lexsig.NewQuery(terms, lexsig.Conjunctive))
	fmt.Println(lexsig.NewQuery(terms, lexsig.Disjunctive))
	fmt.Println(lexsig.Query{Terms: terms[:2], Phrase: true})
	fmt.Printf("%q\n", lexsig.Query{}.String())
	// Output:
	// behring smithsonian time
	// behring OR smithsonian OR time
	// "behring smithsonian"
	// ""
}

func ExampleSearcherFunc() {
	pages := map[string]string{
		"https://example.org/on-time/":   "On Time: the Behring Center exhibition at the Smithsonian",
		"https://example.org/time-zones": "Time zones of the Americas",
	}
	// A toy conjunctive search over two pages.
	search := lexsig.SearcherFunc(func(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
		var results []lexsig.Result
		for _, uri := range []string{"https://example.org/on-time/", "https://example.org/time-zones"} {
			words := " " + strings.Join(lexsig.Tokenize(pages[uri]), " ") + " "
			all := true
			for _, t := range q.Terms {
				all = all && strings.Contains(words, " "+t+" ")
			}
			if all && len(results) < limit {
				results = append(results, lexsig.Result{Rank: len(results) + 1, URI: uri})
			}
		}
		return results, nil
	})
	for _, sig := range []lexsig.Signature{
		{{Text: "time"}},
		{{Text: "behring"}, {Text: "time"}},
	} {
		q := sig.Query(lexsig.Conjunctive)
		results, err := search.Search(context.Background(), q, 10)
		if err != nil {
			log.Fatal(err)
		}
		for _, r := range results {
			fmt.Printf("%s: %d %s\n", q, r.Rank, r.URI)
		}
	}
	// Output:
	// time: 1 https://example.org/on-time/
	// time: 2 https://example.org/time-zones
	// behring time: 1 https://example.org/on-time/
}
