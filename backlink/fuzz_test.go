package backlink

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/internal/words"
)

// fuzzSeeds are pages the fuzz targets start from.
func fuzzSeeds(f *testing.F) [][]byte {
	seeds := [][]byte{
		[]byte(`<p>a b <a href="target.html">anchor</a> c d</p>`),
		[]byte(`<base href="/a/"><a href="b/target.html">x</a><area href="target.html">`),
		[]byte(`<a href="../b/./target.html#f">one <a href="?q">two</a></a><script><a href="target.html"></script>`),
		[]byte("<pre>\n <a href=target.html>pre</a>\n</pre><table><tr><td>c<td><a href=x/..>d</a></table>"),
		[]byte("\xff\xfe<\x00a\x00 \x00h\x00r\x00e\x00f\x00=\x00t\x00>\x00x\x00"),
		[]byte(`<meta charset="windows-1252"><p>caf` + "\xe9" + ` <a href="target.html">cr` + "\xe8" + `me</a>`),
		prefilterPage("", prefilterHrefs[:20]),
	}
	for _, name := range []string{"sphinx", "blog", "messy", "navmain"} {
		b, err := os.ReadFile("testdata/" + name + ".html")
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	return seeds
}

// FuzzExtract checks, on any bytes, that Extract does not panic, returns
// only words of the page, agrees with Locate, and that the prefilter never
// changes the links found versus resolving every href.
func FuzzExtract(f *testing.F) {
	for i, seed := range fuzzSeeds(f) {
		f.Add(seed, prefilterTargets[i%len(prefilterTargets)], int16(i%12)-1)
	}
	f.Fuzz(func(t *testing.T, html []byte, target string, radius int16) {
		r := Radius(radius)
		got, err := Extract(html, testPage, target, r)
		if err != nil {
			if !errors.Is(err, ErrNoLink) && !errors.Is(err, ErrBadURI) && !errors.Is(err, ErrRadius) {
				t.Fatalf("Extract error %v is none of the documented ones", err)
			}
		} else {
			page, err := Words(html, "")
			if err != nil {
				t.Fatal(err)
			}
			if len(got) > MaxDrawn(len(page)) {
				t.Fatalf("Extract(%d) returned %d words from a page of %d, more than MaxDrawn", r, len(got), len(page))
			}
			seen := make(map[string]bool, len(page))
			for _, w := range page {
				seen[w] = true
			}
			for _, w := range got {
				if !seen[w] {
					t.Fatalf("Extract returned %q, which is not a word of the page %q", w, page)
				}
			}
			loc, err := Locate(html, testPage, target)
			if err != nil {
				t.Fatalf("Extract succeeded but Locate failed: %v", err)
			}
			if diff := cmp.Diff(loc.Words(r, true), got); diff != "" {
				t.Fatalf("Extract(%d) differs from Locate().Words (-want +got):\n%s", r, diff)
			}
		}
		fast, fastErr := locateWith(html, testPage, target, true)
		slow, slowErr := locateWith(html, testPage, target, false)
		if (fastErr == nil) != (slowErr == nil) || !errors.Is(fastErr, slowErr) && fastErr != nil && slowErr != nil && fastErr.Error() != slowErr.Error() {
			t.Fatalf("prefilter error %v, reference error %v", fastErr, slowErr)
		}
		if diff := cmp.Diff(slow, fast); diff != "" {
			t.Fatalf("prefilter differs from resolving every href (-reference +prefilter):\n%s", diff)
		}
	})
}

// FuzzRender checks, on any bytes and header, that Render does not panic,
// returns valid UTF-8, and that Words are the words of Render's text.
func FuzzRender(f *testing.F) {
	for _, seed := range fuzzSeeds(f) {
		f.Add(seed, "")
	}
	f.Add([]byte("caf\xe9"), "text/html; charset=iso-8859-1")
	f.Add([]byte("\x82\xa0\x82\xa2"), "text/html; charset=shift_jis")
	f.Fuzz(func(t *testing.T, html []byte, contentType string) {
		text, err := Render(html, contentType)
		if err != nil {
			t.Fatalf("Render error: %v", err)
		}
		if !utf8.ValidString(text) {
			t.Fatalf("Render(%q) = %q, not valid UTF-8", html, text)
		}
		got, err := Words(html, contentType)
		if err != nil {
			t.Fatalf("Words error: %v", err)
		}
		if diff := cmp.Diff(words.Append([]string{}, text), got); diff != "" {
			t.Fatalf("Words differs from the words of Render (-render +words):\n%s", diff)
		}
	})
}

// FuzzOutlinks checks, on any bytes, that Outlinks does not panic and
// returns canonical http(s) links whose anchors are the page's words
// between Start and End, and that the Document's Locate finds the same
// links to a target as Locate, which reads the page with the prefilter.
func FuzzOutlinks(f *testing.F) {
	for _, seed := range fuzzSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, html []byte) {
		links, err := Outlinks(html, testPage)
		if err != nil {
			t.Fatalf("Outlinks error: %v", err)
		}
		d, err := Parse(html, testPage)
		if err != nil {
			t.Fatalf("Parse error: %v", err)
		}
		page := d.Words()
		for _, l := range links {
			if c, err := canon.Canonicalize(l.URI); err != nil || c != l.URI || !isHTTP(l.URI) {
				t.Fatalf("Outlinks gave %q, not a canonical http(s) URI", l.URI)
			}
			if l.Start < 0 || l.Start > l.End || l.End > len(page) {
				t.Fatalf("link %q has words %d-%d of a page of %d", l.URI, l.Start, l.End, len(page))
			}
			if want := strings.Join(page[l.Start:l.End], " "); l.Anchor != want && !l.Area {
				t.Fatalf("link %q has anchor %q, want the words %q", l.URI, l.Anchor, want)
			}
		}
		seen := map[string]bool{}
		for _, l := range links {
			if seen[l.URI] || len(seen) == 3 {
				continue
			}
			seen[l.URI] = true
			fromDoc, docErr := d.Locate(l.URI)
			direct, err := Locate(html, testPage, l.URI)
			if (docErr == nil) != (err == nil) {
				t.Fatalf("Document.Locate(%q) error %v, Locate error %v", l.URI, docErr, err)
			}
			if err != nil {
				continue
			}
			if diff := cmp.Diff(direct.Links(), fromDoc.Links()); diff != "" {
				t.Fatalf("Document.Locate(%q) differs from Locate (-locate +document):\n%s", l.URI, diff)
			}
		}
	})
}

// FuzzDecode checks, on any bytes and header, that Decode does not fail or
// panic, gives valid UTF-8 (after its byte order mark) at most three
// bytes for each byte read, and leaves its own output alone when it is
// decoded again with the same header.
func FuzzDecode(f *testing.F) {
	for _, seed := range fuzzSeeds(f) {
		f.Add(seed, "")
	}
	f.Add([]byte("caf\xe9"), "text/html; charset=iso-8859-1")
	f.Add([]byte("\x82\xa0\x82\xa2"), "text/html; charset=shift_jis")
	f.Add([]byte("\x1b$B$3$s\x1b(B"), "text/html; charset=iso-2022-jp")
	f.Add([]byte("a\x00b\x00"), "text/html; charset=utf-16le")
	f.Add([]byte("\x1f\x8b\x08\x00\x00\x00\x00\x00"), "text/html")
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		out, name, err := Decode(body, contentType)
		if err != nil {
			t.Fatalf("Decode error: %v", err)
		}
		if name == "" {
			t.Fatal("Decode named no charset")
		}
		if !utf8.Valid(bytes.TrimPrefix(out, []byte(utf8BOM))) {
			t.Fatalf("Decode(%q) as %s = %q, not valid UTF-8", body, name, out)
		}
		if len(out) > 3*len(body)+len(utf8BOM) {
			t.Fatalf("Decode gave %d bytes for %d", len(out), len(body))
		}
		again, _, err := Decode(out, contentType)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("Decode(Decode(%q)) = %q, %v, want %q", body, again, err, out)
		}
	})
}

// FuzzHeading checks, on any bytes, that Title and Heading do not panic
// and give valid UTF-8 without runs of white space or white space at
// their ends, no longer than the page.
func FuzzHeading(f *testing.F) {
	for _, seed := range fuzzSeeds(f) {
		f.Add(seed)
	}
	f.Add([]byte(`<div class="title">A<div>B</div></div><h1>C</h1>`))
	f.Fuzz(func(t *testing.T, page []byte) {
		for name, got := range map[string]string{"Title": Title(page), "Heading": Heading(page)} {
			if !utf8.ValidString(got) || got != strings.Join(strings.Fields(got), " ") {
				t.Fatalf("%s(%q) = %q", name, page, got)
			}
			if len(got) > 3*len(page) {
				t.Fatalf("%s gave %d bytes for %d", name, len(got), len(page))
			}
		}
	})
}
