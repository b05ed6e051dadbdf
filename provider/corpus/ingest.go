package corpus

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// Ingest defaults.
const (
	// DefaultBatchSize is how many files or records one ingest transaction
	// holds. On the development corpus 500 ingests 12% faster than 200
	// (fewer, larger full-text segments to merge) and 1000 gains nothing
	// more.
	DefaultBatchSize = 500
	// DefaultMaxFileSize bounds the bytes of one page: 20 MiB. A larger
	// file or record is skipped with ReasonTooLarge.
	DefaultMaxFileSize = 20 << 20
)

// A page is a redirect stub, not a page, when a <meta http-equiv="refresh">
// names a URL to go to within RedirectMaxDelay seconds and the page shows
// at most RedirectMaxWords words (BENCHMARK.md: "Pages that are only a
// redirect ... are redirects, not pages"). The stubs of the development
// corpus wait 0 seconds and show 0 to 6 words.
const (
	// RedirectMaxDelay is the longest refresh delay, in seconds, of a
	// redirect stub: a reader is sent on before reading anything.
	RedirectMaxDelay = 5
	// RedirectMaxWords is the most visible words a redirect stub shows.
	RedirectMaxWords = 100
)

// Reasons a file or record is not a page, the keys of Stats.Skipped.
const (
	// ReasonUnreadable: the file or directory could not be read.
	ReasonUnreadable = "unreadable"
	// ReasonTooLarge: larger than IngestOptions.MaxFileSize.
	ReasonTooLarge = "too-large"
	// ReasonEmpty: no bytes at all.
	ReasonEmpty = "empty"
	// ReasonBinary: a file named like HTML whose bytes are not text (NUL
	// and control bytes, or the signature of an image, PDF, archive...;
	// filter.SniffBody decides).
	ReasonBinary = "binary"
	// ReasonNotHTML: text that is not HTML (a feed, code), or a WARC
	// capture whose type is not HTML.
	ReasonNotHTML = "not-html"
	// ReasonDuplicate: another file or record already gave this URI.
	ReasonDuplicate = "duplicate"
	// ReasonStatus: a WARC capture whose HTTP status is neither 2xx nor a
	// redirect with a Location.
	ReasonStatus = "http-status"
	// ReasonBadURI: a URI that canon.Canonicalize rejects.
	ReasonBadURI = "bad-uri"
	// ReasonBadRecord: a WARC record or file that cannot be parsed.
	ReasonBadRecord = "bad-record"
	// ReasonInternal: parsing the page failed in a way it never should (a
	// panic, recorded with its message); please report it.
	ReasonInternal = "internal-error"
)

// IngestOptions configures an ingest into a store (provider/store or
// provider/postgres). The zero value is ready to use.
type IngestOptions struct {
	// Workers is the number of goroutines that read and parse pages; 0
	// means runtime.NumCPU(). One more goroutine writes to the database.
	Workers int
	// BatchSize is the number of files or records per transaction; 0
	// means DefaultBatchSize.
	BatchSize int
	// MaxFileSize bounds the bytes of one page; 0 means
	// DefaultMaxFileSize.
	MaxFileSize int64
	// Progress, when not nil, is called after each file or record is
	// written, from one goroutine at a time. It must return quickly.
	Progress func(Progress)
	// Moves, when not nil, publishes pages at other URIs than their files
	// map to: the page whose URI is a key is stored at the value instead,
	// while every link to the old URI, on every page, stays as written, so
	// the old URI becomes a dead link with backlinks and the new one a page
	// no one links to yet: a site that moved a page (the experiment's
	// "moved" mode). The moved page's links resolve as from its old place,
	// except its links to itself (tables of contents, permalinks), which
	// move with it. Keys and values are canonicalized; one that cannot be is an
	// error. IngestManifest and IngestDir apply it; IngestWARC ignores it.
	Moves map[string]string
	// Migrations, when not nil, move whole sites, as a site that is
	// reorganised moves all its pages at once by one rule: every page
	// whose URI is a key of a Migration is published at its value, and its
	// links to the pages of the same Migration follow them (the site
	// updated its own links, fragments kept), while every other page keeps
	// its links to the old URIs, which answer 404 (the experiment's
	// "migrated" mode). A page in Moves is not migrated. Keys and values
	// are canonicalized; one that cannot be, or a URI in two Migrations, is
	// an error. IngestManifest and IngestDir apply them; IngestWARC ignores
	// them.
	Migrations []Migration
	// Edit, when not nil, is given the bytes of each page of a manifest
	// with the page's canonical URI (where its file maps to, before Moves
	// and Migrations) and returns the bytes to store instead: the
	// experiment's "edited" mode changes a page's text this way. It is
	// called from several goroutines at once. IngestWARC ignores it.
	Edit func(uri string, page []byte) []byte
	// Shares, when above 1, splits the input among that many ingests
	// that may run at once (on several machines, into one PostgreSQL
	// database): this one takes only its Share (0 to Shares-1), the files
	// of a manifest or the WARC files whose path hashes (FNV-1a) to Share
	// modulo Shares. Every share reads the whole manifest, so that links
	// between the shares resolve as in one ingest. The other shares'
	// files are neither read nor counted.
	Shares, Share int
}

// A Migration maps the canonical URIs of one site's pages to their new
// URIs (IngestOptions.Migrations).
type Migration map[string]string

// Progress is the state of an ingest.
type Progress struct {
	// Files is the number of files or WARC records finished so far,
	// including those an earlier ingest had finished; TotalFiles is the
	// number to do, or 0 when unknown (WARC input).
	Files, TotalFiles int
	// Bytes is the number of input bytes read so far; TotalBytes is the
	// size of the input (file sizes for directories, WARC file sizes for
	// WARC input).
	Bytes, TotalBytes int64
}

// Stats counts what one ingest added to the store.
type Stats struct {
	// Pages, Redirects and Links are the pages, redirects and links added.
	Pages, Redirects, Links int
	// NavLinks and AreaLinks are the navigation links and image-map links
	// among Links.
	NavLinks, AreaLinks int
	// Skipped counts the files and records that are not pages, by reason
	// (the Reason constants).
	Skipped map[string]int
	// Resumed is the number of files or records an earlier, interrupted
	// ingest had already finished, passed over this time.
	Resumed int
	// Changed is the number of WARC files that an earlier ingest had read,
	// in part or whole, and whose content has changed since (a download
	// that was cut short and completed, or another file under the same
	// name): they are read again, and only the records that the earlier
	// ingest finished in the part that is the same are passed over.
	Changed int
	// Duration is the wall time of the ingest.
	Duration time.Duration
}

// String returns the summary line of an ingest, for example
// "4512 pages, 37 redirects, 812345 links (512345 navigation, 0 image-map), skipped: 3 binary, 1 unreadable in 41.2s".
func (st Stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d pages, %d redirects, %d links (%d navigation, %d image-map), skipped: ",
		st.Pages, st.Redirects, st.Links, st.NavLinks, st.AreaLinks)
	if len(st.Skipped) == 0 {
		b.WriteString("none")
	}
	writeCounts(&b, st.Skipped)
	writeEnd(&b, st.Resumed, st.Changed, st.Duration)
	return b.String()
}

// writeCounts adds to a summary line the counts of m by reason, in the
// order of the reasons: "3 binary, 1 unreadable".
func writeCounts(b *strings.Builder, m map[string]int) {
	for i, r := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "%d %s", m[r], r)
	}
}

// writeEnd ends a summary line with the inputs an earlier ingest had
// finished, the files read again because their content changed (when
// there are any) and the wall time.
func writeEnd(b *strings.Builder, resumed, changed int, d time.Duration) {
	if resumed > 0 {
		fmt.Fprintf(b, ", %d already ingested", resumed)
	}
	switch {
	case changed == 1:
		b.WriteString(", 1 changed file read again")
	case changed > 1:
		fmt.Fprintf(b, ", %d changed files read again", changed)
	}
	fmt.Fprintf(b, " in %.1fs", d.Seconds())
}
