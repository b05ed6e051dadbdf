package backlink

import (
	"bytes"
	"sync"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/linkrot/relink/internal/walkhook"
)

// keepMode says which links the walker records.
type keepMode uint8

const (
	keepNone   keepMode = iota // no links: rendering only
	keepAll                    // every <a href> and <area href>
	keepFilter                 // the <a href> that pass the prefilter
)

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

	// hook, when not nil, is shown every token first (walkHooked); tok
	// is its view of the current token.
	hook walkhook.Hook
	tok  hookToken
	// rawCheck says that a start tag inside an svg would have made the
	// tokenizer read raw text next, which walk prevents and walkHooked
	// cannot; diverged that the text so read held markup.
	rawCheck, diverged bool
}

var walkerPool = sync.Pool{New: func() any { return new(walker) }}

func getWalker() *walker { return walkerPool.Get().(*walker) }

// putWalker returns w to the pool unless its buffers grew too large to keep:
// a page with a huge text, or links or words by the hundred thousand, must
// not leave its buffers held by the pool.
func putWalker(w *walker) {
	if cap(w.text) > 1<<20 || cap(w.words) > 1<<18 || cap(w.spans) > 1<<18 ||
		cap(w.local) > 1<<18 || cap(w.links) > 1<<14 || cap(w.matched) > 1<<16 {
		return
	}
	w.links = w.links[:0]
	clear(w.links[:cap(w.links)])
	w.collapse = false
	w.hook = nil
	w.tok.next(nil)
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
		tok:      w.tok,
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

// textToken handles a text token.
func (w *walker) textToken(z *html.Tokenizer) {
	if w.textShows(z.Raw()) {
		w.addText(z.Text())
	}
}

// textShows reports whether the text token whose raw bytes are raw is
// shown: not inside a skipped element or raw text, and in the head only
// when it is not all white space (it then starts the body, as in a
// parser).
func (w *walker) textShows(raw []byte) bool {
	if w.rawSkip || w.skipNest > 0 {
		return false
	}
	if !w.headDone {
		if isAllSpace(raw) {
			return false
		}
		w.inHead, w.headDone = false, true
	}
	return true
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
			// the page. A hooked walk shows the hook the tokens of a plain
			// tokenizer, and checks the raw text instead.
			if w.hook != nil {
				w.rawCheck = rawText(a)
			} else {
				z.NextIsNotRawText()
			}
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
		w.readAttrs(z, raw[nameEnd:], &at)
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
