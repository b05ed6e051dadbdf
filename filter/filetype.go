package filter

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// FileType is the kind of a representation as the file type filter sees it
// (§3.1 "Filetypes"). Its values are short lowercase names; [FileType.Category]
// maps them to the rows of the paper's Table "Filetypes".
type FileType string

// The file types [Sniff] reports. Only [TypeHTML] passes the file type filter.
const (
	// TypeHTML is HTML or XHTML (text/html, application/xhtml+xml).
	TypeHTML FileType = "html"
	// TypePDF is a PDF document.
	TypePDF FileType = "pdf"
	// TypeCode is program source or data meant for programs: JavaScript,
	// CSS, JSON, PHP, shell and other scripts.
	TypeCode FileType = "code"
	// TypeMSWord is a Microsoft Word document in the binary (OLE2) format.
	TypeMSWord FileType = "msword"
	// TypeMSPowerPoint is a Microsoft PowerPoint presentation in the binary
	// (OLE2) format.
	TypeMSPowerPoint FileType = "mspowerpoint"
	// TypeMSExcel is a Microsoft Excel workbook in the binary (OLE2) format.
	TypeMSExcel FileType = "msexcel"
	// TypeMSOffice is an OLE2 compound document whose application could not
	// be told from its bytes.
	TypeMSOffice FileType = "msoffice"
	// TypeDOCX is an Office Open XML word-processing document.
	TypeDOCX FileType = "docx"
	// TypePPTX is an Office Open XML presentation.
	TypePPTX FileType = "pptx"
	// TypeXLSX is an Office Open XML spreadsheet.
	TypeXLSX FileType = "xlsx"
	// TypeRSS is an RSS feed (the <rss> vocabulary).
	TypeRSS FileType = "rss"
	// TypeAtom is an Atom feed.
	TypeAtom FileType = "atom"
	// TypeRDF is an RDF/XML document, which includes RSS 1.0 feeds.
	TypeRDF FileType = "rdf"
	// TypeXML is any other XML document.
	TypeXML FileType = "xml"
	// TypeGZip is gzip-compressed data.
	TypeGZip FileType = "gzip"
	// TypeZip is a ZIP archive that is not an Office Open XML document.
	TypeZip FileType = "zip"
	// TypeText is plain text, and any text/* media type not listed above.
	TypeText FileType = "text"
	// TypeImage is an image (image/*, or PNG, JPEG, GIF, WebP or TIFF bytes).
	TypeImage FileType = "image"
	// TypeBinary is any other binary data: audio, video, executables, fonts,
	// unknown application/* media types, and bytes with many NUL or control
	// bytes.
	TypeBinary FileType = "binary"
	// TypeEmpty is an empty body without a meaningful Content-Type.
	TypeEmpty FileType = "empty"
)

// Category returns the row of the paper's Table "Filetypes" that t belongs
// to: "HTML", "PDF", "Code", "MS Word", "MS PowerPoint", "RSS", "Excel",
// "GZip", "Other Binary", "Atom" or "RDF". Types the table has no row for
// return "MS Office" (an OLE2 document of unknown application), "XML",
// "Zip", "Text", "Image" or "Empty"; an unknown value returns "Other Binary".
func (t FileType) Category() string {
	switch t {
	case TypeHTML:
		return "HTML"
	case TypePDF:
		return "PDF"
	case TypeCode:
		return "Code"
	case TypeMSWord, TypeDOCX:
		return "MS Word"
	case TypeMSPowerPoint, TypePPTX:
		return "MS PowerPoint"
	case TypeMSExcel, TypeXLSX:
		return "Excel"
	case TypeMSOffice:
		return "MS Office"
	case TypeRSS:
		return "RSS"
	case TypeAtom:
		return "Atom"
	case TypeRDF:
		return "RDF"
	case TypeXML:
		return "XML"
	case TypeGZip:
		return "GZip"
	case TypeZip:
		return "Zip"
	case TypeText:
		return "Text"
	case TypeImage:
		return "Image"
	case TypeEmpty:
		return "Empty"
	}
	return "Other Binary"
}

// isBinary reports whether t is a type whose bytes cannot be an HTML page
// under any header.
func (t FileType) isBinary() bool {
	switch t {
	case TypePDF, TypeMSWord, TypeMSPowerPoint, TypeMSExcel, TypeMSOffice,
		TypeDOCX, TypePPTX, TypeXLSX, TypeGZip, TypeZip, TypeImage, TypeBinary:
		return true
	}
	return false
}

// Sniff returns the file type of a representation, the way the paper decided
// it (§3.1 "Filetypes"): when the header's Content-Type is present and
// meaningful it is trusted; otherwise the body's bytes are examined as the
// Unix file command would (see [SniffBody]). A Content-Type is not meaningful
// when it is missing, unparsable, or a catch-all such as
// application/octet-stream, binary/octet-stream or application/unknown.
//
// Sniff departs from trusting the header in one direction only: when the
// header says HTML but the bytes are clearly not text (a PDF, Office, ZIP,
// gzip or image signature, or NUL and control bytes), it returns the type of
// the bytes, since a server that labels a PDF text/html is wrong and the page
// could not be rendered anyway. A header naming a non-HTML type is always
// believed, even when the body looks like HTML, as in the paper. A generic XML
// Content-Type (text/xml, application/xml) is refined to [TypeRSS],
// [TypeAtom] or [TypeRDF] when the body is one of those.
//
// header may be nil. Sniff reads at most the first few kilobytes of body,
// except to tell Office formats apart, which scans the whole body once.
func Sniff(header http.Header, body []byte) FileType {
	t, _ := sniff(header, body)
	return t
}

// sniff returns the file type and a phrase saying where it came from, for the
// rejection reason.
func sniff(header http.Header, body []byte) (FileType, string) {
	ct := header.Get("Content-Type")
	mediaType := parseMediaType(ct)
	t, ok := typeOfMediaType(mediaType)
	if !ok {
		return SniffBody(body), "sniffed from the body"
	}
	from := fmt.Sprintf("from Content-Type %q", mediaType)
	switch t {
	case TypeHTML:
		if bt := SniffBody(body); bt.isBinary() {
			return bt, fmt.Sprintf("sniffed from the body, although Content-Type says %q", mediaType)
		}
	case TypeXML:
		switch bt := SniffBody(body); bt {
		case TypeRSS, TypeAtom, TypeRDF:
			return bt, from + " and the body"
		}
	}
	return t, from
}

// parseMediaType returns the lowercase media type of a Content-Type value
// without its parameters, or "" when there is none.
func parseMediaType(ct string) string {
	if mt, _, err := mime.ParseMediaType(ct); err == nil {
		if !strings.Contains(mt, "/") {
			return ""
		}
		return mt
	}
	// A malformed parameter makes ParseMediaType fail even when the type
	// itself is fine ("text/html; charset"): keep the type.
	mt, _, _ := strings.Cut(ct, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	if strings.Count(mt, "/") != 1 || strings.ContainsAny(mt, " \t\"") {
		return ""
	}
	return mt
}

// meaninglessTypes are media types that say nothing about the content.
var meaninglessTypes = map[string]bool{
	"":                           true,
	"application/octet-stream":   true,
	"binary/octet-stream":        true,
	"application/binary":         true,
	"application/unknown":        true,
	"application/x-unknown":      true,
	"unknown/unknown":            true,
	"application/download":       true,
	"application/force-download": true,
	"application/x-download":     true,
	"*/*":                        true,
}

// mediaTypes maps specific media types to file types; typeOfMediaType
// handles families (image/*, text/*, +xml) by rule.
var mediaTypes = map[string]FileType{
	"text/html":                     TypeHTML,
	"application/xhtml+xml":         TypeHTML,
	"text/x-server-parsed-html":     TypeHTML,
	"application/pdf":               TypePDF,
	"application/x-pdf":             TypePDF,
	"application/acrobat":           TypePDF,
	"application/msword":            TypeMSWord,
	"application/vnd.ms-word":       TypeMSWord,
	"application/vnd.ms-powerpoint": TypeMSPowerPoint,
	"application/mspowerpoint":      TypeMSPowerPoint,
	"application/vnd.ms-excel":      TypeMSExcel,
	"application/excel":             TypeMSExcel,
	"application/x-excel":           TypeMSExcel,
	"application/x-msexcel":         TypeMSExcel,
	"application/rss+xml":           TypeRSS,
	"application/atom+xml":          TypeAtom,
	"application/rdf+xml":           TypeRDF,
	"application/xml":               TypeXML,
	"text/xml":                      TypeXML,
	"application/gzip":              TypeGZip,
	"application/x-gzip":            TypeGZip,
	"application/zip":               TypeZip,
	"application/x-zip":             TypeZip,
	"application/x-zip-compressed":  TypeZip,
	"text/css":                      TypeCode,
	"text/javascript":               TypeCode,
	"text/ecmascript":               TypeCode,
	"application/javascript":        TypeCode,
	"application/x-javascript":      TypeCode,
	"application/ecmascript":        TypeCode,
	"application/json":              TypeCode,
	"application/x-sh":              TypeCode,
	"application/x-csh":             TypeCode,
	"application/x-perl":            TypeCode,
	"application/x-python":          TypeCode,
	"application/x-php":             TypeCode,
	"application/x-httpd-php":       TypeCode,
	"application/x-ruby":            TypeCode,
}

// typeOfMediaType returns the file type a media type names, and false when
// the media type is not meaningful and the body must be sniffed instead.
func typeOfMediaType(mt string) (FileType, bool) {
	if meaninglessTypes[mt] {
		return "", false
	}
	if t, ok := mediaTypes[mt]; ok {
		return t, true
	}
	top, sub, _ := strings.Cut(mt, "/")
	switch {
	case strings.HasPrefix(mt, "application/vnd.openxmlformats-officedocument.wordprocessingml"):
		return TypeDOCX, true
	case strings.HasPrefix(mt, "application/vnd.openxmlformats-officedocument.presentationml"):
		return TypePPTX, true
	case strings.HasPrefix(mt, "application/vnd.openxmlformats-officedocument.spreadsheetml"):
		return TypeXLSX, true
	case strings.HasPrefix(mt, "application/vnd.ms-word"):
		return TypeMSWord, true
	case strings.HasPrefix(mt, "application/vnd.ms-powerpoint"):
		return TypeMSPowerPoint, true
	case strings.HasPrefix(mt, "application/vnd.ms-excel"):
		return TypeMSExcel, true
	case top == "image":
		return TypeImage, true
	case strings.HasSuffix(sub, "+xml"):
		return TypeXML, true
	case strings.HasSuffix(sub, "+json"):
		return TypeCode, true
	case top == "text" && strings.HasPrefix(sub, "x-"):
		return TypeCode, true
	case top == "text":
		return TypeText, true
	}
	return TypeBinary, true
}

// sniffLen is how much of the body the text tests look at, like the first
// block the file command reads.
const sniffLen = 2048

// SniffBody returns the file type of body judged from its bytes alone, in the
// manner of the Unix file command the paper used when the server gave no
// type (§3.1 "Filetypes"):
//
//   - magic numbers: "%PDF-" ([TypePDF]); the OLE2 signature D0 CF 11 E0
//     ([TypeMSWord], [TypeMSPowerPoint] or [TypeMSExcel] when the document's
//     directory names its stream, else [TypeMSOffice]); a ZIP local header
//     ([TypeDOCX], [TypePPTX], [TypeXLSX] when an entry lies under word/,
//     ppt/ or xl/, else [TypeZip]); gzip's 1F 8B ([TypeGZip]); PNG, JPEG,
//     GIF, WebP and TIFF ([TypeImage]);
//   - [TypeBinary] when more than 1 in 20 of the first 2 KB are NUL or
//     control bytes (UTF-16 text, with or without a byte order mark, is
//     decoded first and is not binary);
//   - markup, after a byte order mark, white space, comments, an XML
//     declaration, processing instructions and a non-HTML doctype: an HTML
//     doctype or a first element that is an HTML element (html, head, body,
//     a, p, div, table, ...) gives [TypeHTML]; <rss> gives [TypeRSS];
//     <feed> with an Atom namespace gives [TypeAtom]; <rdf:RDF> gives
//     [TypeRDF]; any other first element gives [TypeXML];
//   - text that starts like source code ("#!", "<?php", "#include",
//     "package ", "function ", ...) gives [TypeCode];
//   - other text gives [TypeHTML] when its first 2 KB contain "<html",
//     "<head", "<body" or "<title", and [TypeText] otherwise.
//
// An empty body is [TypeEmpty].
func SniffBody(body []byte) FileType {
	if len(body) == 0 {
		return TypeEmpty
	}
	switch {
	case bytes.HasPrefix(body, []byte("%PDF-")):
		return TypePDF
	case bytes.HasPrefix(body, []byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1")):
		return sniffOLE2(body)
	case bytes.HasPrefix(body, []byte("PK\x03\x04")), bytes.HasPrefix(body, []byte("PK\x05\x06")):
		return sniffZip(body)
	case bytes.HasPrefix(body, []byte("\x1F\x8B")):
		return TypeGZip
	case bytes.HasPrefix(body, []byte("\x89PNG\r\n\x1A\n")),
		bytes.HasPrefix(body, []byte("\xFF\xD8\xFF")),
		bytes.HasPrefix(body, []byte("GIF87a")),
		bytes.HasPrefix(body, []byte("GIF89a")),
		bytes.HasPrefix(body, []byte("II*\x00")),
		bytes.HasPrefix(body, []byte("MM\x00*")),
		len(body) >= 12 && bytes.HasPrefix(body, []byte("RIFF")) && string(body[8:12]) == "WEBP":
		return TypeImage
	}
	head := body[:min(len(body), sniffLen)]
	if text, ok := decodeUTF16(head); ok {
		head = text
	} else if looksBinary(head) {
		return TypeBinary
	}
	return sniffText(head)
}

// sniffOLE2 tells Word, PowerPoint and Excel apart by the name of their main
// stream, which the compound document's directory stores in UTF-16LE.
func sniffOLE2(body []byte) FileType {
	switch {
	case bytes.Contains(body, utf16LE("WordDocument")):
		return TypeMSWord
	case bytes.Contains(body, utf16LE("PowerPoint Document")):
		return TypeMSPowerPoint
	case bytes.Contains(body, utf16LE("Workbook")), bytes.Contains(body, utf16LE("Book\x00")):
		return TypeMSExcel
	}
	return TypeMSOffice
}

// utf16LE encodes an ASCII string as UTF-16LE.
func utf16LE(s string) []byte {
	b := make([]byte, 0, 2*len(s))
	for i := 0; i < len(s); i++ {
		b = append(b, s[i], 0)
	}
	return b
}

// sniffZip looks at the names in the archive's local file headers (so that a
// body cut short by the fetcher still works) for Office Open XML folders.
func sniffZip(body []byte) FileType {
	sig := []byte("PK\x03\x04")
	for i := 0; ; {
		j := bytes.Index(body[i:], sig)
		if j < 0 {
			return TypeZip
		}
		h := body[i+j:]
		i += j + len(sig)
		if len(h) < 30 {
			return TypeZip
		}
		n := int(binary.LittleEndian.Uint16(h[26:28]))
		if len(h) < 30+n {
			return TypeZip
		}
		name := string(h[30 : 30+n])
		switch {
		case strings.HasPrefix(name, "word/"):
			return TypeDOCX
		case strings.HasPrefix(name, "ppt/"):
			return TypePPTX
		case strings.HasPrefix(name, "xl/"):
			return TypeXLSX
		}
	}
}

// decodeUTF16 decodes head to UTF-8 when it is UTF-16 text: it starts with a
// UTF-16 byte order mark, or every other byte of it is NUL and the rest are
// printable ASCII, as in "<\x00h\x00t\x00m\x00l\x00".
func decodeUTF16(head []byte) ([]byte, bool) {
	var order binary.ByteOrder
	switch {
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}) && !bytes.HasPrefix(head, []byte{0xFF, 0xFE, 0, 0}):
		order, head = binary.LittleEndian, head[2:]
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		order, head = binary.BigEndian, head[2:]
	case len(head) >= 8 && alternatingNUL(head, 1):
		order = binary.LittleEndian
	case len(head) >= 8 && alternatingNUL(head, 0):
		order = binary.BigEndian
	default:
		return nil, false
	}
	units := make([]uint16, len(head)/2)
	for i := range units {
		units[i] = order.Uint16(head[2*i:])
	}
	var b []byte
	for _, r := range utf16.Decode(units) {
		b = utf8.AppendRune(b, r)
	}
	return b, true
}

// alternatingNUL reports whether the bytes of head at positions of parity
// nulAt are all NUL and the others all printable ASCII or white space.
func alternatingNUL(head []byte, nulAt int) bool {
	head = head[:len(head)&^1]
	for i, c := range head {
		if i%2 == nulAt {
			if c != 0 {
				return false
			}
		} else if c < 0x20 && !isSpace(c) || c >= 0x7F {
			return false
		}
	}
	return true
}

// looksBinary reports whether more than 1 in 20 bytes of head are NUL or
// control bytes other than white space and escape, which no text has.
func looksBinary(head []byte) bool {
	bad := 0
	for _, c := range head {
		if c < 0x20 && !isSpace(c) && c != 0x1B || c == 0x7F {
			bad++
		}
	}
	return bad*20 > len(head)
}

// isSpace reports whether c is ASCII white space (including form feed and
// vertical tab).
func isSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\f', '\v':
		return true
	}
	return false
}

// htmlElements are the element names that make markup HTML when one of them
// is the first element.
var htmlElements = map[string]bool{
	"html": true, "head": true, "body": true, "title": true, "meta": true,
	"link": true, "base": true, "script": true, "style": true, "noscript": true,
	"a": true, "p": true, "div": true, "span": true, "br": true, "hr": true,
	"b": true, "i": true, "u": true, "em": true, "strong": true, "font": true,
	"center": true, "img": true, "table": true, "tr": true, "td": true,
	"th": true, "ul": true, "ol": true, "li": true, "dl": true, "pre": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"form": true, "input": true, "iframe": true, "frameset": true,
	"blockquote": true, "header": true, "nav": true, "main": true,
	"section": true, "article": true, "footer": true,
}

// codePrefixes start source files often enough to name them code.
var codePrefixes = []string{
	"#!", "<?php", "<%@", "#include", "#define", "package ", "import ",
	"function ", "var ", "const ", "let ", "\"use strict\"", "'use strict'",
	"/*", "// ", "@charset", "@import", "def ", "use strict;",
}

// sniffText classifies the first bytes of a body that is text.
func sniffText(head []byte) FileType {
	s := string(bytes.TrimPrefix(head, []byte("\xEF\xBB\xBF")))
	lower := strings.ToLower(s)
	xmlDecl := false
	for i := 0; ; {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		rest, lrest := s[i:], lower[i:]
		switch {
		case strings.HasPrefix(rest, "<!--"):
			end := strings.Index(rest[4:], "-->")
			if end < 0 {
				return fallbackText(lower, xmlDecl)
			}
			i += 4 + end + 3
			continue
		case strings.HasPrefix(lrest, "<?php"):
			return TypeCode
		case strings.HasPrefix(rest, "<?"):
			xmlDecl = xmlDecl || strings.HasPrefix(lrest, "<?xml")
			end := strings.Index(rest, "?>")
			if end < 0 {
				return fallbackText(lower, xmlDecl)
			}
			i += end + 2
			continue
		case strings.HasPrefix(lrest, "<!doctype"):
			if strings.HasPrefix(strings.TrimLeft(lrest[len("<!doctype"):], " \t\r\n\f"), "html") {
				return TypeHTML
			}
			end := strings.IndexByte(rest, '>')
			if end < 0 {
				return fallbackText(lower, xmlDecl)
			}
			i += end + 1
			continue
		case strings.HasPrefix(rest, "<"):
			return sniffElement(lrest, lower, xmlDecl)
		}
		for _, p := range codePrefixes {
			if strings.HasPrefix(rest, p) {
				return TypeCode
			}
		}
		return fallbackText(lower, xmlDecl)
	}
}

// sniffElement classifies markup by its first element; lrest starts with "<"
// and is lowercase.
func sniffElement(lrest, lower string, xmlDecl bool) FileType {
	n := 1
	for n < len(lrest) && isNameByte(lrest[n]) {
		n++
	}
	name := lrest[1:n]
	if name == "" {
		return fallbackText(lower, xmlDecl)
	}
	if n < len(lrest) && !isSpace(lrest[n]) && lrest[n] != '>' && lrest[n] != '/' {
		return fallbackText(lower, xmlDecl)
	}
	switch {
	case htmlElements[name]:
		return TypeHTML
	case name == "rss":
		return TypeRSS
	case name == "rdf:rdf":
		return TypeRDF
	case name == "feed" && strings.Contains(lower, "/atom"):
		return TypeAtom
	}
	return TypeXML
}

// isNameByte reports whether c can be part of a markup name.
func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == ':' || c == '-' || c == '_' || c == '.'
}

// fallbackText classifies text that does not start with recognisable
// markup.
func fallbackText(lower string, xmlDecl bool) FileType {
	for _, m := range []string{"<html", "<head", "<body", "<title"} {
		if strings.Contains(lower, m) {
			return TypeHTML
		}
	}
	if xmlDecl {
		return TypeXML
	}
	return TypeText
}

// checkFileType is the file type filter: only HTML passes (§3.1
// "Filetypes"). The reason names the type and where it came from, for
// example `pdf, from Content-Type "application/pdf"`.
func checkFileType(p *Page) *Rejection {
	t, from := sniff(p.Header, p.Body)
	if t == TypeHTML {
		return nil
	}
	return &Rejection{Filter: FilterFileType, Reason: string(t) + ", " + from}
}
