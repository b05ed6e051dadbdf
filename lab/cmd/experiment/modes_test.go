package main

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/linkrot/relink/provider/store"
)

// TestMigrate checks each rule of the migrated mode on real sites' bases.
func TestMigrate(t *testing.T) {
	python := store.Site{Name: "python", Roots: []store.Root{{Base: "https://docs.python.org/3.11/", Style: store.StyleFile}}}
	django := store.Site{Name: "django", Roots: []store.Root{{Base: "https://docs.djangoproject.com/en/3.2/", Style: store.StyleDir}}}
	git := store.Site{Name: "git_scm", Roots: []store.Root{{Base: "https://git-scm.com/docs/", Style: store.StyleFile}}}
	root := store.Site{Name: "vim", Roots: []store.Root{{Base: "https://vimhelp.org/", Style: store.StyleFile}}}
	tests := []struct {
		uri, rule string
		site      store.Site
		want      string // "" for an error
	}{
		{"https://docs.python.org/3.11/library/functools.html", ruleHost, python, "https://python.docs.example.org/3.11/library/functools.html"},
		{"https://docs.python.org/3.11/library/functools.html", ruleVersion, python, "https://docs.python.org/3/library/functools.html"},
		{"https://docs.python.org/3.11/library/functools.html", ruleStyle, python, "https://docs.python.org/3.11/library/functools/"},
		{"https://docs.python.org/3.11/library", ruleStyle, python, ""}, // a directory index stays
		{"https://docs.python.org/3.11/library/functools.html", rulePrefix, python, "https://docs.python.org/docs/library/functools.html"},
		{"https://docs.djangoproject.com/en/3.2/topics/db", ruleVersion, django, "https://docs.djangoproject.com/en/3/topics/db"},
		{"https://docs.djangoproject.com/en/3.2/topics/db", rulePrefix, django, "https://docs.djangoproject.com/docs/3.2/topics/db"},
		{"https://git-scm.com/docs/git-log.html", rulePrefix, git, "https://git-scm.com/documentation/git-log.html"},
		{"https://git-scm.com/docs/git-log.html", ruleHost, git, "https://git-scm.docs.example.org/docs/git-log.html"},
		{"https://git-scm.com/docs/git-log.html", ruleVersion, git, ""}, // no version segment
		{"https://vimhelp.org/usr_01.txt.html", rulePrefix, root, "https://vimhelp.org/docs/usr_01.txt.html"},
		{"https://elsewhere.org/a.html", ruleHost, root, ""},
	}
	for _, tt := range tests {
		got, err := migrate(tt.uri, tt.rule, tt.site.Name, tt.site)
		if tt.want == "" {
			if err == nil {
				t.Errorf("migrate(%s, %s) = %s, want an error", tt.uri, tt.rule, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("migrate(%s, %s) = %q, %v; want %q", tt.uri, tt.rule, got, err, tt.want)
		}
	}
}

// TestEditTitle checks the edited mode's title edits: the suffix dropped
// or changed, and a word dropped from a title of three words or more.
func TestEditTitle(t *testing.T) {
	seen := map[string]bool{}
	for i := range 64 {
		r := rand.New(rand.NewPCG(uint64(i), 2))
		got := editTitle("Writing your first   Django app, part 1 — Django 3.2 documentation", "django", r)
		seen[got] = true
		main, suffix, cut := strings.Cut(got, " — ")
		if n := len(strings.Fields(main)); n != 6 {
			t.Errorf("editTitle = %q: %d words before the suffix, want 6 (one of 7 dropped)", got, n)
		}
		if cut && suffix != "Django documentation" {
			t.Errorf("editTitle = %q: suffix %q, want it dropped or without its version", got, suffix)
		}
	}
	if len(seen) < 4 {
		t.Errorf("64 seeds gave %d titles, want the edits to vary", len(seen))
	}
	r := rand.New(rand.NewPCG(1, 2))
	if got := editTitle("sqlite3", "sqlite", r); got != "sqlite3" {
		t.Errorf("editTitle(sqlite3) = %q: a one-word title without a suffix stays", got)
	}
	for i := range 16 {
		r := rand.New(rand.NewPCG(uint64(i), 2))
		if got := editTitle("Overview | Vim help", "vim", r); got != "Overview" && got != "Overview | vim docs" {
			t.Errorf("editTitle(Overview | Vim help) = %q, want the suffix dropped or the site's name", got)
		}
	}
}

// TestEdit checks the edited mode's text edit on a page of six
// paragraphs: two in one run change, the first to the donor's paragraph,
// the second removed; the rest stay.
func TestEdit(t *testing.T) {
	const target = "https://docs.example.org/guide"
	e := &editor{seed: 1, sites: map[string]string{target: "ex"}, donors: map[string][]string{target: {"<p>donated words</p>"}}}
	var b strings.Builder
	b.WriteString("<html><head><title>The widget guide - Example docs</title></head><body><h1>The widget guide</h1>")
	for i := range 6 {
		b.WriteString("<p>paragraph " + string(rune('a'+i)) + "</p>")
	}
	b.WriteString("</body></html>")
	page := []byte(b.String())
	if got := e.edit("https://docs.example.org/other", page); string(got) != string(page) {
		t.Errorf("edit changed a page that is no target: %s", got)
	}
	got := string(e.edit(target, page))
	if strings.Count(got, "<p>") != 5 || strings.Count(got, "donated words") != 1 || strings.Count(got, "<p>paragraph") != 4 {
		t.Errorf("edit = %s: want 4 of 6 paragraphs kept and one donated", got)
	}
	if !strings.Contains(got, "<h1>The widget guide</h1>") || strings.Contains(got, "<title>The widget guide - Example docs</title>") {
		t.Errorf("edit = %s: want the h1 kept and the title edited", got)
	}
}
