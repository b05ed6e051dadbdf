package backlink

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Title returns the text of the first <title> element of an HTML page,
// with runs of white space made single spaces and the ends trimmed, or ""
// when the page has none. page should be UTF-8, as Decode returns it (invalid bytes become
// U+FFFD); the
// reading stops at the end of the title, or of the head when the title is
// missing, so a large page costs little.
func Title(page []byte) string {
	z := html.NewTokenizer(bytes.NewReader(page))
	inTitle := false
	var b strings.Builder
	for {
		switch z.Next() {
		case html.ErrorToken:
			return cleanTitle(b.String())
		case html.StartTagToken:
			name, _ := z.TagName()
			switch atom.Lookup(name) {
			case atom.Title:
				inTitle = true
			case atom.Body:
				return cleanTitle(b.String())
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if a := atom.Lookup(name); a == atom.Title && inTitle || a == atom.Head {
				return cleanTitle(b.String())
			}
		case html.TextToken:
			if inTitle {
				b.Write(z.Text())
			}
		}
	}
}

// cleanTitle makes runs of white space single spaces, trims the ends and
// replaces invalid UTF-8 with U+FFFD.
func cleanTitle(s string) string {
	return strings.ToValidUTF8(strings.Join(strings.Fields(s), " "), "\uFFFD")
}
