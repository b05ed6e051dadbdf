package backlink

import (
	"bytes"
	"mime"
	"strings"
	"unicode/utf8"

	"github.com/saintfish/chardet"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// utf8BOM is the UTF-8 encoding of U+FEFF, the byte order mark.
const utf8BOM = "\xef\xbb\xbf"

// prescanLen is how many leading bytes are searched for a <meta> charset
// declaration, as in the HTML standard's prescan (§13.2.3.2).
const prescanLen = 1024

// detectLen bounds the sample handed to the charset detector, which is slow
// and gains nothing from a whole multi-megabyte page.
const detectLen = 64 << 10

// Decode returns body converted to UTF-8 and the name of the charset it was
// read as ("utf-8", "windows-1252", "shift_jis", ..., the WHATWG names).
// contentType is the HTTP Content-Type header value, or "" when unknown.
//
// The charset is found as a browser finds it (the HTML standard, "determining
// the character encoding"): a byte order mark first, then the charset
// parameter of contentType, then a <meta charset> or <meta http-equiv> in the
// first 1024 bytes. (The shared design lists the header before the BOM; the
// standard, x/net/html/charset and browsers let the BOM win, and so does
// Decode.) When the declaration says UTF-8, or nothing is declared, but the
// bytes are not valid UTF-8, the charset is detected from the bytes
// (github.com/saintfish/chardet); when detection fails the page is read as
// windows-1252, the standard's default, and when it answers UTF-8 the invalid
// bytes become U+FFFD.
//
// Valid UTF-8 that is declared as UTF-8 or not declared at all is returned
// as is: no conversion, no copy. Converted output starts with a UTF-8 byte
// order mark, so that decoding it again (for instance by Extract, which sees
// no Content-Type) leaves it alone even when its <meta> names the original
// charset. The result is always valid UTF-8 apart from that mark, whatever
// the input bytes. The error is always nil today; it is there for decoders
// that can fail.
func Decode(body []byte, contentType string) ([]byte, string, error) {
	// A byte order mark is certain.
	switch {
	case bytes.HasPrefix(body, []byte(utf8BOM)):
		return asUTF8(body)
	case bytes.HasPrefix(body, []byte{0xfe, 0xff}):
		return convert(body[2:], unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "utf-16be")
	case bytes.HasPrefix(body, []byte{0xff, 0xfe}):
		return convert(body[2:], unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "utf-16le")
	}
	if e, name := headerCharset(contentType); e != nil {
		return decodeAs(body, e, name)
	}
	if e, name := metaCharset(body); e != nil {
		// The standard reads a UTF-16 label in a <meta> as UTF-8: a page
		// whose bytes could be read to find the tag is not UTF-16.
		if strings.HasPrefix(name, "utf-16") {
			return asUTF8(body)
		}
		return decodeAs(body, e, name)
	}
	return asUTF8(body)
}

// decodeAs reads body in the declared encoding e named name.
func decodeAs(body []byte, e encoding.Encoding, name string) ([]byte, string, error) {
	if name == "utf-8" {
		return asUTF8(body)
	}
	return convert(body, e, name)
}

// asUTF8 returns body when it is valid UTF-8 and otherwise detects its
// charset and converts it.
func asUTF8(body []byte) ([]byte, string, error) {
	if utf8.Valid(body) {
		return body, "utf-8", nil
	}
	e, name := detect(body)
	if name == "utf-8" {
		// Mostly UTF-8 with stray bytes: keep the text, mark the damage.
		out := append([]byte(utf8BOM), bytes.ToValidUTF8(bytes.TrimPrefix(body, []byte(utf8BOM)), []byte("\uFFFD"))...)
		return out, name, nil
	}
	return convert(body, e, name)
}

// convert decodes body with e into UTF-8 behind a byte order mark.
func convert(body []byte, e encoding.Encoding, name string) ([]byte, string, error) {
	out := make([]byte, 0, len(body)+len(body)/2+len(utf8BOM))
	out = append(out, utf8BOM...)
	out, _, err := transform.Append(e.NewDecoder(), out, body)
	if err != nil {
		// The WHATWG decoders replace what they cannot read with U+FFFD and
		// do not fail; a failure here is a bug in a decoder. Read the bytes
		// as windows-1252, which maps every byte, rather than lose the page.
		out, _, _ = transform.Append(charmap.Windows1252.NewDecoder(), out[:len(utf8BOM)], body)
		name = "windows-1252"
	}
	if !utf8.Valid(out) {
		out = bytes.ToValidUTF8(out, []byte("\uFFFD"))
	}
	return out, name, nil
}

// headerCharset returns the encoding named by the charset parameter of a
// Content-Type header value, or nil.
func headerCharset(contentType string) (encoding.Encoding, string) {
	if contentType == "" {
		return nil, ""
	}
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return nil, ""
	}
	label, ok := params["charset"]
	if !ok {
		return nil, ""
	}
	return lookup(label)
}

// lookup returns the encoding for a WHATWG label and its canonical name, or
// nil. The "x-user-defined" label is read as windows-1252, as browsers do
// for pages.
func lookup(label string) (encoding.Encoding, string) {
	e, name := charset.Lookup(label)
	if e == nil {
		return nil, ""
	}
	if name == "x-user-defined" {
		return charmap.Windows1252, "windows-1252"
	}
	return e, name
}

// metaCharset looks for a charset declaration in a <meta> element among the
// first prescanLen bytes of body and returns its encoding, or nil.
func metaCharset(body []byte) (encoding.Encoding, string) {
	head := body[:min(len(body), prescanLen)]
	if !containsFold(head, "<meta") {
		return nil, ""
	}
	z := html.NewTokenizer(bytes.NewReader(head))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return nil, ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			if string(name) != "meta" || !hasAttr {
				continue
			}
			if e, label := metaElementCharset(z); e != nil {
				return e, label
			}
		}
	}
}

// metaElementCharset reads the attributes of the current <meta> start tag
// and returns the encoding it declares, following the standard's prescan: a
// charset attribute, or http-equiv="content-type" with a content attribute
// holding "charset=".
func metaElementCharset(z *html.Tokenizer) (encoding.Encoding, string) {
	var pragma bool
	var fromCharset, fromContent string
	seen := map[string]bool{}
	for more := true; more; {
		var key, val []byte
		key, val, more = z.TagAttr()
		if seen[string(key)] {
			continue // the first of repeated attributes counts
		}
		seen[string(key)] = true
		switch string(key) {
		case "charset":
			fromCharset = string(val)
		case "http-equiv":
			pragma = strings.EqualFold(strings.TrimSpace(string(val)), "content-type")
		case "content":
			fromContent = contentCharset(string(val))
		}
	}
	if fromCharset != "" {
		return lookup(fromCharset)
	}
	if pragma && fromContent != "" {
		return lookup(fromContent)
	}
	return nil, ""
}

// contentCharset extracts the charset label from the content attribute of
// an http-equiv <meta>, such as "text/html; charset=iso-8859-1".
func contentCharset(s string) string {
	for {
		i := indexFold(s, "charset")
		if i < 0 {
			return ""
		}
		s = strings.TrimLeft(s[i+len("charset"):], " \t\n\f\r")
		if !strings.HasPrefix(s, "=") {
			continue
		}
		s = strings.TrimLeft(s[1:], " \t\n\f\r")
		if s == "" {
			return ""
		}
		if q := s[0]; q == '"' || q == '\'' {
			end := strings.IndexByte(s[1:], q)
			if end < 0 {
				return ""
			}
			return s[1 : 1+end]
		}
		if end := strings.IndexAny(s, "; \t\n\f\r"); end >= 0 {
			return s[:end]
		}
		return s
	}
}

// detect guesses the charset of body, which is not valid UTF-8, and returns
// its encoding and WHATWG name; windows-1252 when the guess is unusable.
func detect(body []byte) (encoding.Encoding, string) {
	sample := body
	if len(sample) > detectLen {
		// Centre the sample on the first invalid byte: that is where the
		// evidence is, and the bytes before it may all be ASCII.
		bad := firstInvalid(body)
		start := max(0, min(bad-detectLen/2, len(body)-detectLen))
		sample = body[start : start+detectLen]
	}
	// DetectBest is not deterministic: the detector runs its recognizers
	// concurrently and leaves ties in the order they finish. Break ties by
	// name, so that a page always decodes the same way.
	all, err := chardet.NewHtmlDetector().DetectAll(sample)
	if err != nil || len(all) == 0 {
		return charmap.Windows1252, "windows-1252"
	}
	best := all[0]
	for _, r := range all[1:] {
		if r.Confidence > best.Confidence || r.Confidence == best.Confidence && r.Charset < best.Charset {
			best = r
		}
	}
	label := best.Charset
	if strings.EqualFold(label, "utf-8") {
		return nil, "utf-8"
	}
	e, name := lookup(label)
	if e == nil {
		// chardet says "GB-18030" where WHATWG says "gb18030".
		e, name = lookup(strings.ReplaceAll(label, "-", ""))
	}
	if e == nil || name == "utf-8" || name == "replacement" {
		return charmap.Windows1252, "windows-1252"
	}
	return e, name
}

// firstInvalid returns the offset of the first byte of b that does not start
// a valid UTF-8 sequence, or len(b).
func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(b)
}

// containsFold reports whether b contains the lowercase ASCII string s,
// ignoring ASCII case.
func containsFold(b []byte, s string) bool {
	for i := 0; i+len(s) <= len(b); i++ {
		j := bytes.IndexByte(b[i:], s[0])
		if j < 0 {
			break
		}
		i += j
		if i+len(s) <= len(b) && equalFoldASCII(b[i:i+len(s)], s) {
			return true
		}
	}
	return false
}

// indexFold returns the index of the lowercase ASCII string sub in s,
// ignoring ASCII case, or -1.
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// equalFoldASCII reports whether b equals the lowercase ASCII string s,
// ignoring ASCII case.
func equalFoldASCII(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}
