package repair

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"net/url"
	"path"
	"strings"

	"golang.org/x/net/idna"
)

// Syntax is the markup language of a file the Rewriter edits.
type Syntax int

// The syntaxes the Rewriter edits, told by file name extension
// (SyntaxOf).
const (
	Markdown Syntax = iota + 1 // .md, .markdown
	HTML                       // .html, .htm
	RST                        // .rst (reStructuredText)
)

// String returns "markdown", "html" or "rst".
func (s Syntax) String() string {
	switch s {
	case Markdown:
		return "markdown"
	case HTML:
		return "html"
	case RST:
		return "rst"
	}
	return fmt.Sprintf("Syntax(%d)", int(s))
}

// SyntaxOf returns the syntax of a file by its name's extension (in any
// case), and false for a file the Rewriter does not edit.
func SyntaxOf(name string) (Syntax, bool) {
	switch strings.ToLower(path.Ext(strings.ReplaceAll(name, `\`, "/"))) {
	case ".md", ".markdown":
		return Markdown, true
	case ".html", ".htm":
		return HTML, true
	case ".rst":
		return RST, true
	}
	return 0, false
}

// linkKind is how a link target is written, which decides how it is read
// and how a new target is escaped.
type linkKind int

const (
	mdPlain     linkKind = iota + 1 // [t](dest) and [x]: dest
	mdAngle                         // [t](<dest>) and [x]: <dest>
	mdAutolink                      // <scheme:...>
	htmlQuoted                      // href="dest" or href='dest'
	htmlBare                        // href=dest
	rstEmbedded                     // `text <dest>`_
	rstTarget                       // .. _name: dest
	rstBare                         // a standalone URI in text
)

// span is one link target found in a file.
type span struct {
	start, end int // the target's bytes, as written, in the file
	kind       linkKind
	quote      byte   // htmlQuoted's quote
	base       string // the HTML document's <base href>, entities decoded, or ""
	fixed      bool   // in a reST table or section title: its width must not change
}

// ErrMoves is the cause of a repair map that cannot be applied: a dead
// URL that cannot be canonicalized, a new URI that is not absolute, or
// two spellings of one dead URL mapped to different new URIs.
var ErrMoves = errors.New("repair: invalid repair map")

// moveTable is a repair map keyed by canonical dead URL.
type moveTable map[string]*url.URL

// newMoveTable checks moves and keys it by canonical form.
func newMoveTable(moves map[string]string) (moveTable, error) {
	t := moveTable{}
	given := map[string]string{}
	for dead, nu := range moves {
		k, ok := canonKey(dead)
		if !ok {
			return nil, fmt.Errorf("%w: dead URL %q is not an absolute URL", ErrMoves, dead)
		}
		n, err := url.Parse(strings.TrimSpace(nu))
		if err != nil || n.Scheme == "" || (n.Host == "" && n.Opaque == "") {
			return nil, fmt.Errorf("%w: new URI %q for %q is not an absolute URL", ErrMoves, nu, dead)
		}
		if prev, dup := t[k]; dup && prev.String() != n.String() {
			return nil, fmt.Errorf("%w: %q and %q are one URL mapped to %q and %q", ErrMoves, given[k], dead, prev, n)
		}
		t[k], given[k] = n, dead
	}
	return t, nil
}

// Change is one link target the Rewriter found dead and replaced (or,
// when Skip says why, could not replace).
type Change struct {
	// Line is the 1-based line of the target in the file.
	Line int
	// Old is the target as it was written (escapes included), New as it
	// is written now ("" when skipped).
	Old, New string
	// Skip says why a dead target was left alone, or is "".
	Skip string
}

// rewrite replaces the dead link targets of src, a file of syntax syn
// served at doc (an absolute URL, or "" when unknown: relative links are
// then left alone). It returns the new bytes (src itself when nothing
// changed) and every dead target found.
func rewrite(src []byte, syn Syntax, doc string, moves moveTable) ([]byte, []Change) {
	var spans []span
	switch syn {
	case Markdown:
		spans = scanMarkdown(src)
	case HTML:
		spans = scanHTML(src)
	case RST:
		spans = scanRST(src)
	}
	var out []byte
	var changes []Change
	last, line, lineAt := 0, 1, 0
	for _, sp := range spans {
		old := string(src[sp.start:sp.end])
		nu, why, dead := replacement(old, sp, doc, moves)
		if !dead {
			continue
		}
		line += bytes.Count(src[lineAt:sp.start], []byte("\n"))
		lineAt = sp.start
		c := Change{Line: line, Old: old, New: nu, Skip: why}
		if why != "" || nu == old {
			if why != "" {
				c.New = ""
				changes = append(changes, c)
			}
			continue
		}
		changes = append(changes, c)
		if out == nil {
			out = make([]byte, 0, len(src)+64)
		}
		out = append(out, src[last:sp.start]...)
		out = append(out, nu...)
		last = sp.end
	}
	if out == nil {
		return src, changes
	}
	return append(out, src[last:]...), changes
}

// replacement decides what to write for the target old: dead is false
// for a target that is not in moves; why says why a dead target cannot be
// replaced.
func replacement(old string, sp span, doc string, moves moveTable) (nu, why string, dead bool) {
	v := decodeTarget(old, sp.kind)
	if v == "" || v[0] == '#' {
		return "", "", false
	}
	ref, frag, hasFrag := splitFragment(v)
	r, err := url.Parse(ref)
	if err != nil {
		return "", "", false
	}
	base := doc
	if sp.base != "" {
		if b, err := url.Parse(strings.TrimSpace(sp.base)); err == nil {
			if d, err := url.Parse(doc); err == nil && doc != "" {
				b = d.ResolveReference(b)
			}
			if b.IsAbs() {
				base = b.String()
			}
		}
	}
	relative := r.Scheme == ""
	abs := ref
	var bu *url.URL
	if relative {
		if base == "" {
			return "", "", false
		}
		bu, err = url.Parse(base)
		if err != nil || !bu.IsAbs() {
			return "", "", false
		}
		abs = bu.ResolveReference(r).String()
	}
	k, ok := canonKey(abs)
	if !ok {
		return "", "", false
	}
	n, ok := moves[k]
	if !ok {
		return "", "", false
	}
	// The one check every new URI passes, whatever chose it (a search
	// answer, the cache, a URL rule, a review's decision, a caller's
	// map): only a web URI is ever written into a file.
	if why := unwritable(n); why != "" {
		return "", why, true
	}
	target := *n
	if hasFrag {
		target.Fragment, target.RawFragment = "", ""
	}
	var s string
	if relative && sameOrigin(bu, &target) {
		s = relativeForm(ref, bu, &target)
	} else {
		s = asciiURI(&target)
	}
	rawFrag := ""
	if hasFrag {
		rawFrag = writtenFragment(old, frag, sp.kind)
	}
	nu, why, dead = encodeTarget(safeURI(s, true), rawFrag, sp, relative)
	if why == "" && sp.fixed && len(nu) != len(old) {
		return "", "in a reST table or section title, whose layout a longer or shorter link would break; edit it by hand", true
	}
	return nu, why, dead
}

// writtenFragment returns the fragment of the target old as it is written
// there ("#" included, escapes kept), so that it is kept byte for byte:
// the first '#' whose rest reads as "#"+frag.
func writtenFragment(old, frag string, k linkKind) string {
	for j := 0; j < len(old); j++ {
		if old[j] == '#' && decodeTarget(old[j:], k) == "#"+frag {
			return strings.TrimRight(old[j:], " \t\n\r\f")
		}
	}
	return "#" + safeURI(frag, true)
}

// sameOrigin reports whether a and b have one scheme, host and port.
func sameOrigin(a, b *url.URL) bool {
	if a == nil || b == nil {
		return false
	}
	oa, ok1 := originOf(a.String())
	ob, ok2 := originOf(b.String())
	return ok1 && ok2 && oa == ob
}

// relativeForm writes n relative to base in the style of the link ref
// was: network-path ("//host/p"), absolute-path ("/p") or relative-path
// ("../p").
func relativeForm(ref string, base, n *url.URL) string {
	p := n.EscapedPath()
	if p == "" {
		p = "/"
	}
	q := ""
	if n.RawQuery != "" || n.ForceQuery {
		q = "?" + n.RawQuery
	}
	fr := ""
	if n.Fragment != "" {
		fr = "#" + n.EscapedFragment()
	}
	switch {
	case strings.HasPrefix(ref, "//"):
		return "//" + asciiHost(n.Host) + p + q + fr
	case strings.HasPrefix(ref, "/"):
		return p + q + fr
	}
	return relativePath(base.EscapedPath(), p) + q + fr
}

// relativePath is the relative-path reference from a document at from to
// the path to: "../api/x.html" from "/docs/guide/a.html" to
// "/docs/api/x.html", "./" to the document's own directory. Both are
// absolute, escaped paths.
func relativePath(from, to string) string {
	var dir []string
	if i := strings.LastIndexByte(from, '/'); i > 0 {
		dir = strings.Split(from[1:i], "/")
	}
	segs := strings.Split(strings.TrimPrefix(to, "/"), "/")
	tdir, file := segs[:len(segs)-1], segs[len(segs)-1]
	common := 0
	for common < len(dir) && common < len(tdir) && dir[common] == tdir[common] {
		common++
	}
	var b strings.Builder
	for range len(dir) - common {
		b.WriteString("../")
	}
	for _, s := range tdir[common:] {
		b.WriteString(s)
		b.WriteByte('/')
	}
	b.WriteString(file)
	rel := b.String()
	if rel == "" {
		return "./"
	}
	if first, _, _ := strings.Cut(rel, "/"); strings.Contains(first, ":") {
		rel = "./" + rel // a first segment with a colon would read as a scheme
	}
	return rel
}

// asciiURI writes n with an ASCII host (IDNA) and its other non-ASCII
// bytes percent-encoded, so that it can be spliced into a file of any
// ASCII-compatible encoding.
func asciiURI(n *url.URL) string {
	c := *n
	c.Host = asciiHost(c.Host)
	return safeURI(c.String(), true)
}

func asciiHost(h string) string {
	for i := 0; i < len(h); i++ {
		if h[i] >= 0x80 {
			if a, err := idna.Lookup.ToASCII(h); err == nil {
				return a
			}
			return h
		}
	}
	return h
}

// decodeTarget reads a target as written into the URL it names: the
// syntax's escapes undone and the white space a browser ignores dropped.
func decodeTarget(s string, k linkKind) string {
	switch k {
	case mdPlain, mdAngle:
		s = unescapeMarkdown(s)
	case htmlQuoted, htmlBare:
		s = html.UnescapeString(s)
	case rstEmbedded, rstTarget:
		s = unescapeRST(s)
	}
	return strings.Trim(s, " \t\n\r\f")
}

// unescapeMarkdown reads a CommonMark link destination's escapes from
// left to right: a backslash before ASCII punctuation makes it literal
// (§2.4; so "\\&amp;" is "&amp;"), and an entity or character reference
// is decoded (§2.5).
func unescapeMarkdown(s string) string {
	if !strings.ContainsAny(s, `\&`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && isPunct(s[i+1]):
			i++
			b.WriteByte(s[i])
		case s[i] == '&' && isEntityAt(s[i:]):
			j := i + strings.IndexByte(s[i:], ';')
			b.WriteString(html.UnescapeString(s[i : j+1]))
			i = j
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// unescapeRST removes the backslash of each "\\c" (reStructuredText
// Markup Specification, "Escaping Mechanism").
func unescapeRST(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !isAlpha(c) && !('0' <= c && c <= '9')
}

// encodeTarget writes the URI s (already safe: no white space, quotes or
// angle brackets, and no fragment) followed by the fragment frag as
// written in the file, as a target of sp's kind.
func encodeTarget(s, frag string, sp span, relative bool) (string, string, bool) {
	switch sp.kind {
	case mdPlain:
		s = mdEntities(s)
		if !parensNest(s + frag) {
			// Escaped, a parenthesis reads the same and cannot end the
			// destination; the fragment's escapes change its bytes, not
			// what it says.
			return escapeParens(s) + escapeParens(frag), "", true
		}
	case mdAngle:
		s = mdEntities(s)
	case mdAutolink:
		if relative {
			return "", "an autolink cannot hold a relative URL", true
		}
	case htmlQuoted:
		s = strings.ReplaceAll(s, "&", "&amp;")
		if sp.quote == '\'' {
			s = strings.ReplaceAll(s, "'", "&#39;")
		}
	case htmlBare:
		s = strings.ReplaceAll(s, "&", "&amp;")
		if s+frag == "" || strings.ContainsAny(s+frag, "'=") {
			return `"` + s + frag + `"`, "", true
		}
	case rstEmbedded, rstTarget:
		if frag == "" && strings.HasSuffix(s, "_") {
			s = s[:len(s)-1] + `\_` // a target ending in _ is a reference name
		}
	case rstBare:
		all := s + frag
		if strings.ContainsAny(all[len(all)-1:], ".,;:!?'\")]_") {
			return "", "a standalone URI cannot end in " + all[len(all)-1:] + "; write it as `text <URI>`_", true
		}
	}
	return s + frag, "", true
}

// parensNest reports whether the unescaped parentheses of a Markdown
// destination nest, as a plain destination's must (CommonMark §6.3).
func parensNest(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			if depth--; depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

// escapeParens puts a backslash before each parenthesis of s that has
// none.
func escapeParens(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			b.WriteByte(s[i])
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
			continue
		case '(', ')':
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// mdEntities escapes the & of an entity reference ("&amp;", "&#38;"),
// which CommonMark would decode inside a link destination.
func mdEntities(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '&' && isEntityAt(s[i:]) {
			b.WriteString(`\&`)
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// isEntityAt reports whether s starts with an entity or character
// reference: & then a name or #digits or #xhex, then ;.
func isEntityAt(s string) bool {
	j := 1
	for j < len(s) && j < 40 && (isAlpha(s[j]) || '0' <= s[j] && s[j] <= '9' || (j == 1 && s[j] == '#')) {
		j++
	}
	return j > 1 && j < len(s) && s[j] == ';'
}
