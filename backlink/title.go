package backlink

import (
	"bytes"
	"slices"
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

// maxHeadingRead bounds how much of a page Heading reads.
const maxHeadingRead = 1 << 20

// maxHeadingDepth bounds how many headings Heading reads at once, one
// inside another: a page of unclosed <h2> elements would otherwise have
// each piece of text copied once for every one of them.
const maxHeadingDepth = 4

// Heading returns the page's own heading, the name it shows its reader
// above its text: the text of its first <h1>, or without one, of the first
// element whose class is "title" (Doxygen's and other generators' page
// title: "Eigen::FullPivLU< _MatrixType > Member List" on the page titled
// "Eigen: Member List"), or of its first <h2>; white space is made single
// spaces and the ends trimmed. It returns "" for a page with none of
// them. page should be UTF-8, as Decode returns it; the reading stops at
// the first <h1> and within the first MiB.
func Heading(page []byte) string {
	z := html.NewTokenizer(bytes.NewReader(page[:min(len(page), maxHeadingRead)]))
	var h2, classed string
	var open []atom.Atom // the elements whose text is being read, innermost last
	var texts []*strings.Builder
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if classed != "" {
				return classed
			}
			return h2
		case html.StartTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			titled := false
			for hasAttr {
				var key, val []byte
				key, val, hasAttr = z.TagAttr()
				if string(key) == "class" && slices.Contains(strings.Fields(string(val)), "title") {
					titled = true
				}
			}
			if n := len(open); n > 0 && a == atom.Div && open[n-1] != atom.H1 && open[n-1] != atom.H2 {
				// A block inside a titled element is no part of its
				// heading (Doxygen's "ingroups" after the class's name).
				classed = cleanTitle(texts[n-1].String())
				open, texts = open[:n-1], texts[:n-1]
			}
			if (a == atom.H1 || a == atom.H2 || titled && classed == "") && len(open) < maxHeadingDepth {
				open = append(open, a)
				texts = append(texts, &strings.Builder{})
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if n := len(open); n > 0 && open[n-1] == a {
				text := cleanTitle(texts[n-1].String())
				open, texts = open[:n-1], texts[:n-1]
				switch {
				case a == atom.H1 && text != "":
					return text
				case a == atom.H2 && h2 == "":
					h2 = text
				case a != atom.H1 && a != atom.H2 && classed == "":
					classed = text
				}
			}
		case html.TextToken:
			for _, b := range texts {
				b.WriteByte(' ')
				b.Write(z.Text())
			}
		}
	}
}
