package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/corpus"
)

// ManifestSource returns the source of an ingest of the pages of every
// site of m: each HTML file under a root that passes the site's include
// and exclude expressions becomes a page at its public URL, with its <a>
// and <area> hrefs rewritten to the public URLs they stand for, as
// opts.Moves, opts.Migrations and opts.Edit say. A manifest that is not
// valid, a root directory that does not exist, or a move that cannot be
// canonicalized is an error. Files that are not pages (binary, empty,
// unreadable, too large, not HTML) are skips, not errors.
func ManifestSource(m *corpus.Manifest, opts corpus.IngestOptions) (Source, error) {
	if err := checkShare(&opts); err != nil {
		return Source{}, err
	}
	mp, err := newMapper(m)
	if err != nil {
		return Source{}, err
	}
	files := slices.DeleteFunc(mp.files(), func(f file) bool { return !mine(&opts, "file:"+f.path) })
	total := corpus.Progress{TotalFiles: len(files)}
	for _, f := range files {
		total.TotalBytes += f.size
	}
	maxSize := opts.MaxFileSize
	if maxSize <= 0 {
		maxSize = corpus.DefaultMaxFileSize
	}
	rel, err := newRelocations(opts.Moves, opts.Migrations)
	if err != nil {
		return Source{}, err
	}
	rel.edit = opts.Edit
	produce := func(ctx context.Context, emit func(job) bool, ps *State) error {
		for _, f := range files {
			src := "file:" + f.path
			if ps.done(src) {
				ps.Resumed.Add(1)
				ps.Read.Add(f.size)
				continue
			}
			j := job{Source: src, Size: f.size, run: func() Item { return mp.fileItem(f, maxSize, rel) }}
			if !emit(j) {
				return ctx.Err()
			}
		}
		return nil
	}
	return Source{Kind: "files", Total: total, produce: produce}, nil
}

// DirManifest returns the manifest of the HTML files under dir as pages
// whose URLs are base followed by their path relative to dir (index.html
// standing for its directory): one site named after base's host and one
// root of StyleFile. base must be an absolute http(s) URL; a missing final
// slash is added.
func DirManifest(dir, base string) (*corpus.Manifest, error) {
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	u, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("%w: base: %v", corpus.ErrManifest, err)
	}
	return &corpus.Manifest{Name: u.Host, Version: corpus.ManifestVersion, Sites: []corpus.Site{{
		Name:  strings.ToLower(u.Host),
		Roots: []corpus.Root{{Dir: dir, Base: base, Style: corpus.StyleFile}},
	}}}, nil
}

// file is one candidate page found under a root.
type file struct {
	root *root
	rel  string // slash-separated, relative to the root's directory
	path string // the path walked to, below root.real
	size int64
	err  error // the directory or file could not be read
}

// files lists the candidate pages under every root, in a fixed order:
// roots in manifest order, files in lexical order. Symlinks are followed
// (directories once each, and not to the root or its ancestors); entries
// that cannot be read are listed with their error.
func (mp *mapper) files() []file {
	var out []file
	roots := append([]*root(nil), mp.roots...)
	sort.SliceStable(roots, func(i, j int) bool { return roots[i].order < roots[j].order })
	for _, r := range roots {
		seen := map[string]bool{r.real: true}
		out = walk(r, r.real, "", seen, out)
	}
	return out
}

// walk appends the candidate pages in dir (rel below r) to out.
func walk(r *root, dir, rel string, seen map[string]bool, out []file) []file {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return append(out, file{root: r, rel: rel, path: dir, err: err})
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		erel := path.Join(rel, e.Name())
		info, err := os.Stat(p) // follows symlinks
		if err != nil {
			if r.isPageFile(erel) {
				out = append(out, file{root: r, rel: erel, path: p, err: err})
			}
			continue
		}
		if info.IsDir() {
			// Symlinked directories are followed once each, and never to
			// the root itself or above it ("/", a loop).
			real, err := filepath.EvalSymlinks(p)
			if err != nil || seen[real] || strings.HasPrefix(r.real+"/", strings.TrimSuffix(real, "/")+"/") {
				continue
			}
			seen[real] = true
			out = walk(r, p, erel, seen, out)
			continue
		}
		if info.Mode().IsRegular() && r.isPageFile(erel) {
			out = append(out, file{root: r, rel: erel, path: p, size: info.Size()})
		}
	}
	return out
}

// fileItem reads and parses one file; a page that moves, alone or with its
// site, has its new URI and address, and its links as rel says.
func (mp *mapper) fileItem(f file, maxSize int64, rel *relocations) Item {
	if f.err != nil {
		return skipped(corpus.ReasonUnreadable, f.err)
	}
	if f.size > maxSize {
		return skipped(corpus.ReasonTooLarge, fmt.Errorf("%d bytes", f.size))
	}
	data, err := readFile(f.path, maxSize)
	if err != nil {
		if errors.Is(err, errTooLarge) {
			return skipped(corpus.ReasonTooLarge, err)
		}
		return skipped(corpus.ReasonUnreadable, err)
	}
	if reason := fileReason(data); reason != "" {
		return skipped(reason, nil)
	}
	fc, err := newFileContext(f.root, f.rel)
	if err != nil {
		return skipped(corpus.ReasonBadURI, err)
	}
	uri, err := canon.Canonicalize(fc.public.String())
	if err != nil {
		return skipped(corpus.ReasonBadURI, err)
	}
	if rel.edit != nil {
		data = rel.edit(uri, data)
	}
	address := fc.public.String()
	old, site := "", -1
	if to, ok := rel.moves[uri]; ok {
		old, uri, address = uri, to, to
	} else if m, ok := rel.sites[uri]; ok {
		old, site = uri, m.site
		uri, address = m.to, m.to
	}
	if bytes.HasPrefix(data, []byte{0xfe, 0xff}) || bytes.HasPrefix(data, []byte{0xff, 0xfe}) {
		// UTF-16 cannot be rewritten byte-wise: store it as UTF-8.
		if data, _, err = backlink.Decode(data, ""); err != nil {
			return skipped(corpus.ReasonBadRecord, err)
		}
	}
	follow := func(v string) string {
		if site >= 0 {
			return rel.follow(v, site)
		}
		if old != "" {
			return followMove(v, old, address)
		}
		return v
	}
	rewrite := func(href string) (string, bool) {
		v, kind := mp.resolve(fc, href)
		if kind == hrefWeb {
			v = follow(v)
		}
		return v, kind != hrefKeep
	}
	return pageItem(pageInput{
		uri:         uri,
		address:     address,
		site:        f.root.site,
		data:        data,
		status:      200,
		contentType: "text/html",
		rewrite:     rewrite,
		setBase:     fc.setBase,
		resolve: func(href string) (string, bool) {
			v, kind := mp.resolve(fc, href)
			if kind != hrefWeb {
				return "", false
			}
			c, err := canon.Canonicalize(follow(v))
			return c, err == nil
		},
	})
}

// followMove returns the link v of a moved page as the moved page has it:
// a link to the page's own old URI (canonical old), as a table of contents
// or a permalink is, goes to its new address instead, fragment kept, since
// a page's links to itself move with it. Other links are kept.
func followMove(v, old, address string) string {
	c, err := canon.Canonicalize(v)
	if err != nil || c != old {
		return v
	}
	return withFragment(address, v)
}

// withFragment returns address with the fragment of v, if v has one.
func withFragment(address, v string) string {
	if i := strings.IndexByte(v, '#'); i >= 0 {
		return address + v[i:]
	}
	return address
}

// relocations are the pages of an ingest published elsewhere than their
// files map to (Options.Moves and Migrations), and its Edit.
type relocations struct {
	moves map[string]string    // canonical old URI → canonical new URI
	sites map[string]migration // canonical old URI → its site's move
	edit  func(uri string, page []byte) []byte
}

// migration is where one page of a migrated site goes.
type migration struct {
	to   string // canonical new URI
	site int    // index in Options.Migrations
}

// newRelocations canonicalizes moves and migrations.
func newRelocations(moves map[string]string, migrations []corpus.Migration) (*relocations, error) {
	rel := &relocations{moves: make(map[string]string, len(moves)), sites: map[string]migration{}}
	canonical := func(what, uri string) (string, error) {
		c, err := canon.Canonicalize(uri)
		if err != nil {
			return "", fmt.Errorf("store: %s %q: %w", what, uri, err)
		}
		return c, nil
	}
	for from, to := range moves {
		f, err := canonical("move from", from)
		if err != nil {
			return nil, err
		}
		if rel.moves[f], err = canonical("move to", to); err != nil {
			return nil, err
		}
	}
	for i, m := range migrations {
		for from, to := range m {
			f, err := canonical("migration from", from)
			if err != nil {
				return nil, err
			}
			t, err := canonical("migration to", to)
			if err != nil {
				return nil, err
			}
			if prev, ok := rel.sites[f]; ok && prev.site != i {
				return nil, fmt.Errorf("store: %s is in migrations %d and %d", f, prev.site, i)
			}
			rel.sites[f] = migration{to: t, site: i}
		}
	}
	return rel, nil
}

// follow returns the link v of a page of migration site as the migrated
// site has it: a link to another page of the same migration goes to that
// page's new URI, fragment kept; other links stay as written.
func (rel *relocations) follow(v string, site int) string {
	c, err := canon.Canonicalize(v)
	if err != nil {
		return v
	}
	m, ok := rel.sites[c]
	if !ok || m.site != site {
		return v
	}
	return withFragment(m.to, v)
}

// fileReason returns why the bytes of a file named like HTML are not a
// page, or "".
func fileReason(data []byte) string {
	switch filter.SniffBody(data) {
	case filter.TypeEmpty:
		return corpus.ReasonEmpty
	case filter.TypeHTML, filter.TypeText, filter.TypeXML:
		// The name says HTML: text without the usual tags is a fragment,
		// and XHTML may sniff as XML.
		return ""
	case filter.TypeCode, filter.TypeRSS, filter.TypeAtom, filter.TypeRDF:
		return corpus.ReasonNotHTML
	}
	return corpus.ReasonBinary
}

// errTooLarge is returned by readFile for a file that grew past the limit.
var errTooLarge = errors.New("file larger than the size limit")

// readFile reads the named file, failing with errTooLarge beyond max bytes.
func readFile(name string, max int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// A buffer of the file's size, and room to see that it ended: no
	// growing step by step.
	var buf bytes.Buffer
	if fi, err := f.Stat(); err == nil {
		buf.Grow(int(min(fi.Size(), max)) + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(io.LimitReader(f, max+1)); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	if int64(len(data)) > max {
		return nil, errTooLarge
	}
	return data, nil
}
