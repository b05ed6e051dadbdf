package backlink

import "strings"

// Render returns the text a person sees on the HTML page body, as
// `lynx -nolist -force_html -dump` shows it (the paper, §3.1 "Rendering"):
// one line per block (p, div, li, h1-h6, tr, br, pre, table, dd, dt,
// section and the like), table cells on one line separated by a space, and
// elsewhere every run of white space (including no-break spaces) collapsed
// to one space. Lines carry no leading or trailing spaces and there are no
// blank lines, except inside pre, whose text is kept as written. Every line
// ends in "\n"; a page with no visible text renders as "".
//
// The contents of script, style, noscript, template, head (the title
// included: lynx -dump does not print it), svg, iframe, object, noembed and
// noframes are not shown; the alt text of images and the labels of
// submit, reset and button inputs are. contentType is the HTTP Content-Type
// header value, or "": Render decodes body as Decode does. Malformed HTML is
// read as a browser would read it, as far as a streaming reader can: unclosed
// elements end with their parent, stray end tags are ignored. The error is
// always nil today.
func Render(body []byte, contentType string) (string, error) {
	b, _, err := Decode(body, contentType)
	if err != nil {
		return "", err
	}
	w := getWalker()
	defer putWalker(w)
	w.collapse = true
	w.walk(b, keepNone, "")
	if len(w.text) == 0 {
		return "", nil
	}
	var sb strings.Builder
	sb.Grow(len(w.text) + 1)
	sb.Write(w.text)
	if w.text[len(w.text)-1] != '\n' {
		sb.WriteByte('\n')
	}
	return sb.String(), nil
}

// Words returns the words a person sees on the HTML page body, in order and
// with their case kept: the words of Render's text, split by the one word
// rule of internal/words (runs of letters, digits and marks). contentType is
// as for Render. A page with no visible words returns an empty slice.
func Words(body []byte, contentType string) ([]string, error) {
	b, _, err := Decode(body, contentType)
	if err != nil {
		return nil, err
	}
	w := getWalker()
	defer putWalker(w)
	w.walk(b, keepNone, "")
	return w.allWords(), nil
}

// MaxPageSize is how many bytes of a page, after decoding to UTF-8, are
// read; the rest of a larger page is ignored. The paper's largest page was
// 129.8 MB (§3.1 "File size").
const MaxPageSize = 1 << 30
