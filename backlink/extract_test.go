package backlink

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/canon"
)

const (
	testPage   = "http://example.org/a/b/page.html"
	testTarget = "http://example.org/a/b/target.html"
)

// TestExtract checks link finding and word drawing: the paper's §3.1
// "Backlink validation" (which links count) and §3.2 "Radius" (which
// words are drawn around them).
func TestExtract(t *testing.T) {
	tests := []struct {
		name     string
		html     string
		pageURI  string // testPage when ""
		target   string // testTarget when ""
		radius   Radius
		want     []string
		wantErrs []error
	}{
		// Resolving hrefs (§3.1 "Backlink validation").
		{name: "absolute href", html: `<p>see <a href="http://example.org/a/b/target.html">the paper</a> now`, want: []string{"the", "paper"}},
		{name: "relative href", html: `<a href="target.html">rel</a>`, want: []string{"rel"}},
		{name: "dot-slash href", html: `<a href="./target.html">dot</a>`, want: []string{"dot"}},
		{name: "parent href", html: `<a href="../b/target.html">up</a>`, want: []string{"up"}},
		{name: "root-relative href", html: `<a href="/a/b/target.html">root</a>`, want: []string{"root"}},
		{name: "scheme-relative href", html: `<a href="//example.org/a/b/target.html">scheme</a>`, want: []string{"scheme"}},
		{name: "dot segments in the middle", html: `<a href="x/../y/./../target.html">dots</a>`, want: []string{"dots"}},
		{name: "parent from a deeper page", html: `<a href="../target.html">deep</a>`, pageURI: "http://example.org/a/b/c/page.html", want: []string{"deep"}},
		{name: "host case, default port, fragment", html: `<a href="HTTP://Example.ORG:80/a/b/target.html#results">canon</a>`, want: []string{"canon"}},
		{name: "trailing slash", html: `<a href="http://example.org/a/b/dir/">slash</a>`, target: "http://example.org/a/b/dir", want: []string{"slash"}},
		{name: "target with trailing slash", html: `<a href="dir">slash</a>`, target: "HTTP://example.org/a/b/dir/", want: []string{"slash"}},
		{name: "https default port", html: `<a href="https://example.org:443/x">tls</a>`, target: "https://EXAMPLE.org/x#frag", want: []string{"tls"}},
		{name: "different scheme does not match", html: `<a href="https://example.org/a/b/target.html">tls</a>`, wantErrs: []error{ErrNoLink}},
		{name: "different port does not match", html: `<a href="http://example.org:8080/a/b/target.html">port</a>`, wantErrs: []error{ErrNoLink}},
		{name: "query must match", html: `<a href="target.html?v=2">v2</a> <a href="target.html?v=1">v1</a>`, target: testTarget + "?v=1", want: []string{"v1"}},
		{name: "entity in href", html: `<a href="target.html?a=1&amp;b=2">amp</a>`, target: testTarget + "?a=1&b=2", want: []string{"amp"}},
		{name: "legacy entity name in href stays literal", html: `<a href="target.html?a=1&copy=2">copy</a>`, target: testTarget + "?a=1&copy=2", want: []string{"copy"}},
		{name: "numeric reference in href", html: `<a href="t&#97;rget.html">num</a>`, want: []string{"num"}},
		{name: "white space around href", html: "<a href=\"  target.html\n\">ws</a>", want: []string{"ws"}},
		{name: "newline inside href", html: "<a href=\"targ\net.html\">nl</a>", want: []string{"nl"}},
		{name: "unquoted upper-case", html: `<A HREF=target.html>upper</A>`, want: []string{"upper"}},
		{name: "base href", html: `<head><base href="http://example.org/a/b/"></head><a href="target.html">based</a>`, pageURI: "http://mirror.example.net/x.html", want: []string{"based"}},
		{name: "relative base href", html: `<base href="../b/"><a href="target.html">based</a>`, pageURI: "http://example.org/a/z/p.html", want: []string{"based"}},
		{name: "first base counts, wherever it is", html: `<a href="target.html">early</a><base href="http://example.org/a/b/"><base href="http://elsewhere.net/">`, pageURI: "http://mirror.example.net/x.html", want: []string{"early"}},
		{name: "javascript base ignored", html: `<base href="javascript:void(0)"><a href="target.html">js</a>`, want: []string{"js"}},
		{name: "page links to itself", html: `<a href="#top">top of page</a> <a href="">same</a>`, target: testPage, want: []string{"top", "of", "page", "same"}},
		{name: "root target", html: `<a href="../../">home page</a>`, target: "http://example.org/", want: []string{"home", "page"}},

		// Which links count.
		{name: "several links all counted", html: `<p>first <a href="target.html">one link</a> middle <a href="http://example.org/a/b/target.html#x">two</a> end`, want: []string{"one", "link", "two"}},
		{name: "area ignored", html: `<map><area href="target.html" alt="map"></map><a href="target.html">real</a>`, want: []string{"real"}},
		{name: "only an area", html: `<img usemap="#m"><map name="m"><area shape="rect" coords="0,0,9,9" href="target.html" alt="map"></map>`, wantErrs: []error{ErrNoLink}},
		{name: "link element ignored", html: `<head><link rel="canonical" href="target.html"></head><p>text`, wantErrs: []error{ErrNoLink}},
		{name: "link in script ignored", html: `<script>document.write('<a href="target.html">x</a>')</script>`, wantErrs: []error{ErrNoLink}},
		{name: "link in comment ignored", html: `<!-- <a href="target.html">x</a> -->`, wantErrs: []error{ErrNoLink}},
		{name: "link in noscript ignored", html: `<noscript><a href="target.html">x</a></noscript>`, wantErrs: []error{ErrNoLink}},
		{name: "link in template ignored", html: `<template><a href="target.html">x</a></template>`, wantErrs: []error{ErrNoLink}},
		{name: "link in svg ignored", html: `<svg><a href="target.html"><text>x</text></a></svg>`, wantErrs: []error{ErrNoLink}},
		{name: "javascript href", html: `<a href="javascript:go('target.html')">x</a>`, wantErrs: []error{ErrNoLink}},
		{name: "anchor without href", html: `<a name="target.html">x</a>`, wantErrs: []error{ErrNoLink}},
		{name: "image link without alt counts", html: `<p>w1 w2 w3 <a href="target.html"><img src="i.png"></a> w4 w5 w6</p>`, want: []string{}},
		{name: "image link without alt, radius", html: `<p>w1 w2 w3 <a href="target.html"><img src="i.png"></a> w4 w5 w6</p>`, radius: 2, want: []string{"w2", "w3", "w4", "w5"}},
		{name: "image alt is anchor text", html: `<a href="target.html"><img src="i.png" alt="Lost page"></a>`, want: []string{"Lost", "page"}},

		// Malformed HTML.
		{name: "unclosed anchor ends with its parent", html: `<p>x <a href="target.html">anchor words</p><p>next para`, want: []string{"anchor", "words"}},
		{name: "unclosed anchor at the end", html: `<p>x <a href="target.html">anchor words`, want: []string{"anchor", "words"}},
		{name: "stray end tags", html: `</a></p><a href="target.html">t</a></a></a> z`, want: []string{"t"}},
		{name: "nested anchor ends the outer", html: `<a href="target.html">one <a href="other.html">two</a> three</a>`, want: []string{"one"}},
		{name: "anchor across blocks", html: `<a href="target.html"><h3>Title</h3><p>Summary line</p></a>`, want: []string{"Title", "Summary", "line"}},

		// Radius (§3.2).
		{name: "case kept", html: `<a href="target.html">Missing Page</a>`, want: []string{"Missing", "Page"}},
		{name: "word split by anchor boundary", html: `re<a href="target.html">link</a>ed`, want: []string{"relinked"}},
		{name: "radius 2", html: `<p>a b c d <a href="target.html">x y</a> e f g h</p>`, radius: 2, want: []string{"c", "d", "x", "y", "e", "f"}},
		{name: "radius across elements", html: `<ul><li>one two</li><li><a href="target.html">x</a></li><li>three <b>four</b> five</li></ul>`, radius: 2, want: []string{"one", "two", "x", "three", "four"}},
		{name: "radius clipped at page edges", html: `a <a href="target.html">x</a> b`, radius: 10, want: []string{"a", "x", "b"}},
		{name: "overlapping windows counted per link", html: `a b <a href="target.html">L1</a> c <a href="target.html">L2</a> d e`, radius: 1, want: []string{"b", "L1", "c", "c", "L2", "d"}},
		{name: "radius skips invisible text", html: `a <script>x y z</script>b <a href="target.html">L</a> <style>q</style>c`, radius: 2, want: []string{"a", "b", "L", "c"}},
		{name: "page radius", html: `<title>T</title><p>all <a href="target.html">the</a> words</p><script>no</script>`, radius: Page, want: []string{"all", "the", "words"}},
		{name: "page radius needs a link", html: `<p>all the words</p>`, radius: Page, wantErrs: []error{ErrNoLink}},

		// Errors.
		{name: "empty page", html: ``, wantErrs: []error{ErrNoLink}},
		{name: "binary page", html: "\x00\xff\xfe<\x01a\x80 href=\x9ftarget.html>", wantErrs: []error{ErrNoLink}},
		{name: "bad page URI", html: `<a href="target.html">x</a>`, pageURI: "/relative/page.html", wantErrs: []error{ErrBadURI, canon.ErrNotAbsolute}},
		{name: "bad target", html: `<a href="target.html">x</a>`, target: "target.html", wantErrs: []error{ErrBadURI, canon.ErrNotAbsolute}},
		{name: "unparsable target", html: `<a href="target.html">x</a>`, target: "http://[::1", wantErrs: []error{ErrBadURI}},
		{name: "radius below Page", html: `<a href="target.html">x</a>`, radius: -2, wantErrs: []error{ErrRadius}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pageURI, target := tt.pageURI, tt.target
			if pageURI == "" {
				pageURI = testPage
			}
			if target == "" {
				target = testTarget
			}
			got, err := Extract([]byte(tt.html), pageURI, target, tt.radius)
			if len(tt.wantErrs) > 0 {
				for _, want := range tt.wantErrs {
					if !errors.Is(err, want) {
						t.Errorf("Extract(%q, %q, %q, %d) error = %v, want %v", tt.html, pageURI, target, tt.radius, err, want)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("Extract(%q, %q, %q, %d) error: %v", tt.html, pageURI, target, tt.radius, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Extract(%q, %q, %q, %d) (-want +got):\n%s", tt.html, pageURI, target, tt.radius, diff)
			}
		})
	}
}

// TestLocate checks the one-parse form: the links it reports, and the
// words it draws for each radius with and without navigation links.
func TestLocate(t *testing.T) {
	page := `<nav><a href="target.html">Next</a></nav>
<p>Intro text. Read <a href="target.html" rel="nofollow">the lost paper</a> today.</p>
<footer>footer words <a href="/a/b/target.html">paper</a></footer>`
	loc, err := Locate([]byte(page), testPage, testTarget)
	if err != nil {
		t.Fatalf("Locate error: %v", err)
	}
	wantLinks := []Link{
		{URI: testTarget, Anchor: "Next", Nav: true, Start: 0, End: 1},
		{URI: testTarget, Anchor: "the lost paper", Rel: "nofollow", Start: 4, End: 7},
		{URI: testTarget, Anchor: "paper", Nav: true, Start: 10, End: 11},
	}
	if diff := cmp.Diff(wantLinks, loc.Links()); diff != "" {
		t.Errorf("Links() (-want +got):\n%s", diff)
	}
	tests := []struct {
		name   string
		radius Radius
		nav    bool
		want   []string
	}{
		{"anchor with navigation", Anchor, true, []string{"Next", "the", "lost", "paper", "paper"}},
		{"anchor without navigation", Anchor, false, []string{"the", "lost", "paper"}},
		{"radius 1 without navigation", 1, false, []string{"Read", "the", "lost", "paper", "today"}},
		{"page ignores nav", Page, false, []string{"Next", "Intro", "text", "Read", "the", "lost", "paper", "today", "footer", "words", "paper"}},
		{"below page reads as page", -5, true, []string{"Next", "Intro", "text", "Read", "the", "lost", "paper", "today", "footer", "words", "paper"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := loc.Words(tt.radius, tt.nav)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Words(%d, %v) (-want +got):\n%s", tt.radius, tt.nav, diff)
			}
		})
	}
	words, err := Words([]byte(page), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range loc.Links() {
		if got := strings.Join(words[l.Start:l.End], " "); got != l.Anchor {
			t.Errorf("Words[%d:%d] = %q, want the anchor %q", l.Start, l.End, got, l.Anchor)
		}
	}
}

// TestExtractMatchesLocate checks that Extract, which splits only the text
// near each link into words, draws exactly what Locate draws from the
// whole page's word sequence, including on text where local splitting
// gives up (few ASCII separators, few words).
func TestExtractMatchesLocate(t *testing.T) {
	type page struct {
		name        string
		body        []byte
		uri, target string
	}
	pages := []page{}
	for _, p := range benchPages {
		pages = append(pages, page{p.name, p.body, p.uri, p.target})
	}
	for _, f := range []string{"sphinx", "blog", "messy"} {
		body, err := os.ReadFile("testdata/" + f + ".html")
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, page{f, body, "http://www.example.edu/quill/guide/index.html", "http://www.example.edu/quill/guide/archives.html"})
	}
	link := `<a href="t.html">x</a>`
	pages = append(pages,
		page{"cjk without separators", []byte(strings.Repeat("日本語の文章"+link, 300)), testPage, "http://example.org/a/b/t.html"},
		page{"punctuation only", []byte(strings.Repeat(" -- ,, ;; "+`<a href="t.html">!</a>`, 300)), testPage, "http://example.org/a/b/t.html"},
		page{"links at the edges", []byte(link + " a b c " + link), testPage, "http://example.org/a/b/t.html"},
		page{"words glued to links", []byte("a" + link + "b" + link + "c, d-" + link + "-e"), testPage, "http://example.org/a/b/t.html"},
	)
	for _, p := range pages {
		loc, err := Locate(p.body, p.uri, p.target)
		if errors.Is(err, ErrNoLink) {
			continue // the fixture does not link there
		}
		if err != nil {
			t.Fatalf("%s: Locate error: %v", p.name, err)
		}
		for _, r := range []Radius{Anchor, 1, 2, 5, 10, 50, 1000, 1 << 40, Page} {
			got, err := Extract(p.body, p.uri, p.target, r)
			if err != nil {
				t.Fatalf("%s: Extract(%d) error: %v", p.name, r, err)
			}
			if diff := cmp.Diff(loc.Words(r, true), got); diff != "" {
				t.Errorf("%s: Extract(%d) differs from Locate().Words (-want +got):\n%s", p.name, r, diff)
			}
		}
	}
}

// prefilterHrefs are hrefs chosen to trip a prefilter that judges hrefs
// without resolving them: dot segments, empty paths, escapes, non-ASCII,
// white space, odd schemes.
var prefilterHrefs = []string{
	"target.html", "./target.html", "../target.html", "../b/target.html", "/a/b/target.html",
	"b/../target.html", "target.html/", "target.html//", "target.html?", "target.html?x=1",
	"target.html#f", "#f", "", "?", "?x=1", "?q=1", ".", "..", "./", "../", "/", "//",
	"//example.org/a/b/target.html", "HTTP://EXAMPLE.ORG/a/b/target.html",
	"http://example.org:80/a/b/target.html", "https://example.org/a/b/target.html",
	"target%2Ehtml", "targ%65t.html", "%74arget.html", "tärget.html", "t%C3%A4rget.html",
	"target.html\t", " target.html ", "tar\nget.html", "a b.html", "a%20b.html",
	"..%2Ftarget.html", "target.html/.", "target.html/..", "x/..", "x/../", "./.", "x/./",
	"javascript:void(0)", "mailto:x@example.org", "http://[::1", ":", "http:target.html",
	"\\target.html", "target.html;p", "~user/", "%7Euser/", "dir/", "dir", "dir/.", "b", "b/",
	"../b", "..//b", ".../", "target.HTML", "x?y/target.html", "x#y/target.html",
	"///target.html", "http://example.org", "http://example.org/", "http://example.org/?q",
	"http://example.org/#x", "http://example.org/a/b/", "http://example.org/a/b/?q=1",
	"page.html", "page.html#top", "../../", "../../..", "dir/..//", "a/b/c/../../..",
	"&amp;", "target.html?a=1&copy=2", "(x)", "'target.html'", "[x]/target.html",
}

// prefilterTargets are the targets the hrefs are matched against.
var prefilterTargets = []string{
	"http://example.org/a/b/target.html", "http://example.org/a/b", "http://example.org/a/b/",
	"http://example.org/", "http://example.org/a/b/?q=1", "http://example.org/a/b/page.html",
	"http://example.org/~user", "http://example.org/a/b/%7Euser", "http://example.org/a/b/a%20b.html",
	"http://example.org/a/b/t%C3%A4rget.html", "http://example.org/a/b/dir", "http://example.org/a/target.html",
	"http://example.org/a/b/target.html;p", "http://example.org/a/b/target.html?x=1",
	"http://example.org/a/b/target.html?a=1&copy=2", "http://example.org/a/b/target%2Ehtml",
	"http://example.org/target.html", "http://example.org/a/b/b", "http://example.org/a/b/(x)",
}

// prefilterPage writes a page that links to every href, after an optional
// <base>.
func prefilterPage(base string, hrefs []string) []byte {
	var b strings.Builder
	if base != "" {
		fmt.Fprintf(&b, "<head><base href=%q></head>", base)
	}
	for i, h := range hrefs {
		fmt.Fprintf(&b, "<p>before %d <a href=\"%s\">anchor %d</a> after</p>\n", i, strings.ReplaceAll(h, `"`, "&quot;"), i)
	}
	return []byte(b.String())
}

// TestPrefilterAgreesWithReference checks that the prefilter, which skips
// hrefs that cannot match without resolving them, never changes the answer
// versus resolving every href.
func TestPrefilterAgreesWithReference(t *testing.T) {
	pageURIs := []string{"http://example.org/a/b/page.html", "http://example.org/a/b/", "http://example.org/a/b", "http://example.org"}
	bases := []string{"", "/a/", "http://example.org/a/b/dir/", "../", "?q=1"}
	for _, pageURI := range pageURIs {
		for _, base := range bases {
			body := prefilterPage(base, prefilterHrefs)
			for _, target := range prefilterTargets {
				checkPrefilter(t, body, pageURI, target)
			}
		}
	}
	for _, p := range benchPages {
		for _, target := range []string{p.target, p.uri, "https://blog.example.net/2011/04/soft-404s/", "https://docs.example.org/en/latest/index.html"} {
			checkPrefilter(t, p.body, p.uri, target)
		}
	}
}

// checkPrefilter compares locate with and without the prefilter.
func checkPrefilter(t *testing.T, body []byte, pageURI, target string) {
	t.Helper()
	fast, fastErr := locateWith(body, pageURI, target, true)
	slow, slowErr := locateWith(body, pageURI, target, false)
	if !errors.Is(fastErr, slowErr) && fastErr != slowErr {
		t.Fatalf("locate(%q, %q): prefilter error %v, reference error %v", pageURI, target, fastErr, slowErr)
	}
	if diff := cmp.Diff(slow, fast); diff != "" {
		t.Errorf("locate(%q, %q): prefilter differs from resolving every href (-reference +prefilter):\n%s", pageURI, target, diff)
	}
}

// locateWith runs locate on a fresh walker.
func locateWith(body []byte, pageURI, target string, prefilter bool) ([]Link, error) {
	w := getWalker()
	defer putWalker(w)
	return w.locate(body, pageURI, target, prefilter)
}

// TestMayMatch pins the prefilter's verdict on a few hrefs.
func TestMayMatch(t *testing.T) {
	tests := []struct {
		href, segment string
		want          bool
	}{
		{"target.html", "target.html", true},
		{"other.html", "target.html", false},
		{"../x/target.html?q#f", "target.html", true},
		{"target.html/other", "target.html", false},
		{"dir/", "dir", true},
		{"dir//", "dir", true},
		{"", "target.html", true},
		{"#frag", "target.html", true},
		{"?q", "target.html", true},
		{"x/..", "target.html", true},
		{"x/../", "target.html", true},
		{"./", "target.html", true},
		{"t%61rget.html", "target.html", true},
		{"tärget.html", "target.html", true},
		{"a b", "target.html", true},
		{"http://example.org", "target.html", false},
	}
	for _, tt := range tests {
		if got := mayMatch([]byte(tt.href), tt.segment); got != tt.want {
			t.Errorf("mayMatch(%q, %q) = %v, want %v", tt.href, tt.segment, got, tt.want)
		}
	}
}

// TestExtractHuge reads a page of several megabytes with many links.
func TestExtractHuge(t *testing.T) {
	page := sphinxPage(4 << 20)
	for _, r := range []Radius{Anchor, 10, Page} {
		got, err := Extract(page, sphinxURI, sphinxTarget, r)
		if err != nil {
			t.Fatalf("Extract(%d) error: %v", r, err)
		}
		if len(got) == 0 {
			t.Errorf("Extract(%d) found no words on a %d-byte page", r, len(page))
		}
	}
}
