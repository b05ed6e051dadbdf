package backlink

import "golang.org/x/net/html/atom"

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

// isButton reports whether an <input> type shows its value as a label.
func isButton(typ []byte) bool {
	return equalFoldASCII(typ, "submit") || equalFoldASCII(typ, "reset") || equalFoldASCII(typ, "button")
}
