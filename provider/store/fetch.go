package store

import (
	"bufio"
	"bytes"
	"compress/flate"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"strconv"
	"sync"

	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
)

// MaxRedirects is the most redirects Fetch follows, as net/http's client
// does by default.
const MaxRedirects = 10

// ErrTooManyRedirects is returned, wrapped, by Fetch when a chain of
// redirects is longer than MaxRedirects or loops.
var ErrTooManyRedirects = errors.New("store: too many redirects")

// notFoundBody is the body of every 404 answer.
const notFoundBody = "<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>\n"

// Fetch answers uri from the store as a web server would, following
// redirects (redirect stubs and HTTP redirects, at most MaxRedirects) like
// an HTTP client. Page.URI is the final URI: for a page, its address as
// published (the manifest URL, "https://h/a/b/" for a StyleDir page) or as
// captured (the WARC-Target-URI), which relative hrefs resolve against and
// which canonicalizes to the page's URI; for a 404, the URI asked for.
//
//   - a page answers with its stored status (200 for files; the recorded
//     one for WARC captures), header and body. The body is the stored HTML
//     byte for byte: the WARC payload as captured (content codings undone),
//     or the file with only its <a> and <area> hrefs rewritten to public
//     URLs (see the package documentation);
//   - a URI the store does not hold, or one that is missing in this view
//     (WithMissing, MarkMissing), answers 404 with a small HTML body.
//
// uri is canonicalized first; one that cannot be returns an error wrapping
// the canon error. A redirect loop or a chain longer than MaxRedirects
// returns an error wrapping ErrTooManyRedirects. Fetch returns ctx.Err()
// when ctx is done. It is safe for concurrent use.
func (s *Store) Fetch(ctx context.Context, uri string) (*filter.Page, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c, err := canon.Canonicalize(uri)
	if err != nil {
		return nil, fmt.Errorf("store: fetch: %w", err)
	}
	asked := uri
	for hop := 0; hop <= MaxRedirects; hop++ {
		if s.isMissing(c) {
			return notFound(asked), nil
		}
		page, err := s.page(ctx, c)
		if err != nil || page != nil {
			return page, err
		}
		var target string
		err = s.stmts.redirect.QueryRowContext(ctx, c).Scan(&target)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound(asked), nil
		}
		if err != nil {
			return nil, fmt.Errorf("store: fetch %s: %w", c, err)
		}
		c, asked = target, target
	}
	return nil, fmt.Errorf("store: fetch %s: %w", uri, ErrTooManyRedirects)
}

// page returns the stored page at the canonical URI c, or nil.
func (s *Store) page(ctx context.Context, c string) (*filter.Page, error) {
	var (
		address string
		status  int
		ctype   string
		header  []byte
		data    []byte
	)
	err := s.stmts.fetch.QueryRowContext(ctx, c).Scan(&address, &status, &ctype, &header, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: fetch %s: %w", c, err)
	}
	body, err := inflate(data)
	if err != nil {
		return nil, fmt.Errorf("store: fetch %s: stored body: %w", c, err)
	}
	h := http.Header{}
	if len(header) > 0 {
		if h, err = parseHeader(header); err != nil {
			return nil, fmt.Errorf("store: fetch %s: stored header: %w", c, err)
		}
	} else {
		h.Set("Content-Type", ctype)
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	return &filter.Page{URI: address, Status: status, Header: h, Body: body}, nil
}

// notFound returns the 404 answer for uri.
func notFound(uri string) *filter.Page {
	h := http.Header{}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(notFoundBody)))
	return &filter.Page{URI: uri, Status: http.StatusNotFound, Header: h, Body: []byte(notFoundBody)}
}

// formatHeader serializes h in wire format for the pages table.
func formatHeader(h http.Header) []byte {
	if len(h) == 0 {
		return nil
	}
	var b bytes.Buffer
	h.Write(&b) // a bytes.Buffer does not fail
	return b.Bytes()
}

// parseHeader reads back what formatHeader wrote.
func parseHeader(b []byte) (http.Header, error) {
	r := textproto.NewReader(bufio.NewReader(io.MultiReader(bytes.NewReader(b), bytes.NewReader([]byte("\r\n")))))
	h, err := r.ReadMIMEHeader()
	if err != nil {
		return nil, err
	}
	return http.Header(h), nil
}

// Bodies are stored compressed with DEFLATE at its fastest level: HTML
// shrinks to about a fifth, and inflating a page takes well under a
// millisecond.
var (
	// deflaters holds idle writers: a channel rather than a sync.Pool,
	// which each garbage collection may empty (an ingest collects several
	// times a second), while a new writer allocates and clears about a
	// megabyte.
	deflaters = make(chan *flate.Writer, 16)
	inflaters sync.Pool
)

// deflate compresses b.
func deflate(b []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(b)/4 + 64)
	var w *flate.Writer
	select {
	case w = <-deflaters:
	default:
		w, _ = flate.NewWriter(nil, flate.BestSpeed) // a valid level cannot fail
	}
	defer func() {
		select {
		case deflaters <- w:
		default:
		}
	}()
	w.Reset(&out)
	w.Write(b) // a bytes.Buffer does not fail
	w.Close()
	return out.Bytes()
}

// inflate decompresses what deflate wrote.
func inflate(b []byte) ([]byte, error) {
	r, ok := inflaters.Get().(io.ReadCloser)
	if ok {
		r.(flate.Resetter).Reset(bytes.NewReader(b), nil)
	} else {
		r = flate.NewReader(bytes.NewReader(b))
	}
	defer inflaters.Put(r)
	return io.ReadAll(r)
}
