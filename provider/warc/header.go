package warc

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Record types of WARC/1.1 §6, as Header.Type returns them.
const (
	TypeWarcinfo     = "warcinfo"
	TypeResponse     = "response"
	TypeResource     = "resource"
	TypeRequest      = "request"
	TypeMetadata     = "metadata"
	TypeRevisit      = "revisit"
	TypeConversion   = "conversion"
	TypeContinuation = "continuation"
)

// ErrNoField is returned, wrapped, by the Header accessors that parse a value
// when the field is absent.
var ErrNoField = errors.New("warc: no such field")

// Field is one named field of a WARC record header.
type Field struct {
	// Name is the field name as written, for example "WARC-Type".
	Name string
	// Value is the field value with surrounding white space removed and
	// continuation lines joined by single spaces.
	Value string
}

// Header is the ordered list of named fields of a WARC record header. Field
// names compare case-insensitively (WARC/1.1 §4); a name may repeat, as
// WARC-Concurrent-To does. The zero value is an empty header.
type Header []Field

// Get returns the value of the first field named name, compared
// case-insensitively, or "" when there is none.
func (h Header) Get(name string) string {
	v, _ := h.lookup(name)
	return v
}

// Values returns the values of every field named name, in order; nil when
// there is none.
func (h Header) Values(name string) []string {
	var vs []string
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			vs = append(vs, f.Value)
		}
	}
	return vs
}

// Set replaces the value of the first field named name and removes any later
// fields of that name; when there is none it appends the field.
func (h *Header) Set(name, value string) {
	for i, f := range *h {
		if strings.EqualFold(f.Name, name) {
			(*h)[i].Value = value
			h.delFrom(i+1, name)
			return
		}
	}
	*h = append(*h, Field{Name: name, Value: value})
}

// Add appends a field, keeping any fields of the same name.
func (h *Header) Add(name, value string) {
	*h = append(*h, Field{Name: name, Value: value})
}

// Del removes every field named name.
func (h *Header) Del(name string) { h.delFrom(0, name) }

// delFrom removes the fields named name at index i and beyond.
func (h *Header) delFrom(i int, name string) {
	kept := (*h)[:i]
	for _, f := range (*h)[i:] {
		if !strings.EqualFold(f.Name, name) {
			kept = append(kept, f)
		}
	}
	clear((*h)[len(kept):])
	*h = kept
}

// lookup returns the first value of name and whether the field is present.
func (h Header) lookup(name string) (string, bool) {
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			return f.Value, true
		}
	}
	return "", false
}

// Type returns the WARC-Type field in lower case, for example TypeResponse,
// or "" when it is absent.
func (h Header) Type() string { return strings.ToLower(h.Get("WARC-Type")) }

// TargetURI returns the WARC-Target-URI field without the angle brackets
// that WARC/1.0 writers (and some WARC/1.1 writers, against the
// specification) put around it.
func (h Header) TargetURI() string { return unbracket(h.Get("WARC-Target-URI")) }

// RecordID returns the WARC-Record-ID field without its angle brackets, for
// example "urn:uuid:8f7c1ec2-…".
func (h Header) RecordID() string { return unbracket(h.Get("WARC-Record-ID")) }

// ContentType returns the Content-Type field as written, or "" when it is
// absent.
func (h Header) ContentType() string { return h.Get("Content-Type") }

// ContentLength returns the Content-Length field: the length of the block in
// bytes. A missing field returns an error wrapping ErrNoField; a value that is
// not a decimal number of at most 63 bits returns another error.
func (h Header) ContentLength() (int64, error) {
	v, ok := h.lookup("Content-Length")
	if !ok {
		return 0, fmt.Errorf("%w: Content-Length", ErrNoField)
	}
	return parseLength(v)
}

// parseLength parses a Content-Length value: decimal digits only, no sign.
func parseLength(v string) (int64, error) {
	if v == "" || strings.TrimLeft(v, "0123456789") != "" {
		return 0, fmt.Errorf("warc: Content-Length %q is not a decimal number", v)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("warc: Content-Length %q is out of range", v)
	}
	return n, nil
}

// dateLayouts are the forms of the W3C profile of ISO 8601 that WARC-Date
// may take (WARC/1.1 §5.4 allows fractions of a second; time.RFC3339 parses
// them too), most precise first.
var dateLayouts = []string{
	time.RFC3339,
	"2006-01-02T15:04Z07:00",
	"2006-01-02",
	"2006-01",
	"2006",
}

// Date returns the WARC-Date field: when the record's data was captured. It
// accepts the W3C profile of ISO 8601 at any precision from a year to
// fractions of a second. A missing field returns an error wrapping
// ErrNoField; an unparsable one another error.
func (h Header) Date() (time.Time, error) {
	v, ok := h.lookup("WARC-Date")
	if !ok {
		return time.Time{}, fmt.Errorf("%w: WARC-Date", ErrNoField)
	}
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("warc: WARC-Date %q is not a W3C-ISO8601 date", v)
}

// unbracket removes one pair of angle brackets around s.
func unbracket(s string) string {
	if len(s) >= 2 && s[0] == '<' && s[len(s)-1] == '>' {
		return s[1 : len(s)-1]
	}
	return s
}

// validName reports whether name is a token of RFC 2616 §2.2, the syntax of
// a WARC field name (WARC/1.1 §4).
func validName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`()<>@,;:\"/[]?={}`, c) >= 0 {
			return false
		}
	}
	return true
}
