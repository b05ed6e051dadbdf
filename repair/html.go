package repair

import (
	"bytes"
	"html"
	"io"
	"strings"

	xhtml "golang.org/x/net/html"
)

// linkAttrs are the attributes whose values the Rewriter treats as link
// targets, on any element.
var linkAttrs = map[string]bool{"href": true, "src": true}

// attr is one attribute of a start tag: its value is src[vs:ve].
type attr struct {
	name   string // lowercased
	vs, ve int
	quote  byte // '"', '\'' or 0 for an unquoted value
	value  bool // has a value
}

// isTagStart reports whether src[i:] (src[i] == '<') starts a start tag:
// '<', a letter, then a tag name ended by white space, '/' or '>'.
func isTagStart(src []byte, i, b int) bool {
	j := i + 1
	if j >= b || !isAlpha(src[j]) {
		return false
	}
	for j < b && (isAlpha(src[j]) || '0' <= src[j] && src[j] <= '9' || src[j] == '-') {
		j++
	}
	return j < b && (isHTMLSpace(src[j]) || src[j] == '/' || src[j] == '>')
}

func isHTMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// lexTag reads the start tag at src[i] (src[i] == '<') up to its '>', as
// the HTML tokenizer's states from "tag name" to "after attribute value"
// do (WHATWG HTML §13.2.5.8–39), and returns its name, attributes and the
// offset after the '>'. ok is false when no '>' ends the tag before b.
func lexTag(src []byte, i, b int) (name string, attrs []attr, end int, ok bool) {
	j := i + 1
	for j < b && !isHTMLSpace(src[j]) && src[j] != '/' && src[j] != '>' {
		j++
	}
	name = strings.ToLower(string(src[i+1 : j]))
	for j < b {
		for j < b && (isHTMLSpace(src[j]) || src[j] == '/') {
			j++
		}
		if j >= b {
			break
		}
		if src[j] == '>' {
			return name, attrs, j + 1, true
		}
		ns := j
		j++ // a first '=' is part of the name
		for j < b && !isHTMLSpace(src[j]) && src[j] != '/' && src[j] != '>' && src[j] != '=' {
			j++
		}
		a := attr{name: strings.ToLower(string(src[ns:j]))}
		k := j
		for k < b && isHTMLSpace(src[k]) {
			k++
		}
		if k >= b || src[k] != '=' {
			attrs = append(attrs, a)
			continue
		}
		k++
		for k < b && isHTMLSpace(src[k]) {
			k++
		}
		if k >= b {
			break
		}
		a.value = true
		switch q := src[k]; q {
		case '"', '\'':
			e := bytes.IndexByte(src[k+1:b], q)
			if e < 0 {
				return name, nil, 0, false
			}
			a.vs, a.ve, a.quote = k+1, k+1+e, q
			j = k + 1 + e + 1
		case '>':
			a.vs, a.ve = k, k
			j = k
		default:
			e := k
			for e < b && !isHTMLSpace(src[e]) && src[e] != '>' {
				e++
			}
			a.vs, a.ve = k, e
			j = e
		}
		attrs = append(attrs, a)
	}
	return name, nil, 0, false
}

// tagLinks returns the link targets of the start tag at src[i] and the
// offset after it.
func tagLinks(src []byte, i, b int) ([]span, int, bool) {
	name, attrs, end, ok := lexTag(src, i, b)
	if !ok {
		return nil, 0, false
	}
	return attrSpans(name, attrs, ""), end, true
}

// attrSpans turns a tag's link attributes into spans. A <base> element's
// href is the document's base, not a link, and is left alone.
func attrSpans(name string, attrs []attr, base string) []span {
	if name == "base" {
		return nil
	}
	var spans []span
	for _, a := range attrs {
		if !linkAttrs[a.name] || !a.value || a.ve == a.vs {
			continue
		}
		k := htmlBare
		if a.quote != 0 {
			k = htmlQuoted
		}
		spans = append(spans, span{start: a.vs, end: a.ve, kind: k, quote: a.quote, base: base})
	}
	return spans
}

// scanHTML finds the href and src attribute values of every start tag of
// an HTML document, in the document's order, with the first <base href>
// as the base of them all (WHATWG HTML §4.2.3: the first base element
// with an href sets the document base URL). golang.org/x/net/html's tokenizer
// tells tags from comments, doctypes, CDATA and the raw text of script,
// style, textarea and title; the offsets of each tag's attributes are
// read from the tag's own bytes. A document the tokenizer reads into
// tokens that do not add up to its bytes yields no spans.
func scanHTML(src []byte) []span {
	z := xhtml.NewTokenizer(bytes.NewReader(src))
	var spans []span
	base := ""
	off := 0
	for {
		tt := z.Next()
		if tt == xhtml.ErrorToken {
			if z.Err() != io.EOF || off != len(src) {
				return nil
			}
			for i := range spans {
				spans[i].base = base // the first <base href> is the whole document's
			}
			return spans
		}
		raw := z.Raw()
		if off+len(raw) > len(src) || !bytes.Equal(src[off:off+len(raw)], raw) {
			return nil
		}
		if tt == xhtml.StartTagToken || tt == xhtml.SelfClosingTagToken {
			name, attrs, end, ok := lexTag(src, off, off+len(raw))
			if ok && end == off+len(raw) {
				if name == "base" && base == "" {
					for _, a := range attrs {
						if a.name == "href" && a.value {
							base = html.UnescapeString(string(src[a.vs:a.ve]))
							break
						}
					}
				}
				spans = append(spans, attrSpans(name, attrs, "")...)
			}
		}
		off += len(raw)
	}
}
