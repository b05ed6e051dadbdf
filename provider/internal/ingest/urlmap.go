package ingest

import (
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/linkrot/relink/provider/corpus"
)

// mapper turns local files and the hrefs written in them into public URLs,
// following a manifest's rules (BENCHMARK.md, "Manifest format"). It caches
// file-system answers and is safe for concurrent use.
type mapper struct {
	roots    []*root  // longest real directory first
	prefixes []prefix // longest first

	real  sync.Map // path → its path with symlinks resolved
	isDir sync.Map // path → bool
	top   sync.Map // first path segment → whether /segment exists

	hrefsMu         sync.Mutex
	hrefs, oldHrefs map[hrefKey]resolved // see resolve
}

// hrefKey names an href written in the files of one root whose base (in
// file space) is in one directory: what it resolves to depends on nothing
// else, unless it has no path.
type hrefKey struct {
	root      *root
	dir, href string
}

// resolved is what resolve made of an href.
type resolved struct {
	v    string
	kind hrefKind
}

// maxCachedHrefs bounds the hrefs a mapper keeps resolved: it keeps two
// generations of at most maxCachedHrefs each, about 4 MB, and forgets the
// older when the newer is full; an answer found in the older moves to the
// newer. Files are read directory by directory, whose pages share most of
// their links (a documentation site's menus and tables of contents), so
// that the cache holds what the files being read need: the largest
// directory of the dev and held-out corpora has 22,714 distinct hrefs.
const maxCachedHrefs = 1 << 14

// root is one compiled manifest root.
type root struct {
	order   int // position in the manifest
	site    string
	dir     string // absolute, as named by the manifest
	real    string // dir with symlinks resolved
	base    *url.URL
	style   string
	include *regexp.Regexp // nil: everything
	exclude *regexp.Regexp // nil: nothing
}

// prefix is a URL prefix (a base or an alias) and the root it stands for.
type prefix struct {
	text string // scheme and host lowercased
	root *root
}

// newMapper compiles m; it resolves each root's directory on the file
// system, which must exist.
func newMapper(m *corpus.Manifest) (*mapper, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	mp := &mapper{hrefs: map[hrefKey]resolved{}}
	for _, s := range m.Sites {
		var first *root
		for _, r := range s.Roots {
			abs, err := filepath.Abs(r.Dir)
			if err != nil {
				return nil, err
			}
			real, err := filepath.EvalSymlinks(abs)
			if err != nil {
				return nil, fmt.Errorf("store: site %q: root %w", s.Name, err)
			}
			if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
				return nil, fmt.Errorf("store: site %q: root %s is not a directory", s.Name, r.Dir)
			}
			base, _ := url.Parse(r.Base) // checked by Validate
			rt := &root{order: len(mp.roots), site: s.Name, dir: abs, real: real, base: base, style: r.Style}
			if rt.style == "" {
				rt.style = corpus.StyleFile
			}
			if s.Include != "" {
				rt.include = regexp.MustCompile(s.Include) // checked by Validate
			}
			if s.Exclude != "" {
				rt.exclude = regexp.MustCompile(s.Exclude)
			}
			mp.roots = append(mp.roots, rt)
			mp.prefixes = append(mp.prefixes, prefix{lowerHost(r.Base), rt})
			if first == nil {
				first = rt
			}
		}
		for _, a := range s.Aliases {
			mp.prefixes = append(mp.prefixes, prefix{lowerHost(a), first})
		}
	}
	sort.SliceStable(mp.roots, func(i, j int) bool { return len(mp.roots[i].real) > len(mp.roots[j].real) })
	sort.SliceStable(mp.prefixes, func(i, j int) bool { return len(mp.prefixes[i].text) > len(mp.prefixes[j].text) })
	return mp, nil
}

// lowerHost lowercases the scheme and host of an absolute URL written as a
// string, leaving the rest as it is, so that prefixes compare the way
// canon.Canonicalize would.
func lowerHost(s string) string {
	i := strings.Index(s, "://")
	if i < 0 {
		return s
	}
	end := len(s)
	if j := strings.IndexAny(s[i+3:], "/?#"); j >= 0 {
		end = i + 3 + j
	}
	return strings.ToLower(s[:end]) + s[end:]
}

// isPageFile reports whether the file at rel (slash-separated, relative to
// r's directory) is a page: an HTML file name that passes the site's
// include and exclude expressions.
func (r *root) isPageFile(rel string) bool {
	switch strings.ToLower(path.Ext(rel)) {
	case ".html", ".htm", ".xhtml":
	default:
		return false
	}
	if r.include != nil && !r.include.MatchString(rel) {
		return false
	}
	return r.exclude == nil || !r.exclude.MatchString(rel)
}

// publicURL returns the URL of the file at rel (slash-separated, relative
// to r's directory) under the root's style.
func (r *root) publicURL(rel string) string {
	rel = styled(rel, r.style)
	u := *r.base
	u.Path = r.base.Path + rel
	u.RawPath = ""
	return u.String()
}

// styled applies a root style to a slash-separated relative path: an
// index.html stands for its directory, and in StyleDir every other .html
// file becomes a directory of its own.
func styled(rel, style string) string {
	if rel == "index.html" || strings.HasSuffix(rel, "/index.html") {
		return strings.TrimSuffix(rel, "index.html")
	}
	if style == corpus.StyleDir && strings.HasSuffix(rel, ".html") {
		return strings.TrimSuffix(rel, ".html") + "/"
	}
	return rel
}

// hrefKind says what resolve made of an href.
type hrefKind int

const (
	// hrefKeep: not a link resolve understands (mailto:, javascript:, an
	// unparsable href); the href stays as written.
	hrefKeep hrefKind = iota
	// hrefWeb: the href resolves to the returned absolute http(s) URL.
	hrefWeb
	// hrefLocal: the href names a local file outside every root; the
	// returned value is its file: URL, which is not a web link.
	hrefLocal
)

// fileContext is what resolve needs to know about the file an href is in.
type fileContext struct {
	root   *root
	file   *url.URL // file: URL of the file, inside root.real
	base   *url.URL // the file's <base href> resolved in file space, or file
	public *url.URL // the file's public URL
	dir    string   // base without its last path segment (baseDir)
	// self is what resolve makes of "", the file (or its base) itself,
	// once selfDone: hrefs of a fragment alone are self and the fragment.
	self     string
	selfKind hrefKind
	selfDone bool
}

// newFileContext returns the context of the file at rel below r.
func newFileContext(r *root, rel string) (*fileContext, error) {
	file := &url.URL{Scheme: "file", Path: path.Join(filepath.ToSlash(r.real), rel)}
	public, err := url.Parse(r.publicURL(rel))
	if err != nil {
		return nil, err
	}
	return &fileContext{root: r, file: file, base: file, public: public, dir: baseDir(file)}, nil
}

// baseDir returns what a relative href with a path resolves against in
// base (url.URL.ResolveReference): base without its query, fragment and
// last path segment, written as a string. An opaque base is kept whole.
func baseDir(base *url.URL) string {
	if base.Opaque != "" {
		return base.String()
	}
	p := base.EscapedPath()
	return base.Scheme + "\x00" + base.User.String() + "\x00" + base.Host + "\x00" + p[:strings.LastIndexByte(p, '/')+1]
}

// setBase records the file's <base href>, resolved in file space like any
// other href, so that relative hrefs after it resolve against it.
func (fc *fileContext) setBase(href string) {
	ref, err := url.Parse(strings.TrimSpace(href))
	if err != nil {
		return
	}
	switch strings.ToLower(ref.Scheme) {
	case "", "file":
		fc.base = fc.file.ResolveReference(ref)
		fc.dir = baseDir(fc.base)
		fc.selfDone = false
	}
}

// resolve maps an href written in the file fc describes to the URL it
// stands for on the public web, following BENCHMARK.md:
//
//   - a relative href resolves in file space, against the file's own
//     location and <base>; a path that lands under any root's directory
//     (through symlinks too; a directory means its index.html) becomes that
//     root's URL for the file; one that climbs out of every root resolves
//     against the page's root base as the web would;
//   - an absolute path or file: URL is a local path: under a root it maps
//     as above, elsewhere it stays a local file: URL (hrefLocal). A path
//     counts as local when its first segment exists in the local file
//     system's root (/usr/share/doc/..., as Debian rewrites cross-package
//     links); any other absolute path ("/license.html") is relative to the
//     page's public host;
//   - an http(s) URL that starts with a root's base or a site's alias is
//     moved under that root's base and given the root's style (a/b.html
//     becomes a/b/ in StyleDir, a/index.html becomes a/); other http(s)
//     URLs are kept as they are.
//
// Queries and fragments are kept.
//
// Answers are cached by root, base directory and href (maxCachedHrefs),
// except for an href with no scheme, host or path ("", "?q", "#f", "//"),
// which names the file (or its base) itself: a fragment alone ("#f", a
// third of the dev corpus's hrefs) is added to what "" resolves to, once a
// file.
func (mp *mapper) resolve(fc *fileContext, href string) (string, hrefKind) {
	if v, kind, ok := mp.fragment(fc, strings.Trim(href, " \t\n\r\f")); ok {
		return v, kind
	}
	key := hrefKey{fc.root, fc.dir, href}
	mp.hrefsMu.Lock()
	r, ok := mp.hrefs[key]
	if !ok {
		if r, ok = mp.oldHrefs[key]; ok {
			mp.remember(key, r)
		}
	}
	mp.hrefsMu.Unlock()
	if ok {
		return r.v, r.kind
	}
	v, kind, own := mp.resolveHref(fc, href)
	if !own {
		mp.hrefsMu.Lock()
		mp.remember(key, resolved{v, kind})
		mp.hrefsMu.Unlock()
	}
	return v, kind
}

// remember adds an answer to the newer generation of the cache, which
// becomes the older when it is full. The caller holds hrefsMu.
func (mp *mapper) remember(key hrefKey, r resolved) {
	if len(mp.hrefs) >= maxCachedHrefs {
		mp.oldHrefs, mp.hrefs = mp.hrefs, make(map[hrefKey]resolved, maxCachedHrefs)
	}
	mp.hrefs[key] = r
}

// fragment resolves t, an href trimmed of white space that holds a
// fragment alone, as resolveHref would: "" resolved, with the fragment as
// url.URL.String writes it. ok is false for any other href.
func (mp *mapper) fragment(fc *fileContext, t string) (v string, kind hrefKind, ok bool) {
	if t == "" || t[0] != '#' {
		return "", 0, false
	}
	ref, err := url.Parse(t)
	if err != nil {
		return "", 0, false
	}
	if !fc.selfDone {
		fc.self, fc.selfKind, _ = mp.resolveHref(fc, "")
		fc.selfDone = true
	}
	if fc.selfKind == hrefKeep || strings.ContainsAny(fc.self, "?#") {
		return "", 0, false
	}
	if ref.Fragment == "" && ref.RawFragment == "" {
		return fc.self, fc.selfKind, true
	}
	return fc.self + "#" + ref.EscapedFragment(), fc.selfKind, true
}

// resolveHref is resolve without the caches. own says that the answer
// depends on the file itself, not only on its root and the directory of
// its base: the href has no scheme, host, user or path, and resolves
// against the base's whole URL.
func (mp *mapper) resolveHref(fc *fileContext, href string) (v string, kind hrefKind, own bool) {
	ref, err := url.Parse(strings.Trim(href, " \t\n\r\f"))
	if err != nil {
		return "", hrefKeep, false
	}
	own = ref.Scheme == "" && ref.Host == "" && ref.User == nil && ref.Opaque == "" && ref.Path == ""
	v, kind = mp.resolveRef(fc, ref)
	return v, kind, own
}

// resolveRef is resolveHref for the parsed href.
func (mp *mapper) resolveRef(fc *fileContext, ref *url.URL) (string, hrefKind) {
	switch strings.ToLower(ref.Scheme) {
	case "http", "https":
		return mp.web(ref), hrefWeb
	case "file":
		if ref.Host != "" && !strings.EqualFold(ref.Host, "localhost") {
			return "", hrefKeep
		}
		return mp.local(fc, ref, ref.Path, false)
	case "":
	default:
		return "", hrefKeep
	}
	switch {
	case ref.Host != "": // //host/path: the page's scheme
		return mp.web(fc.public.ResolveReference(ref)), hrefWeb
	case strings.HasPrefix(ref.Path, "/"):
		if mp.isLocalPath(ref.Path) {
			return mp.local(fc, ref, ref.Path, false)
		}
		return mp.web(fc.public.ResolveReference(ref)), hrefWeb
	}
	abs := fc.base.ResolveReference(ref)
	return mp.local(fc, ref, abs.Path, true)
}

// local maps the local path p that ref named; relative says whether ref was
// a relative href.
func (mp *mapper) local(fc *fileContext, ref *url.URL, p string, relative bool) (string, hrefKind) {
	dirHint := strings.HasSuffix(p, "/") || p == ""
	p = path.Clean("/" + p)
	if r, rel, ok := mp.locate(p, dirHint); ok {
		u, err := url.Parse(r.publicURL(rel))
		if err != nil {
			return "", hrefKeep
		}
		return withTail(u, ref), hrefWeb
	}
	if relative {
		rel, err := filepath.Rel(fc.root.real, filepath.FromSlash(p))
		if err == nil {
			rel = filepath.ToSlash(rel)
			if dirHint {
				rel += "/"
			}
			return withTail(fc.root.base.ResolveReference(&url.URL{Path: rel}), ref), hrefWeb
		}
	}
	return withTail(&url.URL{Scheme: "file", Path: p}, ref), hrefLocal
}

// withTail returns u with ref's query and fragment.
func withTail(u, ref *url.URL) string {
	v := *u
	v.RawQuery, v.ForceQuery = ref.RawQuery, ref.ForceQuery
	v.Fragment, v.RawFragment = ref.Fragment, ref.RawFragment
	return v.String()
}

// web maps an absolute http(s) URL through the bases and aliases.
func (mp *mapper) web(u *url.URL) string {
	s := u.String()
	ls := lowerHost(s)
	for _, p := range mp.prefixes {
		var rest string
		switch {
		case strings.HasPrefix(ls, p.text):
			rest = ls[len(p.text):]
		case ls+"/" == p.text:
		default:
			continue
		}
		pathPart, tail := rest, ""
		if i := strings.IndexAny(rest, "?#"); i >= 0 {
			pathPart, tail = rest[:i], rest[i:]
		}
		return p.root.base.String() + styled(pathPart, p.root.style) + tail
	}
	return s
}

// locate finds the root whose directory holds the absolute local path p,
// and p's path relative to it (slash-separated), resolving symlinks when
// the plain path is under no root. A directory (dirHint, or a directory on
// disk) stands for its index.html.
func (mp *mapper) locate(p string, dirHint bool) (*root, string, bool) {
	r, rel, ok := mp.under(p)
	if !ok {
		if real := mp.realPath(p); real != p {
			r, rel, ok = mp.under(real)
		}
	}
	if !ok {
		return nil, "", false
	}
	if dirHint || mp.dir(filepath.Join(r.real, filepath.FromSlash(rel))) {
		if rel == "" {
			rel = "index.html"
		} else {
			rel += "/index.html"
		}
	}
	return r, rel, true
}

// under finds the root whose real directory holds p.
func (mp *mapper) under(p string) (*root, string, bool) {
	for _, r := range mp.roots {
		for _, d := range []string{r.real, r.dir} {
			d = filepath.ToSlash(d)
			if p == d {
				return r, "", true
			}
			if strings.HasPrefix(p, d) && (strings.HasSuffix(d, "/") || p[len(d)] == '/') {
				return r, strings.TrimPrefix(p[len(d):], "/"), true
			}
		}
	}
	return nil, "", false
}

// realPath resolves the symlinks in p; for a path that does not exist it
// resolves its directory. It answers p itself when nothing resolves.
func (mp *mapper) realPath(p string) string {
	if v, ok := mp.real.Load(p); ok {
		return v.(string)
	}
	real, err := filepath.EvalSymlinks(filepath.FromSlash(p))
	if err != nil {
		dir, file := path.Split(p)
		real = p
		if dir != "/" && dir != "" {
			if d := mp.realPath(strings.TrimSuffix(dir, "/")); d != strings.TrimSuffix(dir, "/") {
				real = path.Join(d, file)
			}
		}
	}
	real = filepath.ToSlash(real)
	mp.real.Store(p, real)
	return real
}

// dir reports whether p is a directory on disk.
func (mp *mapper) dir(p string) bool {
	if v, ok := mp.isDir.Load(p); ok {
		return v.(bool)
	}
	fi, err := os.Stat(p)
	d := err == nil && fi.IsDir()
	mp.isDir.Store(p, d)
	return d
}

// isLocalPath reports whether the absolute path p, written as an href,
// names a local file rather than a path on the page's web host: it is under
// a root, or its first segment exists in the file system's root.
func (mp *mapper) isLocalPath(p string) bool {
	if _, _, ok := mp.under(path.Clean(p)); ok {
		return true
	}
	seg := strings.TrimPrefix(p, "/")
	if i := strings.IndexByte(seg, '/'); i >= 0 {
		seg = seg[:i]
	} else {
		return false // "/name": a file in the root directory is never a document
	}
	if seg == "" || seg == "." || seg == ".." {
		return false
	}
	if v, ok := mp.top.Load(seg); ok {
		return v.(bool)
	}
	_, err := os.Stat("/" + seg)
	mp.top.Store(seg, err == nil)
	return err == nil
}
