package backlink

import (
	"bytes"
	"encoding/binary"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/linkrot/relink/internal/words"
)

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

// span is a word's bounds in the rendered text, text[start:end].
type span struct{ start, end int32 }

// keepMode says which links the walker records.
type keepMode uint8

const (
	keepNone   keepMode = iota // no links: rendering only
	keepAll                    // every <a href> and <area href>
	keepFilter                 // the <a href> that pass the prefilter
)

// rawLink is a link the walker recorded, before its href is resolved.
type rawLink struct {
	href  string
	rel   string
	start int  // byte offset in the text where the link starts
	end   int  // byte offset where it ends
	area  bool // an image-map <area>
	// nav is the navigation verdict of the link's elements (see nav.go);
	// the anchor-text rules are applied after the walk.
	nav bool
}

// elem is an element on the walker's stack of open elements.
type elem struct {
	key   uint32 // the atom, or a hash of an unknown name with the top bit set
	kind  kind   // kindOf the atom
	flags uint8  // flagNav, flagSection
}

const (
	// flagNav marks an element inside a navigation container: a nav or
	// aside element, or a navigation role (rules 1 and 2).
	flagNav uint8 = 1 << iota
	// flagNavClass marks an element inside one whose class or id names
	// navigation (rule 3). Unlike flagNav, the page's main content (a
	// main element, role="main") clears it: themes wrap the whole page in
	// elements named for their navigation ("wy-grid-for-nav").
	flagNavClass
	// flagSection marks an element inside article, main, section, aside or
	// nav, where header and footer are not page banners.
	flagSection
	// flagMain marks the main content itself; it is not inherited.
	flagMain
)

// isNav reports whether flags put a link inside navigation.
func isNav(flags uint8) bool { return flags&(flagNav|flagNavClass) != 0 }

// MaxPageSize is how many bytes of a page, after decoding to UTF-8, are
// read; the rest of a larger page is ignored. The paper's largest page was
// 129.8 MB (§3.1 "File size").
const MaxPageSize = 1 << 30

// maxDepth bounds the stack of open elements. Deeper elements are read but
// not tracked: they inherit the flags of the deepest tracked one.
const maxDepth = 512

// walker renders a page to text in one streaming pass over the x/net/html
// tokenizer and records the links it is asked for. Its buffers are reused
// through a pool.
type walker struct {
	text  []byte    // the rendered text
	words []span    // the words of text, filled by splitWords
	links []rawLink // the links recorded, in page order
	// matched and spans are scratch space for Extract: the indexes of the
	// links to the target, the words drawn.
	matched []int
	spans   []span
	local   []span // scratch space for window
	tags    [tagCacheSize]tagSlot
	stack   []elem
	base    string // the first <base href>, or ""

	mode    keepMode
	segment string // keepFilter: the target's last path segment
	// collapse asks for Render's white space rules. Without it, text is
	// kept as written but for the breaks between blocks and cells: the
	// words are the same, and splitting them does not need the rest.
	collapse bool

	hasBase  bool
	pre      int    // depth of pre-like elements
	preStart bool   // just after a pre start tag: drop one leading newline
	rawSkip  bool   // the next text token is the content of script, style...
	skipKey  uint32 // element whose subtree is being skipped, or 0
	skipNest int    // depth of nested skipKey elements
	inHead   bool
	headDone bool
	open     int // index in links of the open <a>, or -1
	reader   bytes.Reader
}

var walkerPool = sync.Pool{New: func() any { return new(walker) }}

func getWalker() *walker { return walkerPool.Get().(*walker) }

// putWalker returns w to the pool unless its buffers grew too large to keep.
func putWalker(w *walker) {
	if cap(w.text) > 1<<20 || cap(w.words) > 1<<18 {
		return
	}
	w.links = w.links[:0]
	clear(w.links[:cap(w.links)])
	w.collapse = false
	walkerPool.Put(w)
}

// reset prepares w for a new page.
func (w *walker) reset(mode keepMode, segment string) {
	collapse := w.collapse
	*w = walker{
		collapse: collapse,
		text:     w.text[:0],
		words:    w.words[:0],
		links:    w.links[:0],
		matched:  w.matched[:0],
		spans:    w.spans[:0],
		local:    w.local[:0],
		stack:    w.stack[:0],
		tags:     w.tags,
		mode:     mode,
		segment:  segment,
		open:     -1,
	}
}

// walk renders body, which must be UTF-8, into w.text and records the links
// mode asks for.
func (w *walker) walk(body []byte, mode keepMode, segment string) {
	w.reset(mode, segment)
	body = bytes.TrimPrefix(body, []byte(utf8BOM))
	if len(body) > MaxPageSize {
		// Word offsets are 32-bit; cut at a character boundary.
		cut := MaxPageSize
		for cut > MaxPageSize-utf8.UTFMax && !utf8.RuneStart(body[cut]) {
			cut--
		}
		body = body[:cut]
	}
	w.reader.Reset(body)
	z := html.NewTokenizer(&w.reader)
	for {
		switch z.Next() {
		case html.ErrorToken:
			w.finish()
			return
		case html.TextToken:
			w.textToken(z)
		case html.StartTagToken:
			w.rawSkip = false
			w.startTag(z, false)
		case html.SelfClosingTagToken:
			w.rawSkip = false
			w.startTag(z, true)
		case html.EndTagToken:
			w.rawSkip = false
			w.endTag(z)
		default: // comments and doctypes show nothing
			w.rawSkip = false
		}
	}
}

// textToken handles a text token.
func (w *walker) textToken(z *html.Tokenizer) {
	if w.rawSkip || w.skipNest > 0 {
		return
	}
	if !w.headDone {
		t := z.Raw()
		if isAllSpace(t) {
			return
		}
		// Text that is not white space starts the body, as in a parser.
		w.inHead, w.headDone = false, true
	}
	w.addText(z.Text())
}

// startTag handles a start tag; selfClosing is true for <x/>, which HTML
// honours only on void and foreign (svg, math) elements.
func (w *walker) startTag(z *html.Tokenizer, selfClosing bool) {
	raw := z.Raw()
	a, key, nameEnd := w.tagKey(raw, 1)
	k := kindOf(a)
	if w.skipNest > 0 {
		if key == w.skipKey && !selfClosing {
			w.skipNest++
		}
		if w.skipKey == uint32(atom.Svg) {
			// In SVG, title, style and script hold markup, not raw text:
			// without this, "<svg><title>x</svg>" would hide the rest of
			// the page.
			z.NextIsNotRawText()
		}
		return
	}
	switch a {
	case atom.Html:
		return
	case atom.Head:
		if !w.headDone {
			w.inHead = true
		}
		return // a second head, in the body, is ignored as by a parser
	case atom.Body:
		w.inHead, w.headDone = false, true
		return
	}
	if !w.headDone {
		if k&kHead == 0 {
			// Any other element starts the body, as in a parser.
			w.inHead, w.headDone = false, true
		} else if w.inHead && a != atom.Base && k&(kRawSkip|kSkip) == 0 {
			return // meta, link
		}
	}
	switch {
	case k&kRawSkip != 0:
		w.rawSkip = true
		return
	case k&kSkip != 0:
		if !selfClosing {
			w.skipKey, w.skipNest = key, 1
		}
		return
	}
	w.impliedEnds(a, k)
	if k&kBlock != 0 {
		w.breakLine()
	} else if k&kCell != 0 {
		w.addSpace()
	}
	parent := w.top()
	var own uint8
	// Attributes matter for links, images, inputs and base, and for the
	// navigation flags of an element that is not already inside
	// navigation and will be on the stack.
	needAttrs := k&kUsesAttrs != 0 || parent&flagNav == 0 && k&kVoid == 0
	var at attrs // on the stack: storing into it needs no write barrier
	if needAttrs && hasAttr(raw[nameEnd:]) {
		readAttrs(z, raw[nameEnd:], &at)
		own = elementFlags(a, parent, &at)
	} else {
		own = elementFlags(a, parent, nil)
	}
	switch a {
	case atom.A:
		w.startLink(&at, own|parent)
	case atom.Area:
		w.area(&at, own|parent)
	case atom.Img:
		w.addText(at.alt)
	case atom.Input:
		if isButton(at.typ) && len(at.value) > 0 {
			w.addSpace()
			w.addText(at.value)
			w.addSpace()
		}
	case atom.Base:
		w.setBase(&at)
	case atom.Br:
		w.breakLine()
	}
	if k&kVoid != 0 {
		return
	}
	if k&kPre != 0 {
		w.pre++
		w.preStart = true
	}
	if len(w.stack) < maxDepth {
		flags := parent | own
		if own&flagMain != 0 {
			flags &^= flagNavClass
		}
		w.stack = append(w.stack, elem{key: key, kind: k, flags: flags &^ flagMain})
	}
}

// endTag handles an end tag.
func (w *walker) endTag(z *html.Tokenizer) {
	raw := z.Raw()
	a, key, _ := w.tagKey(raw, 2)
	if w.skipNest > 0 {
		if key == w.skipKey {
			w.skipNest--
		}
		return
	}
	k := kindOf(a)
	if k&(kVoid|kRawSkip|kSkip) != 0 && a != atom.Br {
		return // never on the stack
	}
	switch a {
	case atom.Head:
		w.inHead, w.headDone = false, true
		return
	case atom.Body, atom.Html:
		return
	case atom.Br: // </br> is read as <br>, as browsers do
		w.breakLine()
		return
	case atom.A:
		w.closeLink()
	}
	if k&kBlock != 0 {
		w.breakLine()
	} else if k&kCell != 0 {
		w.addSpace()
	}
	for i := len(w.stack) - 1; i >= 0; i-- {
		if w.stack[i].key == key {
			w.popTo(i)
			break
		}
	}
}

// top returns the flags of the innermost open element.
func (w *walker) top() uint8 {
	if len(w.stack) == 0 {
		return 0
	}
	return w.stack[len(w.stack)-1].flags
}

// popTo pops the stack down to, and including, index i.
func (w *walker) popTo(i int) {
	for j := len(w.stack) - 1; j >= i; j-- {
		switch w.stack[j].key {
		case uint32(atom.A):
			w.closeLink()
		case uint32(atom.Pre), uint32(atom.Listing), uint32(atom.Xmp), uint32(atom.Plaintext):
			w.pre--
		}
		if w.stack[j].kind&kBlock != 0 {
			w.breakLine()
		}
	}
	w.stack = w.stack[:i]
}

// impliedEnds closes the elements a start tag of a (kind k) ends without an
// end tag, after the HTML parser's rules for the common cases: a new <a>
// ends the open one; a block ends an open p; li, dt, dd, tr, td, th and
// option end the previous one of their kind.
func (w *walker) impliedEnds(a atom.Atom, k kind) {
	switch a {
	case atom.A:
		if w.open >= 0 {
			w.closeLink()
		}
		w.closeNearest(isA, stopNever)
		return
	case atom.Li:
		w.closeNearest(isLi, stopList)
	case atom.Dt, atom.Dd:
		w.closeNearest(isDtDd, stopList)
	case atom.Tr:
		w.closeNearest(isTr, stopTable)
		return
	case atom.Td, atom.Th:
		w.closeNearest(isCell, stopRow)
		return
	case atom.Option, atom.Optgroup:
		if n := len(w.stack); n > 0 && w.stack[n-1].key == uint32(atom.Option) {
			w.popTo(n - 1)
		}
		return
	}
	if k&kClosesP != 0 {
		w.closeNearest(isP, stopBlock)
	}
}

// closeNearest pops the stack down to the innermost element that want
// accepts, unless an element that stop accepts comes first.
func (w *walker) closeNearest(want func(uint32) bool, stop func(elem) bool) {
	for i := len(w.stack) - 1; i >= 0; i-- {
		e := w.stack[i]
		if want(e.key) {
			w.popTo(i)
			return
		}
		if stop(e) {
			return
		}
	}
}

func isA(k uint32) bool     { return k == uint32(atom.A) }
func isP(k uint32) bool     { return k == uint32(atom.P) }
func isLi(k uint32) bool    { return k == uint32(atom.Li) }
func isDtDd(k uint32) bool  { return k == uint32(atom.Dt) || k == uint32(atom.Dd) }
func isTr(k uint32) bool    { return k == uint32(atom.Tr) }
func isCell(k uint32) bool  { return k == uint32(atom.Td) || k == uint32(atom.Th) }
func stopNever(elem) bool   { return false }
func stopBlock(e elem) bool { return e.kind&kBlock != 0 }

// stopList stops the search for an open li, dt or dd at a list, or at any
// block but div, p and address (the parser's "special" elements, roughly).
func stopList(e elem) bool {
	switch atom.Atom(e.key) {
	case atom.Div, atom.P, atom.Address:
		return false
	}
	return e.kind&kBlock != 0
}

// stopTable stops the search for an open tr at a table or its sections.
func stopTable(e elem) bool {
	switch atom.Atom(e.key) {
	case atom.Table, atom.Thead, atom.Tbody, atom.Tfoot:
		return true
	}
	return false
}

// stopRow stops the search for an open td or th at a row or a table.
func stopRow(e elem) bool {
	return e.key == uint32(atom.Tr) || stopTable(e)
}

// startLink opens a link for an <a> start tag with attributes at, whose
// elements carry flags.
func (w *walker) startLink(at *attrs, flags uint8) {
	if !at.hasHref || !w.keep(at.href) {
		return
	}
	w.links = append(w.links, rawLink{
		href:  string(at.href),
		rel:   string(at.rel),
		start: len(w.text),
		end:   -1,
		nav:   isNav(flags) || linkAttrNav(at),
	})
	w.open = len(w.links) - 1
}

// area records an image-map <area href> with attributes at.
func (w *walker) area(at *attrs, flags uint8) {
	if !at.hasHref || w.mode != keepAll {
		return
	}
	w.links = append(w.links, rawLink{
		href:  string(at.href),
		rel:   string(at.rel),
		start: len(w.text),
		end:   len(w.text),
		area:  true,
		nav:   isNav(flags) || linkAttrNav(at),
	})
}

// closeLink ends the open link, if any, at the current end of the text.
func (w *walker) closeLink() {
	if w.open >= 0 {
		w.links[w.open].end = len(w.text)
		w.open = -1
	}
}

// keep reports whether a link with this href is to be recorded.
func (w *walker) keep(href []byte) bool {
	switch w.mode {
	case keepAll:
		return true
	case keepFilter:
		return mayMatch(href, w.segment)
	}
	return false
}

// setBase records the href of the first <base>, whose attributes are at.
func (w *walker) setBase(at *attrs) {
	if !w.hasBase && at.hasHref {
		w.base, w.hasBase = string(at.href), true
	}
}

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

// finish ends the text: it drops a trailing space and keeps the recorded
// link offsets inside the text.
func (w *walker) finish() {
	w.closeLink()
	if n := len(w.text); n > 0 && w.text[n-1] == ' ' {
		w.text = w.text[:n-1]
		for i := range w.links {
			l := &w.links[i]
			l.start, l.end = min(l.start, n-1), min(l.end, n-1)
		}
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

// tagCacheSize is the number of slots of a walker's tag name cache.
const tagCacheSize = 64

// tagSlot caches the atom and stack key of a short tag name.
type tagSlot struct {
	name uint64 // the lowercased name packed little-endian; 0 when empty
	a    atom.Atom
	key  uint32
}

// tagKey returns the atom and the stack key of the tag whose raw bytes are
// raw, and the offset in raw where its name ends; the name starts at
// raw[skip] ("<" or "</" before it). Names of up to 8 bytes are looked up
// in the walker's cache first: a page uses few names, many times.
func (w *walker) tagKey(raw []byte, skip int) (a atom.Atom, key uint32, nameEnd int) {
	if skip > len(raw) {
		return 0, 0, len(raw)
	}
	name := raw[skip:]
	for i, c := range name {
		if keyEnd[c] && c != '=' {
			name = name[:i]
			break
		}
	}
	nameEnd = skip + len(name)
	if len(name) > 8 {
		a, key = lookupTag(name)
		return a, key, nameEnd
	}
	var packed uint64
	for i, c := range name {
		if c == 0 {
			a, key = lookupTag(name)
			return a, key, nameEnd
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		packed |= uint64(c) << (8 * i)
	}
	slot := &w.tags[(packed*0x9e3779b97f4a7c15)>>(64-6)]
	if slot.name != packed || packed == 0 {
		a, key = lookupTag(name)
		*slot = tagSlot{name: packed, a: a, key: key}
	}
	return slot.a, slot.key, nameEnd
}

// lookupTag returns the atom of a tag name, in any case, and its stack key:
// the atom, or for an unknown name its FNV-1a hash in lower case with the
// top bit set, which keeps it apart from the atoms.
func lookupTag(name []byte) (atom.Atom, uint32) {
	var buf [16]byte
	if len(name) <= len(buf) {
		for i, c := range name {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf[i] = c
		}
		if a := atom.Lookup(buf[:len(name)]); a != 0 {
			return a, uint32(a)
		}
	}
	h := uint32(2166136261)
	for _, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		h = (h ^ uint32(c)) * 16777619
	}
	return 0, h | 1<<31
}

// hasAttr reports whether rest, the raw bytes of a start tag after its
// name, holds an attribute.
func hasAttr(rest []byte) bool {
	for _, c := range rest {
		if !isSpace[c] && c != '/' && c != '>' {
			return true
		}
	}
	return false
}

// attrs holds the attributes of the current start tag that the walker uses.
// The slices may point into the tokenizer's buffer: they are valid until the
// next token.
type attrs struct {
	href, rel, alt, typ, value []byte
	class, id, role            []byte
	hasHref                    bool
}

// attribute keys the walker reads, as bits of a set.
const (
	attrHref = 1 << iota
	attrRel
	attrAlt
	attrType
	attrValue
	attrClass
	attrID
	attrRole
)

// attrBit returns the bit of an attribute key the walker reads, or 0.
func attrBit(key []byte) int {
	switch len(key) {
	case 2:
		if equalFoldASCII(key, "id") {
			return attrID
		}
	case 3:
		switch {
		case equalFoldASCII(key, "rel"):
			return attrRel
		case equalFoldASCII(key, "alt"):
			return attrAlt
		}
	case 4:
		switch {
		case equalFoldASCII(key, "href"):
			return attrHref
		case equalFoldASCII(key, "type"):
			return attrType
		case equalFoldASCII(key, "role"):
			return attrRole
		}
	case 5:
		switch {
		case equalFoldASCII(key, "class"):
			return attrClass
		case equalFoldASCII(key, "value"):
			return attrValue
		}
	}
	return 0
}

// set stores the value of the attribute bit.
func (at *attrs) set(bit int, val []byte) {
	switch bit {
	case attrHref:
		at.href, at.hasHref = val, true
	case attrRel:
		at.rel = val
	case attrAlt:
		at.alt = val
	case attrType:
		at.typ = val
	case attrValue:
		at.value = val
	case attrClass:
		at.class = val
	case attrID:
		at.id = val
	case attrRole:
		at.role = val
	}
}

// readAttrs reads the current start tag's attributes into at; rest is
// the raw tag after its name. It scans the raw bytes itself, by the
// tokenizer's own rules, which costs no allocation; only when a value it
// needs holds a character reference, a carriage return or a NUL does it ask
// the tokenizer, which decodes them. The first of repeated attributes
// counts, as in the tokenizer.
func readAttrs(z *html.Tokenizer, rest []byte, at *attrs) {
	if !scanAttrs(rest, at) {
		*at = attrs{}
		tokenizerAttrs(z, at)
	}
}

// keyEnd marks the bytes that end an attribute key: white space, '/', '>'
// and '='.
var keyEnd = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, '\f': true, '/': true, '>': true, '=': true}

// needsDecoding marks the bytes that make the tokenizer change an attribute
// value: character references, carriage returns and NULs.
var needsDecoding = [256]bool{'&': true, '\r': true, 0: true}

// scanAttrs parses the attributes in rest into at, following the x/net/html
// tokenizer (readTag, readTagAttrKey, readTagAttrVal). It returns false when
// a value it keeps needs decoding.
func scanAttrs(rest []byte, at *attrs) bool {
	seen := 0
	i, n := 0, len(rest)
	for {
		for i < n && isSpace[rest[i]] {
			i++
		}
		if i >= n || rest[i] == '>' {
			return true
		}
		// The key runs to white space, '/', '>' or an '=' that is not its
		// first byte.
		ks := i
		if rest[i] == '=' {
			i++
		}
		for i < n && !keyEnd[rest[i]] {
			i++
		}
		key := rest[ks:i]
		for i < n && isSpace[rest[i]] {
			i++
		}
		var val []byte
		if i < n {
			switch rest[i] {
			case '/':
				i++
			case '=':
				i++
				for i < n && isSpace[rest[i]] {
					i++
				}
				if i < n {
					switch q := rest[i]; q {
					case '>':
					case '"', '\'':
						i++
						vs := i
						for i < n && rest[i] != q {
							i++
						}
						val = rest[vs:i]
						if i < n {
							i++
						}
					default:
						vs := i
						for i < n && !isSpace[rest[i]] && rest[i] != '>' {
							i++
						}
						val = rest[vs:i]
					}
				}
			}
		}
		if len(key) < 2 || len(key) > 5 {
			continue // not one the walker reads
		}
		if bit := attrBit(key); bit != 0 && seen&bit == 0 {
			seen |= bit
			for _, c := range val {
				if needsDecoding[c] {
					return false
				}
			}
			at.set(bit, val)
		}
	}
}

// tokenizerAttrs reads the current tag's attributes through the tokenizer,
// which decodes character references.
func tokenizerAttrs(z *html.Tokenizer, at *attrs) {
	seen := 0
	for more := true; more; {
		var key, val []byte
		key, val, more = z.TagAttr()
		if bit := attrBit(key); bit != 0 && seen&bit == 0 {
			seen |= bit
			at.set(bit, val)
		}
	}
}

// isButton reports whether an <input> type shows its value as a label.
func isButton(typ []byte) bool {
	return equalFoldASCII(typ, "submit") || equalFoldASCII(typ, "reset") || equalFoldASCII(typ, "button")
}

// kind is a set of properties of an element that rendering depends on.
type kind uint16

const (
	kVoid      kind = 1 << iota // has no end tag and no content
	kBlock                      // starts and ends a line
	kCell                       // separated from its neighbours by a space
	kSkip                       // its whole subtree is not shown
	kRawSkip                    // raw text element whose text is not shown
	kPre                        // keeps white space
	kClosesP                    // its start tag ends an open p
	kHead                       // may appear in head
	kUsesAttrs                  // its attributes are read whatever its place
)

// kindOf returns the properties of the element a (0 for an unknown one).
func kindOf(a atom.Atom) kind {
	switch a {
	case atom.Br, atom.Hr:
		return kVoid | kBlock | kClosesP
	case atom.Area, atom.Img, atom.Input:
		return kVoid | kUsesAttrs
	case atom.Col, atom.Embed, atom.Param, atom.Source, atom.Track, atom.Wbr,
		atom.Keygen, atom.Frame:
		return kVoid
	case atom.Base:
		return kVoid | kHead | kUsesAttrs
	case atom.Link, atom.Meta, atom.Basefont, atom.Bgsound:
		return kVoid | kHead
	case atom.A:
		return kUsesAttrs
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Center,
		atom.Details, atom.Dialog, atom.Dir, atom.Div, atom.Dl, atom.Fieldset,
		atom.Figcaption, atom.Figure, atom.Footer, atom.Form, atom.H1, atom.H2,
		atom.H3, atom.H4, atom.H5, atom.H6, atom.Header, atom.Hgroup, atom.Main,
		atom.Menu, atom.Nav, atom.Ol, atom.P, atom.Section, atom.Summary,
		atom.Table, atom.Ul, atom.Li, atom.Dd, atom.Dt, atom.Search:
		return kBlock | kClosesP
	case atom.Pre, atom.Listing, atom.Xmp, atom.Plaintext:
		return kBlock | kClosesP | kPre
	case atom.Caption, atom.Tr, atom.Thead, atom.Tbody, atom.Tfoot, atom.Legend,
		atom.Option, atom.Optgroup, atom.Frameset:
		return kBlock
	case atom.Td, atom.Th:
		return kCell
	case atom.Script, atom.Style, atom.Noscript, atom.Noframes, atom.Title:
		return kRawSkip | kHead
	case atom.Iframe, atom.Noembed:
		return kRawSkip
	case atom.Template:
		return kSkip | kHead
	case atom.Svg, atom.Object:
		return kSkip
	}
	return 0
}
