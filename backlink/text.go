package backlink

import (
	"bytes"
	"encoding/binary"
	"sort"
	"strings"

	"github.com/linkrot/relink/internal/words"
)

// span is a word's bounds in the rendered text, text[start:end].
type span struct{ start, end int32 }

// breakLine ends the current line, unless it is empty. A space at the end
// of the line becomes the line break.
func (w *walker) breakLine() {
	switch n := len(w.text); {
	case n == 0 || w.text[n-1] == '\n':
	case w.text[n-1] == ' ' && w.pre == 0:
		w.text[n-1] = '\n'
	default:
		w.text = append(w.text, '\n')
	}
}

// atSpace reports whether the text is empty or ends in a space or a line
// break, where white space collapses to nothing.
func (w *walker) atSpace() bool {
	n := len(w.text)
	return n == 0 || w.text[n-1] == ' ' || w.text[n-1] == '\n'
}

// addSpace appends a space unless white space would collapse there.
func (w *walker) addSpace() {
	if !w.atSpace() {
		w.text = append(w.text, ' ')
	}
}

// isSpace is the HTML standard's ASCII white space.
var isSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, '\f': true}

// spaceBit is 1 for ASCII white space, 0 for other bytes; spaceMap maps
// ASCII white space to ' ' and other bytes to themselves.
var spaceBit, spaceMap = func() (bit, m [256]byte) {
	for c := range 256 {
		m[c] = byte(c)
		if isSpace[c] {
			bit[c], m[c] = 1, ' '
		}
	}
	return bit, m
}()

// isAllSpace reports whether s is all ASCII white space.
func isAllSpace(s []byte) bool {
	for _, c := range s {
		if !isSpace[c] {
			return false
		}
	}
	return true
}

// Masks for the eight-bytes-at-a-time path of addText.
const (
	lo7  = 0x7f7f7f7f7f7f7f7f
	hi   = 0x8080808080808080
	ones = 0x0101010101010101
)

// addText appends visible text to w.text, collapsing each run of white space
// outside pre to one space, and dropping it at the start of a line; a
// no-break space counts as white space. A space at the end of the text
// stays until the next text or line break decides its fate.
func (w *walker) addText(s []byte) {
	if w.pre > 0 {
		w.addPre(s)
		return
	}
	if !w.collapse {
		w.text = append(w.text, s...)
		return
	}
	if bytes.IndexByte(s, 0xc2) >= 0 {
		w.addTextNBSP(s)
		return
	}
	// Copy, then collapse in place: a white space byte is written as ' '
	// and kept only when the byte before it was not white space.
	start := len(w.text)
	w.text = append(w.text, s...)
	buf := w.text[start:]
	var prev uint64 // 1 when the last byte kept is white space
	if w.atSpaceBefore(start) {
		prev = 1
	}
	i, o := 0, 0
	for i < len(buf) {
		// Eight bytes at a time while they need no change: no white space
		// but single spaces between other bytes (ordinary prose).
		if i+8 <= len(buf) {
			x := binary.LittleEndian.Uint64(buf[i:])
			// lt: the high bit of each byte below 0x21 (white space and
			// controls), computed without carries between bytes.
			lt := ^(((x & lo7) + (lo7 - 0x20*ones)) | x) & hi
			// sp: the high bit of each byte that is a space.
			y := x ^ (0x20 * ones)
			sp := ^(((y & lo7) + lo7) | y) & hi
			if lt == sp && sp&(sp<<8) == 0 && (sp&0x80 == 0 || prev == 0) {
				if o != i {
					binary.LittleEndian.PutUint64(buf[o:], x)
				}
				i, o = i+8, o+8
				prev = sp >> 63
				continue
			}
		}
		// Otherwise byte by byte, without branches, up to the next eight.
		for end := min(i+8, len(buf)); i < end; i++ {
			c := buf[i]
			sp := uint64(spaceBit[c])
			buf[o] = spaceMap[c]
			o += int(1 - sp&prev)
			prev = sp
		}
	}
	w.text = w.text[:start+o]
}

// atSpaceBefore reports whether the text up to offset n is empty or ends in
// a space or a line break.
func (w *walker) atSpaceBefore(n int) bool {
	return n == 0 || w.text[n-1] == ' ' || w.text[n-1] == '\n'
}

// addTextNBSP is addText for text that may hold no-break spaces.
func (w *walker) addTextNBSP(s []byte) {
	for i := 0; i < len(s); {
		space := false
		for i < len(s) {
			if c := s[i]; isSpace[c] {
				i++
			} else if c == 0xc2 && i+1 < len(s) && s[i+1] == 0xa0 {
				i += 2
			} else {
				break
			}
			space = true
		}
		if space {
			w.addSpace()
		}
		j := i
		for j < len(s) {
			if c := s[j]; isSpace[c] || c == 0xc2 && j+1 < len(s) && s[j+1] == 0xa0 {
				break
			}
			j++
		}
		w.text = append(w.text, s[i:j]...)
		i = j
	}
}

// addPre appends the text of a pre-like element as written, but for one
// newline right after the start tag, which the HTML parser drops.
func (w *walker) addPre(s []byte) {
	if w.preStart {
		w.preStart = false
		s = bytes.TrimPrefix(s, []byte("\n"))
	}
	w.text = append(w.text, s...)
}

// splitWords fills w.words with the words of w.text.
func (w *walker) splitWords() {
	w.words = w.words[:0]
	text := w.text
	for i := 0; ; {
		start, end := words.Next(text, i)
		if start == end {
			return
		}
		w.words = append(w.words, span{int32(start), int32(end)})
		i = end
	}
}

// wordRange returns the words overlapping the text bytes [start, end) as
// word indexes [first, last). An empty range, or one holding no word, gives
// first = last = the index of the first word after it.
func (w *walker) wordRange(start, end int) (first, last int) {
	ws := w.words
	if start >= end {
		i := sort.Search(len(ws), func(i int) bool { return int(ws[i].start) >= start })
		return i, i
	}
	first = sort.Search(len(ws), func(i int) bool { return int(ws[i].end) > start })
	last = first
	for last < len(ws) && int(ws[last].start) < end {
		last++
	}
	return first, last
}

// allWords returns every word of the text, as substrings of one copy of
// it. It fills w.words first, so that the result is allocated at its exact
// size.
func (w *walker) allWords() []string {
	w.splitWords()
	all := string(w.text)
	out := make([]string, len(w.words))
	for i, sp := range w.words {
		out[i] = all[sp.start:sp.end]
	}
	return out
}

// appendWords appends the words ws of text to dst as strings that share one
// allocation.
func appendWords(dst []string, text []byte, ws []span) []string {
	n := 0
	for _, s := range ws {
		n += int(s.end - s.start)
	}
	var b strings.Builder
	b.Grow(n)
	for _, s := range ws {
		b.Write(text[s.start:s.end])
	}
	all := b.String()
	if dst == nil {
		dst = make([]string, 0, len(ws))
	}
	off := 0
	for _, s := range ws {
		l := int(s.end - s.start)
		dst = append(dst, all[off:off+l])
		off += l
	}
	return dst
}

// joinWords returns the words ws of text joined by single spaces, in one
// allocation.
func joinWords(text []byte, ws []span) string {
	if len(ws) == 0 {
		return ""
	}
	n := len(ws) - 1
	for _, s := range ws {
		n += int(s.end - s.start)
	}
	var b strings.Builder
	b.Grow(n)
	for i, s := range ws {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.Write(text[s.start:s.end])
	}
	return b.String()
}
