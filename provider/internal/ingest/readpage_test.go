package ingest

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// readPageSeeds are pages that take readPage's one reading and its two
// readings through their cases: tags rewritten or kept, raw text inside an
// svg with and without markup, byte order marks, charsets, a <base>.
var readPageSeeds = []string{
	`<!DOCTYPE html><html><head><title>T &amp; U</title><base href="sub/"></head><body><nav><a href="a.html">A</a></nav><p>Hi <a href="../b.html#s" rel=next>b</a> <area href=c.html> <a href="mailto:x@y">m</a></p></body></html>`,
	`<A HREF=x.html CLASS="toc" Title="&lt;t&gt;">x &amp; y</A><a href=y.html/>text`,
	`<a href="a" href="b" class=nav>dup</a><a name=top>no href</a><a href="">empty</a><a href="#frag">frag</a>`,
	`<svg><title>icon</title><a href="in-svg.html">x</a></svg><title>Real</title><a href="after.html">after</a>`,
	`<svg><title>a<b</title></svg><a href="x.html">x</a>`,
	`<svg><title>x</svg><a href="lost.html">lost?</a></title><a href="y.html">y</a>`,
	`<svg><style>a{}</style><script>if (a) x()</script></svg><p>text <a href="z.html">z</a>`,
	`<svg><script>if (a < b) {}</script></svg><a href="s.html">s</a>`,
	"\xef\xbb\xbf<title>bom</title><a href=\"bom.html\">bom</a>",
	`<meta charset="iso-8859-1"><title>caf` + "\xe9" + `</title><a href="l.html">l</a>`,
	`<meta charset="iso-8859-1"><title>valid UTF-8 café</title><a href="l.html">l</a>`,
	"<p>caf\xe9 \xff</p><a href=\"caf\xe9.html\">x</a>",
	`<meta http-equiv="refresh" content="0; url=next.html"><title>Moved</title>`,
	`<table><tr><td><a href="1.html">one</a><td><a href="2.html">two</a></table><pre>  a  <a href="p.html">pre</a>  </pre>`,
	"<a href=\"x\x00y\" class=\"a\x00\">nul</a><a href='\r\nq'>cr</a>",
	`<template><a href="t.html">t</a></template><noscript><a href="n.html">n</a></noscript><textarea><a href="ta.html"></textarea>`,
	`<p>text <a href="x.html`,
	`<plaintext><a href="pt.html">pt</a>`,
	"",
}

// resolveOn returns a rewrite that resolves hrefs against base, keeping
// those that do not parse and mailto: links, as the ingest's rewrite keeps
// what is not a web link.
func resolveOn(base string) hrefFunc {
	b, _ := url.Parse(base)
	return func(href string) (string, bool) {
		if strings.HasPrefix(href, "mailto:") {
			return "", false
		}
		u, err := b.Parse(strings.TrimSpace(href))
		if err != nil {
			return "", false
		}
		return u.String(), true
	}
}

// checkReadOnce checks that reading data once, when readOnce can, gives
// what reading it twice gives: the stored body, the title and refresh, and
// the Document (its text, words and links, so Words, Outlinks and the
// words around each link).
func checkReadOnce(t *testing.T, data []byte, rewrite hrefFunc) (once bool) {
	t.Helper()
	const address = "https://files.example/dir/page.html"
	for _, ctype := range []string{"text/html", "text/html; charset=utf-8"} {
		body, meta, doc, ok, err := readOnce(data, address, ctype, rewrite)
		wantBody, _, wantMeta, wantDoc, wantErr := readTwice(data, address, ctype, rewrite)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("readOnce(%q) error %v, reading twice %v", data, err, wantErr)
		}
		if !ok {
			continue
		}
		once = true
		if !bytes.Equal(body, wantBody) {
			t.Errorf("readOnce(%q) body\\n%q\\nreading twice\\n%q", data, body, wantBody)
		}
		if meta != wantMeta {
			t.Errorf("readOnce(%q) meta %+v, reading twice %+v", data, meta, wantMeta)
		}
		if !reflect.DeepEqual(doc, wantDoc) {
			t.Errorf("readOnce(%q) document\\n%+v\\nreading twice\\n%+v", data, doc, wantDoc)
		}
	}
	return once
}

// TestReadOnce checks readOnce against readTwice on the seeds and on the
// pages of the fixtures, with hrefs rewritten and kept as written.
func TestReadOnce(t *testing.T) {
	pages := map[string][]byte{}
	for i, s := range readPageSeeds {
		pages["seed "+string(rune('a'+i))] = []byte(s)
	}
	for _, glob := range []string{"../../../backlink/testdata/*.html", "../../store/testdata/web/*/*.html"} {
		paths, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			pages[p] = b
		}
	}
	if len(pages) < len(readPageSeeds)+5 {
		t.Fatalf("only %d pages to read", len(pages))
	}
	once := 0
	for name, b := range pages {
		t.Run(name, func(t *testing.T) {
			for _, rewrite := range []hrefFunc{nil, keepAll, resolveOn("https://public.example/x/")} {
				if checkReadOnce(t, b, rewrite) {
					once++
				}
			}
		})
	}
	// Most pages are read once; the seeds that cannot be are there for the
	// other path.
	if once < len(pages) {
		t.Errorf("%d of %d readings took one pass, want most", once, 3*len(pages))
	}
}

// FuzzReadOnce checks that reading a page once gives what reading it twice
// gives, whatever its bytes.
func FuzzReadOnce(f *testing.F) {
	for _, s := range readPageSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, rewrite := range []hrefFunc{nil, upper, resolveOn("https://public.example/x/")} {
			checkReadOnce(t, b, rewrite)
		}
	})
}
