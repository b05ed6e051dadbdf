package fixbench_test

import (
	"fmt"

	"github.com/linkrot/relink/lab/fixbench"
	"github.com/linkrot/relink/repair"
)

// Score counts a moved page found at its new URI, one answered wrongly,
// and a deleted page answered gone.
func ExampleScore() {
	targets := []fixbench.Target{
		{Dead: "https://docs.example/a.html", Moved: "https://docs.example/relocated/1.html"},
		{Dead: "https://docs.example/b.html", Moved: "https://docs.example/relocated/2.html"},
		{Dead: "https://docs.example/c.html"},
	}
	results := []repair.Result{
		{Dead: "https://docs.example/a.html", Verdict: repair.Moved, URI: "https://docs.example/relocated/1.html", Calls: repair.Calls{Fetch: 12, Search: 4}},
		{Dead: "https://docs.example/b.html", Verdict: repair.Moved, URI: "https://docs.example/other.html", Calls: repair.Calls{Fetch: 9, Search: 4}},
		{Dead: "https://docs.example/c.html", Verdict: repair.Gone, Calls: repair.Calls{Fetch: 6, Search: 5, Archive: 2}},
	}
	f := fixbench.Score(targets, results)
	fmt.Printf("found %.2f, precision %.2f, gone %.2f, median calls %g\n", f.Found, f.Precision, f.Gone, f.MedianCalls)
	// Output:
	// found 0.50, precision 0.50, gone 1.00, median calls 13
}
