package backlink

import (
	"bytes"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/linkrot/relink/internal/walkhook"
)

func init() { walkhook.Parse = parseHooked }

// parseHooked is Parse with a hook shown every token (walkhook.Parse).
func parseHooked(page []byte, pageURI string, h walkhook.Hook) (any, bool, error) {
	u, err := parseURI("page", pageURI)
	if err != nil {
		return nil, false, err
	}
	b, _, err := Decode(page, "")
	if err != nil {
		return nil, false, err
	}
	if !sameBytes(b, page) || len(b) > MaxPageSize {
		return nil, false, nil
	}
	w := getWalker()
	defer putWalker(w)
	if !w.walkHooked(b, h) {
		return nil, false, nil
	}
	return w.document(u), true, nil
}

// sameBytes reports whether a and b are the same bytes in memory, as
// Decode returns a body it leaves as it is.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// walkHooked is walk with keepAll and h shown every token first, as a
// plain tokenizer gives them: inside an svg, whose title, style and script
// walk reads as markup, the tokenizer reads them as raw text, which is the
// same when the text holds no "<" (the end tag is then the first "<" both
// ways). walkHooked reports false, having stopped, when it does.
func (w *walker) walkHooked(body []byte, h walkhook.Hook) bool {
	w.reset(keepAll, "")
	w.hook = h
	body = bytes.TrimPrefix(body, []byte(utf8BOM))
	w.reader.Reset(body)
	z := html.NewTokenizer(&w.reader)
	for {
		tt := z.Next()
		w.tok.next(z)
		if w.rawCheck {
			w.rawCheck = false
			if tt == html.TextToken && bytes.IndexByte(z.Raw(), '<') >= 0 {
				w.diverged = true
				return false
			}
		}
		switch tt {
		case html.ErrorToken:
			h.Token(tt, &w.tok)
			w.finish()
			return true
		case html.TextToken:
			// Before the hook, which may decode the text in place.
			shows := w.textShows(z.Raw())
			h.Token(tt, &w.tok)
			if shows {
				w.addText(w.tok.Text())
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			w.tok.href, w.tok.hrefSet = h.Token(tt, &w.tok)
			w.rawSkip = false
			w.startTag(z, tt == html.SelfClosingTagToken)
		case html.EndTagToken:
			h.Token(tt, &w.tok)
			w.rawSkip = false
			w.endTag(z)
		default:
			h.Token(tt, &w.tok)
			w.rawSkip = false
		}
	}
}

// rawText reports whether a start tag of a makes the tokenizer read raw
// text next (html.Tokenizer's readStartTag).
func rawText(a atom.Atom) bool {
	switch a {
	case atom.Iframe, atom.Noembed, atom.Noframes, atom.Noscript, atom.Plaintext,
		atom.Script, atom.Style, atom.Textarea, atom.Title, atom.Xmp:
		return true
	}
	return false
}

// readAttrs reads the attributes of the current start tag, whose bytes
// after its name are rest, into at: those the hook read, when it read
// them, with the href it gave in place of the tag's.
func (w *walker) readAttrs(z *html.Tokenizer, rest []byte, at *attrs) {
	if w.hook == nil {
		readAttrs(z, rest, at)
		return
	}
	if w.tok.AttrsRead() {
		seen := 0
		for _, a := range w.tok.Attrs() {
			if bit := attrBit(a.Key); bit != 0 && seen&bit == 0 {
				seen |= bit
				at.set(bit, a.Val)
			}
		}
	} else {
		readAttrs(z, rest, at)
	}
	if w.tok.hrefSet {
		// As the tokenizer would read the href written in the tag.
		href := []byte(w.tok.href)
		if bytes.IndexByte(href, 0) >= 0 {
			href = bytes.ReplaceAll(href, []byte{0}, []byte(string(utf8.RuneError)))
		}
		at.href, at.hasHref = href, true
	}
}

// hookToken is the walker's current token as a hook sees it: its text and
// attributes are read from the tokenizer once, for the hook and the walker
// both.
type hookToken struct {
	walkhook.Current
	// href, when hrefSet, is the href the hook gave for the tag.
	href    string
	hrefSet bool
}

// next makes the token the one z has just read; a nil z drops every
// reference the token holds, for the pool.
func (t *hookToken) next(z *html.Tokenizer) {
	t.Current.Next(z)
	t.href, t.hrefSet = "", false
}
