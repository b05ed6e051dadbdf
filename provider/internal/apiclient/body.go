package apiclient

import (
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SnippetLen is the most runes of a body an error quotes.
const SnippetLen = 160

// readBody reads at most max bytes of r. truncated reports that there was
// more; the extra bytes are not read.
func readBody(r io.Reader, max int64) (body []byte, truncated bool, err error) {
	body, err = io.ReadAll(io.LimitReader(r, max+1))
	if int64(len(body)) > max {
		return body[:max], true, err
	}
	return body, false, err
}

// snippet returns the start of body made safe to print on one line: invalid
// UTF-8 and control characters become U+FFFD or a space, runs of white space
// one space, and it is cut at SnippetLen runes with "…". Secrets are
// scrubbed by the caller.
func snippet(body []byte) string {
	var b strings.Builder
	n := 0
	space := false
	for len(body) > 0 {
		r, size := utf8.DecodeRune(body)
		switch {
		case r == utf8.RuneError && size <= 1:
			r = utf8.RuneError
		case unicode.IsSpace(r):
			space = b.Len() > 0
			body = body[size:]
			continue
		case !unicode.IsPrint(r):
			r = utf8.RuneError
		}
		need := 1
		if space {
			need++
		}
		if n+need > SnippetLen {
			b.WriteString("…")
			break
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
		n += need
		body = body[size:]
	}
	return b.String()
}
