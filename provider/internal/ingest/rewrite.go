package ingest

import (
	"bytes"
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// pageMeta is what scanPage learns about a page from its tags.
type pageMeta struct {
	// title is the text of the first <title> outside <svg>, entities
	// decoded and white space collapsed.
	title string
	// refresh is the content attribute of the first
	// <meta http-equiv="refresh">, or "".
	refresh    string
	hasRefresh bool
}

// hrefFunc maps an href; ok false keeps the href as written.
type hrefFunc func(href string) (string, bool)

// scanPage copies body token by token, learning the page's title and meta
// refresh. When rewrite is not nil it is called with the href of every <a>
// and <area> tag (the first href attribute of a tag, entities decoded) and
// the tags whose href it changes are written anew, with the new href and
// every other attribute as it was (quoted and escaped afresh); every other
// byte of body is copied as it is. With a nil rewrite the output is nil.
// A <base href> is passed to setBase before any href is rewritten, even
// when it comes after links, since it applies to the whole document.
func scanPage(body []byte, rewrite hrefFunc, setBase func(string)) ([]byte, pageMeta) {
	var meta pageMeta
	if setBase != nil && containsFold(body, "<base") {
		if href, ok := firstBase(body); ok {
			setBase(href)
		}
	}
	var out []byte
	if rewrite != nil {
		out = make([]byte, 0, len(body)+len(body)/8)
	}
	z := html.NewTokenizer(bytes.NewReader(body))
	svg, inTitle, titleDone := 0, false, false
	for {
		tt := z.Next()
		// Copy the raw bytes first: Text and TagAttr unescape in place.
		mark := len(out)
		if rewrite != nil {
			out = append(out, z.Raw()...)
		}
		switch tt {
		case html.ErrorToken:
			return out, meta
		case html.TextToken:
			if inTitle {
				meta.title = collapse(string(z.Text()))
				inTitle, titleDone = false, true
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			inTitle = false
			switch name := rawTagName(z.Raw()); {
			case isTag(name, "a"), isTag(name, "area"):
				if rewrite != nil {
					if tag, ok := rewriteTag(out[:mark], z, name, tt, rewrite); ok {
						out = tag
					}
				}
			case isTag(name, "title"):
				if svg == 0 && !titleDone && tt == html.StartTagToken {
					inTitle = true
				}
			case isTag(name, "svg"):
				if tt == html.StartTagToken {
					svg++
				}
			case isTag(name, "meta"):
				if !meta.hasRefresh {
					if content, ok := refreshOf(z); ok {
						meta.refresh, meta.hasRefresh = content, true
					}
				}
			}
		case html.EndTagToken:
			if inTitle {
				inTitle, titleDone = false, true
			}
			if isTag(rawTagName(z.Raw()), "svg") && svg > 0 {
				svg--
			}
		}
	}
}

// rawTagName returns the name of the tag whose bytes are raw ("<a href>",
// "</svg>") as written: the bytes after "<" or "</" up to white space, "/"
// or ">", where the tokenizer ends a tag name. It reads what
// html.Tokenizer.TagName returns, without the copy TagName makes of every
// tag's name (which cost a tenth of scanPage).
func rawTagName(raw []byte) []byte {
	raw = bytes.TrimPrefix(raw, []byte("<"))
	raw = bytes.TrimPrefix(raw, []byte("/"))
	for i, c := range raw {
		switch c {
		case ' ', '\n', '\r', '\t', '\f', '/', '>':
			return raw[:i]
		}
	}
	return raw
}

// isTag reports whether the tag name written as name is the lowercase
// name, ASCII letters compared without case as html.Tokenizer.TagName
// lowercases them (and no other letter: "ſvg" is not "svg").
func isTag(name []byte, lower string) bool {
	if len(name) != len(lower) {
		return false
	}
	for i, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// rewriteTag reads the attributes of the current <a> or <area> tag, whose
// name is written as name, and, if rewrite changes its href, appends the
// tag written anew to dst (its name lowercased, every attribute quoted and
// escaped as html.EscapeString does) and returns it. The attributes are
// read as byte slices, which stay valid until the tokenizer's next token.
func rewriteTag(dst []byte, z *html.Tokenizer, name []byte, tt html.TokenType, rewrite hrefFunc) ([]byte, bool) {
	var buf [16][2][]byte
	attrs := buf[:0]
	href := -1
	for more := true; more; {
		var k, v []byte
		k, v, more = z.TagAttr()
		if href < 0 && string(k) == "href" {
			href = len(attrs)
		}
		attrs = append(attrs, [2][]byte{k, v})
	}
	if href < 0 {
		return dst, false
	}
	old := string(attrs[href][1])
	newHref, ok := rewrite(old)
	if !ok || newHref == old {
		return dst, false
	}
	dst = append(dst, '<')
	for _, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	for i, a := range attrs {
		dst = append(dst, ' ')
		dst = append(dst, a[0]...)
		dst = append(dst, `="`...)
		if i == href {
			dst = appendEscaped(dst, newHref)
		} else {
			dst = appendEscaped(dst, a[1])
		}
		dst = append(dst, '"')
	}
	if tt == html.SelfClosingTagToken {
		return append(dst, "/>"...), true
	}
	return append(dst, '>'), true
}

// appendEscaped appends s to dst escaped as html.EscapeString escapes it.
func appendEscaped[S ~string | ~[]byte](dst []byte, s S) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			dst = append(dst, "&amp;"...)
		case '\'':
			dst = append(dst, "&#39;"...)
		case '<':
			dst = append(dst, "&lt;"...)
		case '>':
			dst = append(dst, "&gt;"...)
		case '"':
			dst = append(dst, "&#34;"...)
		case '\r':
			dst = append(dst, "&#13;"...)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// refreshOf returns the content of the current <meta> tag if it is
// http-equiv="refresh".
func refreshOf(z *html.Tokenizer) (string, bool) {
	var equiv bool
	var content string
	for more := true; more; {
		var k, v []byte
		k, v, more = z.TagAttr()
		switch string(k) {
		case "http-equiv":
			equiv = strings.EqualFold(strings.TrimSpace(string(v)), "refresh")
		case "content":
			content = string(v)
		}
	}
	return content, equiv
}

// firstBase returns the href of the document's first <base href>.
func firstBase(body []byte) (string, bool) {
	z := html.NewTokenizer(bytes.NewReader(body))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return "", false
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			if string(name) != "base" || !hasAttr {
				continue
			}
			for more := true; more; {
				var k, v []byte
				k, v, more = z.TagAttr()
				if string(k) == "href" {
					return string(v), true
				}
			}
		}
	}
}

// parseRefresh reads the content of a meta refresh ("0; url=next.html",
// "5,URL='x'", "3") as the HTML standard's "shared declarative refresh
// steps" do: a delay in seconds, then an optional URL. ok is false when
// there is no valid delay.
func parseRefresh(content string) (delay float64, target string, ok bool) {
	s := strings.TrimLeft(content, " \t\n\r\f")
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	if i == 0 {
		return 0, "", false
	}
	d, err := strconv.ParseFloat(strings.TrimRight(s[:i], "."), 64)
	if err != nil {
		return 0, "", false
	}
	s = strings.TrimLeft(s[i:], " \t\n\r\f")
	if s == "" {
		return d, "", true
	}
	if s[0] != ';' && s[0] != ',' {
		return d, "", true
	}
	s = strings.TrimLeft(s[1:], " \t\n\r\f")
	if len(s) >= 3 && strings.EqualFold(s[:3], "url") {
		rest := strings.TrimLeft(s[3:], " \t\n\r\f")
		if strings.HasPrefix(rest, "=") {
			s = strings.TrimLeft(rest[1:], " \t\n\r\f")
		}
	}
	if s != "" && (s[0] == '\'' || s[0] == '"') {
		q := s[0]
		s = s[1:]
		if j := strings.IndexByte(s, q); j >= 0 {
			s = s[:j]
		}
	}
	return d, strings.Trim(s, " \t\n\r\f"), true
}

// collapse trims s and collapses each run of white space to one space.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// containsFold reports whether b contains the ASCII string s, ignoring ASCII
// case; s must be lowercase and must not start with a letter.
func containsFold(b []byte, s string) bool {
	for i := 0; i+len(s) <= len(b); i++ {
		k := bytes.IndexByte(b[i:], s[0])
		if k < 0 {
			return false
		}
		if i += k; i+len(s) > len(b) {
			return false
		}
		j := 0
		for j < len(s) {
			c := b[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != s[j] {
				break
			}
			j++
		}
		if j == len(s) {
			return true
		}
	}
	return false
}
