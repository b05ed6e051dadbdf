package localweb

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"mime"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/provider/warc"
)

// RecordsPerFile is how many captures one of the archive's WARC files
// holds.
const RecordsPerFile = 100

// archive is the older snapshot: every page of its store captured once,
// at one time, and laid out in WARC files of RecordsPerFile records in
// the order of their SURT keys, as the archives' indexes sort them.
type archive struct {
	st         *store.Store
	at         time.Time
	ts         string // at as a 14-digit timestamp
	collection string // the Common Crawl collection id, CC-MAIN-YYYY-WW
	segment    string // the segment directory of the WARC files

	keys    []string       // the pages' SURT keys, sorted
	uris    []string       // the pages' canonical URIs, in keys' order
	ordinal map[string]int // canonical URI → index in uris

	mu    sync.Mutex
	files map[int]*warcFile
}

// capture is one capture of a URI in the archive.
type capture struct {
	original string // the URI as captured
	key      string // its SURT key
	status   int
	header   http.Header
	body     []byte
	location string // where a redirect capture leads; "" for others
}

// mimeType returns the capture's media type, lowercased, for the indexes.
func (c *capture) mimeType() string {
	mt, _, err := mime.ParseMediaType(c.header.Get("Content-Type"))
	if err != nil || mt == "" {
		return "unk"
	}
	return mt
}

// charset returns the charset the capture's Content-Type names, upper
// case, or "".
func (c *capture) charset() string {
	_, params, err := mime.ParseMediaType(c.header.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return strings.ToUpper(params["charset"])
}

// record is where a capture is in the archive's WARC files, with what its
// index rows say of it.
type record struct {
	uri      string // canonical URI
	original string
	key      string
	status   int
	mime     string
	charset  string
	digest   string // base 32 SHA-1 of the payload
	offset   int64
	length   int64
	location string
	missing  bool // the page is missing in the archive's view: a placeholder, not a capture
}

// warcFile is the layout of one WARC file: its records and size.
type warcFile struct {
	records []record
	size    int64
}

// newArchive lists st's pages and their keys.
func newArchive(ctx context.Context, st *store.Store, at time.Time) (*archive, error) {
	at = at.UTC().Truncate(time.Second)
	year, week := at.ISOWeek()
	a := &archive{
		st:         st,
		at:         at,
		ts:         at.Format("20060102150405"),
		collection: fmt.Sprintf("CC-MAIN-%04d-%02d", year, week),
		segment:    fmt.Sprintf("%d.0", at.UnixMilli()),
		ordinal:    make(map[string]int),
		files:      make(map[int]*warcFile),
	}
	type entry struct{ key, uri string }
	var es []entry
	for p, err := range st.Pages(ctx) {
		if err != nil {
			return nil, fmt.Errorf("localweb: archive pages: %w", err)
		}
		k, err := canon.SURT(p.URI)
		if err != nil {
			continue
		}
		es = append(es, entry{k, p.URI})
	}
	sort.Slice(es, func(i, j int) bool {
		if es[i].key != es[j].key {
			return es[i].key < es[j].key
		}
		return es[i].uri < es[j].uri
	})
	for i, e := range es {
		a.keys = append(a.keys, e.key)
		a.uris = append(a.uris, e.uri)
		a.ordinal[e.uri] = i
	}
	return a, nil
}

// captureOf returns the capture of uri, or nil when the archive holds
// none: a page (with its stored status), or a redirect capture for a URI
// the store redirects (to the end of the chain). A URI the store lacks or
// counts as missing has no capture.
func (a *archive) captureOf(ctx context.Context, uri string) (*capture, error) {
	asked, err := canon.Canonicalize(uri)
	if err != nil {
		return nil, nil
	}
	page, err := a.st.Fetch(ctx, asked)
	if err != nil {
		return nil, err
	}
	key, err := canon.SURT(asked)
	if err != nil {
		return nil, nil
	}
	if got, err := canon.Canonicalize(page.URI); err == nil && got != asked {
		h := http.Header{}
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Location", page.URI)
		body := fmt.Sprintf("<html><body><a href=\"%s\">moved</a></body></html>\n", htmlEscape(page.URI))
		return &capture{original: asked, key: key, status: http.StatusMovedPermanently, header: h, body: []byte(body), location: page.URI}, nil
	}
	if page.Status == http.StatusNotFound {
		return nil, nil
	}
	return &capture{original: page.URI, key: key, status: page.Status, header: page.Header, body: page.Body}, nil
}

// digest returns the base 32 SHA-1 of b, as the archives' indexes write
// payload digests.
func digest(b []byte) string {
	sum := sha1.Sum(b)
	return base32.StdEncoding.EncodeToString(sum[:])
}

// build returns c's WARC response record, one gzip member, written with
// provider/warc's Writer. The record is the same bytes every time (its
// record id is derived from the URI and time), so that offsets computed
// once hold for every later read.
func (a *archive) build(c *capture) ([]byte, error) {
	var block bytes.Buffer
	fmt.Fprintf(&block, "HTTP/1.1 %d %s\r\n", c.status, http.StatusText(c.status))
	h := c.header.Clone()
	for _, k := range hopHeaders {
		h.Del(k)
	}
	h.Set("Content-Length", strconv.Itoa(len(c.body)))
	h.Write(&block)
	block.WriteString("\r\n")
	block.Write(c.body)
	id := sha1.Sum([]byte(a.ts + " " + c.original))
	rh := warc.Header{
		{Name: "WARC-Type", Value: warc.TypeResponse},
		{Name: "WARC-Record-ID", Value: fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", id[0:4], id[4:6], id[6:8], id[8:10], id[10:16])},
		{Name: "WARC-Date", Value: a.at.Format("2006-01-02T15:04:05Z")},
		{Name: "WARC-Target-URI", Value: c.original},
		{Name: "Content-Type", Value: "application/http; msgtype=response"},
		{Name: "WARC-Payload-Digest", Value: "sha1:" + digest(c.body)},
		{Name: "WARC-Block-Digest", Value: "sha1:" + digest(block.Bytes())},
		{Name: "WARC-Identified-Payload-Type", Value: c.mimeType()},
	}
	var out bytes.Buffer
	w := warc.NewWriter(&out, true)
	if err := w.WriteRecord(rh, block.Bytes()); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// recordOf returns c's index entry, with its place in the files when the
// layout is known (offset -1 otherwise).
func (a *archive) recordOf(c *capture, b []byte) record {
	uri, _ := canon.Canonicalize(c.original)
	return record{uri: uri, original: c.original, key: c.key, status: c.status, mime: c.mimeType(), charset: c.charset(),
		digest: digest(c.body), offset: -1, length: int64(len(b)), location: c.location}
}

// file returns the layout of WARC file n, building it on first use.
func (a *archive) file(ctx context.Context, n int) (*warcFile, error) {
	if n < 0 || n*RecordsPerFile >= len(a.uris) {
		return nil, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if f := a.files[n]; f != nil {
		return f, nil
	}
	f := &warcFile{}
	for i := n * RecordsPerFile; i < min(len(a.uris), (n+1)*RecordsPerFile); i++ {
		c, err := a.captureOf(ctx, a.uris[i])
		if err != nil {
			return nil, err
		}
		missing := c == nil
		if missing {
			c = &capture{original: a.uris[i], key: a.keys[i], status: http.StatusNotFound, header: http.Header{"Content-Type": {"text/html"}}}
		}
		b, err := a.build(c)
		if err != nil {
			return nil, err
		}
		r := a.recordOf(c, b)
		r.missing = missing
		r.offset = f.size
		f.records = append(f.records, r)
		f.size += int64(len(b))
	}
	a.files[n] = f
	return f, nil
}

// fileName returns the path of WARC file n, as Common Crawl names them.
func (a *archive) fileName(n int) string {
	return fmt.Sprintf("crawl-data/%s/segments/%s/warc/CC-MAIN-%s-%s-%05d.warc.gz", a.collection, a.segment, a.ts, a.ts, n)
}

// fileNumber returns the number of the WARC file at path, or -1.
func (a *archive) fileNumber(path string) int {
	path = strings.TrimPrefix(path, "/")
	prefix := fmt.Sprintf("crawl-data/%s/segments/%s/warc/CC-MAIN-%s-%s-", a.collection, a.segment, a.ts, a.ts)
	rest, ok := strings.CutPrefix(path, prefix)
	if !ok {
		return -1
	}
	num, ok := strings.CutSuffix(rest, ".warc.gz")
	if !ok || len(num) != 5 {
		return -1
	}
	n, err := strconv.Atoi(num)
	if err != nil || n*RecordsPerFile >= len(a.uris) {
		return -1
	}
	return n
}

// pageRecord returns the index entry of page i, from its file's layout.
func (a *archive) pageRecord(ctx context.Context, i int) (record, int, error) {
	f, err := a.file(ctx, i/RecordsPerFile)
	if err != nil || f == nil {
		return record{}, 0, err
	}
	return f.records[i%RecordsPerFile], i / RecordsPerFile, nil
}

// matching returns the indexes of the pages whose keys match key under
// matchType (exact, prefix, host, domain), in key order.
func (a *archive) matching(key, matchType string) []int {
	var prefix string
	exact := false
	switch matchType {
	case "exact":
		exact = true
		prefix = key
	case "prefix":
		prefix = key
	case "host":
		host, _, _ := strings.Cut(key, ")")
		prefix = host + ")"
	case "domain":
		host, _, _ := strings.Cut(key, ")")
		prefix = host
	}
	i := sort.SearchStrings(a.keys, prefix)
	var out []int
	for ; i < len(a.keys) && strings.HasPrefix(a.keys[i], prefix); i++ {
		k := a.keys[i]
		switch {
		case exact && k != key:
			continue
		case matchType == "domain":
			rest := k[len(prefix):]
			if !strings.HasPrefix(rest, ")") && !strings.HasPrefix(rest, ",") && !strings.HasPrefix(rest, ":") {
				continue
			}
		}
		out = append(out, i)
	}
	return out
}

// readAt fills p with the bytes of WARC file n at off, building the
// records that overlap them, and returns how many it filled.
func (a *archive) readAt(ctx context.Context, n int, p []byte, off int64) (int, error) {
	f, err := a.file(ctx, n)
	if err != nil || f == nil {
		return 0, err
	}
	done := 0
	for _, r := range f.records {
		if done == len(p) {
			break
		}
		end := r.offset + r.length
		at := off + int64(done)
		if end <= at || r.offset > at {
			continue
		}
		c, err := a.captureOf(ctx, r.uri)
		if err != nil {
			return done, err
		}
		if c == nil {
			c = &capture{original: r.original, key: r.key, status: http.StatusNotFound, header: http.Header{"Content-Type": {"text/html"}}}
		}
		b, err := a.build(c)
		if err != nil {
			return done, err
		}
		if int64(len(b)) != r.length {
			return done, fmt.Errorf("localweb: record of %s changed length (%d, was %d)", r.uri, len(b), r.length)
		}
		done += copy(p[done:], b[at-r.offset:])
	}
	return done, nil
}
