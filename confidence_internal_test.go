package relink

import (
	"math"
	"testing"
)

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
		{"Database migration operations — Django 3.2 documentation", phrase("migration", "operations"), ForeignTitle},
		{"36.5. Dynamic SQL", phrase("36", "5"), 1},
		{"F.18. hstore", phrase("hstore"), 1},
		{"J.2. Tool Sets", phrase("j", "2"), 1},
		{"53.65. pg_user_mapping", phrase("pg", "user"), ForeignTitle},
		{"celery.worker.consumer", phrase("celery", "worker", "consumer", "consumer"), 0.8 * 3 / 4},
		{"git-ls-remote(1)", phrase("git", "remote", "1"), 0.8 * 0.9},
		{"The lxml.etree Tutorial", phrase("lxml", "etree", "tutorial"), 1},
		{"", phrase("x"), 0},
	}
	for _, tt := range tests {
		if got := titleScore(tt.title, tt.phrases, site); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("titleScore(%q, %v) = %v, want %v", tt.title, tt.phrases[0].Words, got, tt.want)
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
