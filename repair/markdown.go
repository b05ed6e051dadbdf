package repair

import (
	"bytes"
	"strings"
)

// line is one line of a file: its bytes are src[start:end], without the
// line ending, and the next line starts at next.
type line struct{ start, end, next int }

// splitLines cuts src at \n; a \r before the \n is not part of the line.
func splitLines(src []byte) []line {
	var ls []line
	for i := 0; i < len(src); {
		j := bytes.IndexByte(src[i:], '\n')
		next := len(src)
		if j >= 0 {
			next = i + j + 1
			j += i
		} else {
			j = len(src)
		}
		end := j
		if end > i && src[end-1] == '\r' {
			end--
		}
		ls = append(ls, line{i, end, next})
		i = next
	}
	return ls
}

// indentOf returns the width of b's leading white space (a tab to the
// next multiple of 4, as CommonMark counts it) and the offset of its
// first other byte.
func indentOf(b []byte) (width, at int) {
	for at < len(b) {
		switch b[at] {
		case ' ':
			width++
		case '\t':
			width += 4 - width%4
		default:
			return width, at
		}
		at++
	}
	return width, at
}

// scanMarkdown finds the link targets of a CommonMark (or GitHub
// flavoured) Markdown file: inline links and images, [t](dest) and
// [t](<dest>); link reference definitions, [x]: dest, with the
// destination on the label's line; autolinks, <scheme:...>; and the href
// and src attributes of raw HTML tags. It skips fenced code blocks,
// indented code blocks (outside lists), code spans, HTML comments and
// backslash-escaped brackets. It is a scanner, not a full parser: it
// errs on the side of finding fewer links (a fence it cannot match
// closes at the end of the file).
func scanMarkdown(src []byte) []span {
	var spans []span
	var fenceChar byte
	fenceLen := 0
	inComment := false
	paragraph := false // the previous line was paragraph text
	prevBlank := true  // the previous line was blank (or the start)
	prevCode := false  // the previous non-blank line was indented code
	listContent := -1  // content column of the open list item, or -1
	region, regionEnd := -1, -1
	htmlEnd := ""     // in an HTML block of kind 1 or 6/7: its end ("" for none, "\n" for a blank line)
	htmlSkip := false // the HTML block's content is raw text (script, style, textarea)
	flush := func() {
		if region >= 0 {
			spans = append(spans, scanMarkdownInline(src, region, regionEnd, htmlEnd != "")...)
		}
		region = -1
	}
	for _, l := range splitLines(src) {
		b := src[l.start:l.end]
		q := quotePrefix(b)
		c := b[q:]
		ind, at := indentOf(c)
		t := bytes.TrimRight(c[at:], " \t")
		if fenceChar != 0 {
			if ind < 4+max(listContent, 0) && closesFence(t, fenceChar, fenceLen) {
				fenceChar = 0
			}
			continue
		}
		if inComment {
			if bytes.Contains(b, []byte("-->")) {
				inComment = false
			}
			continue
		}
		if htmlEnd != "" {
			// Inside an HTML block (CommonMark §4.6) only HTML counts.
			if htmlEnd == "\n" && len(t) == 0 {
				flush()
				htmlEnd, paragraph, prevBlank = "", false, true
				continue
			}
			if !htmlSkip {
				if region < 0 {
					region = l.start
				}
				regionEnd = l.next
			}
			if htmlEnd != "\n" && bytes.Contains(bytes.ToLower(b), []byte(htmlEnd)) {
				flush()
				htmlEnd, htmlSkip = "", false
			}
			continue
		}
		if len(t) == 0 {
			flush()
			paragraph, prevBlank = false, true
			continue
		}
		if ch, n := opensFence(t); n > 0 {
			flush()
			fenceChar, fenceLen = ch, n
			paragraph, prevBlank, prevCode = false, false, false
			continue
		}
		codeAt := 4
		if listContent >= 0 {
			codeAt += listContent
		}
		if !paragraph && ind >= codeAt && (prevBlank || prevCode) {
			flush()
			prevCode, prevBlank = true, false
			continue
		}
		prevCode = false
		if w := listMarker(t); w > 0 {
			listContent = ind + w
		} else if prevBlank && ind < listContent {
			listContent = -1
		}
		if bytes.HasPrefix(t, []byte("<!--")) && !bytes.Contains(t[4:], []byte("-->")) {
			flush()
			inComment = true
			paragraph, prevBlank = false, false
			continue
		}
		if ind < 4 && t[0] == '<' {
			if end, skip, ok := htmlBlock(t, paragraph); ok {
				flush()
				htmlEnd, htmlSkip = end, skip
				paragraph, prevBlank = false, false
				if !skip {
					region, regionEnd = l.start, l.next
				}
				if end != "\n" && bytes.Contains(bytes.ToLower(t[1:]), []byte(end)) {
					flush()
					htmlEnd, htmlSkip = "", false
				}
				continue
			}
		}
		if !paragraph && t[0] == '[' {
			if sp, ok := refDefinition(src, l.start+q+at, l.end); ok {
				flush()
				if sp.end > sp.start {
					spans = append(spans, sp)
				}
				prevBlank = false
				continue
			}
		}
		if region < 0 {
			region = l.start
		}
		regionEnd = l.next
		paragraph, prevBlank = true, false
	}
	flush()
	return spans
}

// htmlBlockTags are the tag names that start an HTML block of kind 6
// (CommonMark §4.6).
var htmlBlockTags = wordSet(`address article aside base basefont blockquote body caption center col
	colgroup dd details dialog dir div dl dt fieldset figcaption figure footer form frame frameset
	h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link main menu menuitem nav noframes ol
	optgroup option p param search section summary table tbody td tfoot th thead title tr track ul`)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// htmlBlock reports whether the line t (without indentation) starts an
// HTML block (CommonMark §4.6, kinds 1, 6 and 7; comments are kind 2 and
// handled apart) and returns what ends it: "</script>" and the like for
// kind 1, "\n" (a blank line) for kinds 6 and 7. skip is set for script,
// style and textarea, whose content is no HTML either. Kind 7 cannot
// interrupt a paragraph.
func htmlBlock(t []byte, paragraph bool) (end string, skip, ok bool) {
	i := 1
	closing := i < len(t) && t[i] == '/'
	if closing {
		i++
	}
	j := i
	for j < len(t) && (isAlpha(t[j]) || j > i && ('0' <= t[j] && t[j] <= '9' || t[j] == '-')) {
		j++
	}
	if j == i {
		return "", false, false
	}
	name := strings.ToLower(string(t[i:j]))
	after := byte('>')
	if j < len(t) {
		after = t[j]
	}
	switch {
	case !closing && (name == "script" || name == "style" || name == "textarea" || name == "pre") &&
		(after == '>' || after == ' ' || after == '\t'):
		return "</" + name + ">", name != "pre", true
	case htmlBlockTags[name] && (after == '>' || after == ' ' || after == '\t' || (after == '/' && j+1 < len(t) && t[j+1] == '>')):
		return "\n", false, true
	case !paragraph:
		// Kind 7: a whole open or closing tag alone on its line.
		if closing {
			k := skipBlank(t, j, len(t))
			if k < len(t) && t[k] == '>' && len(bytes.TrimSpace(t[k+1:])) == 0 {
				return "\n", false, true
			}
			return "", false, false
		}
		if _, _, e, ok := lexTag(t, 0, len(t)); ok && len(bytes.TrimSpace(t[e:])) == 0 {
			return "\n", false, true
		}
	}
	return "", false, false
}

// quotePrefix returns the length of b's block quote markers ("> > ").
func quotePrefix(b []byte) int {
	n := 0
	for {
		_, at := indentOf(b[n:])
		if at > 3 || n+at >= len(b) || b[n+at] != '>' {
			return n
		}
		n += at + 1
		if n < len(b) && (b[n] == ' ' || b[n] == '\t') {
			n++
		}
	}
}

// opensFence returns the fence character and length when t (a line
// without its indentation) opens a fenced code block.
func opensFence(t []byte) (byte, int) {
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return 0, 0
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || (t[0] == '`' && bytes.IndexByte(t[n:], '`') >= 0) {
		return 0, 0
	}
	return t[0], n
}

// closesFence reports whether t closes a fence of n or more ch.
func closesFence(t []byte, ch byte, n int) bool {
	i := 0
	for i < len(t) && t[i] == ch {
		i++
	}
	return i >= n && i == len(t)
}

// listMarker returns the width of the list item marker t starts with and
// the white space after it ("- " is 2, "10. " is 4), or 0.
func listMarker(t []byte) int {
	i := 0
	switch {
	case len(t) > 0 && (t[0] == '-' || t[0] == '*' || t[0] == '+'):
		i = 1
	default:
		for i < len(t) && i < 9 && '0' <= t[i] && t[i] <= '9' {
			i++
		}
		if i == 0 || i >= len(t) || (t[i] != '.' && t[i] != ')') {
			return 0
		}
		i++
	}
	if i == len(t) {
		return i + 1
	}
	if t[i] != ' ' && t[i] != '\t' {
		return 0
	}
	j := i
	for j < len(t) && j-i < 4 && t[j] == ' ' {
		j++
	}
	if j == i {
		j++
	}
	return j
}

// refDefinition reads a link reference definition, [label]: dest
// "title", whose '[' is at src[i], on the line ending at end.
func refDefinition(src []byte, i, end int) (span, bool) {
	j := i + 1
	for ; j < end && src[j] != ']'; j++ {
		if src[j] == '\\' {
			j++
		} else if src[j] == '[' {
			return span{}, false
		}
	}
	if j >= end || j == i+1 || j+1 >= end || src[j+1] != ':' || len(bytes.TrimSpace(src[i+1:j])) == 0 {
		return span{}, false
	}
	k := skipBlank(src, j+2, end)
	sp, k, ok := destination(src, k, end)
	if !ok || sp.end == sp.start && sp.kind == mdPlain {
		return span{}, false
	}
	rest := src[k:end]
	if len(bytes.TrimSpace(rest)) > 0 {
		if len(rest) == len(bytes.TrimLeft(rest, " \t")) {
			return span{}, false // no space before the title
		}
		r := bytes.TrimSpace(rest)
		if r[0] != '"' && r[0] != '\'' && r[0] != '(' {
			return span{}, false
		}
	}
	return sp, true
}

func skipBlank(src []byte, i, end int) int {
	for i < end && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

// destination reads a link destination at src[i]: <...> or a run of
// non-space bytes with balanced parentheses. It returns the span of the
// destination's text and the offset after it.
func destination(src []byte, i, end int) (span, int, bool) {
	if i < end && src[i] == '<' {
		k := i + 1
		for k < end && src[k] != '>' {
			switch src[k] {
			case '\n', '\r', '<':
				return span{}, 0, false
			case '\\':
				k++
			}
			k++
		}
		if k >= end {
			return span{}, 0, false
		}
		return span{start: i + 1, end: k, kind: mdAngle}, k + 1, true
	}
	k, depth := i, 0
	for k < end {
		c := src[k]
		if c == '\\' && k+1 < end && isPunct(src[k+1]) {
			k += 2
			continue
		}
		if c <= ' ' || c == 0x7f {
			break
		}
		if c == '(' {
			depth++
		} else if c == ')' {
			if depth == 0 {
				break
			}
			depth--
		}
		k++
	}
	if depth != 0 || k > end {
		return span{}, 0, false
	}
	return span{start: i, end: k, kind: mdPlain}, k, true
}

// scanMarkdownInline finds the links of the paragraph text src[a:b], or
// only the links of its HTML tags when htmlOnly is set (an HTML block).
func scanMarkdownInline(src []byte, a, b int, htmlOnly bool) []span {
	var spans []span
	var open []int // offsets of unmatched '['
	for i := a; i < b; {
		c := src[i]
		if htmlOnly && c != '<' {
			i++
			continue
		}
		switch c {
		case '\\':
			i += 2
		case '`':
			n := run(src, i, b, '`')
			if end := closingRun(src, i+n, b, n); end >= 0 {
				i = end + n
			} else {
				i += n
			}
		case '<':
			if bytes.HasPrefix(src[i:b], []byte("<!--")) {
				if e := bytes.Index(src[i+4:b], []byte("-->")); e >= 0 {
					i += 4 + e + 3
					continue
				}
				i = b
				continue
			}
			if end, ok := autolink(src, i, b); ok && !htmlOnly {
				spans = append(spans, span{start: i + 1, end: end, kind: mdAutolink})
				i = end + 1
				continue
			}
			if isTagStart(src, i, b) {
				if tagSpans, end, ok := tagLinks(src, i, b); ok {
					spans = append(spans, tagSpans...)
					i = end
					continue
				}
			}
			i++
		case '[':
			open = append(open, i)
			i++
		case ']':
			i++
			if len(open) == 0 {
				continue
			}
			at := open[len(open)-1]
			open = open[:len(open)-1]
			if i < b && src[i] == '(' {
				if sp, end, ok := inlineDestination(src, i+1, b); ok {
					if sp.end > sp.start {
						spans = append(spans, sp)
					}
					i = end
					if at == a || src[at-1] != '!' {
						open = open[:0] // a link holds no link (an image may be in one)
					}
				}
			}
		default:
			i++
		}
	}
	return spans
}

// run counts the bytes c from src[i].
func run(src []byte, i, b int, c byte) int {
	n := 0
	for i+n < b && src[i+n] == c {
		n++
	}
	return n
}

// closingRun finds a run of exactly n backticks at or after i, or -1.
func closingRun(src []byte, i, b, n int) int {
	for i < b {
		j := bytes.IndexByte(src[i:b], '`')
		if j < 0 {
			return -1
		}
		i += j
		m := run(src, i, b, '`')
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

// autolink reports whether src[i:] (with src[i] == '<') is an autolink
// <scheme:...>, and where its '>' is.
func autolink(src []byte, i, b int) (int, bool) {
	j := i + 1
	for j < b && j-i-1 < 32 && (isAlpha(src[j]) || j > i+1 && ('0' <= src[j] && src[j] <= '9' || src[j] == '+' || src[j] == '.' || src[j] == '-')) {
		j++
	}
	if j-i-1 < 2 || j >= b || src[j] != ':' {
		return 0, false
	}
	for j++; j < b; j++ {
		switch c := src[j]; {
		case c == '>':
			return j, true
		case c <= ' ' || c == '<' || c == 0x7f:
			return 0, false
		}
	}
	return 0, false
}

// inlineDestination reads "dest "title")" after a link's "](" at src[i].
func inlineDestination(src []byte, i, b int) (span, int, bool) {
	j := skipSpaceNewline(src, i, b)
	if j < b && src[j] == ')' {
		return span{start: j, end: j, kind: mdPlain}, j + 1, true
	}
	sp, j, ok := destination(src, j, b)
	if !ok {
		return span{}, 0, false
	}
	k := skipSpaceNewline(src, j, b)
	if k < b && k > j && (src[k] == '"' || src[k] == '\'' || src[k] == '(') {
		closer := src[k]
		if closer == '(' {
			closer = ')'
		}
		m := k + 1
		for m < b && src[m] != closer {
			if src[m] == '\\' {
				m++
			}
			m++
		}
		if m >= b {
			return span{}, 0, false
		}
		k = skipSpaceNewline(src, m+1, b)
	}
	if k >= b || src[k] != ')' {
		return span{}, 0, false
	}
	return sp, k + 1, true
}

// skipSpaceNewline skips spaces and tabs and at most one line ending,
// with the block quote markers that start the next line.
func skipSpaceNewline(src []byte, i, b int) int {
	i = skipBlank(src, i, b)
	if i < b && src[i] == '\r' {
		i++
	}
	if i < b && src[i] == '\n' {
		i++
		i = skipBlank(src, i+quotePrefix(src[i:b]), b)
	}
	return i
}
