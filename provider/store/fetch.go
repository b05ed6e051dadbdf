package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/internal/ingest"
)

// MaxRedirects is the most redirects Fetch follows, as net/http's client
// does by default.
const MaxRedirects = ingest.MaxRedirects

// ErrTooManyRedirects is returned, wrapped, by Fetch when a chain of
// redirects is longer than MaxRedirects or loops.
var ErrTooManyRedirects = errors.New("store: too many redirects")

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
	return ingest.Follow(ctx, uri, c, ingest.Lookup{Missing: s.isMissing, Page: s.page, Redirect: s.redirect}, ErrTooManyRedirects)
}

// redirect returns the target of the redirect stored at the canonical URI
// c, if there is one.
func (s *Store) redirect(ctx context.Context, c string) (string, bool, error) {
	var target string
	err := s.stmts.redirect.QueryRowContext(ctx, c).Scan(&target)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("store: fetch %s: %w", c, err)
	}
	return target, true, nil
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
	p, err := ingest.StoredPage(address, status, ctype, header, data)
	if err != nil {
		return nil, fmt.Errorf("store: fetch %s: %w", c, err)
	}
	return p, nil
}
