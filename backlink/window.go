package backlink

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/linkrot/relink/internal/words"
)

// isASCIISep marks the ASCII bytes that are not word bytes under the word
// rule: no word holds one, so a word sequence can be picked up right after
// one of them.
var isASCIISep = func() (t [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		t[c] = !words.IsWordRune(rune(c))
	}
	return t
}()

// window appends to dst the words Extract draws around the link l for
// radius r >= 0: the words wordRange(l.start, l.end) gives and r words on
// each side, exactly as the page's whole word sequence would give them, but
// splitting only the text near the link. It starts splitting right after an
// ASCII separator some way before the link, where the page's word sequence
// must also have a boundary, and steps further back while that leaves fewer
// than r words before the link. Every byte it looks at is taken from
// *budget; when the budget runs out (text with few ASCII separators or few
// words, where local splitting could cost more than splitting the page) it
// returns ok false and the caller splits the whole page instead.
func (w *walker) window(dst []span, l *rawLink, r int, budget *int) (_ []span, ok bool) {
	text := w.text
	for chunks := r + 2; ; chunks *= 2 {
		q := boundaryBefore(text, l.start, chunks)
		local := w.local[:0]
		after := 0
		i := q
		for after < r || len(local) == 0 || int(local[len(local)-1].start) < l.end {
			start, end := words.Next(text, i)
			if start == end {
				i = len(text)
				break
			}
			local = append(local, span{int32(start), int32(end)})
			if start >= l.end {
				after++
			}
			i = end
		}
		w.local = local
		if *budget -= 2*(l.start-q) + (i - l.start); *budget < 0 {
			return dst, false
		}
		var first, last int
		if l.start >= l.end {
			first = sort.Search(len(local), func(i int) bool { return int(local[i].start) >= l.start })
			last = first
		} else {
			first = sort.Search(len(local), func(i int) bool { return int(local[i].end) > l.start })
			last = first
			for last < len(local) && int(local[last].start) < l.end {
				last++
			}
		}
		if first < r && q > 0 {
			continue // too few words before the link: step further back
		}
		return append(dst, local[max(0, first-r):min(len(local), last+r)]...), true
	}
}

// boundaryBefore returns the offset, at or before pos, that follows the
// chunks-th run of ASCII separators counted back from pos, or 0.
func boundaryBefore(text []byte, pos, chunks int) int {
	inChunk := false
	for i := pos; i > 0; i-- {
		c := text[i-1]
		if c < utf8.RuneSelf && isASCIISep[c] {
			if inChunk {
				if chunks--; chunks == 0 {
					return i
				}
			}
			inChunk = false
		} else {
			inChunk = true
		}
	}
	return 0
}

// globalWindows appends to dst the words drawn for radius r around every
// matched link, from the page's whole word sequence.
func (w *walker) globalWindows(dst []span, r int) []span {
	w.splitWords()
	for _, i := range w.matched {
		l := &w.links[i]
		first, last := w.wordRange(l.start, l.end)
		dst = append(dst, w.words[max(0, first-r):min(len(w.words), last+r)]...)
	}
	return dst
}

// selectWords draws the words for radius r around the links keep accepts
// from a page's text and words.
func selectWords(text []byte, ws []span, links []Link, r Radius, keep func(Link) bool) []string {
	if r == Page {
		return appendWords(make([]string, 0, len(ws)), text, ws)
	}
	rr := min(int(r), len(ws)) // no window is wider than the page
	// window returns the words drawn around link l.
	window := func(l Link) []span {
		return ws[max(0, l.Start-rr):min(len(ws), l.End+rr)]
	}
	words, size := 0, 0
	for _, l := range links {
		if !keep(l) {
			continue
		}
		w := window(l)
		words += len(w)
		if len(w) > 0 {
			size += int(w[len(w)-1].end - w[0].start)
		}
	}
	out := make([]string, 0, words)
	if words == 0 {
		return out
	}
	// One string holds the text of all the windows; the words are slices
	// of it.
	var b strings.Builder
	b.Grow(size)
	for _, l := range links {
		if !keep(l) {
			continue
		}
		if w := window(l); len(w) > 0 {
			b.Write(text[w[0].start:w[len(w)-1].end])
		}
	}
	all := b.String()
	off := 0
	for _, l := range links {
		if !keep(l) {
			continue
		}
		w := window(l)
		if len(w) == 0 {
			continue
		}
		base := off - int(w[0].start)
		for _, s := range w {
			out = append(out, all[base+int(s.start):base+int(s.end)])
		}
		off += int(w[len(w)-1].end - w[0].start)
	}
	return out
}
