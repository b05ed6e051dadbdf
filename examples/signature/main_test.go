package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/linkrot/relink/backlink"
)

// TestRun draws the anchor words of three saved pages' links to a guide
// (§3.2 "Radius") and ranks them: "making" is on one page of three, the
// rarest, and leads the query.
func TestRun(t *testing.T) {
	pages := []string{
		"testdata/bakery-blog.html=https://blog.example.net/2024/weekend-baking.html",
		"testdata/forum-thread.html=https://example.org/t/help.html",
		"testdata/recipe-index.html=https://example.org/recipes/",
	}
	var out bytes.Buffer
	if err := run(context.Background(), &out, "https://example.org/guides/sourdough-starter.html", backlink.Anchor, 4, pages); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		`https://example.org/t/help.html: ["starter" "feeding" "schedule"`,
		"making       tf 1  df 1",
		"query: making feeding guide schedule\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

// TestRunErrors checks that a page without its URI, or a file that is not
// there, is an error.
func TestRunErrors(t *testing.T) {
	for _, pages := range [][]string{{"testdata/bakery-blog.html"}, {"testdata/nope.html=https://example.org/"}} {
		if err := run(context.Background(), &bytes.Buffer{}, "https://example.org/x", backlink.Anchor, 4, pages); err == nil {
			t.Errorf("run(%q) = nil error, want an error", pages)
		}
	}
}
