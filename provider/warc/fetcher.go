package warc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
)

// DefaultMaxRedirects is the default number of redirects an Archive follows
// for one Fetch, as many as net/http's client follows.
const DefaultMaxRedirects = 10

// Archive replays the HTTP responses held in WARC files as a
// filter.Fetcher. It is built by Open or NewArchive, which read every
// record once and index by canonical target URI (canon.Canonicalize):
//
//   - response records holding an HTTP response (Content-Type
//     application/http, msgtype=response or none), and resource records,
//     which replay as status 200 with the record's Content-Type;
//   - for a URI captured several times, the capture with the latest
//     WARC-Date (a missing or unparsable date counts as the oldest; on a
//     tie, the one read last);
//   - not revisit records: the archive does not resolve them to the
//     capture they point to, so a URI seen only in revisits is not in the
//     archive, and one with an older response replays that response;
//   - not records whose target URI cannot be canonicalized (dns: records,
//     for instance), nor request, metadata, warcinfo or conversion records.
//
// The index lives in memory, about a hundred bytes per URI plus the URI
// itself. An Archive is safe for concurrent use: each Fetch reads its
// records on its own. Set MaxBody and MaxRedirects before the first Fetch.
type Archive struct {
	// MaxBody bounds the bytes of a replayed body, after content decoding;
	// a longer body is cut. Zero or less means DefaultMaxBody.
	MaxBody int64
	// MaxRedirects bounds the redirects followed by one Fetch. Zero means
	// DefaultMaxRedirects; a negative value follows none.
	MaxRedirects int

	names   []string                                          // file names, for errors
	open    func(file int) (io.ReaderAt, func() error, error) // opens a file for reading
	index   map[string]capture
	skipped []error // the malformed stretches skipped while indexing
}

// Skipped returns the malformed stretches of the files that Open or
// NewArchive skipped, in the order met: each a *FormatError (with the
// offset of the bad record) wrapped in an error naming the file. The
// records after a bad one were read from the next record the Reader's
// Resync found, so one wrong Content-Length does not cost the rest of the
// file.
func (a *Archive) Skipped() []error { return slices.Clone(a.skipped) }

// capture locates one indexed record.
type capture struct {
	file   int       // index into Archive.names
	offset int64     // Record.Offset
	skip   int       // records before it that share its gzip member
	date   time.Time // WARC-Date
}

var _ filter.Fetcher = (*Archive)(nil)

// Open reads the WARC files at paths (plain or gzip, in any mix) and
// returns an Archive of their responses. Files are opened again by name on
// each Fetch, so an Archive holds no open file and needs no closing, but
// the files must stay in place and unchanged. A file that cannot be read to
// its end, a truncated last record included, is an error naming the file
// and the offset (a *FormatError inside); a malformed record with records
// after it (a wrong Content-Length, a broken header, a bad gzip member) is
// skipped and recorded (Skipped), and indexing resumes at the next record.
// Open stops with ctx.Err() when ctx is done.
func Open(ctx context.Context, paths ...string) (*Archive, error) {
	names := slices.Clone(paths)
	a := &Archive{
		names: names,
		open: func(i int) (io.ReaderAt, func() error, error) {
			f, err := os.Open(names[i])
			if err != nil {
				return nil, nil, err
			}
			return f, f.Close, nil
		},
	}
	if err := a.scan(ctx); err != nil {
		return nil, err
	}
	return a, nil
}

// NewArchive is Open for WARC data already at hand, such as a bytes.Reader
// or an open file: each source is read from offset 0 to the first io.EOF of
// its ReadAt. Sources must stay readable and unchanged, and their ReadAt
// must be safe for concurrent use (bytes.Reader's and os.File's are).
func NewArchive(ctx context.Context, sources ...io.ReaderAt) (*Archive, error) {
	names := make([]string, len(sources))
	for i := range sources {
		names[i] = fmt.Sprintf("source %d", i)
	}
	sources = slices.Clone(sources)
	a := &Archive{
		names: names,
		open: func(i int) (io.ReaderAt, func() error, error) {
			return sources[i], func() error { return nil }, nil
		},
	}
	if err := a.scan(ctx); err != nil {
		return nil, err
	}
	return a, nil
}

// scan builds the index, stopping at the first error.
func (a *Archive) scan(ctx context.Context) error {
	a.index = make(map[string]capture)
	for i, name := range a.names {
		if err := a.scanFile(ctx, i); err != nil {
			return fmt.Errorf("warc: index %s: %w", name, err)
		}
	}
	return nil
}

// scanFile indexes the records of file i.
func (a *Archive) scanFile(ctx context.Context, i int) error {
	ra, closeFile, err := a.open(i)
	if err != nil {
		return err
	}
	defer closeFile()
	rd, err := NewReader(io.NewSectionReader(ra, 0, math.MaxInt64))
	if err != nil {
		return err
	}
	prev, skip := int64(-1), 0
	// last is the record indexed last and what it replaced, so that a
	// record found bad only when its block is read leaves the index as
	// it was.
	var last struct {
		key      string
		offset   int64
		old      capture
		had, set bool
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		rec, err := rd.Next()
		if err == io.EOF {
			return nil
		}
		var fe *FormatError
		if errors.As(err, &fe) {
			if last.set && fe.Offset == last.offset {
				if last.had {
					a.index[last.key] = last.old
				} else {
					delete(a.index, last.key)
				}
			}
			last.set = false
			if _, rerr := rd.Resync(); rerr != nil {
				if rerr == io.EOF && !errors.Is(err, ErrTruncated) {
					a.skipped = append(a.skipped, fmt.Errorf("warc: %s: %w", a.names[i], err))
					return nil
				}
				return err // a file cut short, or an input that fails
			}
			a.skipped = append(a.skipped, fmt.Errorf("warc: %s: %w", a.names[i], err))
			prev, skip = -1, 0
			continue
		}
		if err != nil {
			return err
		}
		if rec.Offset == prev {
			skip++
		} else {
			prev, skip = rec.Offset, 0
		}
		if !replayable(rec.Header) {
			continue
		}
		key, err := canon.Canonicalize(rec.Header.TargetURI())
		if err != nil {
			continue
		}
		date, _ := rec.Header.Date() // a bad date is the zero time: the oldest
		if old, ok := a.index[key]; ok && date.Before(old.date) {
			continue
		}
		last.key, last.offset, last.set = key, rec.Offset, true
		last.old, last.had = a.index[key]
		a.index[key] = capture{file: i, offset: rec.Offset, skip: skip, date: date}
	}
}

// replayable reports whether a record with header h is one the Archive
// indexes: a resource, or a response holding an HTTP response.
func replayable(h Header) bool {
	switch h.Type() {
	case TypeResource:
		return true
	case TypeResponse:
		mt, params, err := mime.ParseMediaType(h.ContentType())
		return err == nil && mt == "application/http" &&
			(params["msgtype"] == "" || strings.EqualFold(params["msgtype"], "response"))
	}
	return false
}

// Len returns the number of distinct canonical URIs in the archive.
func (a *Archive) Len() int { return len(a.index) }

// Has reports whether the archive holds a capture of uri, compared after
// canon.Canonicalize; it tells an archived 404 answer from Fetch's answer
// for a URI it does not hold. A URI that cannot be canonicalized is not
// held.
func (a *Archive) Has(uri string) bool {
	key, err := canon.Canonicalize(uri)
	if err != nil {
		return false
	}
	_, ok := a.index[key]
	return ok
}

// Fetch replays the latest capture of uri (compared after
// canon.Canonicalize). A URI the archive does not hold answers a Page with
// status 404, no header and no body, and a nil error, as a server that
// never had the page would: the archive did answer (use Has to tell the
// two apart).
//
// A redirect (301, 302, 303, 307, 308) whose Location, resolved against the
// page's URI, is in the archive is followed, at most MaxRedirects times; a
// redirect that points outside the archive, or one past the limit, is
// returned as the Page itself. The Page's URI is uri for an answer without
// redirects, else the resolved Location of the last redirect followed.
//
// The body is replayed as the client saw it: chunked transfer coding and a
// gzip or deflate Content-Encoding are undone, and the Content-Encoding and
// Content-Length fields removed from the header, as net/http's client
// does. A coding it cannot undo (br, zstd, or a "gzip" body without the
// gzip magic number) leaves body and header as recorded. A body cut short
// or corrupt in the capture is returned as far as it decodes, and every
// body is cut at MaxBody bytes.
//
// Errors mean no answer: ctx.Err() when ctx is done, a *canon.Error
// (wrapped) for a URI that cannot be canonicalized, an error reading or
// parsing the file, and a *FormatError for an HTTP message whose status
// line or header is malformed. A plain WARC compressed whole as one gzip
// member replays too, but each Fetch then decompresses the file from its
// start up to the record: write one gzip member per record.
func (a *Archive) Fetch(ctx context.Context, uri string) (*filter.Page, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	key, err := canon.Canonicalize(uri)
	if err != nil {
		return nil, fmt.Errorf("warc: fetch: %w", err)
	}
	c, ok := a.index[key]
	if !ok {
		return &filter.Page{URI: uri, Status: http.StatusNotFound}, nil
	}
	maxHops := a.MaxRedirects
	if maxHops == 0 {
		maxHops = DefaultMaxRedirects
	}
	cur := uri
	for hops := 0; ; hops++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		page, err := a.replay(c, cur, hops < maxHops)
		if err != nil {
			return nil, fmt.Errorf("warc: fetch %s: %w", cur, err)
		}
		if page.next == "" {
			return page.Page, nil
		}
		cur, c = page.next, page.nextCapture
	}
}

// replayed is a replayed answer, or where to go next.
type replayed struct {
	*filter.Page
	next        string  // when non-empty, the redirect to follow instead
	nextCapture capture // the capture of next
}

// replay reads capture c of uri. When follow is true and the answer is a
// redirect into the archive, it returns where to go without reading the
// body.
func (a *Archive) replay(c capture, uri string, follow bool) (replayed, error) {
	ra, closeFile, err := a.open(c.file)
	if err != nil {
		return replayed{}, err
	}
	defer closeFile()
	rd, err := NewReader(io.NewSectionReader(ra, c.offset, math.MaxInt64-c.offset))
	if err != nil {
		return replayed{}, err
	}
	var rec *Record
	for range c.skip + 1 {
		if rec, err = rd.Next(); err != nil {
			if err == io.EOF {
				err = fmt.Errorf("warc: %s changed: no record at offset %d", a.names[c.file], c.offset)
			}
			return replayed{}, err
		}
	}
	want, _ := canon.Canonicalize(uri) // uri was looked up, so it canonicalizes
	if got, err := canon.Canonicalize(rec.Header.TargetURI()); err != nil || got != want || !replayable(rec.Header) {
		return replayed{}, fmt.Errorf("warc: %s changed: record at offset %d is not the capture of %s", a.names[c.file], c.offset, uri)
	}

	// Errors of the file end the Fetch; faults of the recorded HTTP body
	// (a bad chunk, corrupt gzip) do not. track tells them apart.
	track := &errTracker{r: rec.Body}
	rec.Body = track
	var (
		status int
		header http.Header
		body   io.Reader
	)
	if rec.Header.Type() == TypeResource {
		status, header, body = http.StatusOK, http.Header{}, rec.Body
		if ct := rec.Header.ContentType(); ct != "" {
			header.Set("Content-Type", ct)
		}
	} else if status, header, body, err = ReadResponse(rec); err != nil {
		return replayed{}, err
	}

	if follow && filter.IsRedirect(status) {
		if next, nc, ok := a.resolve(uri, header.Get("Location")); ok {
			return replayed{next: next, nextCapture: nc}, nil
		}
	}

	limit := a.MaxBody
	if limit <= 0 {
		limit = DefaultMaxBody
	}
	raw, err := readBody(header, body, limit)
	if err != nil && track.err != nil {
		return replayed{}, track.err
	}
	return replayed{Page: &filter.Page{URI: uri, Status: status, Header: header, Body: raw}}, nil
}

// readBody reads at most limit bytes of body, undoing its Content-Encoding
// when it can and then removing the Content-Encoding and Content-Length
// fields from header. On an error it returns the bytes before it too.
func readBody(header http.Header, body io.Reader, limit int64) ([]byte, error) {
	br := bufio.NewReader(body)
	if startsEncoded(header, br) {
		dec, err := DecodeBody(header, br, limit)
		if !errors.Is(err, ErrUnsupportedEncoding) {
			header.Del("Content-Encoding")
			header.Del("Content-Length")
			return dec, err
		}
		// DecodeBody read nothing: replay the body as recorded.
	}
	return io.ReadAll(io.LimitReader(br, limit))
}

// errTracker remembers the last error, other than io.EOF, of a reader.
type errTracker struct {
	r   io.Reader
	err error
}

// Read reads from r and remembers its error.
func (t *errTracker) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if err != nil && err != io.EOF {
		t.err = err
	}
	return n, err
}

// startsEncoded reports whether header names a content coding and br
// starts the way the outermost one does: the gzip magic number for gzip,
// anything for deflate (zlib or raw). It reports false when there is no
// coding, so that a body the header lies about replays as recorded.
func startsEncoded(header http.Header, br *bufio.Reader) bool {
	outer := ""
	for _, v := range header.Values("Content-Encoding") {
		for c := range strings.SplitSeq(v, ",") {
			if c = strings.ToLower(strings.TrimSpace(c)); c != "" && c != "identity" {
				outer = c
			}
		}
	}
	switch outer {
	case "":
		return false
	case "gzip", "x-gzip":
		p, _ := br.Peek(2)
		return len(p) == 2 && p[0] == 0x1f && p[1] == 0x8b
	}
	return true // deflate, or a coding DecodeBody refuses before reading
}

// resolve resolves location against base and reports whether the archive
// holds the result.
func (a *Archive) resolve(base, location string) (string, capture, bool) {
	location = strings.TrimSpace(location)
	if location == "" {
		return "", capture{}, false
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", capture{}, false
	}
	ref, err := url.Parse(location)
	if err != nil {
		return "", capture{}, false
	}
	next := b.ResolveReference(ref).String()
	key, err := canon.Canonicalize(next)
	if err != nil {
		return "", capture{}, false
	}
	c, ok := a.index[key]
	return next, c, ok
}
