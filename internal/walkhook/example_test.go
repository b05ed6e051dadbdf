package walkhook_test

import (
	"fmt"
	"strings"

	"golang.org/x/net/html"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/internal/walkhook"
)

// upperLinks is a Hook that counts a page's start tags and has the walker
// read the href of every <a> in upper case.
type upperLinks struct{ tags int }

func (h *upperLinks) Token(tt html.TokenType, t walkhook.Token) (string, bool) {
	if tt != html.StartTagToken {
		return "", false
	}
	h.tags++
	if !strings.HasPrefix(strings.ToLower(string(t.Raw())), "<a ") {
		return "", false
	}
	for _, a := range t.Attrs() {
		if string(a.Key) == "href" {
			return strings.ToUpper(string(a.Val)), true
		}
	}
	return "", false
}

func Example() {
	page := []byte(`<p>See <a href="/docs/intro.html">the introduction</a>.</p>`)
	h := &upperLinks{}
	doc, ok, err := walkhook.Parse(page, "https://example.org/", h)
	if err != nil || !ok {
		fmt.Println("not read in one pass:", err)
		return
	}
	for _, l := range doc.(*backlink.Document).Outlinks() {
		fmt.Println(l.URI, "-", l.Anchor)
	}
	fmt.Println(h.tags, "start tags")
	// Output:
	// https://example.org/DOCS/INTRO.HTML - the introduction
	// 2 start tags
}
