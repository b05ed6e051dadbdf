package repair

import (
	"bytes"
	"strings"
)

// rstLiteralDirectives are the directives whose content is code or raw
// output, not reStructuredText: URLs there are left alone.
var rstLiteralDirectives = map[string]bool{
	"code": true, "code-block": true, "sourcecode": true, "raw": true, "math": true,
	"doctest": true, "testcode": true, "testoutput": true, "testsetup": true, "testcleanup": true,
	"ipython": true, "jupyter-execute": true, "productionlist": true, "literalinclude": true,
}

// rstURIDirectives are the directives whose argument, and :target:
// option, is a URI (docutils: image, figure).
var rstURIDirectives = map[string]bool{"image": true, "figure": true}

// scanRST finds the link targets of a reStructuredText file: embedded
// URIs of hyperlink references, `text <URI>`_ and `<URI>`__; hyperlink
// targets, .. _name: URI, .. __: URI and __ URI, when the URI is on the
// target's line; the argument and :target: option of the image and
// figure directives; and standalone http, https and ftp URIs in text. It
// skips literal blocks (after "::"), doctest blocks, comments, inline
// literals, roles' text (:ref:`a <b>` is no URI) and the content of code,
// raw and math directives. A target whose URI continues on the next
// line, or ends in _ (an indirect target), is left alone.
func scanRST(src []byte) []span {
	var spans []span
	ls := splitLines(src)
	skipAbove := -1     // skipping a block indented more than this
	untilBlank := false // skipping a doctest block
	literalAfter := -1  // a literal block may start, indented more than this
	imageAt := -1       // in an image or figure directive's options, indented more than this
	paragraph, paraIndent, paraLiteral := false, 0, false
	table, tableIndent := 0, 0  // in a grid (1) or simple (2) table
	fixedLine := func(l line) { // a line whose width is part of the layout
		for _, sp := range scanRSTInline(src, l.start, l.end) {
			sp.fixed = true
			spans = append(spans, sp)
		}
	}
	region, regionEnd := -1, -1
	flush := func() {
		if region >= 0 {
			spans = append(spans, scanRSTInline(src, region, regionEnd)...)
		}
		region = -1
		if paragraph && paraLiteral {
			literalAfter = paraIndent
		}
		paragraph, paraLiteral = false, false
	}
	for n, l := range ls {
		b := src[l.start:l.end]
		ind, at := indentOf(b)
		t := bytes.TrimRight(b[at:], " \t")
		blank := len(t) == 0
		if skipAbove >= 0 {
			if blank || ind > skipAbove {
				continue
			}
			skipAbove = -1
		}
		if untilBlank {
			if blank {
				untilBlank = false
			}
			continue
		}
		nextBlank := n+1 >= len(ls) || len(bytes.TrimSpace(src[ls[n+1].start:ls[n+1].end])) == 0
		switch table {
		case 1:
			if !blank && ind == tableIndent && (t[0] == '+' || t[0] == '|') {
				fixedLine(l)
				continue
			}
			table = 0
		case 2:
			if blank {
				continue
			}
			if simpleBorder(t) {
				if nextBlank {
					table = 0
				}
			} else {
				fixedLine(l)
			}
			continue
		}
		if blank {
			flush()
			imageAt = -1
			continue
		}
		if literalAfter >= 0 {
			la := literalAfter
			literalAfter = -1
			if ind > la {
				skipAbove = la
				continue
			}
		}
		continued := func() bool { // the next line continues this one's text
			if n+1 >= len(ls) {
				return false
			}
			nb := src[ls[n+1].start:ls[n+1].end]
			ni, nat := indentOf(nb)
			nt := bytes.TrimRight(nb[nat:], " \t")
			// A directive's options (":alt: ...") do not continue its
			// argument.
			return len(nt) > 0 && ni > ind && !(imageAt >= 0 && nt[0] == ':')
		}
		start := l.start + at
		if imageAt >= 0 && ind > imageAt && t[0] == ':' {
			// An option of an image or figure; :target: is a URI.
			if bytes.HasPrefix(t, []byte(":target:")) {
				if sp, ok := rstURI(src, start+len(":target:"), start+len(t)); ok && !continued() {
					spans = append(spans, sp)
				}
			}
			continue
		}
		imageAt = -1
		if !paragraph && string(t) == ".." {
			flush()
			skipAbove = ind // an empty comment: what is indented under it is the comment
			continue
		}
		if !paragraph && bytes.HasPrefix(t, []byte(".. ")) {
			flush()
			rest := start + 3
			switch {
			case len(t) > 3 && t[3] == '_':
				if i := targetURIAt(src, rest+1, start+len(t)); i >= 0 {
					if sp, ok := rstURI(src, i, start+len(t)); ok && !continued() {
						spans = append(spans, sp)
					}
				}
				skipAbove = ind
			case len(t) > 3 && t[3] == '[':
				// A footnote or citation: its text is text.
				if e := bytes.IndexByte(t[3:], ']'); e >= 0 {
					region, regionEnd = start+3+e+1, l.next
					paragraph, paraIndent = true, ind
				}
			default:
				name, arg, ok := directive(t[3:])
				switch {
				case !ok:
					skipAbove = ind // a comment
				case rstLiteralDirectives[name]:
					skipAbove = ind
				case rstURIDirectives[name]:
					imageAt = ind
					if sp, ok := rstURI(src, start+3+arg, start+len(t)); ok && !continued() {
						spans = append(spans, sp)
					}
				default:
					region, regionEnd = start+3+arg, l.next
					paragraph, paraIndent = true, ind
					flush()
				}
			}
			continue
		}
		if !paragraph && bytes.HasPrefix(t, []byte("__ ")) {
			flush()
			if sp, ok := rstURI(src, start+3, start+len(t)); ok && !continued() {
				spans = append(spans, sp)
			}
			continue
		}
		if !paragraph && bytes.HasPrefix(t, []byte(">>>")) {
			flush()
			untilBlank = true
			continue
		}
		if !paragraph {
			switch {
			case gridBorder(t):
				table, tableIndent = 1, ind
				continue
			case simpleBorder(t) && bytes.Count(t, []byte(" =")) > 0 && !nextBlank:
				table, tableIndent = 2, ind
				continue
			case adornment(t):
				continue // a section title's overline
			case !nextBlank && adornment(bytes.TrimSpace(src[ls[n+1].start:ls[n+1].end])):
				fixedLine(l) // a section title: its underline fits its width
				continue
			}
			region, paraIndent = l.start, ind
		}
		regionEnd = l.next
		paragraph, paraLiteral = true, bytes.HasSuffix(t, []byte("::"))
	}
	flush()
	return spans
}

// targetURIAt returns the offset of the URI of a hyperlink target whose
// name starts at src[i] (after ".. _"): the name is `quoted`, or runs to
// the first unescaped ':' followed by white space or the end of the line;
// an anonymous target's name is "_". It returns -1 for no target.
func targetURIAt(src []byte, i, end int) int {
	j := i
	if j < end && src[j] == '`' {
		e := bytes.IndexByte(src[j+1:end], '`')
		if e < 0 {
			return -1
		}
		j += 1 + e + 1
	} else {
		for j < end && !(src[j] == ':' && (j+1 == end || src[j+1] == ' ' || src[j+1] == '\t')) {
			if src[j] == '\\' {
				j++
			}
			j++
		}
	}
	if j >= end || src[j] != ':' {
		return -1
	}
	return j + 1
}

// rstURI reads the URI of a target or directive from src[i:end]: the
// rest of the line without surrounding white space. It must be one word
// and not end in an unescaped _ (a reference to another target).
func rstURI(src []byte, i, end int) (span, bool) {
	for i < end && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	for end > i && (src[end-1] == ' ' || src[end-1] == '\t') {
		end--
	}
	u := src[i:end]
	if len(u) == 0 || bytes.ContainsAny(u, " \t") || (u[len(u)-1] == '_' && (len(u) < 2 || u[len(u)-2] != '\\')) {
		return span{}, false
	}
	return span{start: i, end: end, kind: rstTarget}, true
}

// directive reads "name:: args" (or "|sub| name:: args") and returns the
// lowercased name and the offset of the arguments in t.
func directive(t []byte) (name string, arg int, ok bool) {
	i := 0
	if len(t) > 0 && t[0] == '|' {
		e := bytes.IndexByte(t[1:], '|')
		if e < 0 {
			return "", 0, false
		}
		i = 1 + e + 1
		for i < len(t) && t[i] == ' ' {
			i++
		}
	}
	j := i
	for j < len(t) && (isNameChar(t[j]) || t[j] == '-' || t[j] == '.' || t[j] == '+' || t[j] == ':') {
		if t[j] == ':' && j+1 < len(t) && t[j+1] == ':' {
			break
		}
		j++
	}
	if j == i || j+1 >= len(t) || t[j] != ':' || t[j+1] != ':' {
		return "", 0, false
	}
	return strings.ToLower(string(t[i:j])), j + 2, true
}

// scanRSTInline finds the embedded URIs and standalone URIs of the text
// src[a:b].
func scanRSTInline(src []byte, a, b int) []span {
	var spans []span
	for i := a; i < b; {
		c := src[i]
		switch {
		case c == '\\':
			i += 2
		case c == '`' && i+1 < b && src[i+1] == '`':
			if e := bytes.Index(src[i+2:b], []byte("``")); e >= 0 {
				i += 2 + e + 2
			} else {
				i += 2
			}
		case c == '`':
			k := closingBacktick(src, i+1, b)
			if k < 0 {
				i++
				continue
			}
			role := i > a && src[i-1] == ':'
			after := k + 1
			if !role && after < b && src[after] == '_' {
				if sp, ok := embeddedURI(src, i+1, k); ok {
					spans = append(spans, sp)
				}
				after++
				if after < b && src[after] == '_' {
					after++
				}
			}
			i = after
		case (c|0x20 == 'h' || c|0x20 == 'f') && (i == a || bareBoundary(src[i-1])):
			if end := bareURI(src, i, b); end > i {
				spans = append(spans, span{start: i, end: end, kind: rstBare})
				i = end
				continue
			}
			i++
		default:
			i++
		}
	}
	return spans
}

// closingBacktick finds the next '`' at or after i that is not escaped
// and not part of "“", or -1.
func closingBacktick(src []byte, i, b int) int {
	for ; i < b; i++ {
		switch src[i] {
		case '\\':
			i++
		case '`':
			return i
		}
	}
	return -1
}

// embeddedURI reads the <URI> that ends the text src[a:k] of a hyperlink
// reference.
func embeddedURI(src []byte, a, k int) (span, bool) {
	if k-a < 3 || src[k-1] != '>' {
		return span{}, false
	}
	lt := bytes.LastIndexByte(src[a:k-1], '<')
	if lt < 0 {
		return span{}, false
	}
	lt += a
	if lt > a && !isHTMLSpace(src[lt-1]) {
		return span{}, false
	}
	u := src[lt+1 : k-1]
	if len(u) == 0 || bytes.ContainsAny(u, "\r\n") || (u[len(u)-1] == '_' && (len(u) < 2 || u[len(u)-2] != '\\')) {
		return span{}, false // empty, over two lines, or an alias
	}
	return span{start: lt + 1, end: k - 1, kind: rstEmbedded}, true
}

// bareBoundary reports whether a standalone URI may start after c.
func bareBoundary(c byte) bool {
	return isHTMLSpace(c) || strings.IndexByte("'\"([{<-/:", c) >= 0
}

// bareURI returns the end of the http, https or ftp URI at src[i], or i:
// it runs to white space, < > " ` or \, without the punctuation that
// ends a sentence and closing brackets it did not open.
func bareURI(src []byte, i, b int) int {
	rest := src[i:b]
	n := 0
	for _, p := range []string{"http://", "https://", "ftp://"} {
		if len(rest) >= len(p) && strings.EqualFold(string(rest[:len(p)]), p) {
			n = len(p)
		}
	}
	if n == 0 || n == len(rest) {
		return i
	}
	e := i + n
	for e < b && !isHTMLSpace(src[e]) && strings.IndexByte("<>\"`\\", src[e]) < 0 {
		e++
	}
	for e > i+n {
		c := src[e-1]
		if strings.IndexByte(".,;:!?'\"", c) >= 0 {
			e--
			continue
		}
		if open := map[byte]byte{')': '(', ']': '[', '}': '{'}[c]; open != 0 &&
			bytes.Count(src[i:e], []byte{open}) < bytes.Count(src[i:e], []byte{c}) {
			e--
			continue
		}
		break
	}
	if e == i+n {
		return i
	}
	return e
}

// gridBorder reports whether t is a grid table's border, +---+===+.
func gridBorder(t []byte) bool {
	if len(t) < 3 || t[0] != '+' || t[len(t)-1] != '+' {
		return false
	}
	for i, c := range t {
		if c != '+' && c != '-' && c != '=' || c == '+' && i > 0 && t[i-1] == '+' {
			return false
		}
	}
	return true
}

// simpleBorder reports whether t is a simple table's border: runs of =
// apart by spaces.
func simpleBorder(t []byte) bool {
	if len(t) == 0 || t[0] != '=' {
		return false
	}
	for _, c := range t {
		if c != '=' && c != ' ' {
			return false
		}
	}
	return true
}

// adornment reports whether t is a section title's underline or
// overline: three or more of one punctuation character.
func adornment(t []byte) bool {
	if len(t) < 3 || !isPunct(t[0]) {
		return false
	}
	for _, c := range t {
		if c != t[0] {
			return false
		}
	}
	return true
}
