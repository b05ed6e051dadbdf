package ingest

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// keepAll is a rewrite that changes nothing.
func keepAll(href string) (string, bool) { return href, true }

// upper rewrites every href to its upper-case form.
func upper(href string) (string, bool) { return strings.ToUpper(href), true }

// TestScanPageKeepsBytes checks that a page whose hrefs do not change is
// copied byte for byte, whatever its markup: the store serves what the file
// holds (package documentation, "Stored HTML").
func TestScanPageKeepsBytes(t *testing.T) {
	tests := []struct{ name, in string }{
		{"empty", ""},
		{"plain page", `<!DOCTYPE html><html><head><title>T</title></head><body><p>Hi <a href="x.html">x</a></p></body></html>`},
		{"entities in attributes", `<a href="a.html?x=1&amp;y=2" title="&lt;tag&gt;">a &amp; b</a><meta http-equiv="refresh" content="5;url=a&amp;b">`},
		{"entity in title", `<title>A &#8212; B &amp; C</title>`},
		{"unquoted and odd case", `<A HREF=x.html Class=nav>x</A><AREA href=y.html>`},
		{"unterminated tag", `<p>text <a href="x.html`},
		{"unterminated comment", `<p>text <!-- no end`},
		{"script with markup", `<script>var s = "<a href='x'>";</script><a href="y">y</a>`},
		{"NUL and control bytes", "<p>a\x00b\x01c</p><a href=\"x\x00y\">z</a>"},
		{"invalid UTF-8", "<p>caf\xe9 \xff\xfe</p><a href=\"caf\xe9.html\">x</a>"},
		{"CRLF", "<p>a\r\nb</p>\r\n<a\r\nhref=\"x\">y</a>\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := scanPage([]byte(tt.in), keepAll)
			if !bytes.Equal(got, []byte(tt.in)) {
				t.Errorf("scanPage(%q) with unchanged hrefs = %q, want the input", tt.in, got)
			}
		})
	}
}

// TestScanPageRewrites checks that only the tags whose href changes are
// written anew, and that every other byte stays.
func TestScanPageRewrites(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{
			name: "a and area",
			in:   `<p>see <a class=x href='a.html' title="&amp;">a</a> and <area href=b.html alt=b></p>`,
			want: `<p>see <a class="x" href="A.HTML" title="&amp;">a</a> and <area href="B.HTML" alt="b"></p>`,
		},
		{
			name: "self-closing, repeated attribute dropped as parsers do",
			in:   `<a href="a" href="b"/><link href="c">`,
			want: `<a href="A"/><link href="c">`,
		},
		{
			name: "no href, other tags",
			in:   `<a name="top">top</a><img src="x.png"><base href="d/">`,
			want: `<a name="top">top</a><img src="x.png"><base href="d/">`,
		},
		{
			name: "escaping of the new value",
			in:   `<a href="x?a=1&amp;b=&quot;2&quot;">x</a>`,
			want: `<a href="X?A=1&amp;B=&#34;2&#34;">x</a>`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := scanPage([]byte(tt.in), upper)
			if string(got) != tt.want {
				t.Errorf("scanPage(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestScanPageMeta checks the title and meta refresh scanPage reads.
func TestScanPageMeta(t *testing.T) {
	tests := []struct {
		name, in    string
		title       string
		refresh     string
		hasRefresh  bool
		wantBaseArg string
	}{
		{name: "title", in: "<title>\n  A &#8212;\tB  </title>", title: "A — B"},
		{name: "svg title first", in: `<svg><title>icon</title></svg><title>Real</title>`, title: "Real"},
		{name: "first title wins", in: `<title>One</title><title>Two</title>`, title: "One"},
		{name: "empty title", in: `<title></title><p>x</p>`, title: ""},
		{name: "refresh", in: `<meta http-equiv="Refresh" content="0; url=next.html">`, refresh: "0; url=next.html", hasRefresh: true},
		{name: "other meta", in: `<meta name="refresh" content="0; url=x">`},
		{name: "base after links", in: `<a href="x">x</a><base href="sub/">`, wantBaseArg: "sub/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var base string
			_, _, meta, _, err := readPage([]byte(tt.in), "https://x.example/", "text/html", keepAll, func(b string) { base = b })
			if err != nil {
				t.Fatalf("readPage(%q): %v", tt.in, err)
			}
			if meta.title != tt.title || meta.refresh != tt.refresh || meta.hasRefresh != tt.hasRefresh || base != tt.wantBaseArg {
				t.Errorf("scanPage(%q) = title %q, refresh %q %v, base %q; want %q, %q %v, %q",
					tt.in, meta.title, meta.refresh, meta.hasRefresh, base, tt.title, tt.refresh, tt.hasRefresh, tt.wantBaseArg)
			}
		})
	}
}

// TestParseRefresh checks the reading of meta refresh contents, after the
// HTML standard's "shared declarative refresh steps".
func TestParseRefresh(t *testing.T) {
	tests := []struct {
		in     string
		delay  float64
		target string
		ok     bool
	}{
		{"0; url=next.html", 0, "next.html", true},
		{"0;URL='../a b.html'", 0, "../a b.html", true},
		{`3, url="x.html"`, 3, "x.html", true},
		{"0; next.html", 0, "next.html", true},
		{"  1.5 ; url = x ", 1.5, "x", true},
		{"10", 10, "", true},
		{"", 0, "", false},
		{"soon; url=x", 0, "", false},
		{"0 url=x", 0, "", true},
	}
	for _, tt := range tests {
		delay, target, ok := parseRefresh(tt.in)
		if delay != tt.delay || target != tt.target || ok != tt.ok {
			t.Errorf("parseRefresh(%q) = %v, %q, %v, want %v, %q, %v", tt.in, delay, target, ok, tt.delay, tt.target, tt.ok)
		}
	}
}

// FuzzScanPage checks that scanning never panics, that unchanged hrefs
// leave every byte as it was, and that rewriting is stable: a second pass
// with the same rewrite changes nothing more.
func FuzzScanPage(f *testing.F) {
	f.Add([]byte(`<html><head><title>t</title><base href="x/"></head><body><a href="a">a</a><area href=b></body></html>`))
	f.Add([]byte("<a href=\"\x00\xff\">"))
	f.Add([]byte(`<meta http-equiv=refresh content="0;url=x"><a href='&amp;'>`))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, _ := scanPage(b, keepAll)
		if !bytes.Equal(got, b) {
			t.Fatalf("scanPage(%q) with unchanged hrefs = %q", b, got)
		}
		once, _ := scanPage(b, upper)
		twice, _ := scanPage(once, upper)
		if !bytes.Equal(once, twice) {
			t.Fatalf("rewriting %q twice: %q, then %q", b, once, twice)
		}
	})
}

func TestContainsFold(t *testing.T) {
	tests := []struct {
		b    string
		want bool
	}{
		{"<BASE href=x>", true},
		{"<p><base", true},
		{"<p><bas", false},
		{"<<b<ba<bas<basE", true},
		{"base", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := containsFold([]byte(tt.b), "<base"); got != tt.want {
			t.Errorf("containsFold(%q, \"<base\") = %v, want %v", tt.b, got, tt.want)
		}
	}
}

// FuzzAppendEscaped checks that appendEscaped writes what html.EscapeString
// returns, from a string and from bytes, so that a rewritten tag is the one
// written before it escaped in place.
func FuzzAppendEscaped(f *testing.F) {
	for _, s := range []string{"", "plain", `a&b<c>d"e'f` + "\r\n", "&amp;", "\x00é\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := "<" + html.EscapeString(s)
		if got := string(appendEscaped([]byte("<"), s)); got != want {
			t.Errorf("appendEscaped(%q) = %q, want %q", s, got, want)
		}
		if got := string(appendEscaped([]byte("<"), []byte(s))); got != want {
			t.Errorf("appendEscaped([]byte(%q)) = %q, want %q", s, got, want)
		}
	})
}

// TestIsTag checks that tag names compare as html.Tokenizer.TagName
// lowercases them: ASCII letters only.
func TestIsTag(t *testing.T) {
	tests := []struct {
		raw, name string
		want      bool
	}{
		{"<a href=x>", "a", true},
		{"<A HREF=x>", "a", true},
		{"<AREA/>", "area", true},
		{"</svg >", "svg", true},
		{"<abbr>", "a", false},
		{"<a\x00>", "a", false},
		{"<ſvg>", "svg", false}, // U+017F folds to s in Unicode, not in HTML
		{"<Title\t>", "title", true},
	}
	for _, tt := range tests {
		if got := isTag(rawTagName([]byte(tt.raw)), tt.name); got != tt.want {
			t.Errorf("isTag(rawTagName(%q), %q) = %v, want %v", tt.raw, tt.name, got, tt.want)
		}
	}
}
