package relink

import (
	"context"
	"net/http"
	"testing"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
)

// archivedClues returns the clues of a missing Django page whose archived
// copy has title, or none when title is empty.
func archivedClues(title string) *Clues {
	c := &Clues{URI: "https://docs.djangoproject.com/en/3.2/topics/signals/"}
	if title != "" {
		c.Archive = &filter.Page{URI: c.URI, Status: http.StatusOK, Header: http.Header{"Content-Type": {"text/html"}},
			Body: []byte("<html><head><title>" + title + "</title></head><body><p>Old text.</p></body></html>")}
	}
	return c
}

// TestArchiveAgreement: the archived title agrees with a candidate's that
// is the same, or the same but for the site's suffix on the same site; it
// disagrees with one that shares under half its words; anything else, or
// no archived copy, decides nothing.
func TestArchiveAgreement(t *testing.T) {
	const django = "https://docs.djangoproject.com/en/3.2/"
	tests := []struct {
		archived, uri, title string
		want                 archiveVerdict
	}{
		{"Signals — Django 3.2 documentation", django + "relocated/1", "Signals — Django 3.2 documentation", agrees},
		{"Signals — Django 3.2 documentation", django + "topics/signals-new/", "Signals — Django 4.0 documentation", agrees},
		{"Signals — Django 3.2 documentation", "https://flask.example/signals", "Signals — Flask Documentation", undecided},
		{"Signals — Django 3.2 documentation", django + "topics/http/middleware/", "Middleware — Django 3.2 documentation", disagrees},
		{"Django 1.4.6 release notes — Django 3.2 documentation", django + "releases/1.6.4/", "Django 1.6.4 release notes — Django 3.2 documentation", undecided},
		{"Using signals with models — Django 3.2 documentation", django + "x/", "Signals with models — Django 3.2 documentation", undecided},
		{"", django + "x/", "Signals — Django 3.2 documentation", undecided},
	}
	for _, tt := range tests {
		got := archiveAgreement(archivedClues(tt.archived), []lexsig.Result{{URI: tt.uri, Title: tt.title}, {URI: django + "other/", Title: "Other — Django 3.2 documentation"}})
		if got != tt.want {
			t.Errorf("archived %q, candidate %q at %s: %d, want %d", tt.archived, tt.title, tt.uri, got, tt.want)
		}
	}
}

// TestArchiveAgreementShared: a title that another of the first ten
// candidates has too names no one page.
func TestArchiveAgreementShared(t *testing.T) {
	c := archivedClues("Eigen: Member List")
	cands := []lexsig.Result{
		{URI: "https://eigen.example/dox/a-members.html", Title: "Eigen: Member List"},
		{URI: "https://eigen.example/dox/b.html", Title: "Eigen: Matrix"},
		{URI: "https://eigen.example/dox/c-members.html", Title: "Eigen: Member List"},
	}
	if got := archiveAgreement(c, cands); got != undecided {
		t.Errorf("a title two candidates share: %d, want undecided", got)
	}
	if got := archiveAgreement(c, cands[:2]); got != agrees {
		t.Errorf("the same title, no other candidate with it: %d, want agrees", got)
	}
}

// titled is a strategy whose one candidate has title.
type titled struct{ title string }

func (titled) Name() string { return "titled" }
func (titled) Terms() int   { return 0 }
func (titled) Needs() Needs { return Needs{} }
func (j titled) Find(ctx context.Context, c *Clues, t Tools) (*Outcome, error) {
	return &Outcome{Candidates: []lexsig.Result{{Rank: 1, URI: "https://docs.djangoproject.com/en/3.2/relocated/1", Title: j.title}}}, nil
}

// TestArchiveCheck: the strategy marks its outcome for the judge, who
// compares the first candidate's title with the archived one: the same
// title agrees, one that shares few of its words disagrees, and without an
// archived title neither; the candidates are the base's.
func TestArchiveCheck(t *testing.T) {
	tests := []struct {
		archived, title string
		want            string // the archive's signal, or ""
	}{
		{"Signals — Django 3.2 documentation", "Signals — Django 3.2 documentation", SignalArchiveAgrees},
		{"Signals — Django 3.2 documentation", "Middleware — Django 3.2 documentation", SignalArchiveDisagrees},
		{"", "Middleware — Django 3.2 documentation", ""},
	}
	for _, tt := range tests {
		s := ArchiveCheck{Base: titled{title: tt.title}}
		if !s.Needs().Archive || s.Name() != "titled+archive-check" {
			t.Fatalf("%s needs %+v, want the archive", s.Name(), s.Needs())
		}
		c := archivedClues(tt.archived)
		o, err := s.Find(context.Background(), c, Tools{})
		if err != nil {
			t.Fatal(err)
		}
		if len(o.Candidates) != 1 || o.Candidates[0].Title != tt.title || !o.Seen.ArchiveChecked {
			t.Fatalf("candidates %v, seen %+v: want the base's, archive checked", o.Candidates, o.Seen)
		}
		got := Signals(c, o.Candidates, o.Seen)
		for _, name := range []string{SignalArchiveAgrees, SignalArchiveDisagrees} {
			if want := name == tt.want; (got[name] == 1) != want {
				t.Errorf("archived %q, candidate %q: %s = %v, want %v", tt.archived, tt.title, name, got[name], want)
			}
		}
	}
}
