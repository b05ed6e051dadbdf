package filter

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"net/http"
	"strings"
	"testing"
	"unicode/utf16"
)

// zipOf returns a ZIP archive holding empty files with the given names.
func zipOf(t testing.TB, names ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, n := range names {
		f, err := w.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte("<x/>")); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// gzipOf returns s gzip-compressed.
func gzipOf(t testing.TB, s string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// ole2 returns the start of an OLE2 compound document whose directory
// holds a stream called name ("" for none): the signature, padding, and the
// UTF-16LE directory entry name as Office writes it.
func ole2(name string) []byte {
	b := append([]byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"), make([]byte, 504)...)
	b = append(b, utf16LE("Root Entry")...)
	b = append(b, make([]byte, 108)...)
	if name != "" {
		b = append(b, utf16LE(name)...)
		b = append(b, 0, 0)
	}
	return append(b, make([]byte, 64)...)
}

// utf16Bytes encodes s as UTF-16 in the given byte order, with or without a
// byte order mark.
func utf16Bytes(s string, bigEndian, bom bool) []byte {
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xFEFF}, units...)
	}
	var b []byte
	for _, u := range units {
		if bigEndian {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return b
}

// header returns an http.Header with the given Content-Type.
func header(contentType string) http.Header {
	return http.Header{"Content-Type": {contentType}}
}

// TestSniff checks file type detection (§3.1 "Filetypes"): the header is
// trusted when it says something, the bytes are sniffed like file(1)
// otherwise, and obvious binary under a text/html header is not HTML.
func TestSniff(t *testing.T) {
	const page = "<!DOCTYPE html><html><head><title>T</title></head><body><p>Hello</p></body></html>"
	binaryJunk := bytes.Repeat([]byte{0, 1, 2, 3, 'a', 0, 0, 0x10}, 64)
	tests := []struct {
		name   string
		header http.Header
		body   []byte
		want   FileType
	}{
		// The header is trusted.
		{"text/html", header("text/html"), []byte(page), TypeHTML},
		{"text/html with charset", header("text/html; charset=utf-8"), []byte(page), TypeHTML},
		{"upper case type", header("TEXT/HTML"), []byte(page), TypeHTML},
		{"malformed parameter", header("text/html; charset"), []byte(page), TypeHTML},
		{"xhtml", header("application/xhtml+xml"), []byte(page), TypeHTML},
		{"html header, text body", header("text/html"), []byte("just some words"), TypeHTML},
		{"html header, empty body", header("text/html"), nil, TypeHTML},
		{"pdf header over html body", header("application/pdf"), []byte(page), TypePDF},
		{"text header over html body", header("text/plain"), []byte(page), TypeText},
		{"msword", header("application/msword"), nil, TypeMSWord},
		{"docx", header("application/vnd.openxmlformats-officedocument.wordprocessingml.document"), nil, TypeDOCX},
		{"powerpoint", header("application/vnd.ms-powerpoint"), nil, TypeMSPowerPoint},
		{"pptx", header("application/vnd.openxmlformats-officedocument.presentationml.presentation"), nil, TypePPTX},
		{"excel", header("application/vnd.ms-excel"), nil, TypeMSExcel},
		{"xlsx", header("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), nil, TypeXLSX},
		{"rss header", header("application/rss+xml"), nil, TypeRSS},
		{"atom header", header("application/atom+xml"), nil, TypeAtom},
		{"rdf header", header("application/rdf+xml"), nil, TypeRDF},
		{"svg is xml", header("image/svg+xml"), nil, TypeImage},
		{"other +xml", header("application/vnd.google-earth.kml+xml"), nil, TypeXML},
		{"text/xml refined to rss", header("text/xml"), []byte(`<?xml version="1.0"?><rss version="2.0"><channel/></rss>`), TypeRSS},
		{"text/xml plain", header("text/xml"), []byte(`<?xml version="1.0"?><urlset/>`), TypeXML},
		{"gzip header", header("application/x-gzip"), nil, TypeGZip},
		{"zip header", header("application/zip"), nil, TypeZip},
		{"css", header("text/css"), nil, TypeCode},
		{"javascript", header("application/javascript"), nil, TypeCode},
		{"json", header("application/json"), nil, TypeCode},
		{"text/x-python", header("text/x-python"), nil, TypeCode},
		{"csv", header("text/csv"), nil, TypeText},
		{"png header", header("image/png"), nil, TypeImage},
		{"video", header("video/mp4"), nil, TypeBinary},
		{"unknown application type", header("application/x-shockwave-flash"), nil, TypeBinary},
		// A meaningless header means sniffing.
		{"octet-stream", header("application/octet-stream"), []byte("%PDF-1.4\n"), TypePDF},
		{"octet-stream html", header("application/octet-stream"), []byte(page), TypeHTML},
		{"no header", nil, []byte(page), TypeHTML},
		{"empty header value", header(""), []byte(page), TypeHTML},
		{"nonsense header", header("nonsense"), []byte("%PDF-1.7"), TypePDF},
		// Obvious binary is not HTML, whatever the header says.
		{"pdf under text/html", header("text/html"), []byte("%PDF-1.5\n%\xE2\xE3\xCF\xD3\n"), TypePDF},
		{"png under text/html", header("text/html"), []byte("\x89PNG\r\n\x1A\n\x00\x00\x00\x0DIHDR"), TypeImage},
		{"gzip under text/html", header("text/html"), gzipOf(t, page), TypeGZip},
		{"NULs under text/html", header("text/html"), binaryJunk, TypeBinary},
		{"word under text/html", header("text/html"), ole2("WordDocument"), TypeMSWord},
		{"a stray NUL under text/html", header("text/html"), []byte(page + "\x00"), TypeHTML},
		// Sniffing the bytes.
		{"empty", nil, nil, TypeEmpty},
		{"pdf", nil, []byte("%PDF-1.4\n1 0 obj"), TypePDF},
		{"word", nil, ole2("WordDocument"), TypeMSWord},
		{"powerpoint", nil, ole2("PowerPoint Document"), TypeMSPowerPoint},
		{"excel", nil, ole2("Workbook"), TypeMSExcel},
		{"old excel", nil, ole2("Book"), TypeMSExcel},
		{"other OLE2", nil, ole2(""), TypeMSOffice},
		{"docx", nil, zipOf(t, "[Content_Types].xml", "_rels/.rels", "word/document.xml"), TypeDOCX},
		{"pptx", nil, zipOf(t, "[Content_Types].xml", "ppt/presentation.xml"), TypePPTX},
		{"xlsx", nil, zipOf(t, "[Content_Types].xml", "xl/workbook.xml"), TypeXLSX},
		{"plain zip", nil, zipOf(t, "readme.txt", "src/word/x.go"), TypeZip},
		{"empty zip", nil, zipOf(t), TypeZip},
		{"truncated zip", nil, []byte("PK\x03\x04\x14\x00"), TypeZip},
		{"gzip", nil, gzipOf(t, "hello"), TypeGZip},
		{"png", nil, []byte("\x89PNG\r\n\x1A\n\x00\x00\x00\x0DIHDR"), TypeImage},
		{"jpeg", nil, []byte("\xFF\xD8\xFF\xE0\x00\x10JFIF\x00"), TypeImage},
		{"gif", nil, []byte("GIF89a\x01\x00\x01\x00"), TypeImage},
		{"webp", nil, []byte("RIFF\x24\x00\x00\x00WEBPVP8 "), TypeImage},
		{"binary", nil, binaryJunk, TypeBinary},
		{"elf", nil, append([]byte("\x7FELF\x02\x01\x01"), make([]byte, 100)...), TypeBinary},
		{"doctype", nil, []byte("<!DOCTYPE html>\n<title>x</title>"), TypeHTML},
		{"lowercase doctype", nil, []byte("<!doctype html><p>x"), TypeHTML},
		{"xhtml doctype", nil, []byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
			`<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x.dtd">` + "\n" +
			`<html xmlns="http://www.w3.org/1999/xhtml">`), TypeHTML},
		{"xml then html element", nil, []byte(`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body/></html>`), TypeHTML},
		{"BOM, space and comments", nil, []byte("\xEF\xBB\xBF \n<!-- a -->\n<!-- b --><HTML><BODY>x"), TypeHTML},
		{"first element p", nil, []byte("<p>A paragraph</p>"), TypeHTML},
		{"first element a", nil, []byte(`<a href="x">link</a>`), TypeHTML},
		{"first element div", nil, []byte("<div class=x>y</div>"), TypeHTML},
		{"first element table", nil, []byte("<TABLE><TR><TD>1</TD></TR></TABLE>"), TypeHTML},
		{"element name prefix is not html", nil, []byte("<abbrev>x</abbrev>"), TypeXML},
		{"rss", nil, []byte(`<?xml version="1.0"?>` + "\n" + `<rss version="2.0"><channel>`), TypeRSS},
		{"rss 0.91 doctype", nil, []byte(`<?xml version="1.0"?><!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "x"><rss version="0.91">`), TypeRSS},
		{"atom", nil, []byte(`<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>x</title>`), TypeAtom},
		{"feed without atom namespace", nil, []byte(`<?xml version="1.0"?><feed><entry/></feed>`), TypeXML},
		{"rdf", nil, []byte(`<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">`), TypeRDF},
		{"stylesheet instruction", nil, []byte(`<?xml version="1.0"?><?xml-stylesheet href="a.xsl"?><rss>`), TypeRSS},
		{"xml", nil, []byte(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`), TypeXML},
		{"xml declaration only", nil, []byte(`<?xml version="1.0"?>`), TypeXML},
		{"unterminated comment", nil, []byte("<!-- never ends"), TypeText},
		{"shebang", nil, []byte("#!/bin/sh\necho hello\n"), TypeCode},
		{"php", nil, []byte("<?php echo 'hi'; ?>"), TypeCode},
		{"c", nil, []byte("#include <stdio.h>\nint main(void) { return 0; }\n"), TypeCode},
		{"go", nil, []byte("package main\n\nfunc main() {}\n"), TypeCode},
		{"javascript", nil, []byte("function f(x) { return x; }\n"), TypeCode},
		{"plain text", nil, []byte("Just a letter to a friend.\nSee you soon.\n"), TypeText},
		{"latin-1 text", nil, []byte("Caf\xE9 cr\xE8me br\xFBl\xE9e, na\xEFve r\xE9sum\xE9.\n"), TypeText},
		{"text before html", nil, []byte("Content-type: text/html\n\n<html><body>x"), TypeHTML},
		{"less-than in text", nil, []byte("1 < 2 and 3 > 2"), TypeText},
		{"utf-16le with bom", nil, utf16Bytes("<html><body>x</body></html>", false, true), TypeHTML},
		{"utf-16be with bom", nil, utf16Bytes("<!DOCTYPE html><p>x", true, true), TypeHTML},
		{"utf-16le without bom", nil, utf16Bytes("<html><body>hello</body></html>", false, false), TypeHTML},
		{"utf-16 text", nil, utf16Bytes("plain words only", false, true), TypeText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sniff(tt.header, tt.body); got != tt.want {
				t.Errorf("Sniff(%v, %.40q) = %q, want %q", tt.header, tt.body, got, tt.want)
			}
		})
	}
}

// TestCategory checks that every file type lands in a row of the paper's
// Table "Filetypes" or says which row it would need.
func TestCategory(t *testing.T) {
	tests := []struct {
		t    FileType
		want string
	}{
		{TypeHTML, "HTML"},
		{TypePDF, "PDF"},
		{TypeCode, "Code"},
		{TypeMSWord, "MS Word"},
		{TypeDOCX, "MS Word"},
		{TypeMSPowerPoint, "MS PowerPoint"},
		{TypePPTX, "MS PowerPoint"},
		{TypeMSExcel, "Excel"},
		{TypeXLSX, "Excel"},
		{TypeMSOffice, "MS Office"},
		{TypeRSS, "RSS"},
		{TypeAtom, "Atom"},
		{TypeRDF, "RDF"},
		{TypeXML, "XML"},
		{TypeGZip, "GZip"},
		{TypeZip, "Zip"},
		{TypeText, "Text"},
		{TypeImage, "Image"},
		{TypeBinary, "Other Binary"},
		{TypeEmpty, "Empty"},
		{FileType("no such type"), "Other Binary"},
	}
	for _, tt := range tests {
		t.Run(string(tt.t), func(t *testing.T) {
			if got := tt.t.Category(); got != tt.want {
				t.Errorf("FileType(%q).Category() = %q, want %q", tt.t, got, tt.want)
			}
		})
	}
}

// TestCheckFileType checks the file type filter's decision and that its
// reason says what was detected and from where.
func TestCheckFileType(t *testing.T) {
	tests := []struct {
		name   string
		page   Page
		reason string // "" when kept
	}{
		{"html header", Page{Header: header("text/html"), Body: []byte("<p>x")}, ""},
		{"sniffed html", Page{Body: []byte("<html>x")}, ""},
		{"pdf header", Page{Header: header("application/pdf; qs=0.9"), Body: []byte("%PDF-1.4")},
			`pdf, from Content-Type "application/pdf"`},
		{"sniffed pdf", Page{Header: header("application/octet-stream"), Body: []byte("%PDF-1.4")},
			"pdf, sniffed from the body"},
		{"lying header", Page{Header: header("text/html"), Body: []byte("%PDF-1.4")},
			`pdf, sniffed from the body, although Content-Type says "text/html"`},
		{"refined xml", Page{Header: header("application/xml"), Body: []byte("<rss>")},
			`rss, from Content-Type "application/xml" and the body`},
		{"empty", Page{}, "empty, sniffed from the body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := checkFileType(&tt.page)
			switch {
			case tt.reason == "" && r != nil:
				t.Errorf("checkFileType(%.40q) = %v, want kept", tt.page.Body, r)
			case tt.reason != "" && (r == nil || *r != Rejection{Filter: FilterFileType, Reason: tt.reason}):
				t.Errorf("checkFileType(%.40q) = %v, want %s: %s", tt.page.Body, r, FilterFileType, tt.reason)
			}
		})
	}
}

// FuzzSniff checks that Sniff never panics and always names a type, and
// that a body it calls binary is never passed as HTML under a text/html
// header.
func FuzzSniff(f *testing.F) {
	f.Add("text/html", []byte("<!DOCTYPE html><p>x"))
	f.Add("", []byte("%PDF-1.4"))
	f.Add("application/octet-stream", ole2("WordDocument"))
	f.Add("", zipOf(f, "word/document.xml"))
	f.Add("text/xml", []byte(`<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom">`))
	f.Add("", utf16Bytes("<html>", false, true))
	f.Add("", []byte("<!-- x --><?x y?><!DOCTYPE z><"))
	f.Add("text/html; charset=\"", []byte("PK\x03\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\xff\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, contentType string, body []byte) {
		got := Sniff(header(contentType), body)
		if got == "" || strings.TrimSpace(got.Category()) == "" {
			t.Fatalf("Sniff(%q, %q) = %q", contentType, body, got)
		}
		if SniffBody(body).isBinary() && Sniff(header("text/html"), body) == TypeHTML {
			t.Fatalf("Sniff(text/html, %q) = html for a binary body", body)
		}
	})
}
