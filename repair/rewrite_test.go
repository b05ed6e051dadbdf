package repair_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/repair"
)

// testMoves is the repair map of the rewriting tests: a page moved to
// another site, pages moved within the site the files are served at
// (https://site.example/docs/), and new URIs that need escaping.
var testMoves = map[string]string{
	"https://old.example/a":              "https://new.example/docs/a/",
	"https://site.example/docs/old/b":    "https://site.example/docs/new/b.html",
	"https://site.example/old-root":      "https://site.example/",
	"https://old.example/q?x=1&y=2":      "https://new.example/q?x=1&copy;=2",
	"https://old.example/paren":          "https://new.example/wiki/A_(b",
	"https://old.example/under":          "https://new.example/name_",
	"https://old.example/dot":            "https://new.example/end.",
	"https://old.example/quote":          "https://new.example/it's=1",
	"https://old.example/unicode":        "https://bücher.example/straße",
	"https://old.example/frag":           "https://new.example/page#their-frag",
	"https://old.example/self":           "https://old.example/self",
	"https://site.example/docs/old/dir/": "https://site.example/docs/guide/",
	"https://site.example/docs/gone":     "https://other.example/g",
	"https://old.example/same":           "https://new.example/same",
}

const testDoc = "https://site.example/docs/guide/page.md"

// rewriteTests pin what each syntax's scanner treats as a link target
// and how a new target is written: CommonMark 0.31 (§6.3 links, §4.7
// link reference definitions, §6.5 autolinks, §4.4-4.5 code blocks, §6.1
// code spans), HTML (WHATWG §13.2.5 tokenization), reStructuredText
// (docutils' reStructuredText Markup Specification: hyperlink targets,
// embedded URIs, standalone hyperlinks, literal blocks).
var rewriteTests = []struct {
	name    string
	syntax  repair.Syntax
	in      string
	want    string
	changes int // dead links found (replaced or skipped)
	skips   int
}{
	// Markdown.
	{"md inline, canonical match, fragment kept", repair.Markdown,
		"See [A](https://Old.example:443/a/#install \"t\").\n",
		"See [A](https://new.example/docs/a/#install \"t\").\n", 1, 0},
	{"md relative path stays relative", repair.Markdown,
		"[b](../old/b) and [b2](../old/b#x)\n",
		"[b](../new/b.html) and [b2](../new/b.html#x)\n", 2, 0},
	{"md absolute path stays absolute path", repair.Markdown,
		"[b](/docs/old/b/) [r](/old-root)\n",
		"[b](/docs/new/b.html) [r](/)\n", 2, 0},
	{"md network path stays network path", repair.Markdown,
		"[b](//site.example/docs/old/b)\n",
		"[b](//site.example/docs/new/b.html)\n", 1, 0},
	{"md relative to a directory", repair.Markdown,
		"[d](../old/dir/) [same](page.md)\n",
		"[d](./) [same](page.md)\n", 1, 0},
	{"md relative link up to the root", repair.Markdown,
		"[x](../../old-root)\n",
		"[x](../../)\n", 1, 0},
	{"md relative link to another site becomes absolute", repair.Markdown,
		"[x](../gone)\n",
		"[x](https://other.example/g)\n", 1, 0},
	{"md image, and image inside a link", repair.Markdown,
		"![i](https://old.example/a) [![badge](https://old.example/a)](https://old.example/a)\n",
		"![i](https://new.example/docs/a/) [![badge](https://new.example/docs/a/)](https://new.example/docs/a/)\n", 3, 0},
	{"md angle destination and reference definitions", repair.Markdown,
		"[a](<https://old.example/a>)\n\n[ref]: https://old.example/a \"Title\"\n  [r2]: <https://old.example/a>\n[r3]:https://old.example/a\n",
		"[a](<https://new.example/docs/a/>)\n\n[ref]: https://new.example/docs/a/ \"Title\"\n  [r2]: <https://new.example/docs/a/>\n[r3]:https://new.example/docs/a/\n", 4, 0},
	{"md autolink", repair.Markdown,
		"Go to <https://old.example/a>, or <mailto:x@old.example>.\n",
		"Go to <https://new.example/docs/a/>, or <mailto:x@old.example>.\n", 1, 0},
	{"md code is no link", repair.Markdown,
		"`[a](https://old.example/a)` ``x `[a](https://old.example/a)` y``\n\n```md\n[a](https://old.example/a)\n```\n\n~~~~\n<https://old.example/a>\n~~~~\n\n    [a](https://old.example/a)\n",
		"`[a](https://old.example/a)` ``x `[a](https://old.example/a)` y``\n\n```md\n[a](https://old.example/a)\n```\n\n~~~~\n<https://old.example/a>\n~~~~\n\n    [a](https://old.example/a)\n", 0, 0},
	{"md indented text in a list is no code", repair.Markdown,
		"1. Step one\n\n    See [a](https://old.example/a).\n",
		"1. Step one\n\n    See [a](https://new.example/docs/a/).\n", 1, 0},
	{"md escaped bracket and space before the parenthesis", repair.Markdown,
		"\\[a](https://old.example/a) [b] (https://old.example/a)\n",
		"\\[a](https://old.example/a) [b] (https://old.example/a)\n", 0, 0},
	{"md raw HTML and comments", repair.Markdown,
		"<a href=\"https://old.example/a\">a</a> <!-- [a](https://old.example/a) -->\n<!--\n[a](https://old.example/a)\n-->\n<img src=https://old.example/a>\n",
		"<a href=\"https://new.example/docs/a/\">a</a> <!-- [a](https://old.example/a) -->\n<!--\n[a](https://old.example/a)\n-->\n<img src=https://new.example/docs/a/>\n", 2, 0},
	{"md HTML block: Markdown in it is text, its tags are HTML", repair.Markdown,
		"<div class=\"note\">\n[a](https://old.example/a) <a href=\"https://old.example/a\">x</a>\n</div>\n\n[b](https://old.example/a)\n",
		"<div class=\"note\">\n[a](https://old.example/a) <a href=\"https://new.example/docs/a/\">x</a>\n</div>\n\n[b](https://new.example/docs/a/)\n", 2, 0},
	{"md script and pre blocks", repair.Markdown,
		"<script>\nvar u = '<a href=\"https://old.example/a\">';\n\n</script>\n<pre>\n[a](https://old.example/a) <a href=\"https://old.example/a\">x</a>\n\n</pre>\n[c](https://old.example/a)\n",
		"<script>\nvar u = '<a href=\"https://old.example/a\">';\n\n</script>\n<pre>\n[a](https://old.example/a) <a href=\"https://new.example/docs/a/\">x</a>\n\n</pre>\n[c](https://new.example/docs/a/)\n", 2, 0},
	{"md a lone tag starts an HTML block, not inside a paragraph", repair.Markdown,
		"<custom-el>\n[a](https://old.example/a)\n\ntext\n<span>\n[b](https://old.example/a)</span>\n",
		"<custom-el>\n[a](https://old.example/a)\n\ntext\n<span>\n[b](https://new.example/docs/a/)</span>\n", 1, 0},
	{"md entities and backslash escapes are read", repair.Markdown,
		"[q](https://old.example/q?x=1&amp;y=2) [e](https://old\\.example/a)\n",
		"[q](https://new.example/q?x=1\\&copy;=2) [e](https://new.example/docs/a/)\n", 2, 0},
	{"md unbalanced parenthesis escaped", repair.Markdown,
		"[p](https://old.example/paren)\n",
		"[p](https://new.example/wiki/A_\\(b)\n", 1, 0},
	{"md block quote, title on the next line, CRLF kept", repair.Markdown,
		"> quoted [a](https://old.example/a\r\n> \"title\")\r\n",
		"> quoted [a](https://new.example/docs/a/\r\n> \"title\")\r\n", 1, 0},
	{"md new URI's own fragment, and the link's instead", repair.Markdown,
		"[f](https://old.example/frag) [g](https://old.example/frag#mine)\n",
		"[f](https://new.example/page#their-frag) [g](https://new.example/page#mine)\n", 2, 0},
	{"md IRI written in ASCII", repair.Markdown,
		"[u](https://old.example/unicode)\n",
		"[u](https://xn--bcher-kva.example/stra%C3%9Fe)\n", 1, 0},
	{"md a URL mapped to itself changes nothing", repair.Markdown,
		"[s](https://old.example/self)\n",
		"[s](https://old.example/self)\n", 0, 0},
	{"md links not in the map", repair.Markdown,
		"[x](https://old.example/other) [m](mailto:a@b) [h](#top) [e]()\n",
		"[x](https://old.example/other) [m](mailto:a@b) [h](#top) [e]()\n", 0, 0},

	// HTML.
	{"html quoted, single quoted, unquoted, upper case", repair.HTML,
		`<A HREF="https://old.example/a">a</A><a href='../old/b#s'>b</a><img src=https://old.example/a alt=x>`,
		`<A HREF="https://new.example/docs/a/">a</A><a href='../new/b.html#s'>b</a><img src=https://new.example/docs/a/ alt=x>`, 3, 0},
	{"html escapes: entities read, ampersands and quotes written", repair.HTML,
		`<a href="https://old.example/q?x=1&amp;y=2">q</a><a href='https://old.example/quote'>'</a><a href=https://old.example/quote>u</a>`,
		`<a href="https://new.example/q?x=1&amp;copy;=2">q</a><a href='https://new.example/it&#39;s=1'>'</a><a href="https://new.example/it's=1">u</a>`, 3, 0},
	{"html script, style, textarea, title and comments are no links", repair.HTML,
		"<title><a href=\"https://old.example/a\"></title><script>x = '<a href=\"https://old.example/a\">'</script><style>a{background:url(https://old.example/a)}</style><textarea><a href=https://old.example/a></textarea><!-- <a href=\"https://old.example/a\"> -->",
		"<title><a href=\"https://old.example/a\"></title><script>x = '<a href=\"https://old.example/a\">'</script><style>a{background:url(https://old.example/a)}</style><textarea><a href=https://old.example/a></textarea><!-- <a href=\"https://old.example/a\"> -->", 0, 0},
	{"html base href is the base of every link, and stays", repair.HTML,
		"<html><head><base href=\"/docs/old/\"></head><body><a href=\"b\">b</a><a href=\"https://site.example/docs/old/b\">abs</a></body></html>\n",
		"<html><head><base href=\"/docs/old/\"></head><body><a href=\"../new/b.html\">b</a><a href=\"https://site.example/docs/new/b.html\">abs</a></body></html>\n", 2, 0},
	{"html white space around a value, other attributes untouched", repair.HTML,
		"<a data-href=\"https://old.example/a\" href = \" https://old.example/a \" srcset=\"https://old.example/a 2x\">x</a>",
		"<a data-href=\"https://old.example/a\" href = \"https://new.example/docs/a/\" srcset=\"https://old.example/a 2x\">x</a>", 1, 0},

	// reStructuredText.
	{"rst embedded URIs, named and anonymous", repair.RST,
		"See `A <https://old.example/a>`_ and `B <../old/b#part>`__ and `<https://old.example/a>`_.\n",
		"See `A <https://new.example/docs/a/>`_ and `B <../new/b.html#part>`__ and `<https://new.example/docs/a/>`_.\n", 3, 0},
	{"rst hyperlink targets", repair.RST,
		".. _guide: https://old.example/a\n.. _`odd: name`: ../old/b\n.. __: https://old.example/a\n\n__ https://old.example/a\n",
		".. _guide: https://new.example/docs/a/\n.. _`odd: name`: ../new/b.html\n.. __: https://new.example/docs/a/\n\n__ https://new.example/docs/a/\n", 4, 0},
	{"rst standalone URIs and their punctuation", repair.RST,
		"Read https://old.example/a. Or (https://old.example/a), \"https://old.example/a\".\n",
		"Read https://new.example/docs/a/. Or (https://new.example/docs/a/), \"https://new.example/docs/a/\".\n", 3, 0},
	{"rst literal blocks, code, comments, roles, inline literals", repair.RST,
		"Example::\n\n   https://old.example/a\n\n.. code-block:: rst\n\n   `A <https://old.example/a>`_\n\n.. this is a comment https://old.example/a\n   still the comment https://old.example/a\n\n:ref:`x <https://old.example/a>` and ``https://old.example/a``\n\n>>> print('https://old.example/a')\n",
		"Example::\n\n   https://old.example/a\n\n.. code-block:: rst\n\n   `A <https://old.example/a>`_\n\n.. this is a comment https://old.example/a\n   still the comment https://old.example/a\n\n:ref:`x <https://old.example/a>` and ``https://old.example/a``\n\n>>> print('https://old.example/a')\n", 0, 0},
	{"rst text after a literal block and in a note", repair.RST,
		"Example::\n\n   code\n\nAfter https://old.example/a\n\n.. note:: See https://old.example/a\n\n   and `A <https://old.example/a>`_\n",
		"Example::\n\n   code\n\nAfter https://new.example/docs/a/\n\n.. note:: See https://new.example/docs/a/\n\n   and `A <https://new.example/docs/a/>`_\n", 3, 0},
	{"rst a target over two lines, an indirect target", repair.RST,
		".. _long: https://old.example/\n   a\n.. _ind: https://old.example/a_\n",
		".. _long: https://old.example/\n   a\n.. _ind: https://old.example/a_\n", 0, 0},
	{"rst image argument and target", repair.RST,
		".. image:: https://old.example/a\n   :alt: an image\n   :target: ../old/b\n",
		".. image:: https://new.example/docs/a/\n   :alt: an image\n   :target: ../new/b.html\n", 2, 0},
	{"rst grid table: a link of the same width is replaced, another is not", repair.RST,
		"+--------------------------+---+\n| https://old.example/same | x |\n+==========================+===+\n| https://old.example/a    | y |\n+--------------------------+---+\n\nAfter https://old.example/a\n",
		"+--------------------------+---+\n| https://new.example/same | x |\n+==========================+===+\n| https://old.example/a    | y |\n+--------------------------+---+\n\nAfter https://new.example/docs/a/\n", 3, 1},
	{"rst simple table and section titles", repair.RST,
		"==========================  ===\nhttps://old.example/a       x\n\nhttps://old.example/same    y\n==========================  ===\n\nTitle https://old.example/a\n=============================\n\n=====\nhttps://old.example/same\n=====\n\ntext https://old.example/a\n",
		"==========================  ===\nhttps://old.example/a       x\n\nhttps://new.example/same    y\n==========================  ===\n\nTitle https://old.example/a\n=============================\n\n=====\nhttps://new.example/same\n=====\n\ntext https://new.example/docs/a/\n", 5, 2},
	{"rst new URIs that need escaping, and one that cannot stand alone", repair.RST,
		"`U <https://old.example/under>`_ https://old.example/dot ok\n",
		"`U <https://new.example/name\\_>`_ https://old.example/dot ok\n", 2, 1},
}

func TestRewrite(t *testing.T) {
	rw := &repair.Rewriter{Moves: testMoves}
	for _, tt := range rewriteTests {
		t.Run(tt.name, func(t *testing.T) {
			got, changes, err := rw.Rewrite([]byte(tt.in), tt.syntax, testDoc)
			require.NoError(t, err)
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("Rewrite(%q) (-want +got):\n%s", tt.in, diff)
			}
			skips := 0
			for _, c := range changes {
				if c.Skip != "" {
					skips++
				}
			}
			if len(changes) != tt.changes || skips != tt.skips {
				t.Errorf("Rewrite(%q) found %d dead links, %d skipped, want %d and %d: %+v", tt.in, len(changes), skips, tt.changes, tt.skips, changes)
			}
			// Idempotence: the new links are not dead (the map has no
			// chains into its own keys for these inputs).
			again, _, err := rw.Rewrite(got, tt.syntax, testDoc)
			require.NoError(t, err)
			if string(again) != string(got) {
				t.Errorf("Rewrite is not idempotent on %q: %q", got, again)
			}
		})
	}
}

func TestRewriteChanges(t *testing.T) {
	rw := &repair.Rewriter{Moves: testMoves}
	in := "line one\r\n[a](https://old.example/a) [d](https://old.example/dot)\r\n\r\nhttps://old.example/dot\r\n"
	_, changes, err := rw.Rewrite([]byte(in), repair.Markdown, testDoc)
	require.NoError(t, err)
	want := []repair.Change{
		{Line: 2, Old: "https://old.example/a", New: "https://new.example/docs/a/"},
		{Line: 2, Old: "https://old.example/dot", New: "https://new.example/end."},
	}
	if diff := cmp.Diff(want, changes); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	_, changes, err = rw.Rewrite([]byte("x\n\nsee https://old.example/dot\n"), repair.RST, testDoc)
	require.NoError(t, err)
	require.Len(t, changes, 1)
	require.Equal(t, 3, changes[0].Line)
	require.Contains(t, changes[0].Skip, "cannot end in .")
}

func TestRewriteWithoutBase(t *testing.T) {
	rw := &repair.Rewriter{Moves: testMoves}
	in := "[b](../old/b) [a](https://old.example/a)\n"
	got, _, err := rw.Rewrite([]byte(in), repair.Markdown, "")
	require.NoError(t, err)
	require.Equal(t, "[b](../old/b) [a](https://new.example/docs/a/)\n", string(got), "relative links stay without a base")
}

func TestRewriteKeepsOtherBytes(t *testing.T) {
	// Latin-1 text (not UTF-8) around a link keeps its bytes; the new
	// link is ASCII.
	rw := &repair.Rewriter{Moves: testMoves}
	in := "caf\xe9 [u](https://old.example/unicode) na\xefve\n"
	got, _, err := rw.Rewrite([]byte(in), repair.Markdown, testDoc)
	require.NoError(t, err)
	require.Equal(t, "caf\xe9 [u](https://xn--bcher-kva.example/stra%C3%9Fe) na\xefve\n", string(got))
}

func TestRewriteBadMoves(t *testing.T) {
	for _, moves := range []map[string]string{
		{"/relative": "https://new.example/"},
		{"https://old.example/a": "new.example/a"},
		{"https://old.example/a": "https://new.example/1", "https://OLD.example/a/": "https://new.example/2"},
	} {
		_, _, err := (&repair.Rewriter{Moves: moves}).Rewrite(nil, repair.Markdown, "")
		require.ErrorIs(t, err, repair.ErrMoves, "%v", moves)
		_, err = (&repair.Rewriter{Moves: moves}).Dir(t.TempDir())
		require.ErrorIs(t, err, repair.ErrMoves, "%v", moves)
	}
}

func TestSyntaxOf(t *testing.T) {
	for _, tt := range []struct {
		name string
		want repair.Syntax
		ok   bool
	}{
		{"a.md", repair.Markdown, true}, {"A.MARKDOWN", repair.Markdown, true},
		{"dir/x.html", repair.HTML, true}, {"x.HTM", repair.HTML, true},
		{"index.rst", repair.RST, true}, {"notes.txt", 0, false}, {"md", 0, false},
		{`dir\y.rst`, repair.RST, true},
	} {
		got, ok := repair.SyntaxOf(tt.name)
		if got != tt.want || ok != tt.ok {
			t.Errorf("SyntaxOf(%q) = %v, %v, want %v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
	require.Equal(t, "markdown html rst", strings.Join([]string{repair.Markdown.String(), repair.HTML.String(), repair.RST.String()}, " "))
}

// TestRewriteOnlyWebURIs maps dead links to URIs of other schemes, as a
// result, a review's decision or a hand-made map might: no file gets one,
// in any syntax; each such link is reported, left alone, with why (issue
// 23, item 3).
func TestRewriteOnlyWebURIs(t *testing.T) {
	bad := []string{
		"javascript:alert(document.cookie)//",
		"JavaScript://new.example/%0aalert(1)",
		"data:text/html,<script>alert(1)</script>",
		"vbscript:msgbox(1)",
		"file://localhost/etc/passwd",
		"ftp://new.example/a",
		"mailto:someone@new.example",
		// A password: a result read back from a journal holds it
		// redacted, and a file is no place for one.
		"https://bob:xxxxx@new.example/a",
		"https://bob:secret@new.example/a",
	}
	docs := map[repair.Syntax]string{
		repair.Markdown: "[A](https://old.example/a) <https://old.example/a>\n\n[r]: https://old.example/a\n",
		repair.HTML:     "<a href=\"https://old.example/a\">a</a> <img src=https://old.example/a> <link href='https://old.example/a'>\n",
		repair.RST:      "See `A <https://old.example/a>`_ and https://old.example/a.\n\n.. _t: https://old.example/a\n",
	}
	const dead = "https://old.example/a"
	for _, uri := range bad {
		sources := map[string]map[string]string{
			"results": repair.Moves([]repair.Result{{Dead: dead, Verdict: repair.Moved, URI: uri, Confidence: 1}}, 0.5),
			"decisions": (&repair.Decisions{Decisions: []repair.Decision{
				{Dead: dead, URI: uri, Decision: repair.Accept}}}).Accepted(),
			"map": {dead: uri},
		}
		for source, moves := range sources {
			require.Equal(t, uri, moves[dead], "%s gives the move", source)
			for syn, doc := range docs {
				t.Run(source+"/"+syn.String()+"/"+uri, func(t *testing.T) {
					got, changes, err := (&repair.Rewriter{Moves: moves}).Rewrite([]byte(doc), syn, testDoc)
					require.NoError(t, err)
					require.Equal(t, doc, string(got), "nothing written")
					require.Len(t, changes, 3)
					for _, c := range changes {
						require.Contains(t, c.Skip, "; not written")
					}
				})
			}
		}
	}
	// An https URI given in capitals is one.
	got, _, err := (&repair.Rewriter{Moves: map[string]string{dead: "HTTPS://new.example/a"}}).Rewrite([]byte(docs[repair.Markdown]), repair.Markdown, testDoc)
	require.NoError(t, err)
	require.Equal(t, strings.ReplaceAll(docs[repair.Markdown], dead, "https://new.example/a"), string(got))
}
