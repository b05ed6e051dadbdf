package backlink

import (
	"iter"
	"slices"
	"sort"
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

// DrawFactor and DrawFloor bound the words drawn from one page for one
// radius: see MaxDrawn.
const (
	// DrawFactor is how many times its own word count a page may give.
	DrawFactor = 4
	// DrawFloor is how many words any page may give, however few words
	// it holds.
	DrawFloor = 1 << 17
)

// MaxDrawn returns the most words Extract and Located draw from a page of
// pageWords words for one radius: max(DrawFactor × pageWords, DrawFloor).
// Each link to the target contributes its own window of words and the
// windows of neighbouring links overlap, so without a bound a page would
// give each of its words once per link near it: a 390 KB page with 10,000
// links to the target gave 19.7 million words at radius 1000, and a
// hostile page could take all the memory of the machine reading it.
//
// No page of the project's corpora reaches the bound at the paper's radii
// (checked on every link target of 5,329 documentation pages, 150,446
// page and target pairs): at radius 10 the most any page gave was 7.6
// times its own words (416 words, a module index), far below the floor;
// radius 20 cuts none of the pairs either, radius 50 cuts 13 and radius
// 1000 cuts 830. Where the bound cuts, the windows are kept in page order
// until it is reached: the last one kept may be cut short, and the links
// after it give no words.
func MaxDrawn(pageWords int) int {
	return max(DrawFactor*pageWords, DrawFloor)
}

// appendWindows appends to dst the words of ws within r words of each word
// range [first, last) that ranges yields, in order, as Extract draws them
// (r >= 0), and stops at limit words in all; cut reports whether words
// were left out.
func appendWindows(dst, ws []span, ranges iter.Seq2[int, int], r, limit int) (_ []span, cut bool) {
	// Count first, so that dst grows once.
	n := 0
	for first, last := range ranges {
		if n += min(len(ws), last+r) - max(0, first-r); n >= limit {
			break
		}
	}
	dst = slices.Grow(dst, min(n, limit))
	left := limit
	for first, last := range ranges {
		win := ws[max(0, first-r):min(len(ws), last+r)]
		if len(win) > left {
			win, cut = win[:left], true
		}
		dst = append(dst, win...)
		if left -= len(win); cut {
			break
		}
	}
	return dst, cut
}

// globalWindows appends to dst the words drawn for radius r around every
// matched link, from the page's whole word sequence, up to MaxDrawn words.
func (w *walker) globalWindows(dst []span, r int) []span {
	w.splitWords()
	dst, _ = appendWindows(dst, w.words, func(yield func(int, int) bool) {
		for _, i := range w.matched {
			l := &w.links[i]
			if !yield(w.wordRange(l.start, l.end)) {
				return
			}
		}
	}, r, MaxDrawn(len(w.words)))
	return dst
}

// selectWords draws the words for radius r around the links keep accepts
// from a page's text and words, up to MaxDrawn words; cut reports whether
// the bound left words out.
func selectWords(text []byte, ws []span, links []Link, r Radius, keep func(Link) bool) (_ []string, cut bool) {
	if r == Page {
		return appendWords(make([]string, 0, len(ws)), text, ws), false
	}
	spans, cut := appendWindows(nil, ws, func(yield func(int, int) bool) {
		for _, l := range links {
			if keep(l) && !yield(l.Start, l.End) {
				return
			}
		}
	}, min(int(r), len(ws)), MaxDrawn(len(ws)))
	return appendWords(make([]string, 0, len(spans)), text, spans), cut
}
