package pgqueue_test

import (
	"fmt"

	"github.com/linkrot/relink/provider/pgqueue"
)

// A run is named by its settings and items: the same work enqueued again,
// by a process run again, is the same run, and finds its results.
func ExampleRunID() {
	settings := []string{"-threshold=0.5"}
	items := []pgqueue.Item{{Index: 0, Key: "https://old.example/a.html"}, {Index: 1, Key: "https://old.example/b.html"}}
	a := pgqueue.RunID(settings, items)
	b := pgqueue.RunID(settings, items)
	c := pgqueue.RunID([]string{"-threshold=0.7"}, items)
	fmt.Println(len(a), a == b, a == c)
	// Output:
	// 64 true false
}
