package backlink

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestRender checks the lynx-like rendering of the paper's §3.1
// "Rendering": the words a person sees, blocks on their own lines, white
// space collapsed, invisible parts left out.
func TestRender(t *testing.T) {
	tests := []struct {
		name, html, want string
	}{
		{"empty", "", ""},
		{"only markup", "<html><head></head><body></body></html>", ""},
		{"plain text", "hello   world", "hello world\n"},
		{"blocks break lines", "<p>one</p><p>two</p><div>three</div>", "one\ntwo\nthree\n"},
		{"headings and lists", "<h1>Title</h1><ul><li>a<li>b</ul><ol><li>c</li></ol>", "Title\na\nb\nc\n"},
		{"inline elements do not split words", "re<b>li</b>nk <em>now</em>", "relink now\n"},
		{"br breaks, no blank lines", "a<br>b<br><br>c", "a\nb\nc\n"},
		{"close br", "a</br>b", "a\nb\n"},
		{"white space collapses across tags", "a \n\t <span> b </span>\n c", "a b c\n"},
		{"no-break spaces are spaces", "a&nbsp;&nbsp;b\u00a0c", "a b c\n"},
		{"entities", "&lt;a&gt; &amp; &quot;q&quot; &#8212; &eacute;", "<a> & \"q\" — é\n"},
		{"table rows are lines, cells spaced", "<table><tr><td>a</td><td>b</td></tr><tr><th>c<th>d</table>", "a b\nc d\n"},
		{"definition list", "<dl><dt>term<dd>meaning</dl>", "term\nmeaning\n"},
		{"pre keeps white space", "<p>x</p><pre>\n  a   b\n c</pre><p>y", "x\n  a   b\n c\ny\n"},
		{"script and style hidden", "a<script>var s = '<p>no</p>';</script><style>p{}</style>b", "ab\n"},
		{"noscript hidden", "a<noscript>enable scripts</noscript> b", "a b\n"},
		{"template hidden", "a<template><p>later</p><template>x</template>y</template> b", "a b\n"},
		{"svg hidden", "a <svg><text>chart</text><a href='x'>l</a></svg> b", "a b\n"},
		{"self-closing svg hides nothing", "a <svg/> b", "a b\n"},
		{"svg title is not raw text", "<svg><title>chart</svg><p>visible</p>", "visible\n"},
		{"iframe and object hidden", "a <iframe src=x>fallback</iframe><object data=y><p>alt</p></object> b", "a b\n"},
		{"head and title hidden", "<head><title>The title</title><meta charset=utf-8></head><body>text", "text\n"},
		{"title without head hidden", "<title>T</title><p>body", "body\n"},
		{"text ends an implied head", "<head><title>T</title>visible<p>more", "visible\nmore\n"},
		{"second head ignored", "<p>a</p><head>b</head>", "a\nb\n"},
		{"comments hidden", "a<!-- <p>x</p> -->b", "ab\n"},
		{"img alt shown", `see <img src="x.png" alt="the chart"> here`, "see the chart here\n"},
		{"img without alt shows nothing", `see <img src="x.png"> here`, "see here\n"},
		{"button labels shown", `<form><input type="text" value="typed"><input type="submit" value="Search"></form>`, "Search\n"},
		{"textarea shown", "<textarea>some  text</textarea>", "some text\n"},
		{"unclosed elements", "<div><p>one<p>two<div>three", "one\ntwo\nthree\n"},
		{"stray end tags ignored", "a</span></div></a>b", "a\nb\n"},
		{"upper case tags", "<P>One<BR>Two</P><SCRIPT>x</SCRIPT>", "One\nTwo\n"},
		{"byte order mark dropped", "\ufeffhello", "hello\n"},
		{"custom elements are inline", "<my-card>a</my-card><x-y>b</x-y>", "ab\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Render([]byte(tt.html), "")
			if err != nil {
				t.Fatalf("Render(%q) error: %v", tt.html, err)
			}
			if got != tt.want {
				t.Errorf("Render(%q) = %q, want %q", tt.html, got, tt.want)
			}
		})
	}
}

// TestRenderGolden renders realistic pages written for these tests and
// compares them with golden files; run with -update to rewrite them.
func TestRenderGolden(t *testing.T) {
	pages, err := filepath.Glob("testdata/*.html")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, page := range pages {
		t.Run(filepath.Base(page), func(t *testing.T) {
			body, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Render(body, "text/html")
			if err != nil {
				t.Fatalf("Render: %v", err)
			}
			golden := strings.TrimSuffix(page, ".html") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("Render(%s) differs from %s (-want +got):\n%s", page, golden, diff)
			}
		})
	}
}

// TestWords checks that Words splits the rendered text by the one word
// rule, keeping case.
func TestWords(t *testing.T) {
	tests := []struct {
		name, html string
		want       []string
	}{
		{"empty", "", []string{}},
		{"case kept, punctuation splits", "<p>Don't re-link <b>HTTP</b>/2.0!</p>", []string{"Don", "t", "re", "link", "HTTP", "2", "0"}},
		{"blocks separate words", "<p>end</p><p>start</p>", []string{"end", "start"}},
		{"inline tags join words", "foo<i>bar</i>", []string{"foobar"}},
		{"non-Latin scripts", "<p>Проверка ссылок 日本語</p>", []string{"Проверка", "ссылок", "日本語"}},
		{"alt text counts", `<img alt="Logo of the lab">`, []string{"Logo", "of", "the", "lab"}},
		{"script words do not", "<script>hidden()</script>shown", []string{"shown"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Words([]byte(tt.html), "")
			if err != nil {
				t.Fatalf("Words(%q) error: %v", tt.html, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Words(%q) (-want +got):\n%s", tt.html, diff)
			}
		})
	}
}

// TestRenderBadInput feeds bytes that are not HTML: the result must be
// valid UTF-8 and nothing may panic.
func TestRenderBadInput(t *testing.T) {
	binary := make([]byte, 4096)
	var p prng = 3
	for i := range binary {
		binary[i] = byte(p.next(256))
	}
	tests := []struct {
		name string
		body []byte
	}{
		{"binary", binary},
		{"NUL bytes", []byte("a\x00b<p\x00>c</p\x00>")},
		{"invalid UTF-8", []byte("caf\xe9 \xff\xfe\xfd <b>bold</b>")},
		{"truncated tag", []byte("<p>text<a href=\"x")},
		{"truncated comment", []byte("text<!-- never closed")},
		{"deep nesting", bytes.Repeat([]byte("<div><span>"), 5000)},
		{"many unclosed p", bytes.Repeat([]byte("<p>x"), 5000)},
		{"many stray end tags", bytes.Repeat([]byte("</div></a></li>"), 5000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Render(tt.body, "")
			if err != nil {
				t.Fatalf("Render error: %v", err)
			}
			if !utf8.ValidString(got) {
				t.Errorf("Render(%q...) is not valid UTF-8", tt.body[:min(len(tt.body), 20)])
			}
		})
	}
}

// TestRenderHuge renders a page of several megabytes.
func TestRenderHuge(t *testing.T) {
	page := sphinxPage(4 << 20)
	got, err := Render(page, "")
	if err != nil {
		t.Fatalf("Render error: %v", err)
	}
	if len(got) < 1<<20 {
		t.Errorf("Render of a %d-byte page gave %d bytes of text", len(page), len(got))
	}
}
