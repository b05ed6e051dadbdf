package repair

import (
	"bytes"
	"net/url"
	"testing"
)

// fuzzNew is the new home of every dead link in the scanner fuzz tests:
// it holds what each syntax must escape (parentheses, an ampersand that
// reads as an entity, a quote, an equals sign, an underscore).
const fuzzNew = "https://new.example/p_(q)&amp;r's=1,x"

// checkScanner is the property of a link scanner and the rewriting over
// it, for any bytes src: the spans are in order, within src and apart;
// with no dead link nothing changes; with every absolute target dead, the
// rewritten file has the same links in the same places, the replaced
// ones naming fuzzNew and the others, and every byte between links,
// unchanged.
func checkScanner(t *testing.T, syn Syntax, scan func([]byte) []span, src []byte) {
	spans := scan(src)
	last := 0
	for _, sp := range spans {
		if sp.start < last || sp.end < sp.start || sp.end > len(src) {
			t.Fatalf("spans %+v out of order or bounds in %q", spans, src)
		}
		last = sp.end
	}
	if out, ch := rewrite(src, syn, "", moveTable{}); !bytes.Equal(out, src) || len(ch) != 0 {
		t.Fatalf("an empty map changed %q", src)
	}
	n, _ := url.Parse(fuzzNew)
	moves := moveTable{}
	dead := make([]bool, len(spans))
	for i, sp := range spans {
		v := decodeTarget(string(src[sp.start:sp.end]), sp.kind)
		ref, _, _ := splitFragment(v)
		if r, err := url.Parse(ref); err == nil && r.IsAbs() {
			if k, ok := canonKey(ref); ok {
				moves[k] = n
				dead[i] = true
			}
		}
	}
	delete(moves, "https://new.example/p_(q)&amp;r's=1,x") // no chain into itself
	out, changes := rewrite(src, syn, "", moves)
	replaced := map[int]bool{}
	c := 0
	for i, sp := range spans {
		if !dead[i] || c >= len(changes) {
			continue
		}
		if changes[c].Old == string(src[sp.start:sp.end]) {
			replaced[i] = changes[c].Skip == "" && changes[c].New != changes[c].Old
			c++
		}
	}
	again := scan(out)
	if len(again) != len(spans) {
		t.Fatalf("rewriting %q as %q found %d links, then %d", src, out, len(spans), len(again))
	}
	po, pn := 0, 0
	for i := range spans {
		a, b := spans[i], again[i]
		if a.kind == htmlBare && b.kind == htmlQuoted {
			b.start, b.end = b.start-1, b.end+1 // the quotes a new value needed
		}
		if !bytes.Equal(src[po:a.start], out[pn:b.start]) {
			t.Fatalf("rewriting %q as %q changed %q into %q", src, out, src[po:a.start], out[pn:b.start])
		}
		oldText, newText := string(src[a.start:a.end]), string(out[b.start:b.end])
		if !replaced[i] && oldText != newText {
			t.Fatalf("rewriting %q as %q changed link %q into %q", src, out, oldText, newText)
		}
		if replaced[i] {
			if a.kind == htmlBare && b.kind == htmlQuoted {
				newText = newText[1 : len(newText)-1]
			}
			v := decodeTarget(newText, b.kind)
			ref, _, _ := splitFragment(v)
			if k, _ := canonKey(ref); k != "https://new.example/p_(q)&amp;r's=1,x" {
				t.Fatalf("rewriting %q as %q wrote %q, which reads as %q", src, out, newText, ref)
			}
		}
		po, pn = a.end, b.end
	}
	if !bytes.Equal(src[po:], out[pn:]) {
		t.Fatalf("rewriting %q as %q changed its end", src, out)
	}
}

func FuzzScanMarkdown(f *testing.F) {
	for _, s := range []string{
		"[a](https://old.example/a \"t\") ![i](<http://x/y z>) <https://a.example/> [r]: http://r.example/\n",
		"```\n[a](http://x)\n```\n    [b](http://y)\n- item\n\n    [c](http://z)\n",
		"> [a](http://x\r\n> 'title')\r\n[![b](http://i)](http://l) `[c](http://c)` \\[d](http://d)\n",
		"<a href=\"http://x\" src=y>t</a><!-- [e](http://e) -->[f](http://f?a=1&amp;b\\&c)\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { checkScanner(t, Markdown, scanMarkdown, src) })
}

func FuzzScanHTML(f *testing.F) {
	for _, s := range []string{
		`<html><head><base href="/b/"></head><a href="http://x">x</a><img src='http://y'><a href=http://z>z</a></html>`,
		"<script>'<a href=\"http://x\">'</script><!-- <a href=http://y> --><a href = \" http://a?b=1&amp;c \">",
		`<a href="http://x" href='http://y' data-href=http://z =x>`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { checkScanner(t, HTML, scanHTML, src) })
}

func FuzzScanRST(f *testing.F) {
	for _, s := range []string{
		"See `a <http://x>`_ and `<http://y>`__, http://z.\n\n.. _t: http://t\n.. __: http://u\n\n__ http://v\n",
		"Code::\n\n   http://x\n\n.. code-block:: py\n\n   http://y\n\n:ref:`a <http://r>` ``http://l``\n\n>>> http://d\n",
		".. image:: http://i\n   :target: http://t\n\n.. note:: http://n\n\n   (http://p) \"http://q\".\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { checkScanner(t, RST, scanRST, src) })
}
