package relink

import (
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/linkrot/relink/lexsig"
)

// byURI reports whether title a holds a word of the missing URI's path
// that title b lacks, and b none that a lacks: of two titles that hold
// the anchors alike, "Selections: GDK 3 Reference Manual" is the one
// .../gdk3/3.24/gdk3-Selections.html names, not "Selections: GTK+ 3
// Reference Manual".
func byURI(a, b string, t *target) bool {
	words := t.pathWords
	ta, tb := lexsig.Tokenize(a), lexsig.Tokenize(b)
	only := func(x, y []string) bool {
		return slices.ContainsFunc(x, func(w string) bool {
			return len(w) > 1 && !isNumber(w) && slices.Contains(words, w) && !slices.Contains(y, w)
		})
	}
	return only(ta, tb) && !only(tb, ta)
}

// otherName reports whether title holds a dotted name (two dots or more)
// that ends as the dotted name that ends the path of uri does but is
// another. Where the title's name starts with a part of the path's names
// (the directories that are names, then the file's dotted name), it must
// go on as the path does from one of them: ".../org/apache/commons/lang3/
// class-use/Streams.FailableStream.html" is not "org.apache.commons.lang3.
// stream.Streams.FailableStream", and ".../generated/dask.array.Array.
// argmin.html" is not "dask.array.argmin". Otherwise it must be the
// file's dotted name.
func otherName(title string, t *target) bool {
	p := strings.TrimSuffix(t.path, "/")
	name := dottedName("a." + path.Base(p)) // the file's dotted name, of two parts or more
	if name == "" {
		return false
	}
	name = name[2:]
	var spelt []string
	for seg := range strings.SplitSeq(path.Dir(p), "/") {
		if dottedName("a.b."+seg) != "" {
			spelt = append(spelt, strings.ToLower(seg))
		}
	}
	fileAt := len(spelt)
	spelt = append(spelt, strings.Split(name, ".")...)
	for field := range strings.FieldsSeq(title) {
		f := dottedName(field)
		if f == "" {
			continue
		}
		parts := strings.Split(f, ".")
		if parts[len(parts)-1] != spelt[len(spelt)-1] {
			// The name of what encloses the URI's: "...lang3.arch.Processor"
			// for .../arch/class-use/Processor.Arch.html.
			for at := range spelt {
				end := at + len(parts)
				if end > fileAt && end < len(spelt) && slices.Equal(parts, spelt[at:end]) {
					return true
				}
			}
			continue
		}
		starts, goesOn := false, false
		for at, w := range spelt {
			if w == parts[0] {
				starts = true
				goesOn = goesOn || slices.Equal(parts, spelt[at:])
			}
		}
		if starts && !goesOn || !starts && strings.Count(name, ".") >= 2 && f != name {
			return true
		}
	}
	return false
}

// pathNames reports whether title holds a dotted name, of two parts or
// more, that is a run of the name the missing URI's path spells (target's
// spelt): ending before that name ends, the name of what encloses the
// page, a package's or a class's ("Uses of Package
// org.apache.commons.lang3.tuple" for .../org/apache/commons/lang3/tuple/
// MutablePair.html, "junit.framework" for .../junit/framework/
// JUnit4TestAdapter.html), whose page the title's is; ending where it
// ends, the page's own name ("org.junit.experimental.max Class
// Hierarchy" for .../org/junit/experimental/max/package-tree.html).
// inner reports a dotted name of three parts or more that starts with the
// last two parts or more of the path's name, to its end, and goes on: the
// name of a page inside the named one, a nested class's, a member's or a
// subpackage's ("org.junit.experimental.theories.suppliers Class
// Hierarchy" for .../org/junit/experimental/theories/package-summary.html,
// "dask.dataframe.Series.describe" for .../dask.dataframe.Series.html).
func pathNames(title string, t *target) (enclosing, whole, inner bool) {
	spelt := t.spelt
	for field := range strings.FieldsSeq(title) {
		f := strings.ToLower(strings.TrimFunc(field, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }))
		parts := strings.Split(f, ".")
		if len(parts) < 2 || slices.ContainsFunc(parts, func(s string) bool { return !isIdentifier(s) }) {
			continue
		}
		for at := 0; at+len(parts) <= len(spelt); at++ {
			if slices.Equal(parts, spelt[at:at+len(parts)]) {
				if at+len(parts) < len(spelt) {
					enclosing = true
				} else {
					whole = true
				}
			}
		}
		for k := 2; k < len(parts) && k <= len(spelt); k++ {
			inner = inner || slices.Equal(parts[:k], spelt[len(spelt)-k:])
		}
	}
	return enclosing, whole, inner
}

// sibling reports whether candidate is known to be another page than the
// missing uri by its name: its title names another (otherName,
// otherVersion), or its URI is a sibling's (siblingURI).
func sibling(candidate lexsig.Result, t *target) bool {
	return otherName(candidate.Title, t) || otherVersion(candidate.Title, t) || otherDirectory(candidate.Title, t) || siblingURI(candidate.URI, t)
}

// otherDirectory reports whether title holds a path to the file the
// missing URI's Doxygen name spells in another directory
// ("libavformat/version_major.h" for
// libavcodec_2version__major_8h_source.html, where "_2" is a slash).
func otherDirectory(title string, t *target) bool {
	seg := t.base
	i := strings.LastIndex(seg, "_2")
	if i <= 0 || !hasDotEscape(seg) || i+2 >= len(seg) || !isLetter(seg[i+2]) {
		return false
	}
	dir, file := lexsig.Tokenize(generatedNames(seg[:i])), lexsig.Tokenize(generatedNames(seg[i+2:]))
	for field := range strings.FieldsSeq(title) {
		j := strings.LastIndex(field, "/")
		if j <= 0 {
			continue
		}
		fw := lexsig.Tokenize(field[j+1:])
		if len(fw) > 0 && len(fw) <= len(file) && slices.Equal(fw, file[:len(fw)]) && !slices.Equal(lexsig.Tokenize(field[:j]), dir) {
			return true
		}
	}
	return false
}

// siblingURI reports whether candidate is another page of the missing
// URI's directory with a name of the same form: as many words, at least
// one of them shared, and at least one differing (releases/1.5.7 for
// releases/1.2.7, group__lavc__internal.html for
// group__lavf__internal.html). A page that moves leaves its directory or
// keeps its name; a page beside the old one, named after the same
// pattern, is its sibling.
func siblingURI(candidate string, t *target) bool {
	a, b := uriPath(candidate), t.path
	if !t.sameHost(candidate) || a == b || path.Dir(a) != path.Dir(b) {
		return false
	}
	wa, wb := nameWords(path.Base(a)), nameWords(path.Base(b))
	if len(wa) < 2 || len(wa) != len(wb) {
		return false
	}
	shared, differ := false, false
	for i := range wa {
		if wa[i] == wb[i] {
			shared = true
		} else {
			differ = true
		}
	}
	return shared && differ
}

// otherVersion reports whether the last segment of uri's path holds a
// version (numbers joined by dots, dashes or underscores: "3.3",
// "3_0_5") and title holds versions, none of them that one: "Release
// Notes for v.2.4" is not release-3.3.html.
func otherVersion(title string, t *target) bool {
	vs := t.versions
	if len(vs) == 0 {
		return false
	}
	want := vs[len(vs)-1]
	have := versions(title)
	return len(have) > 0 && !slices.ContainsFunc(have, func(v []string) bool { return sameVersion(v, want) })
}

// sameVersion reports whether two versions are one, trailing zeros aside
// ("1.0" and "1.0.0").
func sameVersion(a, b []string) bool {
	trim := func(v []string) []string {
		for len(v) > 0 && v[len(v)-1] == "" {
			v = v[:len(v)-1]
		}
		return v
	}
	return slices.Equal(trim(a), trim(b))
}

// versions returns the runs of two numbers or more in s that single dots,
// dashes or underscores join ("2004-08-29", "3.0.5"), each as its numbers
// without leading zeros (a zero is "").
func versions(s string) [][]string {
	var out [][]string
	var run []string
	num := ""
	flush := func() {
		if num != "" {
			run = append(run, strings.TrimLeft(num, "0"))
			num = ""
		}
	}
	end := func() {
		flush()
		if len(run) >= 2 {
			out = append(out, run)
		}
		run = nil
	}
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b >= '0' && b <= '9':
			num += string(b)
		case (b == '.' || b == '-' || b == '_') && num != "" && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			flush()
		default:
			end()
		}
	}
	end()
	return out
}

// nameWords returns the runs of letters and digits of a path segment,
// lowercased, without a trailing file type.
func nameWords(seg string) []string {
	return strings.FieldsFunc(trimPageType(strings.ToLower(seg)), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// pageTypes are the file types of a web page's path that name no part of
// the page ("intro.html").
var pageTypes = []string{".html", ".htm"}

// trimPageType returns s without a trailing page type.
func trimPageType(s string) string {
	for _, ext := range pageTypes {
		s = strings.TrimSuffix(s, ext)
	}
	return s
}

// dottedName returns s lowercased, without a trailing file type and the
// punctuation around it, when it is a dotted name of three identifiers or
// more ("dask.array.Array.min.html" gives "dask.array.array.min"; a
// version number such as "2.0.3" is none), or "".
func dottedName(s string) string {
	s = trimPageType(strings.ToLower(strings.TrimFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' })))
	parts := strings.Split(s, ".")
	if len(parts) < 3 {
		return ""
	}
	for _, p := range parts {
		if p == "" || !unicode.IsLetter(rune(p[0])) && p[0] != '_' {
			return ""
		}
		for _, r := range p {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
				return ""
			}
		}
	}
	return s
}

// templateArgs returns the words between angle brackets in title: the
// parameters of a C++ template, part of the name they follow
// ("Eigen::FullPivLU< _MatrixType > Class Template Reference").
func templateArgs(title string) []string {
	var out []string
	for {
		i := strings.IndexByte(title, '<')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(title[i:], '>')
		if j < 0 {
			return out
		}
		out = append(out, lexsig.Tokenize(title[i+1:i+j])...)
		title = title[i+j+1:]
	}
}

// uriPath returns the path of uri, or "".
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		return ""
	}
	return u.Path
}

// referenceWords lead anchor texts that refer to a part of a document by
// its number ("Section 36.5", "Appendix F") or to a neighbour in reading
// order ("Next: dask.dataframe.Series.str.get").
var referenceWords = map[string]bool{"section": true, "chapter": true, "appendix": true, "part": true, "next": true, "previous": true, "prev": true}

// joinedRun returns the run of title's words that spells phrase's words
// once the spaces between words are dropped, when the two split it
// differently ("gsubprocesslauncher" for "GSubprocess Launcher", "mbyte"
// for "m byte"), or nil.
func joinedRun(title, phrase []string) []string {
	want := strings.Join(phrase, "")
	for i := range title {
		got := ""
		for j := i; j < len(title) && len(got) < len(want); j++ {
			got += title[j]
			if got == want {
				if j-i+1 == len(phrase) {
					return nil // split the same way: contains would have found it
				}
				return title[i : j+1]
			}
			if !strings.HasPrefix(want, got) {
				break
			}
		}
	}
	return nil
}

// directories returns site with the words added of the directories a
// path in title puts before phrase: "libavutil" in
// "libavutil/audio_fifo.h File Reference" for the phrase "audio fifo h".
// A file's directory qualifies the name the backlinks use for it (a
// dotted name's package does not: "dask.array.min" and
// "dask.dataframe.min" are different pages that links both call "min").
// It returns site itself when title has no such path.
func directories(title string, phrase []string, site map[string]bool) map[string]bool {
	var dirs []string
	for field := range strings.FieldsSeq(title) {
		i := strings.LastIndex(field, "/")
		if i >= 0 && slices.Equal(lexsig.Tokenize(field[i+1:]), phrase) {
			dirs = append(dirs, lexsig.Tokenize(field[:i])...)
		}
	}
	return withWords(site, dirs)
}

// withWords returns site, or a copy of it with words added when there are
// any.
func withWords(site map[string]bool, words []string) map[string]bool {
	if len(words) == 0 {
		return site
	}
	out := make(map[string]bool, len(site)+len(words))
	maps.Copy(out, site)
	for _, w := range words {
		out[w] = true
	}
	return out
}

// trimPhrase returns w without the leading reference words and the
// trailing file type that Confidence leaves out.
func trimPhrase(w []string) []string {
	for len(w) > 1 && referenceWords[w[0]] {
		w = w[1:]
	}
	if len(w) > 1 && fileTypeWords[w[len(w)-1]] {
		w = w[:len(w)-1]
	}
	return w
}

// fileTypeWords end anchor texts that name a document by its file
// ("hebrew.txt", "intro.html") where the page's title names it without the
// type.
var fileTypeWords = map[string]bool{"txt": true, "html": true, "htm": true, "md": true, "rst": true}

// titleScore compares one title with phrases: whether one of them is
// whole in it (in order, or spelt with its words run together or apart:
// "GSubprocess Launcher" for "GSubprocessLauncher") with no word of the
// title's own besides (ownWord: the site's and the template's words, a
// path's directories before the phrase, numbers, single letters and stop
// words are not), or whole beside such words, or else the largest share of
// one phrase's words it holds, counting repeated words as often as the
// phrase has them.
func titleScore(title string, phrases []Phrase, site, template map[string]bool) titleMatch {
	t := lexsig.Tokenize(title)
	var m titleMatch
	for _, p := range phrases {
		if len(p.Words) == 0 {
			continue
		}
		site := withTemplate(site, template, title, p.Words)
		words := p.Words
		if !contains(t, words) {
			if run := joinedRun(t, words); run != nil {
				words = run
			}
		}
		if contains(t, words) {
			if identifier(words) || !hasForeign(t, words, site) || !hasForeign(t, words, directories(title, words, site)) {
				return titleMatch{whole: true}
			}
			m.whole, m.foreign = true, true
			continue
		}
		if m.whole {
			continue
		}
		share := multisetShare(t, p.Words)
		if share > m.share {
			m.share, m.foreign = share, hasForeign(t, p.Words, site)
		}
	}
	if m.whole {
		m.share = 0
	}
	return m
}

// hasForeign reports whether title holds a word of its own (ownWord).
func hasForeign(title, phrase []string, site map[string]bool) bool {
	return slices.ContainsFunc(title, func(w string) bool { return ownWord(w, phrase, site) })
}

// ownWord reports whether a title's word w is the title's own: not in
// phrase, not in site, not the plural of a word of either ("uses" for
// "use") nor the singular of a site's word ("member" for a path's
// "members"), not a number, not a single letter and not a stop word.
func ownWord(w string, phrase []string, site map[string]bool) bool {
	if one, ok := strings.CutSuffix(w, "s"); ok && len(one) > 2 && (site[one] || slices.Contains(phrase, one)) || len(w) > 2 && site[w+"s"] {
		return false
	}
	return !site[w] && len(w) > 1 && !isNumber(w) && !lexsig.IsStopWord(w) && !slices.Contains(phrase, w)
}

// multisetShare returns the share of phrase's words that title holds,
// each as often as phrase has it.
func multisetShare(title, phrase []string) float64 {
	have := map[string]int{}
	for _, w := range title {
		have[w]++
	}
	n := 0
	for _, w := range phrase {
		if have[w] > 0 {
			have[w]--
			n++
		}
	}
	return float64(n) / float64(len(phrase))
}

// identifier reports whether words are numbers and single letters alone,
// as a section's number is ("36 5", "j 2").
func identifier(words []string) bool {
	return !slices.ContainsFunc(words, func(w string) bool { return len(w) > 1 && !isNumber(w) })
}

func isNumber(w string) bool {
	return w != "" && strings.Trim(w, "0123456789") == ""
}

// sameHost reports whether two URIs have the same host.
func sameHost(a, b string) bool {
	ua, err := url.Parse(a)
	if err != nil {
		return false
	}
	ub, err := url.Parse(b)
	return err == nil && strings.EqualFold(ua.Hostname(), ub.Hostname())
}

// templateWords returns the words that at least templateShare of the
// other candidates' titles on the host of uri hold, of the first ten, when
// there are three or more: the words a site's template puts in every
// title ("File Reference", "SQLite Syntax"), which say nothing of which
// page it is. Only the missing page's own site counts: a sister site's
// name ("Flask" in "eventlet — Flask Documentation" for a link to
// Werkzeug's "eventlet") is no template of the page's.
func templateWords(candidates []lexsig.Result, t *target) map[string]bool {
	var others []lexsig.Result
	for _, r := range candidates[1:min(len(candidates), 10)] {
		if t.sameHost(r.URI) {
			others = append(others, r)
		}
	}
	if len(others) < 3 {
		return nil
	}
	count := map[string]int{}
	for _, r := range others {
		seen := map[string]bool{}
		for _, w := range lexsig.Tokenize(r.Title) {
			if !seen[w] {
				seen[w] = true
				count[w]++
			}
		}
	}
	out := map[string]bool{}
	for w, n := range count {
		if float64(n) >= templateShare*float64(len(others)) {
			out[w] = true
		}
	}
	return out
}

// withTemplate returns site with the template words added that stand in
// title apart from phrase: in a word of the title (as spaces part it) that
// holds none of phrase's words. "File" and "Reference" in
// "libavutil/hash.h File Reference" are the template's; "dataframe" in
// "dask.dataframe.DataFrame.min" qualifies the name "min" and tells a
// sibling apart, so it stays the title's own.
func withTemplate(site, template map[string]bool, title string, phrase []string) map[string]bool {
	var add []string
	for field := range strings.FieldsSeq(title) {
		words := lexsig.Tokenize(field)
		if slices.ContainsFunc(words, func(w string) bool { return slices.Contains(phrase, w) }) {
			continue
		}
		for _, w := range words {
			if template[w] {
				add = append(add, w)
			}
		}
	}
	return withWords(site, add)
}

// patterned reports whether candidate i's title holds an anchor phrase
// whole beside words of its own (a path's directories aside) that another
// title on the missing page's host holds too, without the phrase: the
// site's pattern of titles ("Source File" in "Eigen:
// ComplexEigenSolver.h Source File", as in "Eigen: Rotation2D.h Source
// File"), not a sibling's name. The other titles are those of the first
// ten candidates and of the kept backlink pages; a backlink page's title
// must hold none of the phrase's words ("FFmpeg: AVBSFContext Struct
// Reference" links to "FFmpeg: AVBitStreamFilter Struct Reference"; the
// source file "ColPivHouseholderQR_LAPACKE.h" that links to
// "ColPivHouseholderQR.h" shows no pattern of its titles).
func patterned(candidates []lexsig.Result, i int, c *Clues, phrases []Phrase, site map[string]bool) bool {
	t := c.target()
	if !t.sameHost(candidates[i].URI) {
		return false
	}
	title := lexsig.Tokenize(candidates[i].Title)
	var others [][]string
	for j, r := range candidates[:min(len(candidates), 10)] {
		if j != i && t.sameHost(r.URI) {
			others = append(others, lexsig.Tokenize(r.Title))
		}
	}
	var linking [][]string
	for _, e := range c.Evidence {
		if e.Kept && e.page != nil && e.page.Title != "" && t.sameHost(e.URI) {
			linking = append(linking, lexsig.Tokenize(e.page.Title))
		}
	}
	for _, p := range phrases {
		if len(p.Words) == 0 || !contains(title, p.Words) {
			continue
		}
		site := directories(candidates[i].Title, p.Words, site)
		var own []string
		for _, w := range title {
			if ownWord(w, p.Words, site) {
				own = append(own, w)
			}
		}
		if len(own) == 0 {
			continue
		}
		holdsOwn := func(t []string) bool {
			return !slices.ContainsFunc(own, func(w string) bool { return !slices.Contains(t, w) })
		}
		for _, t := range others {
			if !contains(t, p.Words) && holdsOwn(t) {
				return true
			}
		}
		for _, t := range linking {
			if sameFrame(title, p.Words, site, t) {
				return true
			}
		}
	}
	return false
}

// spelled reports whether title names the missing page by the name its
// URI spells, with one word of its own at most. A word of title (as
// spaces part it) must have two words or more, all of them the URI's, and
// hold an anchor phrase whole ("org.apache.commons.lang3.function.
// FailableToDoubleFunction" for .../lang3/function/class-use/
// FailableToDoubleFunction.html; "ssh_timestamp" for
// structssh__timestamp.html); with no phrases it must have three words or
// more (or, when short, two that are words of the URI's last segment),
// two of them neither numbers nor letters. The words of the URI's
// last segment must be in that name or elsewhere in the title, and the
// title's other words the site's but one, the kind of page it is
// ("Interface" in "Uses of Interface org.apache..."; "Reference" in
// "libssh: ssh_timestamp Struct Reference"). A sibling of the same name
// is another kind of page, which the missing URI does not name: "Uses of
// Class org.jsoup.Connection" has two words of its own for
// .../org/jsoup/Connection.html.
func spelled(title string, phrases []Phrase, site map[string]bool, target *target, short bool) bool {
	named := target.named
	t := lexsig.Tokenize(title)
	slug := target.slug
	// The last try is the name alone, without a phrase: a name of three
	// words or more.
	for _, p := range append(slices.Clone(phrases), Phrase{}) {
		if p.Words != nil && !contains(t, p.Words) {
			continue
		}
		var name, rest []string
		for field := range strings.FieldsSeq(title) {
			if w := lexsig.Tokenize(field); name == nil && spellsName(w, p.Words, named, slug, short) {
				name = w
			} else {
				rest = append(rest, w...)
			}
		}
		// The words of the URI's last segment are the name's, or the
		// title's elsewhere, singular or plural ("Uses of Package" for
		// package-use.html).
		if name == nil || slices.ContainsFunc(slug, func(w string) bool {
			return !slices.Contains(name, w) && !slices.ContainsFunc(rest, func(tw string) bool { return tw == w || tw == w+"s" || tw+"s" == w })
		}) {
			continue
		}
		site := withWords(directories(title, p.Words, site), slices.Collect(maps.Keys(named)))
		if len(templateArgs(title)) > 0 {
			site = withWords(site, []string{"template"})
		}
		own := map[string]bool{}
		for _, w := range t {
			if ownWord(w, p.Words, site) {
				own[w] = true
			}
		}
		if len(own) <= 1 {
			return true
		}
	}
	return false
}

// spellsName reports whether the words w of one word of a title (as
// spaces part it) spell a name of the missing URI, as spelled says: two
// words or more, all of them named, holding phrase, or with no phrase
// three words or more (two, when short, that are words of slug, the
// URI's last segment), two of them neither numbers nor single letters.
func spellsName(w, phrase []string, named map[string]bool, slug []string, short bool) bool {
	if len(w) < 2 || slices.ContainsFunc(w, func(w string) bool { return !named[w] }) {
		return false
	}
	if phrase != nil {
		return contains(w, phrase)
	}
	return (len(w) >= 3 || short && slugShare(w, slug) >= 2) && nameWordCount(w) >= 2
}

// slugShare returns how many of the words of slug name holds.
func slugShare(name, slug []string) int {
	n := 0
	for _, w := range slug {
		if slices.Contains(name, w) {
			n++
		}
	}
	return n
}

// nameWordCount returns how many of words are neither numbers nor single
// letters.
func nameWordCount(words []string) int {
	n := 0
	for _, w := range words {
		if len(w) > 1 && !isNumber(w) {
			n++
		}
	}
	return n
}

// sameFrame reports whether other is title with phrase's place taken by
// another name: other holds none of phrase's words, and each of title's
// own words before phrase stands at the same place from other's start,
// each after it at the same place from other's end ("FFmpeg: AVBSFContext
// Struct Reference" for "FFmpeg: AVBitStreamFilter Struct Reference"; not
// "Operations on holonomic functions - SymPy" for "Basic Operations -
// SymPy").
func sameFrame(title, phrase []string, site map[string]bool, other []string) bool {
	at := index(title, phrase)
	if at < 0 || slices.ContainsFunc(phrase, func(w string) bool { return slices.Contains(other, w) }) {
		return false
	}
	for k, w := range title {
		if !ownWord(w, phrase, site) {
			continue
		}
		j := k
		if k >= at {
			j = len(other) - (len(title) - k)
		}
		if j < 0 || j >= len(other) || other[j] != w {
			return false
		}
	}
	return true
}

// index returns the index of the first run of s that is sub, or -1.
func index(s, sub []string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if slices.Equal(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// templateShare is the share of the other candidates' titles that must
// hold a word for Confidence to count it as the site's template.
const templateShare = 0.4

// titleSeparators part a page's own title from its site's suffix
// ("Templates — Flask Documentation (2.2.x)").
var titleSeparators = []string{" — ", " – ", " - ", " | ", " :: ", " » "}

// titleCore parts title into the page's own title and its site's suffix
// after the title separator that ends last ("Signals", "Django 3.2.25
// documentation"); a title without one after its first character is all
// core.
func titleCore(title string) (core, site string) {
	start, end := -1, -1
	for _, sep := range titleSeparators {
		if i := strings.LastIndex(title, sep); i > 0 && i+len(sep) > end {
			start, end = i, i+len(sep)
		}
	}
	if start < 0 {
		return title, ""
	}
	return title[:start], title[end:]
}

// siteWords returns the words of the site suffixes of the kept backlink
// pages' titles (the words after the last title separator), and the words
// that at least half of those titles hold, wherever they stand (a site
// written first, or after ": ", or a namespace its pages share).
// They are found once per Clues; each call returns a copy of its own.
func (c *Clues) siteWords() map[string]bool {
	c.mu.Lock()
	if c.site == nil {
		c.site = c.siteWordsNow()
	}
	site := c.site
	c.mu.Unlock()
	return maps.Clone(site)
}

// siteWordsNow finds the words of siteWords.
func (c *Clues) siteWordsNow() map[string]bool {
	out := map[string]bool{}
	count := map[string]int{}
	titles := 0
	for _, e := range c.Evidence {
		if !e.Kept || e.page == nil || e.page.Title == "" {
			continue
		}
		titles++
		seen := map[string]bool{}
		for _, w := range lexsig.Tokenize(e.page.Title) {
			if !seen[w] {
				seen[w] = true
				count[w]++
			}
		}
	}
	for w, n := range count {
		if titles >= 2 && 2*n >= titles {
			out[w] = true
		}
	}
	for _, e := range c.Evidence {
		if !e.Kept || e.page == nil {
			continue
		}
		_, suffix := titleCore(e.page.Title)
		for _, w := range lexsig.Tokenize(suffix) {
			out[w] = true
		}
	}
	return out
}

// pathWords returns the words of u's path and query, words (as URLWords
// finds them) first, and besides the parts of each that a name's capitals
// or digits set apart ("classEigen_1_1FullPivLU" gives class, eigen,
// fullpivlu, piv, lu, full besides the words Tokenize finds).
func pathWords(u *url.URL, words []string) []string {
	out := slices.Clone(words)
	for field := range strings.FieldsFuncSeq(u.Path+" "+u.RawQuery, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		for _, part := range splitName(field) {
			for _, w := range lexsig.Tokenize(part) {
				if !slices.Contains(out, w) && !urlNoise[w] {
					out = append(out, w)
				}
			}
		}
	}
	return out
}

// splitName parts a name where a lowercase letter meets a capital or a
// letter meets a digit ("classEigen" gives class, Eigen; "1FullPivLU"
// gives 1, Full, Piv, LU).
func splitName(name string) []string {
	var out []string
	rs := []rune(name)
	start := 0
	for i := 1; i < len(rs); i++ {
		a, b := rs[i-1], rs[i]
		if (unicode.IsLower(a) && unicode.IsUpper(b)) || (unicode.IsLetter(a) != unicode.IsLetter(b)) {
			out = append(out, string(rs[start:i]))
			start = i
		}
	}
	return append(out, string(rs[start:]))
}
