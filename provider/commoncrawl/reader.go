package commoncrawl

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/linkrot/relink/provider/warc"
)

// DefaultMaxRecordBytes bounds the JSON block of one WAT record when
// Options.MaxRecordBytes is 0: 16 MiB. Common Crawl's blocks are a few
// kilobytes, those of pages with thousands of links a few megabytes.
const DefaultMaxRecordBytes = 16 << 20

// Options configures a Reader. The zero value is ready to use.
type Options struct {
	// MaxRecordBytes bounds the JSON block of one record; a larger record
	// is skipped with ReasonTooLarge without being read into memory. 0
	// means DefaultMaxRecordBytes.
	MaxRecordBytes int64
	// From is the index of the first record Next parses, for resuming an
	// interrupted job: earlier records are read (decompressed) and passed
	// over without being parsed, counted in Stats.Records only. 0 parses
	// every record.
	From int
	// OnSkip, when not nil, is called by Next for every record from From
	// on that gives no Page, with the reason; a broken WARC stream is
	// reported once, with ReasonBadRecord, before Next returns the same
	// error. It is called on the goroutine that calls Next.
	OnSkip func(*SkipError)
}

// Stats counts what a Reader has read so far.
type Stats struct {
	// Records is the number of WARC records read, including those before
	// Options.From.
	Records int
	// Pages and Links are the pages returned by Next and their links.
	Pages, Links int
	// Skipped counts the records from Options.From on that gave no page,
	// by reason (the Reason constants).
	Skipped map[string]int
	// DroppedLinks counts the links of returned pages that are not in
	// their Links, by reason (the Drop constants).
	DroppedLinks map[string]int
}

// String returns a summary, for example "40213 records: 13402 pages,
// 951233 links; skipped 26810 not-response, 1 bad-json; links dropped
// 201344 not-a-href, 3021 not-http".
func (st Stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d records: %d pages, %d links", st.Records, st.Pages, st.Links)
	list := func(title string, m map[string]int) {
		if len(m) == 0 {
			return
		}
		b.WriteString("; " + title)
		for i, k := range slices.Sorted(maps.Keys(m)) {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, " %d %s", m[k], k)
		}
	}
	list("skipped", st.Skipped)
	list("links dropped", st.DroppedLinks)
	return b.String()
}

// Reader reads the pages of a WAT file one at a time. It is not safe for
// concurrent use.
type Reader struct {
	wr    *warc.Reader
	opts  Options
	ps    parser
	buf   []byte // the block of the current record, reused
	next  int    // index of the next record
	stats Stats
	err   error // sticky: io.EOF, or the error that ended the stream
}

// NewReader returns a Reader of the WAT data in r, gzip (one member per
// record, as Common Crawl writes it, or one for the whole file) or plain.
// A nil opts means the zero Options. It returns an error only if r fails.
func NewReader(r io.Reader, opts *Options) (*Reader, error) {
	wr, err := warc.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("commoncrawl: %w", err)
	}
	rd := &Reader{wr: wr}
	if opts != nil {
		rd.opts = *opts
	}
	if rd.opts.MaxRecordBytes <= 0 {
		rd.opts.MaxRecordBytes = DefaultMaxRecordBytes
	}
	return rd, nil
}

// Next returns the next page of the file, passing over (and counting) the
// records that give none. At the end of the input it returns io.EOF.
//
// A malformed record is skipped, never returned as an error. So is a
// stretch of the WARC stream that cannot be read (a corrupt gzip member, a
// record whose Content-Length is wrong): it is counted and reported with
// ReasonBadRecord and its offset (the *SkipError wraps the
// *warc.FormatError), and Next goes on at the next record it can find
// (warc.Reader.Resync). Only when no record follows (a file cut short, or
// garbage to its end) does Next return that *SkipError, wrapping
// warc.ErrTruncated for a cut file, and it returns it again on every later
// call. An error of r itself is returned wrapped.
func (r *Reader) Next() (*Page, error) {
	if r.err != nil {
		return nil, r.err
	}
	for {
		rec, err := r.wr.Next()
		if err == io.EOF {
			r.err = io.EOF
			return nil, io.EOF
		}
		i := r.next
		r.next++
		if err != nil {
			var fe *warc.FormatError
			if !errors.As(err, &fe) {
				r.err = fmt.Errorf("commoncrawl: %w", err)
				return nil, r.err
			}
			if err := r.broken(&SkipError{Record: i, Offset: fe.Offset, Reason: ReasonBadRecord, Err: err}); err != nil {
				return nil, err
			}
			continue
		}
		r.stats.Records++
		if i < r.opts.From {
			continue
		}
		p, err := r.read(rec)
		if err != nil {
			se := err.(*SkipError)
			se.Record, se.Offset = i, rec.Offset
			if se.Reason == ReasonBadRecord {
				if err := r.broken(se); err != nil {
					return nil, err
				}
				continue
			}
			r.skip(se)
			continue
		}
		p.Record, p.Offset = i, rec.Offset
		r.stats.Pages++
		r.stats.Links += len(p.Links)
		for k, n := range p.Dropped {
			if r.stats.DroppedLinks == nil {
				r.stats.DroppedLinks = map[string]int{}
			}
			r.stats.DroppedLinks[k] += n
		}
		return p, nil
	}
}

// read reads and parses one record; every error is a *SkipError.
func (r *Reader) read(rec *warc.Record) (*Page, error) {
	uri := rec.Header.TargetURI()
	if rec.Header.Type() != warc.TypeMetadata || !isJSON(rec.Header.ContentType()) {
		return nil, &SkipError{URI: uri, Reason: ReasonNotMetadata,
			Err: fmt.Errorf("%s record of type %q", rec.Header.Type(), rec.Header.ContentType())}
	}
	n, err := rec.Header.ContentLength()
	if err != nil {
		return nil, &SkipError{URI: uri, Reason: ReasonBadRecord, Err: err}
	}
	if n > r.opts.MaxRecordBytes {
		return nil, &SkipError{URI: uri, Reason: ReasonTooLarge,
			Err: fmt.Errorf("%d bytes, more than %d", n, r.opts.MaxRecordBytes)}
	}
	if int64(cap(r.buf)) < n {
		r.buf = make([]byte, n, min(max(n, 2*int64(cap(r.buf))), r.opts.MaxRecordBytes))
	}
	block := r.buf[:n]
	if _, err := io.ReadFull(rec.Body, block); err != nil {
		return nil, &SkipError{URI: uri, Reason: ReasonBadRecord, Err: err}
	}
	return r.ps.parse(block, uri)
}

// skip counts se and reports it.
func (r *Reader) skip(se *SkipError) {
	if r.stats.Skipped == nil {
		r.stats.Skipped = map[string]int{}
	}
	r.stats.Skipped[se.Reason]++
	if r.opts.OnSkip != nil {
		r.opts.OnSkip(se)
	}
}

// broken counts and reports se, a stretch of the WARC stream that could
// not be read, and moves the WARC reader on to the next record it can find
// (warc.Reader.Resync). When none follows it returns se, which then ends the
// stream; when the input itself fails it returns that error.
func (r *Reader) broken(se *SkipError) error {
	r.skip(se)
	_, err := r.wr.Resync()
	switch {
	case err == nil:
		return nil
	case err == io.EOF:
		r.err = se
	default:
		r.err = fmt.Errorf("commoncrawl: %w", err)
	}
	return r.err
}

// Stats returns the counts so far. The maps are copies.
func (r *Reader) Stats() Stats {
	st := r.stats
	st.Skipped = maps.Clone(st.Skipped)
	st.DroppedLinks = maps.Clone(st.DroppedLinks)
	return st
}
