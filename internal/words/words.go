// Package words holds the one rule by which relink splits visible text into
// words, shared by the HTML renderer (package backlink), the filters (package
// filter) and the term counter (package lexsig), so that the words a page
// shows, the words the filters count and the terms a signature is made of
// always agree.
//
// A word is a maximal run of letters, digits and combining marks (Unicode
// categories L, N and M). Everything else separates words, including
// apostrophes, hyphens, dots and underscores, which is how full-text engines
// such as SQLite's FTS5 unicode61 tokenizer split text: a signature term is then
// always a term the engine indexed.
package words

import (
	"unicode"
	"unicode/utf8"
)

// isWordByte reports, for an ASCII byte, whether it belongs to a word.
var isWordByte = func() (t [utf8.RuneSelf]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	return t
}()

// IsWordRune reports whether r belongs to a word.
func IsWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return isWordByte[r]
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r) || unicode.IsMark(r)
}

// Text is the byte sequences words can be read from.
type Text interface{ ~string | ~[]byte }

// decode decodes the rune at the start of s.
func decode[T Text](s T) (rune, int) {
	switch v := any(s).(type) {
	case string:
		return utf8.DecodeRuneInString(v)
	case []byte:
		return utf8.DecodeRune(v)
	}
	return utf8.DecodeRuneInString(string(s))
}

// Next returns the bounds of the first word in s at or after byte offset i,
// as s[start:end]. When no word remains it returns start = end = len(s).
// Invalid UTF-8 bytes separate words.
func Next[T Text](s T, i int) (start, end int) {
	n := len(s)
	for i < n {
		c := s[i]
		if c < utf8.RuneSelf {
			if isWordByte[c] {
				break
			}
			i++
			continue
		}
		r, size := decode(s[i:])
		if r != utf8.RuneError && IsWordRune(r) {
			break
		}
		i += size
	}
	start = i
	for i < n {
		c := s[i]
		if c < utf8.RuneSelf {
			if !isWordByte[c] {
				break
			}
			i++
			continue
		}
		r, size := decode(s[i:])
		if r == utf8.RuneError || !IsWordRune(r) {
			break
		}
		i += size
	}
	return start, i
}

// Append appends the words of s to dst and returns the extended slice.
func Append(dst []string, s string) []string {
	for i := 0; ; {
		start, end := Next(s, i)
		if start == end {
			return dst
		}
		dst = append(dst, s[start:end])
		i = end
	}
}

// Split returns the words of s.
func Split(s string) []string {
	return Append(nil, s)
}
