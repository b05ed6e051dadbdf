package relink

import (
	"context"
	"slices"
	"strings"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/lexsig"
)

// ArchiveCheck is Base judged also by the title of the missing page's
// archived copy (Needs.Archive), where an archive has one: a person who
// has the old page compares its title with the candidate's. The
// candidates are Base's; ArchiveCheck marks its outcome (Seen.
// ArchiveChecked) so that the judge compares the titles: a first
// candidate whose title is the archived title (the same words in the same
// order, or the same once both lose their site's suffix after a title
// separator, on the same site: the missing page's host or the same
// suffix) gives SignalArchiveAgrees; one whose title shares fewer than
// half of the archived title's own words (the site's words left out,
// numbers kept) gives SignalArchiveDisagrees; a title edited since, a
// title that another of the first ten candidates has too, or no archived
// copy give neither. What each weighs is the judge's fit.
type ArchiveCheck struct {
	Base Strategy
}

// Name returns Base's name followed by "+archive-check".
func (s ArchiveCheck) Name() string { return s.Base.Name() + "+archive-check" }

// Terms returns Base's.
func (s ArchiveCheck) Terms() int { return s.Base.Terms() }

// Needs returns what Base needs and the archived copy.
func (s ArchiveCheck) Needs() Needs { return s.Base.Needs().union(Needs{Archive: true}) }

// Find runs Base and judges its answer by the archived title too.
func (s ArchiveCheck) Find(ctx context.Context, c *Clues, t Tools) (*Outcome, error) {
	out, err := s.Base.Find(ctx, c, t)
	if err != nil {
		return nil, err
	}
	out.Seen.ArchiveChecked = true
	return out, nil
}

// archiveVerdict is how a candidate's title compares with the archived one.
type archiveVerdict int

const (
	undecided archiveVerdict = iota // no archived title, or a title edited since
	agrees
	disagrees
)

// archiveAgreement compares the title of the first of cands with the
// title of c's archived copy. A title that another of the first ten
// candidates has too ("Eigen: Member List", every class's) names no one
// page: it neither agrees nor disagrees.
func archiveAgreement(c *Clues, cands []lexsig.Result) archiveVerdict {
	r := cands[0]
	old, title := archivedTitle(c), r.Title
	if old == "" || title == "" {
		return undecided
	}
	words := lexsig.Tokenize(title)
	for _, o := range cands[1:min(len(cands), 10)] {
		if slices.Equal(lexsig.Tokenize(o.Title), words) {
			return undecided
		}
	}
	if slices.Equal(lexsig.Tokenize(old), words) {
		return agrees
	}
	oldCore, oldSite := titleCore(old)
	core, site := titleCore(title)
	was, is := lexsig.Tokenize(oldCore), lexsig.Tokenize(core)
	sameSite := sameHost(r.URI, c.URI) || slices.Equal(lexsig.Tokenize(oldSite), lexsig.Tokenize(site))
	if len(was) > 0 && slices.Equal(was, is) && sameSite {
		return agrees
	}
	siteWords := c.siteWords()
	own := slices.DeleteFunc(was, func(w string) bool { return siteWords[w] && !isNumber(w) })
	if len(own) > 0 && multisetShare(is, own) < 0.5 {
		return disagrees
	}
	return undecided
}

// archivedTitle returns the title of c's archived copy, or "".
func archivedTitle(c *Clues) string {
	body := archived(c)
	if body == nil {
		return ""
	}
	return strings.TrimSpace(backlink.Title(body))
}
