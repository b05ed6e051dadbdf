package backlink

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// navLink is a link's anchor and whether it is navigation.
type navLink struct {
	Anchor string
	Nav    bool
}

// TestNavFixtures checks the navigation heuristic (nav.go) on realistic
// pages: a Sphinx page with related bar, sidebar, toctree and headerlinks;
// a blog post with menu, widgets, post navigation and comments; a page
// whose nav, pager and breadcrumbs sit inside main; and a Read the Docs
// theme page.
func TestNavFixtures(t *testing.T) {
	tests := []struct {
		file string
		want []navLink
	}{
		{"sphinx.html", []navLink{
			{"index", true}, {"next", true}, {"previous", true}, // div.related
			{"Tidemark 2 1 documentation", true}, {"User guide", true}, {"Link rot", true},
			{"", true}, // headerlink ¶
			{"web archives", false},
			{"", true},
			{"sweep", false},
			{"", true},
			{"Crawling politely", false}, {"Asking web archives", false}, // toctree in the body: content
			{"Table of Contents", true}, {"Link rot", true}, {"Measuring decay", true}, // sphinxsidebar
			{"Contents of this guide", true}, {"Archives", true},
			{"Sphinx", true}, // footer
		}},
		{"blog.html", []navLink{
			{"Skip to content", false},
			{"Field notes", true}, {"About", true}, {"Archive", true}, // page header, menu
			{"Finding pages that moved", false}, {"Dana", false}, // the post's own header
			{"paper on lexical signatures", false}, {"that same paper", false}, {"", false},
			{"Web", false},                                // the post's footer
			{"Soft 404s", true}, {"TF IDF by hand", true}, // post navigation
			{"TF IDF by hand", true}, {"The lexical signatures paper", true}, // aside widgets
			{"RSS", true}, {"Top", true}, // page footer
		}},
		{"navmain.html", []navLink{
			{"", true}, // a.permalink "#"
			{"Eve", false},
			{"Why cache", true}, {"How to expire", true}, // nav.toc inside main
			{"Docs", true}, {"Guides", true}, // breadcrumbs
			{"", true}, // "§"
			{"hot data", false}, {"Next steps for expiry", false},
			{"the expiry guide", true}, // rel=next
			{"", true},                 // "¶"
			{"TTL reference", false},
			{"caching", false},                 // footer inside article
			{"Previous", true}, {"Next", true}, // ul.pagination
			{"Top", true}, {"Contents", true}, // anchor text
			{"All guides", true},      // rel=up
			{"Queues", true},          // div.sidebar
			{"About this site", true}, // role=contentinfo
		}},
		// A Read the Docs theme page: the whole page sits in elements
		// named for navigation ("wy-grid-for-nav", "wy-nav-content");
		// role="main" marks the content that is not.
		{"rtd.html", []navLink{
			{"Quill", true}, {"Installing Quill", true}, {"Storing sessions", true}, // nav.wy-nav-side
			{"Quill", true}, // nav.wy-nav-top
			{"Docs", true},  // breadcrumbs, role=navigation
			{"", true},      // headerlink ¶
			{"session backends", false}, {"expiry guide", false},
			{"Expiring sessions", true}, // footer buttons
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			body, err := os.ReadFile("testdata/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			links, err := Outlinks(body, "http://www.example.edu/quill/guide/page.html")
			if err != nil {
				t.Fatalf("Outlinks error: %v", err)
			}
			got := make([]navLink, len(links))
			for i, l := range links {
				got[i] = navLink{l.Anchor, l.Nav}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("navigation verdicts for %s (-want +got):\n%s", tt.file, diff)
			}
		})
	}
}

// TestKeywordIn checks rule 3 of the heuristic on class and id values.
func TestKeywordIn(t *testing.T) {
	tests := []struct {
		value     string
		inSection bool
		want      bool
	}{
		{"nav", false, true},
		{"site-nav", false, true},
		{"main-navigation", false, true},
		{"navbar navbar-expand-lg", false, true},
		{"NAV_LINKS", false, true},
		{"sphinxsidebar", false, true},
		{"toc", false, true},
		{"toctree-wrapper compound", false, false},
		{"breadcrumbs", false, true},
		{"related", false, true},
		{"pagination", false, true},
		{"nav-previous", false, true},
		{"site-header", false, true},
		{"site-header", true, false},
		{"entry-header", false, false},
		{"footer", false, true},
		{"content-sidebar-wrap", false, false},
		{"wy-nav-content-wrap", false, false},
		{"wy-nav-content", false, false},
		{"wy-nav-side", false, true},
		{"toc-content", false, true},
		{"sidebar", false, true},
		{"sidebar", true, true},
		{"navigable", false, false},
		{"headerlink", false, false},
		{"docutils literal notranslate", false, false},
		{"", false, false},
		{"   ", false, false},
	}
	for _, tt := range tests {
		var flags uint8
		if tt.inSection {
			flags = flagSection
		}
		if got := keywordIn([]byte(tt.value), flags); got != tt.want {
			t.Errorf("keywordIn(%q, section=%v) = %v, want %v", tt.value, tt.inSection, got, tt.want)
		}
	}
}

// TestNavText checks rules 5 and 6 on anchor texts.
func TestNavText(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"¶", true},
		{" # ", true},
		{"§", true},
		{"Next", true},
		{"next »", true},
		{"« Previous", true},
		{"← prev", true},
		{"↑ Top", true},
		{"HOME", true},
		{"Index", true},
		{"contents", true},
		{"up", true},
		{"Next steps", false},
		{"Homepage", false},
		{"the index of terms", false},
		{"", false},
		{"»", false},
	}
	for _, tt := range tests {
		if got := navText([]byte(tt.text)); got != tt.want {
			t.Errorf("navText(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}
