package ingest

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"

	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/corpus"
	"github.com/linkrot/relink/provider/warc"
)

// WARCSource returns the source of an ingest of the captures in the named
// WARC files (plain or gzip): each response record with a 2xx status and
// an HTML body (by its Content-Type, or by its bytes when it has none)
// becomes a page at its canonical WARC-Target-URI; a 3xx response with a
// Location, and an HTML redirect stub, become redirects; resource records
// count as 200 responses. Other records (requests, metadata, revisits) are
// passed over. The body is kept byte for byte as the server sent it, with
// only its content coding undone. A path given twice is read once; a file
// that cannot be found is an error.
func WARCSource(paths []string, opts corpus.IngestOptions) (Source, error) {
	if err := checkShare(&opts); err != nil {
		return Source{}, err
	}
	var total corpus.Progress
	abs := make([]string, len(paths))
	for i, p := range paths {
		a, err := filepath.Abs(p)
		if err != nil {
			return Source{}, err
		}
		fi, err := os.Stat(a)
		if err != nil {
			return Source{}, fmt.Errorf("store: ingest WARC: %w", err)
		}
		abs[i] = a
		if mine(&opts, "warc:"+a) {
			total.TotalBytes += fi.Size()
		}
	}
	maxSize := opts.MaxFileSize
	if maxSize <= 0 {
		maxSize = corpus.DefaultMaxFileSize
	}
	produce := func(ctx context.Context, emit func(job) bool, ps *State) error {
		seen := map[string]bool{}
		for _, p := range abs {
			if seen[p] || !mine(&opts, "warc:"+p) {
				continue
			}
			seen[p] = true
			if err := produceWARC(ctx, p, maxSize, emit, ps); err != nil {
				return err
			}
		}
		return nil
	}
	return Source{Kind: "warc", Total: total, produce: produce}, nil
}

// produceWARC emits a job for every response or resource record of the
// WARC file at path that an earlier ingest did not finish, then a marker
// job that records the file as done. Each job carries the file's progress
// after it. A record the earlier ingest found malformed is read again (a
// download cut there may have been completed since); so is every record of
// a file whose content is not what the earlier ingest read.
func produceWARC(ctx context.Context, path string, maxSize int64, emit func(job) bool, ps *State) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("store: ingest WARC: %w", err)
	}
	key := "warc:" + path
	state, _, err := checkProgress(path, fi.Size(), ps.Prior[key])
	switch {
	case err != nil:
		return fmt.Errorf("store: ingest WARC: %w", err)
	case state == fileUnchanged:
		ps.Read.Add(fi.Size())
		return nil
	case state == fileGrown || state == fileReplaced:
		ps.Changed.Add(1)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("store: ingest WARC: %w", err)
	}
	defer f.Close()
	cr := &countingReader{r: f, n: &ps.Read, h: sha256.New()}
	r, err := warc.NewReader(cr)
	if err != nil {
		return fmt.Errorf("store: ingest WARC %s: %w", path, err)
	}
	// progress is the file's progress row after what was read so far.
	progress := func(state string) string {
		return state + " " + cr.position()
	}
	emitRecord := func(source string, run func() Item) bool {
		_, retry := ps.Prior[source]
		return emit(job{Source: source, run: run, File: key, Progress: progress(ProgressNext), Retry: retry})
	}
	lastBad := false // the last record could not be read: the file is cut there
	for i := 0; ; i++ {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		source := key + "#" + strconv.Itoa(i)
		if err != nil {
			if !lastBad {
				it := skipped(corpus.ReasonBadRecord, err)
				if !emitRecord(source, func() Item { return it }) {
					return ctx.Err()
				}
			}
			// A malformed record (a corrupt gzip member, a wrong length)
			// loses itself, not the records after it: read on from the
			// next record the reader finds.
			var fe *warc.FormatError
			if errors.As(err, &fe) {
				if _, err := r.Resync(); err == nil {
					lastBad = false
					continue
				}
			}
			break
		}
		t := rec.Header.Type()
		if t != warc.TypeResponse && t != warc.TypeResource {
			continue
		}
		if outcome, ok := ps.Prior[source]; ok && state != fileReplaced && outcome != corpus.ReasonBadRecord {
			ps.Resumed.Add(1)
			continue
		}
		run, bad := readRecord(rec, maxSize)
		lastBad = bad
		if !emitRecord(source, run) {
			return ctx.Err()
		}
	}
	if _, err := io.Copy(io.Discard, cr); err != nil { // the rest of the digest
		return fmt.Errorf("store: ingest WARC %s: %w", path, err)
	}
	if !emit(job{Source: key, run: func() Item { return Item{} }, File: key, Progress: progress(ProgressDone)}) {
		return ctx.Err()
	}
	return nil
}

// readRecord reads what it needs of rec now (its Body is valid only until
// the next record) and returns the work to finish on a worker; bad reports
// that the record could not be read.
func readRecord(rec *warc.Record, maxSize int64) (run func() Item, bad bool) {
	fail := func(reason string, err error) (func() Item, bool) {
		it := skipped(reason, err)
		return func() Item { return it }, reason == corpus.ReasonBadRecord
	}
	target := rec.Header.TargetURI()
	uri, err := canon.Canonicalize(target)
	if err != nil {
		return fail(corpus.ReasonBadURI, err)
	}
	status, header := http.StatusOK, http.Header{}
	var body []byte
	if rec.Header.Type() == warc.TypeResource {
		header.Set("Content-Type", rec.Header.ContentType())
		body, err = io.ReadAll(io.LimitReader(rec.Body, maxSize+1))
	} else {
		var br io.Reader
		status, header, br, err = warc.ReadResponse(rec)
		if err != nil {
			return fail(corpus.ReasonBadRecord, err)
		}
		body, err = warc.DecodeBody(header, br, maxSize+1)
	}
	if err != nil {
		return fail(corpus.ReasonBadRecord, err)
	}
	if int64(len(body)) > maxSize {
		return fail(corpus.ReasonTooLarge, fmt.Errorf("more than %d bytes", maxSize))
	}
	return func() Item { return captureItem(target, uri, status, header, body) }, false
}

// captureItem turns one HTTP capture into a page, a redirect or a skip.
func captureItem(target, uri string, status int, header http.Header, body []byte) Item {
	base, err := url.Parse(target)
	if err != nil {
		return skipped(corpus.ReasonBadURI, err)
	}
	resolve := func(href string) (string, bool) {
		ref, err := url.Parse(href)
		if err != nil {
			return "", false
		}
		c, err := canon.Canonicalize(base.ResolveReference(ref).String())
		return c, err == nil
	}
	switch {
	case status >= 300 && status < 400:
		loc := header.Get("Location")
		if t, ok := resolve(loc); ok && loc != "" && t != uri {
			return Item{Redirect: &Redirect{URI: uri, Target: t, Status: status}}
		}
		return skipped(corpus.ReasonStatus, fmt.Errorf("status %d without a usable Location", status))
	case status < 200 || status >= 300:
		return skipped(corpus.ReasonStatus, fmt.Errorf("status %d", status))
	}
	if t := filter.Sniff(header, body); t != filter.TypeHTML {
		return skipped(corpus.ReasonNotHTML, errors.New(string(t)))
	}
	h := header.Clone()
	for _, k := range []string{"Content-Encoding", "Content-Length", "Transfer-Encoding"} {
		h.Del(k)
	}
	ctype := h.Get("Content-Type")
	if ctype == "" {
		ctype = "text/html"
	}
	return pageItem(pageInput{
		uri:         uri,
		address:     target,
		site:        base.Hostname(),
		data:        body,
		status:      status,
		contentType: ctype,
		header:      FormatHeader(h),
		resolve:     resolve,
	})
}
