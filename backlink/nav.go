package backlink

import (
	"unicode/utf8"

	"golang.org/x/net/html/atom"
)

// This file holds the navigation-link heuristic, whose rules the package
// documentation spells out (doc.go, "Navigation links"). Rules 1 to 3 are
// decided while the page streams, from the flags of the enclosing element
// (no tree is built); rules 4 and 5 from the a element's attributes; rules
// 5 and 6 from its text after the walk.

// elementFlags returns the flags an element a adds to parent, the flags of
// the element it opens in; at holds its attributes, or nil when it has none.
func elementFlags(a atom.Atom, parent uint8, at *attrs) uint8 {
	var f uint8
	switch a {
	case atom.Nav, atom.Aside:
		f |= flagNav | flagSection
	case atom.Header, atom.Footer:
		if parent&flagSection == 0 {
			f |= flagNav
		}
	case atom.Main:
		f |= flagSection | flagMain
	case atom.Article, atom.Section:
		f |= flagSection
	}
	if at == nil || (parent|f)&flagNav != 0 {
		return f
	}
	if len(at.role) > 0 {
		f |= roleFlags(at.role)
	}
	if (parent|f)&flagNavClass != 0 && f&flagMain == 0 {
		return f
	}
	switch a {
	case atom.Html, atom.Body, atom.Main, atom.Article:
		return f
	}
	if f&flagMain == 0 && (keywordIn(at.class, parent|f) || keywordIn(at.id, parent|f)) {
		f |= flagNavClass
	}
	return f
}

// roleFlags returns the flags of a role attribute value.
func roleFlags(role []byte) uint8 {
	var f uint8
	forEachToken(role, func(t []byte) bool {
		switch {
		case equalFoldASCII(t, "navigation"), equalFoldASCII(t, "banner"),
			equalFoldASCII(t, "contentinfo"), equalFoldASCII(t, "complementary"):
			f |= flagNav
		case equalFoldASCII(t, "main"):
			f |= flagSection | flagMain
		case equalFoldASCII(t, "article"):
			f |= flagSection
		}
		return true
	})
	return f
}

// navPart classifies one part of a class or id token.
type navPart uint8

const (
	partNone        navPart = iota
	partNav                 // a keyword that always counts
	partNavWord             // nav, navbar or navigation: counts unless "content" is beside it
	partBanner              // header or footer
	partSidebar             // sidebar
	partContent             // a word that names content
	partContentWord         // the word content itself
)

// classifyPart returns the class of a part, comparing it in lower case.
func classifyPart(p []byte) navPart {
	var buf [16]byte
	if len(p) < 3 || len(p) > len(buf) {
		return partNone // no keyword is shorter than "nav" or "toc"
	}
	for i, c := range p {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	switch string(buf[:len(p)]) {
	case "nav", "navbar", "navigation":
		return partNavWord
	case "menu", "sphinxsidebar", "toc", "breadcrumb", "breadcrumbs",
		"related", "pager", "pagination", "prev", "previous", "next":
		return partNav
	case "header", "footer":
		return partBanner
	case "sidebar":
		return partSidebar
	case "content":
		return partContentWord
	case "main", "entry", "post", "article", "page":
		return partContent
	}
	return partNone
}

// partSep marks the bytes that end a part of a class or id token: white
// space ends the token too, '-' and '_' only the part.
var partSep = [256]uint8{' ': 2, '\t': 2, '\n': 2, '\r': 2, '\f': 2, '-': 1, '_': 1}

// keywordIn reports whether a class or id value holds a navigation keyword
// (rule 3 above) for an element opened where flags hold. It runs on most
// elements of a page, so it is one pass over the bytes.
func keywordIn(v []byte, flags uint8) bool {
	var nav, navWord, banner, sidebar, content, contentWord bool
	start := 0
	for i := 0; i <= len(v); i++ {
		sep := uint8(2)
		if i < len(v) {
			if sep = partSep[v[i]]; sep == 0 {
				continue
			}
		}
		if i > start {
			switch classifyPart(v[start:i]) {
			case partNav:
				nav = true
			case partNavWord:
				navWord = true
			case partBanner:
				banner = true
			case partSidebar:
				sidebar = true
			case partContent:
				content = true
			case partContentWord:
				content, contentWord = true, true
			}
		}
		start = i + 1
		if sep == 2 { // end of a token
			if nav || navWord && !contentWord || sidebar && !content || banner && !content && flags&flagSection == 0 {
				return true
			}
			nav, navWord, banner, sidebar, content, contentWord = false, false, false, false, false, false
		}
	}
	return false
}

// forEachToken calls f with each white-space separated token of v until f
// returns false.
func forEachToken(v []byte, f func([]byte) bool) {
	for i := 0; i < len(v); {
		for i < len(v) && isSpace[v[i]] {
			i++
		}
		j := i
		for j < len(v) && !isSpace[v[j]] {
			j++
		}
		if j > i && !f(v[i:j]) {
			return
		}
		i = j
	}
}

// hasToken reports whether the white-space separated list v holds one of
// the lowercase tokens, ignoring ASCII case.
func hasToken(v []byte, tokens ...string) bool {
	found := false
	forEachToken(v, func(t []byte) bool {
		for _, s := range tokens {
			if equalFoldASCII(t, s) {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

// linkAttrNav applies rules 4 and 5 to the attributes of an a element.
func linkAttrNav(at *attrs) bool {
	return hasToken(at.rel, "prev", "next", "up", "home", "index", "contents") ||
		hasToken(at.class, "headerlink", "permalink")
}

// navText applies rules 5 and 6 to the visible text of a link, which may
// hold any white space (the walker keeps text as written outside Render).
func navText(text []byte) bool {
	var buf [8]byte // "previous" and "contents" are the longest
	n := 0
	symbol := false // "¶", "#" or "§" seen
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRune(text[i:])
		i += size
		switch r {
		case ' ', '\t', '\n', '\r', '\f', '\u00a0', '«', '»', '←', '→', '↑':
			continue
		case '¶', '#', '§':
			if symbol || n > 0 {
				return false
			}
			symbol = true
			continue
		}
		if r >= utf8.RuneSelf || n == len(buf) || symbol {
			return false
		}
		c := byte(r)
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[n] = c
		n++
	}
	if symbol {
		return n == 0
	}
	switch string(buf[:n]) {
	case "next", "previous", "prev", "up", "home", "top", "index", "contents":
		return true
	}
	return false
}
