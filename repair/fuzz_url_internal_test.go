package repair

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCleanURL: the URL every reader records is UTF-8 and at most MaxURL
// bytes; a short UTF-8 URL is kept as it is, and the encoding is undone by
// reading each %XX it added back as its byte.
func FuzzCleanURL(f *testing.F) {
	for _, s := range []string{"https://a.example/caf\xe9", "https://a.example/café?q=%41", "\xff\xfe", "", "%zz\xc3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, u string) {
		clean, size := cleanURL(u)
		if !utf8.ValidString(clean) || len(clean) > MaxURL || (size > 0) != (len(encodeInvalid(u)) > MaxURL) {
			t.Fatalf("cleanURL(%q) = %q, %d", u, clean, size)
		}
		if size > 0 {
			return
		}
		if utf8.ValidString(u) && clean != u {
			t.Fatalf("cleanURL(%q) = %q, want it unchanged", u, clean)
		}
		if back := decodeAdded(u, clean); back != u {
			t.Fatalf("cleanURL(%q) = %q, which reads back as %q", u, clean, back)
		}
	})
}

// decodeAdded undoes encodeInvalid: it walks u and clean together, taking
// a %XX of clean for the byte of u it stands for where u holds no %.
func decodeAdded(u, clean string) string {
	var b strings.Builder
	for i, j := 0, 0; j < len(clean); {
		if i < len(u) && u[i] == clean[j] {
			b.WriteByte(clean[j])
			i, j = i+1, j+1
			continue
		}
		if clean[j] != '%' || j+3 > len(clean) {
			return b.String() + "<mismatch>"
		}
		var x byte
		for _, c := range []byte(clean[j+1 : j+3]) {
			x = x<<4 | byte(strings.IndexByte("0123456789ABCDEF", c))
		}
		b.WriteByte(x)
		i, j = i+1, j+3
	}
	return b.String()
}

// FuzzJSONURL: a URL of a JSON report decodes as encoding/json decodes
// the string, but for bytes that are not UTF-8, which it keeps (and
// encoding/json makes U+FFFD), and it is never longer than MaxURL+1.
func FuzzJSONURL(f *testing.F) {
	for _, s := range []string{`"https://a.example/\u00e9\ud83d\ude00"`, `"\ud800x\/\n"`, "\"caf\xe9\"", `null`, `3`, `"\\"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var want string
		if err := json.Unmarshal(b, &want); err != nil {
			return // the decoder refuses it before the URL sees it
		}
		b = bytes.Trim(b, " \t\r\n") // as the decoder hands a value
		var got jsonURL
		if err := got.UnmarshalJSON(b); err != nil {
			if string(b) != "null" && len(b) > 0 && b[0] == '"' {
				t.Fatalf("UnmarshalJSON(%q) = %v, encoding/json reads %q", b, err, want)
			}
			return
		}
		if len(got) > MaxURL+1 {
			t.Fatalf("UnmarshalJSON(%q) read %d bytes", b, len(got))
		}
		if asJSON := strings.ToValidUTF8(string(got), "\uFFFD"); len(want) <= MaxURL && !sameBut(asJSON, want) {
			t.Fatalf("UnmarshalJSON(%q) = %q, encoding/json reads %q", b, got, want)
		}
	})
}

// sameBut reports whether a and b are equal once every run of U+FFFD is
// taken as one (strings.ToValidUTF8 makes one of a run of bad bytes,
// encoding/json one a byte).
func sameBut(a, b string) bool {
	squeeze := func(s string) string {
		for strings.Contains(s, "\uFFFD\uFFFD") {
			s = strings.ReplaceAll(s, "\uFFFD\uFFFD", "\uFFFD")
		}
		return s
	}
	return squeeze(a) == squeeze(b)
}

// FuzzRedactPasswords: redacting never panics, is idempotent, and leaves
// no password of a URL "http://user:PASSWORD@host/" written into the text.
func FuzzRedactPasswords(f *testing.F) {
	f.Add("fetch http://bob:s3cret@h.example/p: 404", "pw")
	f.Add("a HTTPS://u:pw@h and ftp://v:w@k/ \"http://x:y@z\"", "p@ss")
	f.Fuzz(func(t *testing.T, s, pw string) {
		once := RedactPasswords(s)
		if twice := RedactPasswords(once); twice != once {
			t.Fatalf("RedactPasswords(%q) = %q, then %q", s, once, twice)
		}
		if pw == "" || strings.ContainsAny(pw, "/?#\"'<> \t\r\n") {
			return
		}
		in := s + " http://user:" + pw + "@host.example/"
		if out := RedactPasswords(in); strings.Contains(out, "user:"+pw+"@") {
			t.Fatalf("RedactPasswords(%q) = %q, shows the password", in, out)
		}
	})
}
