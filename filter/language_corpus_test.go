package filter

import (
	"crypto/sha256"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/internal/words"
)

var corpusAll = flag.Bool("corpus.all", false, "run the language filter over every page of /usr/share/doc/*/html, not a sample")

// handbookRoot holds the Debian Administrator's Handbook in many languages;
// its translations are partial, so some of their pages are in English.
const handbookRoot = "/usr/share/doc/debian-handbook/html/"

// englishRoots are the English documentation the test reads by default: a
// fixed list (the packages scripts/test.sh installs), never whatever else is
// installed, where translations live beside English pages.
var englishRoots = []string{
	"/usr/share/doc/python-click-doc/html",
	"/usr/share/doc/python-flask-doc/html",
	"/usr/share/doc/python-werkzeug-doc/html",
	"/usr/share/doc/python-jinja2-doc/html",
}

// corpusPages returns the distinct HTML files of the fixed roots, keyed by
// group: "english" for englishRoots, the handbook's locale (such as
// "de-DE") for its translations under handbookRoot. With -corpus.all it
// reads every /usr/share/doc/*/html instead. Unless -corpus.all is set it
// keeps only the groups in sampled, and every k-th file of each so that a
// group has at most perGroup files.
func corpusPages(t *testing.T, sampled map[string]bool, perGroup int) map[string][]string {
	var dirs []string
	if *corpusAll {
		dirs, _ = filepath.Glob("/usr/share/doc/*/html")
	} else {
		dirs = append(dirs, englishRoots...)
		for g := range sampled {
			if g != "english" {
				dirs = append(dirs, handbookRoot+g)
			}
		}
		sort.Strings(dirs)
	}
	existing := dirs[:0]
	for _, d := range dirs {
		if _, err := os.Stat(d); err == nil {
			existing = append(existing, d)
		}
	}
	dirs = existing
	if len(dirs) == 0 {
		t.Skip("none of the documentation this test reads is installed (scripts/test.sh installs it as root)")
	}
	seen := map[[32]byte]bool{}
	groups := map[string][]string{}
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(p, ".html") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			h := sha256.Sum256(b) // the same page is often installed twice
			if seen[h] {
				return nil
			}
			seen[h] = true
			group := "english"
			if rest, ok := strings.CutPrefix(p, handbookRoot); ok {
				group, _, _ = strings.Cut(rest, "/")
			}
			groups[group] = append(groups[group], p)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if !*corpusAll {
		for g, ps := range groups {
			if _, ok := sampled[g]; !ok {
				delete(groups, g)
				continue
			}
			if k := (len(ps) + perGroup - 1) / perGroup; k > 1 {
				var kept []string
				for i := 0; i < len(ps); i += k {
					kept = append(kept, ps[i])
				}
				groups[g] = kept
			}
		}
	}
	return groups
}

// TestLanguageDebianDocs measures the language filter (§3.1 "Language") on
// real pages: Debian's English documentation must essentially never be
// rejected, and the handbook's German, French and Spanish translations
// mostly must. Pages with fewer than DefaultMinTokens words are left out, as
// the size filter rejects them first. It is skipped when the documentation
// is not installed; -corpus.all runs it over every page (minutes) instead
// of a sample.
func TestLanguageDebianDocs(t *testing.T) {
	if testing.Short() {
		t.Skip("reads hundreds of files")
	}
	// Most rejected English pages and fewest rejected pages per language
	// allowed, in per cent of the pages with enough words. The handbook's
	// translations leave many pages, or parts of them, in English.
	limits := map[string]struct{ maxRejected, minRejected float64 }{
		"english": {maxRejected: 1},
		"en-US":   {maxRejected: 1},
		"de-DE":   {minRejected: 50},
		"fr-FR":   {minRejected: 40},
		"es-ES":   {minRejected: 50},
	}
	sampled := map[string]bool{}
	for g := range limits {
		sampled[g] = true
	}
	groups := corpusPages(t, sampled, 100)
	names := make([]string, 0, len(groups))
	for g := range groups {
		names = append(names, g)
	}
	sort.Strings(names)
	var spent time.Duration
	var detected int
	for _, g := range names {
		pages, rejected, star := 0, 0, 0
		for _, p := range groups[g] {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			text, err := backlink.Render(b, "text/html")
			if err != nil {
				t.Fatalf("Render(%s): %v", p, err)
			}
			if len(words.Split(text)) < DefaultMinTokens {
				continue
			}
			pages++
			start := time.Now()
			guess := DetectLanguage(text)
			spent += time.Since(start)
			detected++
			switch {
			case !guess.Kept():
				rejected++
				if _, english := limits[g]; english && limits[g].maxRejected > 0 {
					t.Logf("rejected English page %s: %s", p, guess)
				}
			case guess.EnglishStar:
				star++
			}
		}
		pct := 100 * float64(rejected) / float64(max(pages, 1))
		t.Logf("%-8s %5d pages, %5d rejected (%5.1f%%), %3d English*", g, pages, rejected, pct, star)
		if l, ok := limits[g]; ok && pages > 0 {
			if l.maxRejected > 0 && pct > l.maxRejected {
				t.Errorf("%s: %.1f%% of %d pages rejected, want at most %.0f%%", g, pct, pages, l.maxRejected)
			}
			if pct < l.minRejected {
				t.Errorf("%s: %.1f%% of %d pages rejected, want at least %.0f%%", g, pct, pages, l.minRejected)
			}
		}
	}
	t.Logf("DetectLanguage took %v per page on average", spent/time.Duration(max(detected, 1)))
}

// TestSniffDebianDocs checks that SniffBody, without a Content-Type, calls
// real HTML pages HTML (§3.1 "Filetypes": "the Unix `file' command-line
// program was used to guess the filetype"). It is skipped when the
// documentation is not installed.
func TestSniffDebianDocs(t *testing.T) {
	if testing.Short() {
		t.Skip("reads hundreds of files")
	}
	sampled := map[string]bool{"english": true, "en-US": true, "ja-JP": true, "ru-RU": true}
	groups := corpusPages(t, sampled, 300)
	pages, missed := 0, 0
	for _, ps := range groups {
		for _, p := range ps {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			pages++
			if got := SniffBody(b); got != TypeHTML {
				missed++
				t.Logf("SniffBody(%s) = %q, want %q", p, got, TypeHTML)
			}
		}
	}
	t.Logf("%d of %d pages not sniffed as HTML", missed, pages)
	if missed*100 > pages {
		t.Errorf("%d of %d HTML pages not sniffed as HTML, want at most 1%%", missed, pages)
	}
}
