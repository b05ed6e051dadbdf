package backlink

import "golang.org/x/net/html"

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
