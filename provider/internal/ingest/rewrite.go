package ingest

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/html"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/internal/walkhook"
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

// readPage reads an HTML page whose bytes are data, served with
// contentType at address: as scanPage, it learns the page's title and
// meta refresh and, when rewrite is not nil, rewrites the hrefs of its <a>
// and <area> tags (setBase, when not nil, learning the page's <base href>
// first); and it parses the page so rewritten (backlink.Parse) into doc.
// body is the page to store (data itself when rewrite is nil) and text the
// bytes doc was read from (body decoded as backlink.Decode does).
//
// Both are done in one reading of the page when it can be
// (walkhook.Parse), which gives what two readings give: backlink's walker
// is shown each tag as rewritten, and the page must need no decoding,
// before and after the rewriting (a <meta charset> could move in or out of
// the bytes Decode searches). Otherwise, the page is read twice.
func readPage(data []byte, address, contentType string, rewrite hrefFunc, setBase func(string)) (body, text []byte, meta pageMeta, doc *backlink.Document, err error) {
	if setBase != nil && containsFold(data, "<base") {
		if href, ok := firstBase(data); ok {
			setBase(href)
		}
	}
	body, meta, doc, ok, err := readOnce(data, address, contentType, rewrite)
	if ok || err != nil {
		return body, body, meta, doc, err
	}
	return readTwice(data, address, contentType, rewrite)
}

// readOnce is readPage in one reading; ok is false when the page cannot
// be read so.
func readOnce(data []byte, address, contentType string, rewrite hrefFunc) (body []byte, meta pageMeta, doc *backlink.Document, ok bool, err error) {
	s := newPageScan(data, rewrite)
	if bytes.HasPrefix(data, []byte(utf8BOM)) && rewrite != nil {
		s.out = append(s.out, utf8BOM...) // the walker does not show it
	}
	d, ok, err := walkhook.Parse(data, address, s)
	if err != nil || !ok {
		return nil, pageMeta{}, nil, false, err
	}
	body = data
	if rewrite != nil {
		body = s.out
	}
	if !decodesAsIs(body, contentType) || !decodesAsIs(body, "") {
		return nil, pageMeta{}, nil, false, nil
	}
	return body, s.meta, d.(*backlink.Document), true, nil
}

// readTwice is readPage in two readings: one rewrites the page, the other
// parses what the first wrote.
func readTwice(data []byte, address, contentType string, rewrite hrefFunc) (body, text []byte, meta pageMeta, doc *backlink.Document, err error) {
	body, meta = scanPage(data, rewrite)
	if rewrite == nil {
		body = data
	}
	if text, _, err = backlink.Decode(body, contentType); err != nil {
		return nil, nil, pageMeta{}, nil, err
	}
	doc, err = backlink.Parse(text, address)
	return body, text, meta, doc, err
}

// utf8BOM is the UTF-8 encoding of U+FEFF, the byte order mark.
const utf8BOM = "\xef\xbb\xbf"

// decodesAsIs reports whether backlink.Decode returns b as it is.
func decodesAsIs(b []byte, contentType string) bool {
	d, _, err := backlink.Decode(b, contentType)
	return err == nil && len(d) == len(b) && (len(b) == 0 || &d[0] == &b[0])
}

// scanPage copies body token by token, learning the page's title and meta
// refresh. When rewrite is not nil it is called with the href of every <a>
// and <area> tag (the first href attribute of a tag, entities decoded) and
// the tags whose href it changes are written anew, with the new href and
// every other attribute as it was (quoted and escaped afresh); every other
// byte of body is copied as it is. With a nil rewrite the output is nil.
func scanPage(body []byte, rewrite hrefFunc) ([]byte, pageMeta) {
	s := newPageScan(body, rewrite)
	z := html.NewTokenizer(bytes.NewReader(body))
	var t walkhook.Current
	for {
		tt := z.Next()
		t.Next(z)
		s.Token(tt, &t)
		if tt == html.ErrorToken {
			return s.out, s.meta
		}
	}
}

// pageScan is scanPage's work on the tokens of a page, shown them by
// scanPage or by backlink's walker (readPage).
type pageScan struct {
	rewrite            hrefFunc
	out                []byte
	meta               pageMeta
	svg                int
	inTitle, titleDone bool
}

// newPageScan returns the scan of body.
func newPageScan(body []byte, rewrite hrefFunc) *pageScan {
	s := &pageScan{rewrite: rewrite}
	if rewrite != nil {
		select {
		case s.out = <-scanBufs:
		default:
		}
		s.out = slices.Grow(s.out[:0], len(body)+len(body)/8)
	}
	return s
}

// scanBufs holds idle buffers for rewritten pages, which a page needs only
// until its body is compressed (releaseScan): they are the largest thing
// an ingest allocates a page.
var scanBufs = make(chan []byte, 16)

// releaseScan gives back the buffer of a page rewritten by readPage, once
// it is no longer used; buffers beyond 1 MiB are left to the collector.
func releaseScan(b []byte) {
	if cap(b) > 1<<20 {
		return
	}
	select {
	case scanBufs <- b[:0]:
	default:
	}
}

// Token reads a token (walkhook.Hook); a rewritten <a> or <area> tag
// returns its new href.
func (s *pageScan) Token(tt html.TokenType, t walkhook.Token) (string, bool) {
	// Copy the raw bytes first: Text unescapes in place.
	mark := len(s.out)
	if s.rewrite != nil {
		s.out = append(s.out, t.Raw()...)
	}
	switch tt {
	case html.TextToken:
		if s.inTitle {
			s.meta.title = collapse(string(t.Text()))
			s.inTitle, s.titleDone = false, true
		}
	case html.StartTagToken, html.SelfClosingTagToken:
		s.inTitle = false
		switch name := rawTagName(t.Raw()); {
		case isTag(name, "a"), isTag(name, "area"):
			if s.rewrite != nil {
				if tag, href, ok := rewriteTag(s.out[:mark], t.Attrs(), name, tt, s.rewrite); ok {
					s.out = tag
					return href, true
				}
			}
		case isTag(name, "title"):
			if s.svg == 0 && !s.titleDone && tt == html.StartTagToken {
				s.inTitle = true
			}
		case isTag(name, "svg"):
			if tt == html.StartTagToken {
				s.svg++
			}
		case isTag(name, "meta"):
			if !s.meta.hasRefresh {
				if content, ok := refreshOf(t.Attrs()); ok {
					s.meta.refresh, s.meta.hasRefresh = content, true
				}
			}
		}
	case html.EndTagToken:
		if s.inTitle {
			s.inTitle, s.titleDone = false, true
		}
		if isTag(rawTagName(t.Raw()), "svg") && s.svg > 0 {
			s.svg--
		}
	}
	return "", false
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

// rewriteTag rewrites the current <a> or <area> tag, whose name is
// written as name and whose attributes are attrs: if rewrite changes its
// href, it appends the tag written anew to dst (its name lowercased, every
// attribute quoted and escaped as html.EscapeString does) and returns it
// with the new href.
func rewriteTag(dst []byte, attrs []walkhook.Attr, name []byte, tt html.TokenType, rewrite hrefFunc) ([]byte, string, bool) {
	href := -1
	for i, a := range attrs {
		if string(a.Key) == "href" {
			href = i
			break
		}
	}
	if href < 0 {
		return dst, "", false
	}
	old := string(attrs[href].Val)
	newHref, ok := rewrite(old)
	if !ok || newHref == old {
		return dst, "", false
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
		dst = append(dst, a.Key...)
		dst = append(dst, `="`...)
		if i == href {
			dst = appendEscaped(dst, newHref)
		} else {
			dst = appendEscaped(dst, a.Val)
		}
		dst = append(dst, '"')
	}
	if tt == html.SelfClosingTagToken {
		return append(dst, "/>"...), newHref, true
	}
	return append(dst, '>'), newHref, true
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

// refreshOf returns the content of a <meta> tag whose attributes are
// attrs if it is http-equiv="refresh".
func refreshOf(attrs []walkhook.Attr) (string, bool) {
	var equiv bool
	var content string
	for _, a := range attrs {
		switch string(a.Key) {
		case "http-equiv":
			equiv = strings.EqualFold(strings.TrimSpace(string(a.Val)), "refresh")
		case "content":
			content = string(a.Val)
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
