package main

import (
	"bytes"
	"context"
	"testing"
)

// TestRun runs the example: the moved page is found at its new home, at
// rank 1, from the anchor texts of its three backlinks.
func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	const want = `method: 1-anchor-10
kept     https://blog.example/weekend-loaf.html
kept     https://blog.example/first-bake.html
kept     https://forum.example/t/42
query: feeding guide sourdough schedule
1 https://new.example/guides/starter.html
`
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}
