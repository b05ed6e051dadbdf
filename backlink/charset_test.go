package backlink

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
)

// encode returns s encoded with e; the tests write their pages in UTF-8
// source and encode them here.
func encode(t *testing.T, e encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := e.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatalf("encoding %q: %v", s, err)
	}
	return b
}

// frenchProse is long enough for charset detection to have something to go
// on.
const frenchProse = `<p>Le café de la gare était fermé, alors nous sommes allés à
l'hôtel où le garçon nous a servi une crème brûlée. Après le dîner, nous
avons parlé des pages disparues et des liens brisés, de la mémoire du web et
des archives qui gardent les vieilles pages. Voilà pourquoi les signatures
lexicales sont très utiles : elles décrivent une page en quelques mots.</p>`

// TestDecode checks charset handling (the shared design, "Measured
// choices: Charset"): BOM, header, <meta>, and detection when a UTF-8
// declaration lies.
func TestDecode(t *testing.T) {
	latin1Meta := `<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"></head><body><p>Café – naïve “quotes”</p></body></html>`
	sjis := `<html><body><p>日本語のページです</p></body></html>`
	tests := []struct {
		name        string
		body        []byte
		contentType string
		wantName    string
		wantText    string // a part of the decoded page
	}{
		{"undeclared UTF-8", []byte("<p>héllo wörld</p>"), "", "utf-8", "héllo wörld"},
		{"windows-1252 in meta", encode(t, charmap.Windows1252, latin1Meta), "", "windows-1252", "Café – naïve “quotes”"},
		{"meta charset attribute", encode(t, charmap.ISO8859_2, `<meta charset="iso-8859-2"><p>Łódź</p>`), "", "iso-8859-2", "Łódź"},
		{"UTF-16LE with BOM", append([]byte{0xff, 0xfe}, encode(t, unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "<p>ünïcode</p>")...), "", "utf-16le", "ünïcode"},
		{"UTF-16BE with BOM", append([]byte{0xfe, 0xff}, encode(t, unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "<p>ünïcode</p>")...), "", "utf-16be", "ünïcode"},
		{"Shift_JIS in header", encode(t, japanese.ShiftJIS, sjis), "text/html; charset=Shift_JIS", "shift_jis", "日本語のページです"},
		{"header wins over meta", encode(t, charmap.Windows1252, `<meta charset="utf-8"><p>Café</p>`), "text/html; charset=windows-1252", "windows-1252", "Café"},
		{"BOM wins over header", []byte("\xef\xbb\xbf<p>héllo</p>"), "text/html; charset=iso-8859-1", "utf-8", "héllo"},
		{"meta says UTF-8, bytes are Latin-1", encode(t, charmap.ISO8859_1, `<meta charset="utf-8">`+frenchProse), "", "windows-1252", "crème brûlée"},
		{"header says UTF-8, bytes are Latin-1", encode(t, charmap.ISO8859_1, frenchProse), "text/html; charset=utf-8", "windows-1252", "très utiles"},
		{"undeclared Latin-1", encode(t, charmap.ISO8859_1, frenchProse), "", "windows-1252", "hôtel où le garçon"},
		{"meta says UTF-16, read as UTF-8", []byte(`<meta charset="utf-16"><p>héllo</p>`), "", "utf-8", "héllo"},
		{"unknown header label ignored", []byte("<p>héllo</p>"), "text/html; charset=no-such-thing", "utf-8", "héllo"},
		{"malformed header ignored", []byte("<p>héllo</p>"), "text/html; charset", "utf-8", "héllo"},
		{"empty", nil, "", "utf-8", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, name, err := Decode(tt.body, tt.contentType)
			if err != nil {
				t.Fatalf("Decode error: %v", err)
			}
			if name != tt.wantName {
				t.Errorf("Decode(%q, %q) charset = %q, want %q", tt.body, tt.contentType, name, tt.wantName)
			}
			if !utf8.Valid(got) {
				t.Errorf("Decode(%q, %q) is not valid UTF-8", tt.body, tt.contentType)
			}
			if !bytes.Contains(got, []byte(tt.wantText)) {
				t.Errorf("Decode(%q, %q) = %q, want it to contain %q", tt.body, tt.contentType, got, tt.wantText)
			}
			// Decoding the result again, with no header, changes nothing:
			// Extract relies on it.
			again, _, _ := Decode(got, "")
			if !bytes.Equal(again, got) {
				t.Errorf("Decode(Decode(%q)) = %q, want %q", tt.body, again, got)
			}
		})
	}
}

// TestDecodeNoCopy checks the fast path: valid UTF-8 declared as UTF-8 or
// not declared comes back as the same slice.
func TestDecodeNoCopy(t *testing.T) {
	tests := []struct {
		name, body, contentType string
	}{
		{"undeclared", "<p>plain ascii</p>", ""},
		{"undeclared non-ASCII", "<p>naïve</p>", ""},
		{"meta UTF-8", `<meta charset="UTF-8"><p>naïve</p>`, ""},
		{"header UTF-8", "<p>naïve</p>", "text/html; charset=utf-8"},
		{"UTF-8 BOM", "\ufeff<p>naïve</p>", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := []byte(tt.body)
			got, _, err := Decode(body, tt.contentType)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(body) || &got[0] != &body[0] {
				t.Errorf("Decode(%q, %q) copied the page", tt.body, tt.contentType)
			}
		})
	}
}

// TestRenderCharsets renders encoded pages: the words come out right.
func TestRenderCharsets(t *testing.T) {
	tests := []struct {
		name        string
		body        []byte
		contentType string
		want        string
	}{
		{"windows-1252 meta", encode(t, charmap.Windows1252, `<meta charset="windows-1252"><title>x</title><p>Résumé — “done”</p>`), "", "Résumé — “done”\n"},
		{"UTF-16 BOM", append([]byte{0xff, 0xfe}, encode(t, unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "<p>Grüße</p>")...), "", "Grüße\n"},
		{"Shift_JIS header", encode(t, japanese.ShiftJIS, "<p>東京</p>"), "text/html; charset=shift_jis", "東京\n"},
		{"lying meta", encode(t, charmap.ISO8859_1, `<meta charset="utf-8">`+frenchProse), "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Render(tt.body, tt.contentType)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				// Only the words matter here: they must be French.
				if !strings.Contains(got, "lexicales sont très utiles") {
					t.Errorf("Render(%q) = %q, want the accented words decoded", tt.body, got)
				}
				return
			}
			if got != tt.want {
				t.Errorf("Render(%q, %q) = %q, want %q", tt.body, tt.contentType, got, tt.want)
			}
		})
	}
}

// TestDecodeDeterministic decodes a page whose charset must be detected
// many times: the detector runs concurrently inside, but the answer must
// not change between calls.
func TestDecodeDeterministic(t *testing.T) {
	for _, body := range [][]byte{[]byte("\xe9acA\xe8"), []byte("x\x80\x81y"), encode(t, charmap.ISO8859_1, frenchProse)} {
		first, firstName, _ := Decode(body, "")
		for range 50 {
			got, name, _ := Decode(body, "")
			if name != firstName || !bytes.Equal(got, first) {
				t.Fatalf("Decode(%q) = %q (%s), earlier %q (%s)", body, got, name, first, firstName)
			}
		}
	}
}
