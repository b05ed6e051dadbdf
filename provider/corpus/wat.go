package corpus

import (
	"fmt"
	"strings"
	"time"
)

// Reasons a page of a WAT file does not become a link source, besides
// those of package commoncrawl (its Reason constants) and ReasonDuplicate
// (an earlier record gave the same URI): keys of LinkStats.Skipped.
const (
	// ReasonPageInStore: the store holds the page itself, whose own links
	// count instead.
	ReasonPageInStore = "page-in-store"
	// ReasonNoLinks: the page has no link to a URI other than itself.
	ReasonNoLinks = "no-links"
)

// DropSelfLink is the reason a link of a WAT page to the page itself is
// not stored, a key of LinkStats.DroppedLinks beside commoncrawl's Drop
// constants: it could never make the page a backlink.
const DropSelfLink = "self-link"

// LinkStats counts what one link ingest (IngestWAT) added to the store, or
// with LinkTotals what the store holds.
type LinkStats struct {
	// Sources and Links are the link sources and link records added.
	Sources, Links int
	// Records is the number of WAT records read and handled; Resumed is
	// the number an earlier ingest had finished, in a file or the part of
	// a file that is unchanged since, passed over this time.
	Records, Resumed int
	// Changed is the number of WAT files that an earlier ingest had read,
	// in part or whole, and whose content has changed since (a download
	// that was cut short and completed, or another file under the same
	// name), as Stats.Changed counts WARC files: they are read again, and
	// only the records that the earlier ingest finished in the part that
	// is the same are passed over (Resumed).
	Changed int
	// Skipped counts the records that gave no link source, by reason:
	// commoncrawl's Reason constants, ReasonDuplicate, ReasonPageInStore
	// and ReasonNoLinks. The malformed ones (commoncrawl.SkipError.Malformed)
	// are also recorded in the store, where Totals counts them.
	Skipped map[string]int
	// DroppedLinks counts the links of the sources added that are not
	// stored, by reason: commoncrawl's Drop constants and DropSelfLink.
	DroppedLinks map[string]int
	// Duration is the wall time of the ingest.
	Duration time.Duration
}

// String returns the summary line of a link ingest, for example
// "13402 link sources, 951233 link records from 40213 WAT records, skipped: 26810 not-response, 3 duplicate; links dropped: 201344 not-a-href in 41.2s".
func (st LinkStats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d link sources, %d link records", st.Sources, st.Links)
	if st.Records > 0 {
		fmt.Fprintf(&b, " from %d WAT records", st.Records)
	}
	list := func(title string, m map[string]int) {
		if len(m) == 0 {
			return
		}
		b.WriteString(title)
		writeCounts(&b, m)
	}
	list(", skipped: ", st.Skipped)
	list("; links dropped: ", st.DroppedLinks)
	writeEnd(&b, st.Resumed, st.Changed, st.Duration)
	return b.String()
}
