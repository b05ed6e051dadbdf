package relink

import (
	"net/url"
	"path"
	"slices"
	"strings"
)

// target is the missing URI, parsed once into what every signal of the
// judge reads of it: its host, its path and the words and names they spell.
// A Clues makes it once (Clues.target); the judge and the strategies that
// weigh candidates by the URI read it instead of parsing the URI again.
type target struct {
	uri string
	// parsed says the URI parsed; when it did not, every field but uri
	// is empty and no candidate shares its host.
	parsed bool
	host   string // lowercase
	path   string // the URI's path, "" when it has none
	base   string // the last segment of path (path.Base)

	words []string // URLWords
	slug  []string // SlugWords
	// pathWords are the words of the path and query, with the parts that
	// a name's capitals and digits set apart (pathWords).
	pathWords []string
	// named are pathWords, and the kind of page a generated file name
	// starts with ("struct" in "structssh__timestamp.html"), as a set:
	// the words a title may hold as the URI's own name.
	named map[string]bool
	// versions are the versions the last segment holds (versions).
	versions [][]string
	// spelt is the name the path spells, lowercased, as the parts of a
	// dotted name: its directories that are identifiers, then the last
	// segment's dotted name or identifier ("org", "apache", "tuple",
	// "mutablepair" for .../org/apache/tuple/MutablePair.html); a name
	// in the title that is a run of it ending before its end names what
	// encloses the page (enclosingName).
	spelt []string
}

// newTarget parses uri.
func newTarget(uri string) *target {
	t := &target{uri: uri}
	u, err := url.Parse(uri)
	if err != nil {
		return t
	}
	t.parsed = true
	t.host = strings.ToLower(u.Hostname())
	t.path = u.Path
	t.base = path.Base(u.Path)
	t.words = URLWords(uri)
	t.slug = SlugWords(uri)
	t.pathWords = pathWords(u, t.words)
	t.named = withWords(nil, t.pathWords)
	for _, kind := range pageKinds {
		if strings.HasPrefix(t.base, kind) {
			t.named = withWords(t.named, []string{kind})
		}
	}
	t.versions = versions(t.base)
	t.spelt = speltName(t.path)
	return t
}

// speltName returns the parts of the name a URI's path spells (target's
// spelt): the directories that are identifiers, then the parts of the
// last segment when it is a dotted name or an identifier, without its
// page type.
func speltName(p string) []string {
	p = strings.TrimSuffix(p, "/")
	var out []string
	for seg := range strings.SplitSeq(path.Dir(p), "/") {
		if isIdentifier(seg) {
			out = append(out, strings.ToLower(seg))
		}
	}
	base := trimPageType(strings.ToLower(path.Base(p)))
	parts := strings.Split(base, ".")
	if !slices.ContainsFunc(parts, func(s string) bool { return !isIdentifier(s) }) {
		out = append(out, parts...)
	}
	return out
}

// isIdentifier reports whether s is a name of a program: letters, digits
// and underscores, not starting with a digit.
func isIdentifier(s string) bool {
	return dottedName("a.b."+s) != ""
}

// sameHost reports whether uri is on the missing page's host.
func (t *target) sameHost(uri string) bool {
	if !t.parsed {
		return false
	}
	u, err := url.Parse(uri)
	return err == nil && strings.EqualFold(u.Hostname(), t.host)
}

// target returns the missing URI of c, parsed once.
func (c *Clues) target() *target {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.parsed == nil || c.parsed.uri != c.URI {
		c.parsed = newTarget(c.URI)
	}
	return c.parsed
}
