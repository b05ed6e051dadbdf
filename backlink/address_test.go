package backlink

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIsAddress(t *testing.T) {
	const target = "https://www.example.org/docs/releaselog/3_0_3.html"
	tests := []struct {
		text, target string
		want         bool
	}{
		{"https://www.example.org/docs/releaselog/3_0_3.html", target, true},
		{"HTTP://WWW.EXAMPLE.ORG:80/docs/releaselog/3_0_3.html#top", target, true},
		{"www.example.org/docs/releaselog/3_0_3.html", target, true},
		{"example.org/docs/releaselog/3_0_3.html", target, true},
		{"  <https://example.org/docs/releaselog/3_0_3.html>  ", target, true},
		{"releaselog/3_0_3.html", target, true},
		{"/docs/releaselog/3_0_3.html", target, true},
		{"./3_0_3.html", target, true},
		{"3_0_3.html", target, true},
		{"example.org", "http://www.example.org/", true},
		{"docs/caf%C3%A9", "https://example.org/docs/caf%C3%A9", true},
		{"docs/café", "https://example.org/docs/caf%C3%A9", true},
		// Words about the page, even when they are the path's words.
		{"Release 3.0.3", target, false},
		{"3.0.3", target, false},
		{"releaselog", target, false},
		{"3_0_3", target, false},
		{"html", target, false},
		{"0_3.html", target, false}, // not at a "/"
		{"https://example.org/docs/other.html", target, false},
		{"other.example/docs/releaselog/3_0_3.html", target, false},
		{"", target, false},
		{"3_0_3.html", "not a URI", false},
	}
	for _, tt := range tests {
		if got := IsAddress(tt.text, tt.target); got != tt.want {
			t.Errorf("IsAddress(%q, %q) = %v, want %v", tt.text, tt.target, got, tt.want)
		}
	}
}

// TestLocateAddress: a link whose text is its own address is marked, a
// link's fragment is kept, and WordsOf can leave links out.
func TestLocateAddress(t *testing.T) {
	page := `<p>Index: <a href="target.html">a/b/target.html</a>.
See <a href="/a/b/target.html# part">the lost paper</a>,
or <a href="target.html">http://example.org/a/b/target.html</a>.</p>`
	loc, err := Locate([]byte(page), testPage, testTarget)
	if err != nil {
		t.Fatal(err)
	}
	var marks []bool
	for _, l := range loc.Links() {
		marks = append(marks, l.Address)
	}
	if diff := cmp.Diff([]bool{true, false, true}, marks); diff != "" {
		t.Errorf("Address of the links (-want +got):\n%s", diff)
	}
	var fragments []string
	for _, l := range loc.Links() {
		fragments = append(fragments, l.Fragment)
	}
	if diff := cmp.Diff([]string{"", "part", ""}, fragments); diff != "" {
		t.Errorf("Fragment of the links (-want +got):\n%s", diff)
	}
	described := func(l Link) bool { return !l.Address }
	if diff := cmp.Diff([]string{"the", "lost", "paper"}, loc.WordsOf(Anchor, described)); diff != "" {
		t.Errorf("WordsOf(Anchor, not addresses) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"See", "the", "lost", "paper", "or"}, loc.WordsOf(1, described)); diff != "" {
		t.Errorf("WordsOf(1, not addresses) (-want +got):\n%s", diff)
	}
	if got, want := len(loc.WordsOf(Anchor, nil)), len(loc.Words(Anchor, true)); got != want {
		t.Errorf("WordsOf(Anchor, nil) has %d words, Words(Anchor, true) %d: want the same", got, want)
	}
	if got := loc.WordsOf(Anchor, func(Link) bool { return false }); len(got) != 0 {
		t.Errorf("WordsOf(Anchor, none) = %q, want no words", got)
	}
}
