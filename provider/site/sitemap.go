package site

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"
)

// The sitemaps.org protocol's limits on one sitemap file, and relink's
// bound on how far a gzipped one may expand.
const (
	// MaxSitemapURLs is the most URLs one sitemap file, or one sitemap
	// index, may list: "no more than 50,000 URLs" (sitemaps.org,
	// "Sitemap file location" and "Using Sitemap index files"). Those
	// past it are cut.
	MaxSitemapURLs = 50_000
	// MaxSitemapBytes is the most bytes one sitemap file may hold once
	// uncompressed: "no larger than 50MB (52,428,800 bytes)"
	// (sitemaps.org). The bytes past it are not read.
	MaxSitemapBytes = 52_428_800
	// MaxSitemapRatio bounds how many times a gzipped sitemap may expand:
	// a sitemap of URLs compresses about 10 to 30 times; a file that
	// expands more than this, once past a mebibyte, is a decompression
	// bomb and is cut there.
	MaxSitemapRatio = 100
	// ratioFloor is how many uncompressed bytes a sitemap may reach
	// before MaxSitemapRatio is checked: a small file of repeated URLs
	// may compress well without harm.
	ratioFloor = 1 << 20
)

// Errors a sitemap is cut or refused with; a Sitemap records the one that
// cut it in Sitemap.Cut.
var (
	// ErrNotSitemap: the bytes are neither a sitemap (<urlset>), a sitemap
	// index (<sitemapindex>) nor a text sitemap of URLs.
	ErrNotSitemap = errors.New("site: not a sitemap")
	// ErrTooManyURLs: the file lists more than MaxSitemapURLs URLs.
	ErrTooManyURLs = errors.New("site: sitemap lists more than 50,000 URLs")
	// ErrTooLarge: the file is larger than MaxSitemapBytes uncompressed.
	ErrTooLarge = errors.New("site: sitemap larger than 50 MB uncompressed")
	// ErrBomb: the gzipped file expands more than MaxSitemapRatio times.
	ErrBomb = errors.New("site: sitemap expands like a decompression bomb")
	// ErrMalformed: the XML is broken; the URLs before the break are kept.
	ErrMalformed = errors.New("site: malformed sitemap")
)

// Sitemap is what one sitemap file gives: page URLs (a <urlset> or a text
// sitemap) or the URLs of other sitemap files (a <sitemapindex>).
type Sitemap struct {
	// Index reports a sitemap index: URLs are then sitemap files.
	Index bool
	// URLs are the <loc> values kept, in file order, at most
	// MaxSitemapURLs: absolute http(s) URLs on the sitemap's own host, as
	// net/url writes them (white space escaped).
	URLs []string
	// Modified holds the <lastmod> of each URL of a <urlset>, Modified[i]
	// URLs[i]'s (sitemaps.org: W3C Datetime, "the date of last
	// modification of the page"): the zero Time for a URL without one or
	// with one that does not parse; nil when no URL has one.
	Modified []time.Time
	// OffHost counts the <loc> values on another host, not kept: "all
	// URLs in a Sitemap must be from a single host" (sitemaps.org,
	// "Sitemap file location"), so a crawler need not trust one sitemap
	// that names another site's pages.
	OffHost int
	// Invalid counts the <loc> values that are not absolute http(s) URLs.
	Invalid int
	// Cut, when not nil, says why the file was not read to its end
	// (ErrTooManyURLs, ErrTooLarge, ErrBomb, ErrMalformed, wrapped with
	// detail); the URLs read before the cut are kept.
	Cut error
}

// ParseSitemap reads one sitemap file, as fetched from loc: an XML sitemap
// or sitemap index (sitemaps.org, namespace or none), or a text file of
// one URL a line, gzipped or not (a gzip stream is recognised by its
// first bytes, whatever the name or Content-Type says). Only URLs on
// loc's host (any port and scheme but the host's own are another host)
// are kept. The limits of the protocol are enforced while reading, so
// neither a huge file nor a decompression bomb is ever held whole: at
// most MaxSitemapBytes are read and MaxSitemapURLs kept, and a gzip
// stream that expands more than MaxSitemapRatio times is cut; the cut is
// recorded in Sitemap.Cut, not returned as an error.
//
// The error is ErrNotSitemap when the bytes are no sitemap at all (an
// HTML page, an empty file, an XML document of another kind), and an
// error wrapping ErrNotSitemap when loc is not an absolute http(s) URL.
func ParseSitemap(r io.Reader, loc string) (*Sitemap, error) {
	return parseSitemap(r, loc, MaxSitemapBytes)
}

// parseSitemap is ParseSitemap reading at most maxBytes uncompressed
// bytes (tests make it small).
func parseSitemap(r io.Reader, loc string, maxBytes int64) (*Sitemap, error) {
	base, err := url.Parse(loc)
	if err != nil || !isHTTP(base) {
		return nil, fmt.Errorf("%w: location %q is not an http(s) URL", ErrNotSitemap, loc)
	}
	br := bufio.NewReader(r)
	lim := &limitReader{r: br, n: maxBytes, max: maxBytes}
	var in io.Reader = lim
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		counted := &countReader{r: br} // the compressed bytes the stream takes
		zr, err := gzip.NewReader(counted)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrNotSitemap, err)
		}
		lim = &limitReader{r: zr, n: maxBytes, max: maxBytes, packed: counted}
		in = lim
	}
	sm := &Sitemap{}
	p := &sitemapParser{sm: sm, host: strings.ToLower(base.Host)}
	in = bufio.NewReader(in)
	first, err := firstByte(in.(*bufio.Reader))
	switch {
	case err != nil && lim.cut != nil:
		return nil, fmt.Errorf("%w: %w", ErrNotSitemap, lim.cut)
	case err != nil:
		return nil, ErrNotSitemap
	case first == '<':
		err = p.parseXML(in)
	default:
		err = p.parseText(in)
	}
	if err != nil {
		return nil, err
	}
	if lim.cut != nil {
		sm.Cut = lim.cut
	}
	return sm, nil
}

// firstByte returns the first byte of br that is not white space or a
// byte order mark, leaving it unread.
func firstByte(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.ReadByte()
		if err != nil {
			return 0, err
		}
		switch b {
		case ' ', '\t', '\r', '\n', 0xef, 0xbb, 0xbf:
			continue
		}
		return b, br.UnreadByte()
	}
}

// sitemapParser fills a Sitemap.
type sitemapParser struct {
	sm   *Sitemap
	host string // the sitemap's own host, lowercased, with its port
	// entry is the index in sm.URLs of the current entry's URL, -1 when
	// it has none (yet); lastmod is the entry's <lastmod> when it came
	// before its <loc>.
	entry   int
	lastmod time.Time
}

// modified records t as the <lastmod> of the current entry's URL, or
// keeps it until its <loc> is read.
func (p *sitemapParser) modified(t time.Time) {
	if p.entry < 0 {
		p.lastmod = t
		return
	}
	if t.IsZero() {
		return
	}
	if p.sm.Modified == nil {
		p.sm.Modified = make([]time.Time, len(p.sm.URLs), cap(p.sm.URLs))
	}
	p.sm.Modified[p.entry] = t
}

// w3cLayouts are the forms of the W3C Datetime profile of ISO 8601 that
// sitemaps.org allows for <lastmod>, with a zone or, as many sitemaps
// write it, without one (read as UTC).
var w3cLayouts = []string{
	time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05",
	time.DateOnly, "2006-01", "2006",
}

// ParseLastmod reads a sitemap's <lastmod> value (W3C Datetime: a year, a
// month, a day, or a day and time with a zone), or reports false.
func ParseLastmod(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range w3cLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// add keeps loc if it is an http(s) URL on the sitemap's host, and reports
// false once MaxSitemapURLs are kept and another is met.
func (p *sitemapParser) add(loc string) bool {
	loc = strings.TrimSpace(loc)
	if loc == "" {
		return true
	}
	u, err := url.Parse(loc)
	switch {
	case err != nil || !isHTTP(u):
		p.sm.Invalid++
		return true
	case strings.ToLower(u.Host) != p.host:
		p.sm.OffHost++
		return true
	case len(p.sm.URLs) == MaxSitemapURLs:
		p.sm.Cut = fmt.Errorf("%w: the first %d kept", ErrTooManyURLs, MaxSitemapURLs)
		return false
	}
	p.sm.URLs = append(p.sm.URLs, u.String())
	if p.sm.Modified != nil {
		p.sm.Modified = append(p.sm.Modified, time.Time{})
	}
	p.entry = len(p.sm.URLs) - 1
	if !p.lastmod.IsZero() {
		p.modified(p.lastmod)
	}
	return true
}

// parseXML reads a <urlset> or <sitemapindex> document: the text of every
// <loc> within a <url> or <sitemap> element. Namespaces are not checked
// (many sitemaps omit or misspell theirs); encoding/xml expands no
// entity a document declares, so an XML entity bomb has no effect.
func (p *sitemapParser) parseXML(r io.Reader) error {
	d := xml.NewDecoder(r)
	d.Strict = false
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	root := ""
	inEntry, inLoc, inMod := false, false, false
	var loc, mod strings.Builder
	p.entry = -1
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			if root == "" {
				return ErrNotSitemap
			}
			if p.sm.Cut == nil {
				p.sm.Cut = fmt.Errorf("%w: %v", ErrMalformed, err)
			}
			return nil
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := strings.ToLower(t.Name.Local)
			switch {
			case root == "":
				root = name
				if root != "urlset" && root != "sitemapindex" {
					return ErrNotSitemap
				}
				p.sm.Index = root == "sitemapindex"
			case name == "url" || name == "sitemap":
				inEntry = true
				p.entry, p.lastmod = -1, time.Time{}
			case name == "loc" && inEntry:
				inLoc = true
				loc.Reset()
			case name == "lastmod" && inEntry && !p.sm.Index:
				inMod = true
				mod.Reset()
			}
		case xml.CharData:
			if inLoc && loc.Len() < maxLocBytes {
				loc.Write(t)
			}
			if inMod && mod.Len() < maxLastmodBytes {
				mod.Write(t)
			}
		case xml.EndElement:
			switch strings.ToLower(t.Name.Local) {
			case "loc":
				if inLoc && !p.add(loc.String()) {
					return nil
				}
				inLoc = false
			case "lastmod":
				if inMod {
					if t, ok := ParseLastmod(mod.String()); ok {
						p.modified(t)
					}
				}
				inMod = false
			case "url", "sitemap":
				inEntry = false
				p.entry, p.lastmod = -1, time.Time{}
			}
		}
	}
	if root == "" {
		return ErrNotSitemap
	}
	return nil
}

// maxLocBytes bounds the text kept of one <loc>: sitemaps.org allows
// URLs of fewer than 2,048 characters.
const maxLocBytes = 2048

// maxLastmodBytes bounds the text kept of one <lastmod>.
const maxLastmodBytes = 64

// parseText reads a text sitemap: one URL a line (sitemaps.org, "Text
// file"). A file whose first line is not an http(s) URL is no sitemap.
func (p *sitemapParser) parseText(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	first := true
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if first {
			u, err := url.Parse(string(line))
			if err != nil || !isHTTP(u) {
				return ErrNotSitemap
			}
			first = false
		}
		if !p.add(string(line)) {
			return nil
		}
	}
	if first {
		return ErrNotSitemap
	}
	if err := sc.Err(); err != nil && p.sm.Cut == nil {
		p.sm.Cut = fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return nil
}

// isHTTP reports whether u is an absolute http or https URL with a host.
func isHTTP(u *url.URL) bool {
	s := strings.ToLower(u.Scheme)
	return (s == "http" || s == "https") && u.Host != ""
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// limitReader reads at most n bytes of r and, when packed counts the
// compressed bytes r was made from, stops when r expands more than
// MaxSitemapRatio times; it records why it stopped in cut and then
// reports io.EOF, so that the parser keeps what it read.
type limitReader struct {
	r      io.Reader
	n      int64 // bytes left
	max    int64 // bytes allowed
	read   int64
	packed *countReader
	cut    error
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.cut != nil {
		return 0, io.EOF
	}
	if l.n <= 0 {
		// One more byte tells a file of exactly the limit from a longer one.
		var b [1]byte
		if n, _ := l.r.Read(b[:]); n > 0 {
			l.cut = fmt.Errorf("%w: more than %d bytes", ErrTooLarge, l.max)
		}
		return 0, io.EOF
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= int64(n)
	l.read += int64(n)
	if l.packed != nil && l.read > ratioFloor && l.read > MaxSitemapRatio*max(l.packed.n, 1) {
		l.cut = fmt.Errorf("%w: %d bytes from %d compressed", ErrBomb, l.read, l.packed.n)
		return n, io.EOF
	}
	if err != nil && err != io.EOF {
		l.cut = fmt.Errorf("%w: %v", ErrMalformed, err)
		return n, io.EOF
	}
	return n, err
}
