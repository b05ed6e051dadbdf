package ingest

import (
	"bufio"
	"bytes"
	"compress/flate"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"strconv"
	"sync"

	kflate "github.com/klauspost/compress/flate"

	"github.com/linkrot/relink/filter"
)

// MaxRedirects is the most redirects Follow follows, as net/http's client
// does by default.
const MaxRedirects = 10

// notFoundBody is the body of every 404 answer.
const notFoundBody = "<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>\n"

// A Lookup answers for one canonical URI from a store: the page stored
// there (nil when none), or else the target of a redirect stored there
// (ok false when none). Missing reports whether the URI counts as missing.
type Lookup struct {
	Missing  func(c string) bool
	Page     func(ctx context.Context, c string) (*filter.Page, error)
	Redirect func(ctx context.Context, c string) (target string, ok bool, err error)
}

// Follow answers the canonical URI c, asked for as uri, as a web server
// would, following stored redirects like an HTTP client (at most
// MaxRedirects): a stored page, or a 404 for a URI that is missing or
// holds nothing. A loop or a longer chain returns an error wrapping
// tooMany. Follow returns ctx.Err() when ctx is done.
func Follow(ctx context.Context, uri, c string, l Lookup, tooMany error) (*filter.Page, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	asked := uri
	for hop := 0; hop <= MaxRedirects; hop++ {
		if l.Missing(c) {
			return NotFound(asked), nil
		}
		page, err := l.Page(ctx, c)
		if err != nil || page != nil {
			return page, err
		}
		target, ok, err := l.Redirect(ctx, c)
		if err != nil {
			return nil, err
		}
		if !ok {
			return NotFound(asked), nil
		}
		c, asked = target, target
	}
	return nil, fmt.Errorf("store: fetch %s: %w", uri, tooMany)
}

// StoredPage returns the answer of a stored page: its address, status and
// header (when header is empty, one is made of contentType), and the body
// that Deflate compressed to data.
func StoredPage(address string, status int, contentType string, header, data []byte) (*filter.Page, error) {
	body, err := Inflate(data)
	if err != nil {
		return nil, fmt.Errorf("stored body: %w", err)
	}
	h := http.Header{}
	if len(header) > 0 {
		if h, err = ParseHeader(header); err != nil {
			return nil, fmt.Errorf("stored header: %w", err)
		}
	} else {
		h.Set("Content-Type", contentType)
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	return &filter.Page{URI: address, Status: status, Header: h, Body: body}, nil
}

// NotFound returns the 404 answer for uri.
func NotFound(uri string) *filter.Page {
	h := http.Header{}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(notFoundBody)))
	return &filter.Page{URI: uri, Status: http.StatusNotFound, Header: h, Body: []byte(notFoundBody)}
}

// FormatHeader serializes h in wire format for the pages table.
func FormatHeader(h http.Header) []byte {
	if len(h) == 0 {
		return nil
	}
	var b bytes.Buffer
	h.Write(&b) // a bytes.Buffer does not fail
	return b.Bytes()
}

// ParseHeader reads back what FormatHeader wrote.
func ParseHeader(b []byte) (http.Header, error) {
	r := textproto.NewReader(bufio.NewReader(io.MultiReader(bytes.NewReader(b), bytes.NewReader([]byte("\r\n")))))
	h, err := r.ReadMIMEHeader()
	if err != nil {
		return nil, err
	}
	return http.Header(h), nil
}

// Bodies are stored compressed with DEFLATE at its fastest level: HTML
// shrinks to about a fifth, and inflating a page takes well under a
// millisecond. They are compressed with github.com/klauspost/compress's
// DEFLATE, which at its fastest level compresses HTML twice as fast as the
// standard library's and a little smaller (on the development corpus's
// pages, 17.2% of their size against 17.6%), and inflated with the standard
// library's: the format is the same, and stores written before read as
// they did.
var (
	// deflaters holds idle writers: a channel rather than a sync.Pool,
	// which each garbage collection may empty (an ingest collects several
	// times a second), while a new writer allocates and clears about a
	// megabyte.
	deflaters = make(chan *kflate.Writer, 16)
	inflaters sync.Pool
)

// Deflate compresses b.
func Deflate(b []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(b)/4 + 64)
	var w *kflate.Writer
	select {
	case w = <-deflaters:
	default:
		w, _ = kflate.NewWriter(nil, kflate.BestSpeed) // a valid level cannot fail
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

// Inflate decompresses what Deflate wrote.
func Inflate(b []byte) ([]byte, error) {
	r, ok := inflaters.Get().(io.ReadCloser)
	if ok {
		r.(flate.Resetter).Reset(bytes.NewReader(b), nil)
	} else {
		r = flate.NewReader(bytes.NewReader(b))
	}
	defer inflaters.Put(r)
	return io.ReadAll(r)
}
