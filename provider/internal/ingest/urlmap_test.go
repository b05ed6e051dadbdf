package ingest

import (
	"strings"
	"testing"

	"github.com/linkrot/relink/provider/corpus"
)

// rootFor returns the compiled root of the fixture site whose directory
// ends in name.
func rootFor(t *testing.T, mp *mapper, name string) *root {
	t.Helper()
	for _, r := range mp.roots {
		if strings.HasSuffix(r.real, "/"+name) {
			return r
		}
	}
	t.Fatalf("no root %q", name)
	return nil
}

// TestPublicURL checks the URL of each file under the two root styles
// (BENCHMARK.md, "Manifest format").
func TestPublicURL(t *testing.T) {
	_, m := FixtureWeb(t)
	mp, err := newMapper(m)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, site, rel, want string
	}{
		{"file index", "filesite", "index.html", FileBase},
		{"file sub index", "filesite", "guide/index.html", FileBase + "guide/"},
		{"file page", "filesite", "guide/intro.html", FileBase + "guide/intro.html"},
		{"file other extension", "filesite", "notes.htm", FileBase + "notes.htm"},
		{"dir index", "dirsite", "index.html", DirBase},
		{"dir page", "dirsite", "tutorial.html", DirBase + "tutorial/"},
		{"dir sub index", "dirsite", "reference/index.html", DirBase + "reference/"},
		{"dir sub page", "dirsite", "reference/models.html", DirBase + "reference/models/"},
		{"dir non-html", "dirsite", "_static/site.css", DirBase + "_static/site.css"},
		{"escaped", "filesite", "a b/c%d.html", FileBase + "a%20b/c%25d.html"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rootFor(t, mp, tt.site).publicURL(tt.rel); got != tt.want {
				t.Errorf("publicURL(%q) = %q, want %q", tt.rel, got, tt.want)
			}
		})
	}
}

// TestResolve checks how hrefs written in the fixture files map to public
// URLs: relative hrefs in file space, aliases, local paths through
// symlinks, and what is left alone (BENCHMARK.md, "Manifest format").
func TestResolve(t *testing.T) {
	root, m := FixtureWeb(t)
	mp, err := newMapper(m)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, site, file, base, href string
		want                         string
		kind                         hrefKind
	}{
		{"relative page", "filesite", "index.html", "", "guide/intro.html", FileBase + "guide/intro.html", hrefWeb},
		{"relative dir with slash", "filesite", "index.html", "", "guide/", FileBase + "guide/", hrefWeb},
		{"relative dir without slash", "filesite", "index.html", "", "guide", FileBase + "guide/", hrefWeb},
		{"fragment kept", "filesite", "index.html", "", "api.html#widget-class", FileBase + "api.html#widget-class", hrefWeb},
		{"empty href is the page", "filesite", "guide/intro.html", "", "", FileBase + "guide/intro.html", hrefWeb},
		{"fragment only", "filesite", "index.html", "", "#top", FileBase + "#top", hrefWeb},
		{"query kept", "filesite", "index.html", "", "index.html?x=1", FileBase + "?x=1", hrefWeb},
		{"parent index", "filesite", "guide/index.html", "", "../index.html", FileBase, hrefWeb},
		{"climbs out of the root", "filesite", "index.html", "", "../outside.html", "https://files.example.org/outside.html", hrefWeb},
		{"base element", "filesite", "index.html", "guide/", "intro.html", FileBase + "guide/intro.html", hrefWeb},
		{"alias", "filesite", "index.html", "", "https://files.example.org/latest/api.html", FileBase + "api.html", hrefWeb},
		{"alias index, host case", "filesite", "index.html", "", "HTTPS://Files.Example.org/latest/guide/index.html#x", FileBase + "guide/#x", hrefWeb},
		{"alias without slash", "filesite", "index.html", "", "https://files.example.org/latest", FileBase, hrefWeb},
		{"other site kept", "filesite", "index.html", "", "https://other.example.com/a.html?q#f", "https://other.example.com/a.html?q#f", hrefWeb},
		{"scheme-relative", "filesite", "index.html", "", "//other.example.com/a", "https://other.example.com/a", hrefWeb},
		{"root-relative web path", "filesite", "index.html", "", "/license.html", "https://files.example.org/license.html", hrefWeb},
		{"root-relative mapped by base", "dirsite", "reference/models.html", "", "/en/1.0/tutorial.html", DirBase + "tutorial/", hrefWeb},
		{"dir style relative", "dirsite", "tutorial.html", "", "reference/models.html#fields", DirBase + "reference/models/#fields", hrefWeb},
		{"dir style index", "dirsite", "tutorial.html", "", "index.html", DirBase, hrefWeb},
		{"dir style sub index", "dirsite", "reference/models.html", "", "index.html", DirBase + "reference/", hrefWeb},
		{"dir style alias", "dirsite", "index.html", "", "https://dir.example.net/en/stable/tutorial.html", DirBase + "tutorial/", hrefWeb},
		{"dir style base prefix", "dirsite", "index.html", "", DirBase + "reference/models.html", DirBase + "reference/models/", hrefWeb},
		{"dir style non-html", "dirsite", "index.html", "", "_static/x.css", DirBase + "_static/x.css", hrefWeb},
		{"local path through symlink", "dirsite", "tutorial.html", "", root + "/shared/files/guide/intro.html", FileBase + "guide/intro.html", hrefWeb},
		{"local path to dir style", "filesite", "guide/intro.html", "", root + "/shared/dir/tutorial.html", DirBase + "tutorial/", hrefWeb},
		{"local directory", "filesite", "index.html", "", root + "/shared/dir/reference", DirBase + "reference/", hrefWeb},
		{"file URL", "filesite", "api.html", "", "file://" + root + "/dirsite/reference/models.html", DirBase + "reference/models/", hrefWeb},
		{"local path outside the roots", "filesite", "index.html", "", root + "/nowhere/x.html#a", "file://" + root + "/nowhere/x.html#a", hrefLocal},
		{"remote file URL", "filesite", "index.html", "", "file://remotehost/x.html", "", hrefKeep},
		{"mailto", "filesite", "index.html", "", "mailto:maintainers@example.org", "", hrefKeep},
		{"javascript", "filesite", "index.html", "", "javascript:void(0)", "", hrefKeep},
		{"unparsable", "filesite", "index.html", "", "http://[::1", "", hrefKeep},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fc, err := newFileContext(rootFor(t, mp, tt.site), tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if tt.base != "" {
				fc.setBase(tt.base)
			}
			got, kind := mp.resolve(fc, tt.href)
			if got != tt.want || kind != tt.kind {
				t.Errorf("resolve(%s, %q) = %q, %d, want %q, %d", tt.file, tt.href, got, kind, tt.want, tt.kind)
			}
		})
	}
}

// TestNewMapperErrors checks that a manifest that cannot be ingested is
// refused before anything is read.
func TestNewMapperErrors(t *testing.T) {
	root, good := FixtureWeb(t)
	tests := []struct {
		name   string
		change func(m *corpus.Manifest)
	}{
		{"wrong version", func(m *corpus.Manifest) { m.Version = 2 }},
		{"no sites", func(m *corpus.Manifest) { m.Sites = nil }},
		{"missing dir", func(m *corpus.Manifest) { m.Sites[0].Roots[0].Dir = root + "/absent" }},
		{"dir is a file", func(m *corpus.Manifest) { m.Sites[0].Roots[0].Dir = root + "/filesite/index.html" }},
		{"relative base", func(m *corpus.Manifest) { m.Sites[0].Roots[0].Base = "/docs/" }},
		{"base without slash", func(m *corpus.Manifest) { m.Sites[0].Roots[0].Base = "https://files.example.org/docs" }},
		{"unknown style", func(m *corpus.Manifest) { m.Sites[0].Roots[0].Style = "dirhtml" }},
		{"bad alias", func(m *corpus.Manifest) { m.Sites[0].Aliases = []string{"ftp://x/"} }},
		{"bad regexp", func(m *corpus.Manifest) { m.Sites[0].Exclude = "(" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := *good
			m.Sites = append([]corpus.Site(nil), good.Sites...)
			m.Sites[0].Roots = append([]corpus.Root(nil), good.Sites[0].Roots...)
			tt.change(&m)
			if _, err := newMapper(&m); err == nil {
				t.Errorf("newMapper accepted a manifest with %s", tt.name)
			}
		})
	}
}

// FuzzResolve checks that no href makes resolve panic, and that what it
// calls a web URL is an absolute http(s) URL.
func FuzzResolve(f *testing.F) {
	for _, h := range []string{"a.html", "../../x", "/usr/share/doc/x/", "file:///tmp/x", "//h/p", "https://files.example.org/latest/a.html#f", "?q", "#", "http://[::1", "\x00", "%zz"} {
		f.Add("guide/intro.html", h)
	}
	_, m := FixtureWeb(f)
	mp, err := newMapper(m)
	if err != nil {
		f.Fatal(err)
	}
	r := mp.roots[0]
	f.Fuzz(func(t *testing.T, file, href string) {
		fc, err := newFileContext(r, file)
		if err != nil {
			return
		}
		fc.setBase(href)
		got, kind := mp.resolve(fc, href)
		if kind == hrefWeb && !strings.HasPrefix(strings.ToLower(got), "http") {
			t.Errorf("resolve(%q, %q) = %q, a web URL that is not http(s)", file, href, got)
		}
	})
}

// FuzzResolveCache checks that resolve's caches (the mapper's, by
// directory, and a file's own URL for hrefs of a fragment alone) answer
// what resolving afresh answers, for any href, in files with and without a
// <base>, asked twice.
func FuzzResolveCache(f *testing.F) {
	for _, s := range []string{"", "#", "#top", "#a%20b", "# x", "#%zz", "?q", "?q#f", "guide/intro.html", "../index.html", "//h/x", "/license.html", "mailto:x", "https://files.example.org/latest/api.html#f"} {
		f.Add(s)
	}
	_, m := FixtureWeb(f)
	mp, err := newMapper(m)
	if err != nil {
		f.Fatal(err)
	}
	type file struct{ site, rel, base string }
	files := []file{{"filesite", "index.html", ""}, {"filesite", "guide/intro.html", "../api.html"}, {"dirsite", "reference/models.html", ""}}
	f.Fuzz(func(t *testing.T, href string) {
		for _, fl := range files {
			fc, err := newFileContext(rootFor(t, mp, fl.site), fl.rel)
			if err != nil {
				t.Fatal(err)
			}
			fresh := *fc
			if fl.base != "" {
				fc.setBase(fl.base)
				fresh.setBase(fl.base)
			}
			want, wantKind, _ := mp.resolveHref(&fresh, href)
			for range 2 {
				if got, kind := mp.resolve(fc, href); got != want || kind != wantKind {
					t.Errorf("resolve(%s, %q) = %q, %d; resolving afresh: %q, %d", fl.rel, href, got, kind, want, wantKind)
				}
			}
		}
	})
}
