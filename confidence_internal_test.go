package relink

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/lexsig"
)

// foreignTitle is the score of a title that holds a phrase whole beside
// words of its own (titleMatch.score).
const foreignTitle = 0.7

// TestTitleScore checks the scoring of one title against anchor phrases:
// numbers and the site's words may stand beside a whole phrase, words of
// the title's own may not, and a partial match counts repeated words as
// often as the phrase has them.
func TestTitleScore(t *testing.T) {
	site := map[string]bool{"django": true, "documentation": true}
	phrase := func(ws ...string) []Phrase { return []Phrase{{Words: ws, Pages: 1}} }
	tests := []struct {
		title   string
		phrases []Phrase
		want    float64
	}{
		{"Migration operations — Django 3.2 documentation", phrase("migration", "operations"), 1},
		{"Database migration operations — Django 3.2 documentation", phrase("migration", "operations"), foreignTitle},
		{"36.5. Dynamic SQL", phrase("36", "5"), 1},
		{"F.18. hstore", phrase("hstore"), 1},
		{"J.2. Tool Sets", phrase("j", "2"), 1},
		{"53.65. pg_user_mapping", phrase("pg", "user"), foreignTitle},
		{"celery.worker.consumer", phrase("celery", "worker", "consumer", "consumer"), 0.8 * 3 / 4},
		{"git-ls-remote(1)", phrase("git", "remote", "1"), 0.8 * 0.9},
		{"The lxml.etree Tutorial", phrase("lxml", "etree", "tutorial"), 1},
		{"", phrase("x"), 0},
		{"GSubprocess Launcher", phrase("gsubprocesslauncher"), 1},
		{"GSubprocessLauncher", phrase("gsubprocess", "launcher"), 1},
		{"GSubprocess Launcher Extra", phrase("gsubprocesslauncher"), foreignTitle},
		{"libavutil/eval.h", phrase("eval", "h"), 1},
		{"libavutil/eval.h File Reference", phrase("eval", "h"), foreignTitle},
		{"libavutil.eval.h", phrase("eval", "h"), foreignTitle},
	}
	for _, tt := range tests {
		if got := titleScore(tt.title, tt.phrases, site, nil).score(); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("titleScore(%q, %v) = %v, want %v", tt.title, tt.phrases[0].Words, got, tt.want)
		}
	}

	// The template's words count as the site's where they stand apart from
	// the phrase, and not inside the name the phrase is part of.
	template := map[string]bool{"file": true, "reference": true, "dask": true, "dataframe": true}
	withTemplate := []struct {
		title   string
		phrases []Phrase
		want    float64
	}{
		{"libavutil/eval.h File Reference", phrase("eval", "h"), 1},
		{"dask.dataframe.DataFrame.min — Dask documentation", phrase("min"), foreignTitle},
		{"dask.array.Array.min — Dask documentation", phrase("array", "min"), 1},
	}
	for _, tt := range withTemplate {
		if got := titleScore(tt.title, tt.phrases, site, template).score(); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("titleScore(%q, %v, template) = %v, want %v", tt.title, tt.phrases[0].Words, got, tt.want)
		}
	}
}

// TestTemplateWords: a word is the template's when TemplateShare of the
// other candidates' titles hold it, and only with three others or more.
func TestTemplateWords(t *testing.T) {
	const site = "https://ffmpeg.example/doxygen/"
	titles := func(ts ...string) []lexsig.Result {
		out := make([]lexsig.Result, len(ts))
		for i, title := range ts {
			out[i].Title, out[i].URI = title, site+strconv.Itoa(i)
			if strings.HasPrefix(title, "Other ") {
				out[i].URI = "https://other.example/" + strconv.Itoa(i)
			}
		}
		return out
	}
	got := templateWords(titles("eval.h File Reference", "alpha.h File Reference", "beta.c File Reference", "gamma Source File", "Modules", "delta.py File Reference",
		"Other Documentation", "Other Documentation", "Other Documentation"), newTarget(site+"gone.html"))
	want := map[string]bool{"file": true, "reference": true}
	if !maps.Equal(got, want) {
		t.Errorf("templateWords = %v, want %v (the other site's titles left out)", got, want)
	}
	if got := templateWords(titles("a File", "b File", "c File"), newTarget(site+"gone.html")); got != nil {
		t.Errorf("templateWords of two others = %v, want nil", got)
	}
	if got := templateWords(titles("a File", "b File", "c File", "d File"), newTarget("https://elsewhere.example/gone.html")); got != nil {
		t.Errorf("templateWords of another site's titles = %v, want nil", got)
	}
}

// TestTrimPhrase: reference words ("Section") and navigation words
// ("Next") lead and file types end a phrase that names a part, a
// neighbour or a file; a phrase of one word keeps it.
func TestTrimPhrase(t *testing.T) {
	tests := []struct{ in, want []string }{
		{[]string{"section", "36", "5"}, []string{"36", "5"}},
		{[]string{"hebrew", "txt"}, []string{"hebrew"}},
		{[]string{"usr", "26", "txt"}, []string{"usr", "26"}},
		{[]string{"txt"}, []string{"txt"}},
		{[]string{"audio", "fifo", "h"}, []string{"audio", "fifo", "h"}},
		{[]string{"next", "dask", "dataframe", "series", "str", "get"}, []string{"dask", "dataframe", "series", "str", "get"}},
		{[]string{"previous", "how", "to"}, []string{"how", "to"}},
		{[]string{"next"}, []string{"next"}},
	}
	for _, tt := range tests {
		if got := trimPhrase(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("trimPhrase(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSiteWords: the site's words are the suffixes' after a separator, and
// the words half the backlink pages' titles or more hold, wherever they
// stand (gtk-doc writes "GdkScreen: GDK 3 Reference Manual").
func TestSiteWords(t *testing.T) {
	clues := func(titles ...string) *Clues {
		c := &Clues{}
		for _, title := range titles {
			c.Evidence = append(c.Evidence, &Evidence{Trace: Trace{Kept: true}, page: &Inspection{Kept: true, Title: title}})
		}
		return c
	}
	tests := []struct {
		titles []string
		want   []string
	}{
		{[]string{"Migration operations — Django 3.2 documentation"}, []string{"django", "3", "2", "documentation"}},
		{[]string{"GdkScreen: GDK 3 Reference Manual", "GdkWindow: GDK 3 Reference Manual", "Events: GDK 3 Reference Manual"}, []string{"gdk", "3", "reference", "manual"}},
		{[]string{"One page"}, nil},
	}
	for _, tt := range tests {
		got := clues(tt.titles...).siteWords()
		if len(got) != len(tt.want) {
			t.Errorf("siteWords(%q) = %v, want %v", tt.titles, got, tt.want)
			continue
		}
		for _, w := range tt.want {
			if !got[w] {
				t.Errorf("siteWords(%q) = %v, want %v", tt.titles, got, tt.want)
				break
			}
		}
	}
}

// TestOtherName: a dotted name in the title that ends as the missing
// URI's does but is another names a sibling; version numbers and names
// that agree do not.
func TestOtherName(t *testing.T) {
	uri := "https://docs.dask.org/en/latest/generated/dask.array.Array.argmin.html"
	for _, tt := range []struct {
		title, uri string
		want       bool
	}{
		{"dask.array.argmin — Dask documentation", uri, true},
		{"dask.array.Array.argmin — Dask documentation", uri, false},
		{"dask.array.Array.argmax — Dask documentation", uri, false},
		{"Reductions (dask.array.argmin)", uri, true},
		{"pytest-2.0.3: bug fixes", "https://docs.pytest.org/en/announce/release-2.0.3.html", false},
		{"py.test 2.0.3: bug fixes", "https://docs.pytest.org/en/announce/release-2.0.3.html", false},
		{"dask.array.argmin", "https://example.org/argmin", false},
		{"a.b.c", "%zz", false},
		{"Uses of Class org.apache.commons.lang3.stream.Streams.FailableStream (Apache Commons Lang 3.12.0 API)", "https://commons.apache.org/proper/commons-lang/javadocs/api-3.12.0/org/apache/commons/lang3/class-use/Streams.FailableStream.html", true},
		{"Uses of Class org.apache.commons.lang3.Streams.FailableStream (Apache Commons Lang 3.12.0 API)", "https://commons.apache.org/proper/commons-lang/javadocs/api-3.12.0/org/apache/commons/lang3/class-use/Streams.FailableStream.html", false},
		{"dask.array.Array.argmin", "https://docs.dask.org/en/latest/generated/array.Array.argmin.html", true},
		{"Redis Transport - kombu.transport.redis", "https://docs.celeryq.dev/projects/kombu/en/v5.2.4/reference/kombu.transport.redis.html", false},
		{"array.Array.argmin", uri, false},
		// The enclosing name: the outer class, not the inner one.
		{"Uses of Class org.apache.commons.lang3.arch.Processor (API)", "https://commons.apache.org/proper/commons-lang/javadocs/api-3.12.0/org/apache/commons/lang3/arch/class-use/Processor.Arch.html", true},
		{"Uses of Class org.apache.commons.lang3.arch.Processor.Arch (API)", "https://commons.apache.org/proper/commons-lang/javadocs/api-3.12.0/org/apache/commons/lang3/arch/class-use/Processor.Arch.html", false},
	} {
		if got := otherName(tt.title, newTarget(tt.uri)); got != tt.want {
			t.Errorf("otherName(%q, %q) = %v, want %v", tt.title, tt.uri, got, tt.want)
		}
	}
}

// TestPathNames: a title that names the package or class the missing
// URI's page is in is that package's or class's page; one that names the
// whole name the path spells is the page's; one whose name goes on past
// it is a page inside the named one.
func TestPathNames(t *testing.T) {
	const lang = "https://commons.apache.org/proper/commons-lang/javadocs/api-3.12.0/org/apache/commons/lang3/"
	for _, tt := range []struct {
		title, uri              string
		enclosing, whole, inner bool
	}{
		{"Uses of Package org.apache.commons.lang3.tuple (Apache Commons Lang 3.12.0 API)", lang + "tuple/MutablePair.html", true, false, false},
		{"MutablePair (Apache Commons Lang 3.12.0 API)", lang + "tuple/MutablePair.html", false, false, false},
		{"Uses of Package org.apache.commons.lang3 (Apache Commons Lang 3.12.0 API)", lang + "arch/package-use.html", true, false, false},
		{"Uses of Package org.apache.commons.lang3.arch (Apache Commons Lang 3.12.0 API)", lang + "arch/package-use.html", false, true, false},
		{"Uses of Package junit.framework (JUnit API)", "https://junit.org/junit4/javadoc/4.13.2/junit/framework/JUnit4TestAdapter.html", true, false, false},
		{"Uses of Class org.apache.commons.lang3.arch.Processor (API)", lang + "arch/class-use/Processor.Arch.html", true, false, false},
		{"org.junit.experimental.max Class Hierarchy (JUnit API)", "https://junit.org/junit4/javadoc/4.13.2/org/junit/experimental/max/package-tree.html", false, true, false},
		{"Uses of Class org.apache.commons.lang3.arch.Processor.Arch (API)", lang + "arch/class-use/Processor.Arch.html", false, true, false},
		{"os.path — Common pathname manipulations", "https://docs.python.org/3/library/os.path.html", false, true, false},
		{"Release 2.4.1 notes", "https://example.org/docs/2.4/release.html", false, false, false},
		{"dask.array.argmin", "%zz", false, false, false},
		{"org.junit.experimental.theories.suppliers Class Hierarchy (JUnit API)", "https://junit.org/junit4/javadoc/4.13.2/org/junit/experimental/theories/package-summary.html", false, false, true},
		{"Uses of Class org.jsoup.nodes.Entities.EscapeMode (jsoup API)", "https://jsoup.org/apidocs/org/jsoup/nodes/Entities.html", false, false, true},
		{"dask.dataframe.Series.describe — Dask documentation", "https://docs.dask.org/en/2022.12.1/generated/dask.dataframe.Series.html", false, false, true},
		{"Uses of Package org.apache.commons.lang3.concurrent.locks (API)", lang + "concurrent/package-tree.html", false, false, true},
		{"dask.dataframe.Series — Dask documentation", "https://docs.dask.org/en/2022.12.1/generated/dask.dataframe.Series.html", false, true, false},
		{"os.path.join", "https://docs.python.org/3/library/path.html", false, false, false},
	} {
		if enclosing, whole, inner := pathNames(tt.title, newTarget(tt.uri)); enclosing != tt.enclosing || whole != tt.whole || inner != tt.inner {
			t.Errorf("pathNames(%q, %q) = %v, %v, %v, want %v, %v, %v", tt.title, tt.uri, enclosing, whole, inner, tt.enclosing, tt.whole, tt.inner)
		}
	}
}

// TestPathWords: a path's names give their capitalised and numbered
// parts besides the words Tokenize finds.
func TestPathWords(t *testing.T) {
	got := newTarget("https://eigen.tuxfamily.org/dox/classEigen_1_1FullPivLU-members.html").pathWords
	for _, w := range []string{"dox", "eigen", "fullpivlu", "class", "full", "piv", "lu", "members"} {
		if !slices.Contains(got, w) {
			t.Errorf("pathWords lacks %q: %v", w, got)
		}
	}
	if slices.Contains(got, "html") {
		t.Errorf("pathWords holds the file type: %v", got)
	}
	if got := newTarget("%zz").pathWords; got != nil {
		t.Errorf("pathWords of a broken URI = %v, want nil", got)
	}
}

// TestEvidenceWeights: a title holding a rare word of the missing URI
// outweighs one holding a common word of the anchor.
func TestEvidenceWeights(t *testing.T) {
	df := lexsig.NewMemDF()
	df.SetDocs(10000)
	df.Set("code", 2000)
	df.Set("conjhelper", 3)
	df.Set("source", 900)
	c := &Clues{URI: "https://eigen.tuxfamily.org/dox/ConjHelper_8h_source.html"}
	w, err := evidenceWeights(t.Context(), c, []Phrase{{Words: []string{"code"}, Pages: 1}}, df)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := w["8h"]; ok {
		t.Errorf("a word no document holds has a weight: %v", w)
	}
	page := titleWeight(lexsig.Tokenize("Eigen: ConjHelper.h Source File"), w)
	other := titleWeight(lexsig.Tokenize("External Code Interface"), w)
	if page <= other {
		t.Errorf("page's title weighs %v, the other's %v", page, other)
	}
	if want := math.Log(10000.0/3) + math.Log(10000.0/900); math.Abs(page-want) > 1e-9 {
		t.Errorf("page's title weighs %v, want %v", page, want)
	}
}

// TestSameFrame: another title with the phrase's place taken by another
// name, the title's own words where the title has them, shows the site's
// pattern of titles; one that holds the own words elsewhere, or the
// phrase's words, does not.
func TestSameFrame(t *testing.T) {
	site := map[string]bool{"ffmpeg": true, "sympy": true, "documentation": true}
	tok := lexsig.Tokenize
	for _, tt := range []struct {
		title, phrase, other string
		want                 bool
	}{
		{"FFmpeg: AVBitStreamFilter Struct Reference", "avbitstreamfilter", "FFmpeg: AVBSFContext Struct Reference", true},
		{"FFmpeg: AVBitStreamFilter Struct Reference", "avbitstreamfilter", "FFmpeg: AVBSFContext Class Reference", false},
		{"FFmpeg: AVBitStreamFilter Struct Reference", "avbitstreamfilter", "FFmpeg: AVBitStreamFilter Struct Reference", false},
		{"Basic Operations - SymPy 1.11.1 documentation", "basic", "Operations on holonomic functions - SymPy 1.11.1 documentation", false},
		{"Uses of Class org.example.Pair (API)", "pair", "Uses of Class org.example.Triple (API)", true},
		{"Uses of Class org.example.Pair (API)", "pair", "Uses of Interface org.example.Triple (API)", false},
		{"Uses of Class org.example.Pair (API)", "triple", "Uses of Class org.example.Quad (API)", false},
	} {
		if got := sameFrame(tok(tt.title), tok(tt.phrase), site, tok(tt.other)); got != tt.want {
			t.Errorf("sameFrame(%q, %q, %q) = %v, want %v", tt.title, tt.phrase, tt.other, got, tt.want)
		}
	}
}

// TestTemplateArgs: the words between angle brackets, however many pairs.
func TestTemplateArgs(t *testing.T) {
	for _, tt := range []struct {
		title string
		want  []string
	}{
		{"Eigen::FullPivLU< _MatrixType > Class Template Reference", []string{"matrixtype"}},
		{"sigc::bind_functor< I_location, T_functor > and a<b>", []string{"i", "location", "t", "functor", "b"}},
		{"a < b", nil},
		{"no brackets", nil},
	} {
		if got := templateArgs(tt.title); !slices.Equal(got, tt.want) {
			t.Errorf("templateArgs(%q) = %q, want %q", tt.title, got, tt.want)
		}
	}
}

// TestOwnWordPlural: a plural of a phrase's or the site's word is not the
// title's own ("Uses" in "Uses of Class X" for a path's "class-use").
func TestOwnWordPlural(t *testing.T) {
	site := map[string]bool{"use": true, "class": true}
	for _, tt := range []struct {
		word   string
		phrase []string
		want   bool
	}{
		{"uses", nil, false},
		{"classes", nil, true}, // "classe" is no word of the site's
		{"filters", []string{"filter"}, false},
		{"filters", []string{"map"}, true},
		{"bus", []string{"bu"}, true}, // too short to be a plural
		{"interface", nil, true},
	} {
		if got := ownWord(tt.word, tt.phrase, site); got != tt.want {
			t.Errorf("ownWord(%q, %q) = %v, want %v", tt.word, tt.phrase, got, tt.want)
		}
	}
}

// TestOtherNameSecond: a second candidate that names another module's
// function of the same name is no sibling alike; one with the same title
// is.
func TestOtherNameSecond(t *testing.T) {
	c := &Clues{URI: "https://docs.dask.org/en/latest/generated/dask.array.Array.argmin.html"}
	c.Evidence = []*Evidence{{Trace: Trace{Kept: true}, anchors: []string{"argmin"}, page: &Inspection{Kept: true, Title: "Reductions — Dask documentation"}}}
	first := lexsig.Result{URI: "https://docs.dask.org/a", Title: "dask.array.Array.argmin — Dask documentation"}
	if !titlesSure(c, []lexsig.Result{first}) {
		t.Fatalf("the first candidate alone: %v, want its title to name the page", Signals(c, []lexsig.Result{first}, Seen{}))
	}
	other := lexsig.Result{URI: "https://docs.dask.org/b", Title: "dask.array.argmin — Dask documentation"}
	if got := Signals(c, []lexsig.Result{first, other}, Seen{}); got[SignalSecondAlike] != 0 {
		t.Errorf("with another name second: %v, want no second alike", got)
	}
	same := lexsig.Result{URI: "https://docs.dask.org/c", Title: first.Title}
	if got := Signals(c, []lexsig.Result{first, same}, Seen{}); got[SignalSecondUnresolved] != 1 {
		t.Errorf("with a sibling alike second: %v, want it unresolved", got)
	}
}

// TestPatternedBacklinks: a backlink page on the missing page's host whose
// title has the candidate's frame around another name shows the site's
// pattern, so the candidate's own words ("Struct Reference") stand.
func TestPatternedBacklinks(t *testing.T) {
	uri := "https://ffmpeg.org/doxygen/5.1/structAVBitStreamFilter.html"
	clues := func(host, title string) *Clues {
		return &Clues{URI: uri, Evidence: []*Evidence{{
			Trace:   Trace{Backlink: backlink.Backlink{URI: "https://" + host + "/doxygen/5.1/structAVBSFContext.html"}, Kept: true},
			anchors: []string{"AVBitStreamFilter"},
			page:    &Inspection{Kept: true, Title: title},
		}}}
	}
	first := []lexsig.Result{{URI: "https://ffmpeg.org/relocated/1.html", Title: "FFmpeg: AVBitStreamFilter Struct Reference"}}
	for _, tt := range []struct {
		host, title string
		want        string
	}{
		{"ffmpeg.org", "FFmpeg: AVBSFContext Struct Reference", SignalSitePattern},
		{"ffmpeg.org", "FFmpeg: libavcodec/bsf.h Source File", SignalTitleOwnWords},
		{"mirror.example", "FFmpeg: AVBSFContext Struct Reference", SignalTitleOwnWords},
	} {
		if got := Signals(clues(tt.host, tt.title), first, Seen{}); got[tt.want] != 1 {
			t.Errorf("with a backlink page %q on %s: %v, want %s", tt.title, tt.host, got, tt.want)
		}
	}
}

// TestSpelled: a title that names the page by the name its URI spells may
// say what kind of page it is in one word of its own; a sibling of the
// same name is another kind, which the URI does not name.
func TestSpelled(t *testing.T) {
	site := map[string]bool{"apache": true, "commons": true, "lang": true, "api": true, "ffmpeg": true, "eigen": true, "unsupported": true}
	const javadoc = "https://commons.apache.org/proper/commons-lang/javadocs/api-3.12.0/org/apache/commons/lang3/function/"
	for _, tt := range []struct {
		title, phrase, uri string
		want               bool
	}{
		{"Uses of Interface org.apache.commons.lang3.function.FailableConsumer (Apache Commons Lang 3.12.0 API)", "failableconsumer", javadoc + "class-use/FailableConsumer.html", true},
		// The class page's sibling: "Uses" and "Interface" are both its own.
		{"Uses of Interface org.apache.commons.lang3.function.FailableConsumer (Apache Commons Lang 3.12.0 API)", "failableconsumer", javadoc + "FailableConsumer.html", false},
		// Another name: "lang3.Functions" is no part of the path.
		{"Uses of Interface org.apache.commons.lang3.Functions.FailableConsumer (Apache Commons Lang 3.12.0 API)", "failableconsumer", javadoc + "class-use/FailableConsumer.html", false},
		{"FFmpeg: dxva_context Struct Reference", "dxva context", "https://ffmpeg.org/doxygen/5.1/structdxva__context.html", true},
		{"Eigen: GeneralizedEigenSolver.h Source File", "generalizedeigensolver h", "https://eigen.tuxfamily.org/dox/GeneralizedEigenSolver_8h_source.html", true},
		// The source file of a file whose reference page is gone: the URI
		// says "source", the title does not.
		{"Eigen: GeneralizedEigenSolver.h File Reference", "generalizedeigensolver h", "https://eigen.tuxfamily.org/dox/GeneralizedEigenSolver_8h_source.html", false},
		// A C++ template says so: "Template" is no word of its own.
		{"Eigen-unsupported: Eigen::KdBVH< _Scalar, _Dim, _Object > Class Template Reference", "kdbvh", "https://eigen.tuxfamily.org/dox/unsupported/classEigen_1_1KdBVH.html", true},
		{"Eigen-unsupported: Eigen::KdBVH Class Template Reference", "kdbvh", "https://eigen.tuxfamily.org/dox/unsupported/classEigen_1_1KdBVH.html", false},
		// A one-word name is no spelling of the URI's.
		{"libssh: src Directory Reference", "src", "https://api.libssh.org/stable/dir_68267d1309a1af8e8297ef4c3efbcdba.html", false},
		// A name of three words or more needs no phrase; the last
		// segment's words stand elsewhere in the title.
		{"Uses of Package org.apache.commons.lang3.arch (Apache Commons Lang 3.12.0 API)", "", "https://commons.apache.org/proper/commons-lang/javadocs/api-3.12.0/org/apache/commons/lang3/arch/package-use.html", true},
		{"org.apache.commons.lang3.arch (Apache Commons Lang 3.12.0 API)", "", "https://commons.apache.org/proper/commons-lang/javadocs/api-3.12.0/org/apache/commons/lang3/arch/package-use.html", false},
		// "nodes" in the package's name is not the class Node.
		{"org.jsoup.nodes (jsoup Java HTML Parser 1.15.3 API)", "", "https://jsoup.org/apidocs/org/jsoup/nodes/class-use/Node.html", false},
		// A version is no name.
		{"nginx — Werkzeug Documentation (2.2.x)", "", "https://flask.palletsprojects.com/en/2.2.x/deploying/nginx", false},
	} {
		site := withWords(site, templateArgs(tt.title))
		var phrases []Phrase
		if tt.phrase != "" {
			phrases = []Phrase{{Words: lexsig.Tokenize(tt.phrase)}}
		}
		if got := spelled(tt.title, phrases, site, newTarget(tt.uri), false); got != tt.want {
			t.Errorf("spelled(%q, %q, %s) = %v, want %v", tt.title, tt.phrase, tt.uri, got, tt.want)
		}
	}
}

// TestByURI: of two titles that hold the anchors alike, the one with a
// word of the missing URI's path that the other lacks is the page.
func TestByURI(t *testing.T) {
	const uri = "https://developer-old.gnome.org/gdk3/3.24/gdk3-Selections.html"
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"Selections: GDK 3 Reference Manual", "Selections: GTK+ 3 Reference Manual", true},
		{"Selections: GTK+ 3 Reference Manual", "Selections: GDK 3 Reference Manual", false},
		{"Selections: GDK 3 Reference Manual", "Selections: GDK 3 Reference Manual", false},
		// Numbers and single letters tell nothing apart.
		{"Selections 3", "Selections 4", false},
	} {
		if got := byURI(tt.a, tt.b, newTarget(uri)); got != tt.want {
			t.Errorf("byURI(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestSiblingURI: a page beside the missing one, named after the same
// pattern, is a sibling; a page elsewhere or named otherwise is not.
func TestSiblingURI(t *testing.T) {
	for _, tt := range []struct {
		candidate, uri string
		want           bool
	}{
		{"https://docs.djangoproject.com/en/3.2/releases/1.5.7", "https://docs.djangoproject.com/en/3.2/releases/1.2.7", true},
		{"https://ffmpeg.org/doxygen/5.1/group__lavc__internal.html", "https://ffmpeg.org/doxygen/5.1/group__lavf__internal.html", true},
		{"https://ffmpeg.org/relocated/1ce0f41b73fc.html", "https://ffmpeg.org/doxygen/5.1/group__lavf__internal.html", false},
		{"https://www.sqlite.org/releaselog/3_6_16_1.html", "https://www.sqlite.org/releaselog/3_6_16.html", false},
		{"https://www.postgresql.org/docs/15/sql-altereventtrigger.html", "https://www.postgresql.org/docs/15/sql-altertrigger.html", true},
		{"https://mirror.example/en/3.2/releases/1.5.7", "https://docs.djangoproject.com/en/3.2/releases/1.2.7", false},
		{"https://docs.djangoproject.com/en/3.2/releases/1.2.7", "https://docs.djangoproject.com/en/3.2/releases/1.2.7", false},
		{"https://example.org/a/x-y", "https://example.org/a/z-w", false},
	} {
		if got := siblingURI(tt.candidate, newTarget(tt.uri)); got != tt.want {
			t.Errorf("siblingURI(%s, %s) = %v, want %v", tt.candidate, tt.uri, got, tt.want)
		}
	}
}

// TestOtherVersion: a title whose versions are all others than the one
// the URI's last segment holds is another release's page.
func TestOtherVersion(t *testing.T) {
	for _, tt := range []struct {
		title, uri string
		want       bool
	}{
		{"Release Notes for v.2.4 — Python-Markdown 3.4.1 documentation", "https://python-markdown.github.io/change_log/release-3.3.html", true},
		{"Release Notes for v3.3 — Python-Markdown 3.4.1 documentation", "https://python-markdown.github.io/change_log/release-3.3.html", false},
		{"SQLite Release 3.0.5 On 2004-08-29", "https://www.sqlite.org/releaselog/3_0_5.html", false},
		{"SQLite Release 3.6.16.1 On 2009-10-30", "https://www.sqlite.org/releaselog/3_6_16.html", true},
		{"What’s new in Tornado 1.0 — Tornado 6.2 documentation", "https://www.tornadoweb.org/en/branch6.2/releases/v1.0.0.html", false},
		// No version in the URI's last segment, or none in the title.
		{"Release Notes for v.2.4", "https://example.org/3.3/changes.html", false},
		{"Release notes", "https://example.org/release-3.3.html", false},
	} {
		if got := otherVersion(tt.title, newTarget(tt.uri)); got != tt.want {
			t.Errorf("otherVersion(%q, %s) = %v, want %v", tt.title, tt.uri, got, tt.want)
		}
	}
}

// TestOtherDirectory: a path in the title to the file a Doxygen name
// spells, in another directory, is a sibling's.
func TestOtherDirectory(t *testing.T) {
	const uri = "https://ffmpeg.org/doxygen/5.1/libavcodec_2version__major_8h_source.html"
	for _, tt := range []struct {
		title, uri string
		want       bool
	}{
		{"FFmpeg: libavformat/version_major.h File Reference", uri, true},
		{"FFmpeg: libavcodec/version_major.h Source File", uri, false},
		{"FFmpeg: libavformat/version.h Source File", uri, false},
		// No directory in the URI's name.
		{"FFmpeg: libavformat/version_major.h File Reference", "https://ffmpeg.org/doxygen/5.1/version__major_8h_source.html", false},
		// "_2" without Doxygen's other escapes is no slash.
		{"vector/2d", "https://example.org/vector_2d.html", false},
	} {
		if got := otherDirectory(tt.title, newTarget(tt.uri)); got != tt.want {
			t.Errorf("otherDirectory(%q, %s) = %v, want %v", tt.title, tt.uri, got, tt.want)
		}
	}
}

// TestSiteWordsCopies: siteWords finds the words once per Clues, and each
// call returns a map of its own.
func TestSiteWordsCopies(t *testing.T) {
	c := &Clues{Evidence: []*Evidence{{Trace: Trace{Kept: true}, page: &Inspection{Kept: true, Title: "Migration operations — Django 3.2 documentation"}}}}
	first := c.siteWords()
	first["changed"] = true
	delete(first, "django")
	if got := c.siteWords(); got["changed"] || !got["django"] || len(got) != 4 {
		t.Errorf("siteWords after a caller changed the first answer = %v, want django, 3, 2, documentation", got)
	}
}

// parsePost parses body as the page https://example.org/blog/post.html.
func parsePost(t *testing.T, body string) *backlink.Document {
	t.Helper()
	doc, err := backlink.Parse([]byte(body), "https://example.org/blog/post.html")
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestLinkedApart: a candidate that a backlink page links to in its
// content, beside its link to the missing page, is another page; one it
// links to only from its navigation is not known to be.
func TestLinkedApart(t *testing.T) {
	const missing = "https://example.org/guide/starter.html"
	body := `<html><head><title>Baking</title></head><body>
<nav><a href="/guide/menu.html">Menu</a></nav>
<p>Read the <a href="/guide/starter.html">starter guide</a> and the <a href="/guide/rye.html">rye guide</a>.</p>
</body></html>`
	doc := parsePost(t, body)
	c := &Clues{URI: missing, Evidence: []*Evidence{{Trace: Trace{Kept: true}, page: &Inspection{Kept: true, Title: "Baking", Doc: doc}}}}
	for _, tt := range []struct {
		uri  string
		want bool
	}{
		{"https://example.org/guide/rye.html", true},
		{"https://EXAMPLE.org/guide/rye.html#top", true}, // canonically the same
		{"https://example.org/guide/menu.html", false},   // navigation
		{"https://example.org/relocated/1.html", false},
		{missing, false},
	} {
		if got := c.linkedApart(tt.uri); got != tt.want {
			t.Errorf("linkedApart(%s) = %v, want %v", tt.uri, got, tt.want)
		}
	}
	if s := Signals(c, []lexsig.Result{{URI: "https://example.org/guide/rye.html", Title: "Rye guide"}}, Seen{}); s[SignalLinkedApart] != 1 {
		t.Errorf("signals %v, want %s", s, SignalLinkedApart)
	}
}

// TestTextSignals: the text of the first candidate, when read, is judged
// against the words around the links.
func TestTextSignals(t *testing.T) {
	c := &Clues{URI: "https://example.org/guide/starter.html"}
	cands := []lexsig.Result{{URI: "https://example.org/a", Title: "A"}, {URI: "https://example.org/b", Title: "B"}}
	s := Signals(c, cands, Seen{Similarity: map[string]float64{"https://example.org/a": 0.25, "https://example.org/b": 0.5}})
	if s[SignalTextSimilarity] != 0.25 {
		t.Errorf("the first read: signals %v", s)
	}
	s = Signals(c, cands, Seen{Similarity: map[string]float64{"https://example.org/b": 0.5}})
	if _, ok := s[SignalTextSimilarity]; ok {
		t.Errorf("the first not read: signals %v", s)
	}
}

// TestContentLinks: a kept page's content links, canonical, without
// navigation, made once per inspection (the Clues of another target that
// keeps the page reads the same sorted slice), and linkedApart leaves
// each target's own URI out.
func TestContentLinks(t *testing.T) {
	body := `<html><head><title>Baking</title></head><body>
<nav><a href="/guide/menu.html">Menu</a></nav>
<p>Read the <a href="/guide/Starter.html#top">starter guide</a> and the <a href="HTTPS://EXAMPLE.ORG/guide/rye.html">rye guide</a>,
then the <a href="/guide/rye.html">rye guide</a> again.</p>
</body></html>`
	doc := parsePost(t, body)
	in := &Inspection{Kept: true, Title: "Baking", Doc: doc}
	for _, tt := range []struct {
		uri  string
		want bool
	}{
		{"https://example.org/guide/Starter.html", true},
		{"https://example.org/guide/rye.html", true},
		{"https://example.org/guide/menu.html", false}, // navigation
		{"https://example.org/guide/starter.html", false},
	} {
		if got := in.linksTo(tt.uri); got != tt.want {
			t.Errorf("linksTo(%s) = %v, want %v", tt.uri, got, tt.want)
		}
	}
	want := []string{"https://example.org/guide/Starter.html", "https://example.org/guide/rye.html"}
	if !slices.Equal(in.linked, want) {
		t.Fatalf("the links kept = %q, want %q", in.linked, want)
	}
	first := &in.linked[0]
	a := &Clues{URI: "https://example.org/guide/Starter.html", Evidence: []*Evidence{{Trace: Trace{Kept: true}, page: in}}}
	b := &Clues{URI: "https://example.org/guide/rye.html", Evidence: []*Evidence{{Trace: Trace{Kept: true}, page: in}}}
	for range 2 { // the second time from the answers kept
		if !a.linkedApart("https://example.org/guide/rye.html") || a.linkedApart("https://example.org/guide/Starter.html") ||
			!b.linkedApart("https://example.org/guide/Starter.html") || b.linkedApart("https://example.org/guide/rye.html") {
			t.Error("linkedApart over a shared inspection: want each target's own link left out")
		}
	}
	if &in.linked[0] != first {
		t.Error("the links were made again")
	}
	if (&Inspection{}).linksTo("https://example.org/guide/rye.html") {
		t.Error("linksTo of a page not kept: want false")
	}
}

// TestPathNameSignals: the judge names what the first candidate's title
// says of the dotted name the missing URI's path spells: the page's own
// name, what encloses it, or a page inside it.
func TestPathNameSignals(t *testing.T) {
	const missing = "https://jsoup.org/apidocs/org/jsoup/nodes/Entities.html"
	for _, tt := range []struct {
		title string
		want  string
	}{
		{"Uses of Class org.jsoup.nodes.Entities (jsoup API)", SignalTitleNamesPath},
		{"Uses of Package org.jsoup.nodes (jsoup API)", SignalEnclosingName},
		{"Uses of Class org.jsoup.nodes.Entities.EscapeMode (jsoup API)", SignalInnerName},
	} {
		s := Signals(&Clues{URI: missing}, []lexsig.Result{{URI: "https://jsoup.org/apidocs/x.html", Title: tt.title}}, Seen{})
		for _, name := range []string{SignalTitleNamesPath, SignalEnclosingName, SignalInnerName} {
			if got, want := s[name] == 1, name == tt.want; got != want {
				t.Errorf("%q: %s %v, want %v (signals %v)", tt.title, name, got, want, s)
			}
		}
	}
}
