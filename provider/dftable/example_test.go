package dftable_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/dftable"
)

func ExampleRead() {
	table := "relink-df/1\t20000000000\tyahoo-2009\n" +
		"lexical\t2100000\n" +
		"signature\t9800000\n"
	df, h, err := dftable.Read(strings.NewReader(table))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d documents from %s\n", h.Docs, h.Source)

	// The table is a lexsig.DF: rank terms against it.
	terms, err := lexsig.Rank(context.Background(), map[string]int{"lexical": 1, "signature": 1}, df)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range terms {
		fmt.Printf("%s %d %.2f\n", t.Text, t.DF, t.Weight)
	}
	// Output:
	// 20000000000 documents from yahoo-2009
	// lexical 2100000 9.16
	// signature 9800000 7.62
}

// Reading is strict, and errors name the line at fault.
func ExampleRead_error() {
	table := "relink-df/1\t1000\tcorpus\n" +
		"signature\t12\n" +
		"lexical\t30\n"
	_, _, err := dftable.Read(strings.NewReader(table))
	fmt.Println(err)
	fmt.Println(errors.Is(err, dftable.ErrOrder))
	// Output:
	// dftable: line 3: terms out of order: "lexical" after "signature"
	// true
}

// WriteDF saves what any DF answers for a list of terms: here a small
// corpus counted in memory.
func ExampleWriteDF() {
	corpus := lexsig.NewMemDF()
	corpus.AddDocument(lexsig.Tokenize("Lexical signatures of missing pages"))
	corpus.AddDocument(lexsig.Tokenize("Missing pages and their backlinks"))
	corpus.AddDocument(lexsig.Tokenize("Web archives"))

	terms := []string{"pages", "missing", "lexical", "archives", "pages"}
	if err := dftable.WriteDF(context.Background(), os.Stdout, corpus, "three-docs", terms); err != nil {
		log.Fatal(err)
	}
	// Output:
	// relink-df/1	3	three-docs
	// archives	1
	// lexical	1
	// missing	2
	// pages	2
}
