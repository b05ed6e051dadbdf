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
// scrubbed by the caller (redactor.snippet does both).
func snippet(body []byte) string {
	s, cut := clean(body, SnippetLen)
	if cut {
		s += "…"
	}
	return s
}

// clean returns at most most runes of body made safe to print on one line
// (see snippet), and whether there was more to print.
func clean(body []byte, most int) (string, bool) {
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
		if n+need > most {
			return b.String(), true
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
		n += need
		body = body[size:]
	}
	return b.String(), false
}

// cutRunes returns s cut at most runes, with "…" when it was cut or more
// was.
func cutRunes(s string, most int, more bool) string {
	n := 0
	for i := range s {
		if n == most {
			return s[:i] + "…"
		}
		n++
	}
	if more {
		return s + "…"
	}
	return s
}
