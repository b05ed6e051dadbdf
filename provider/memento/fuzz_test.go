package memento

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// FuzzRawURI checks that RawURI never panics, changes a URI-M only by
// putting id_ after a 14-digit timestamp (in place of any other flag), and
// is idempotent.
func FuzzRawURI(f *testing.F) {
	f.Add("http://web.archive.org/web/20130115101913/http://www.cnn.com/")
	f.Add("https://web.archive.org/web/20130115101913im_/https://www.cnn.com/a.png")
	f.Add("http://archive.md/20150422173637/http://www.cnn.com/")
	f.Add("http://a/20130115101913/https:")
	f.Add("://")
	f.Fuzz(func(t *testing.T, urim string) {
		raw := RawURI(urim)
		if RawURI(raw) != raw {
			t.Fatalf("RawURI(%q) = %q, but RawURI of that = %q", urim, raw, RawURI(raw))
		}
		if raw == urim {
			return
		}
		i := strings.Index(raw, "id_/http")
		if i < 14 {
			t.Fatalf("RawURI(%q) = %q: changed, but no id_ after a timestamp", urim, raw)
		}
		for _, c := range raw[i-14 : i] {
			if c < '0' || c > '9' {
				t.Fatalf("RawURI(%q) = %q: id_ not after 14 digits", urim, raw)
			}
		}
		if !strings.HasPrefix(urim, raw[:i]) || !strings.HasSuffix(urim, raw[i+len("id_"):]) {
			t.Fatalf("RawURI(%q) = %q: changed more than the flag", urim, raw)
		}
	})
}

// FuzzConvert checks that any JSON answer gives mementos or an error
// (ErrMalformed or ErrNoMemento), never a panic, and that every memento
// given has a time and only absolute http(s) URIs.
func FuzzConvert(f *testing.F) {
	// Small seeds: the fuzzer minimizes every new input, which takes long
	// for inputs of a kilobyte, such as the fixtures.
	f.Add([]byte(`{"original_uri":"http://e/","mementos":{"first":{"datetime":"2005-03-12T08:15:22Z","uri":["http://a/web/20050312081522/http://e/"]}}}`))
	f.Add([]byte(`{"mementos":{"last":{"datetime":"Sat, 04 Nov 2006 10:10:10 GMT","uri":"http://a/x"},"prev":{"datetime":"20061104101010","uri":[]}}}`))
	f.Add([]byte(`{"mementos":{"closest":{"datetime":"2010-01-01T00:00:00+02:00","uri":["ftp://a/","http://b/"]}},"timemap_uri":{"json_format":"http://t/"}}`))
	f.Add([]byte(`{"mementos":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var a jsonAnswer
		if json.Unmarshal(data, &a) != nil {
			return
		}
		m, err := a.convert("http://example.com/")
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrNoMemento) {
				t.Fatalf("convert error %v is neither ErrMalformed nor ErrNoMemento", err)
			}
			return
		}
		if m.Original == "" || (m.Closest == nil && m.Last == nil && m.First == nil) {
			t.Fatalf("convert = %+v: no original or no memento", m)
		}
		for _, mem := range []*Memento{m.First, m.Last, m.Prev, m.Next, m.Closest} {
			if mem == nil {
				continue
			}
			if mem.Time.IsZero() && len(mem.URIs) == 0 {
				t.Fatalf("memento %+v is empty", mem)
			}
			for _, u := range mem.URIs {
				if _, err := checkURI(u); err != nil {
					t.Fatalf("memento URI %q: %v", u, err)
				}
			}
		}
	})
}

// FuzzParseTimeMap checks that any bytes give mementos oldest first, each
// with a time and one absolute http(s) URI-M, or an error wrapping
// ErrMalformed or ErrNoMemento; never a panic.
func FuzzParseTimeMap(f *testing.F) {
	f.Add([]byte(`{"original_uri":"http://e/","mementos":{"list":[{"datetime":"2005-03-12T08:15:22Z","uri":"http://a/web/20050312081522/http://e/"}],"first":{"datetime":"2005-03-12T08:15:22Z","uri":"http://a/x"}}}`))
	f.Add([]byte(`{"mementos":{"list":[{"datetime":"Sat, 04 Nov 2006 10:10:10 GMT","uri":["http://a/x","http://b/y"]},{"datetime":"20061104101010","uri":"ftp://a/"}]}}`))
	f.Add([]byte(`{"mementos":{"list":[]}}`))
	f.Add([]byte(`404 page not found`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ms, err := ParseTimeMap(data)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrNoMemento) {
				t.Fatalf("ParseTimeMap error %v is neither ErrMalformed nor ErrNoMemento", err)
			}
			return
		}
		if len(ms) == 0 {
			t.Fatal("ParseTimeMap = no mementos and no error")
		}
		for i, m := range ms {
			if len(m.URIs) == 0 || (i > 0 && m.Time.Before(ms[i-1].Time)) {
				t.Fatalf("ParseTimeMap memento %d = %+v", i, m)
			}
			for _, u := range m.URIs {
				if _, err := checkURI(u); err != nil {
					t.Fatalf("memento URI %q: %v", u, err)
				}
			}
		}
	})
}
