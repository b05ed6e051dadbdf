package backlink

import (
	"errors"
	"os"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

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
