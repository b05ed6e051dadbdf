package site

import (
	"maps"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/linkrot/relink/canon"
)

// Reasons a link is not followed, the keys of Report.Cut.
const (
	// CutOffHost: the link leads to another host; a crawl stays on the
	// site's own.
	CutOffHost = "off-host"
	// CutNotPage: the URL names a file that is not a web page (an image,
	// an archive, a script...), by its extension.
	CutNotPage = "not-a-page"
	// CutDeepPath: more path segments than Crawler.MaxDepth, the mark of
	// relative links that climb ever deeper (a/b/a/b/...).
	CutDeepPath = "deep-path"
	// CutRepeatingPath: a path segment repeated three times or more.
	CutRepeatingPath = "repeating-path"
	// CutLongQuery: a query with more than Crawler.MaxQueryParams
	// parameters or longer than maxQueryBytes: faceted search and
	// generated filters.
	CutLongQuery = "long-query"
	// CutQueryVariants: more distinct queries of one path than
	// Crawler.MaxQueryVariants: sorting, paging and filter links that
	// show the same pages again.
	CutQueryVariants = "query-variants"
	// CutCalendar: more URLs of one date-like shape than
	// Crawler.MaxPerPattern (a calendar's next month, next day, ...).
	CutCalendar = "calendar"
	// CutPattern: more URLs of one numbered shape than
	// Crawler.MaxPerPattern (page=1, page=2, ...; item/1, item/2, ...).
	CutPattern = "numbered-pattern"
	// CutSessionID: the link carried a session identifier, removed
	// before the link was queued (the link is followed without it).
	CutSessionID = "session-id"
	// CutRobots: robots.txt disallows the URL; no request was made.
	CutRobots = "robots"
	// CutSitemapOffHost: a sitemap, or a robots.txt Sitemap line, named a
	// URL on another host (sitemaps.org: "all URLs in a Sitemap must be
	// from a single host").
	CutSitemapOffHost = "sitemap-off-host"
	// CutSitemapFiles: more sitemap files than Crawler.MaxSitemapFiles.
	CutSitemapFiles = "sitemap-files"
	// CutNestedIndex: a sitemap index listed in a sitemap index, which
	// the protocol does not allow.
	CutNestedIndex = "nested-sitemap-index"
)

// maxQueryBytes bounds the raw query of a URL the crawl follows.
const maxQueryBytes = 256

// notPage are the extensions of files that are not web pages.
var notPage = map[string]bool{
	".7z": true, ".avi": true, ".bmp": true, ".bz2": true, ".css": true,
	".csv": true, ".deb": true, ".dmg": true, ".doc": true, ".docx": true,
	".eot": true, ".exe": true, ".flac": true, ".gif": true, ".gz": true,
	".ico": true, ".iso": true, ".jar": true, ".jpeg": true, ".jpg": true,
	".js": true, ".json": true, ".m4a": true, ".mkv": true, ".mov": true,
	".mp3": true, ".mp4": true, ".msi": true, ".ogg": true, ".otf": true,
	".pdf": true, ".png": true, ".ppt": true, ".pptx": true, ".rar": true,
	".rpm": true, ".svg": true, ".tar": true, ".tgz": true, ".tif": true,
	".tiff": true, ".ttf": true, ".wav": true, ".webm": true, ".webp": true,
	".woff": true, ".woff2": true, ".xls": true, ".xlsx": true, ".xml": true,
	".xz": true, ".zip": true, ".zst": true,
}

var (
	// digits are the runs a URL shape replaces with "0".
	digits = regexp.MustCompile(`[0-9]+`)
	// dateLike matches a shape that holds a date: a four-digit year next
	// to a month or day, in a path or a query.
	dateLike = regexp.MustCompile(`(?i)(^|[^0-9])(19|20)[0-9][0-9]([-/_.]?[01]?[0-9])|calendar|date=|month=|year=|day=`)
)

// sessionCanon canonicalizes as the rest of relink does, and also drops
// session identifiers (canon.Options.SessionIDs).
var sessionCanon = func() canon.Options {
	o := canon.Strict()
	o.SessionIDs = true
	return o
}()

// trapGuard decides which links of one host a crawl follows, counting the
// URLs of each path and shape it has let through.
type trapGuard struct {
	c        *Crawler
	host     string
	variants map[string]int // queries let through, by path
	shapes   map[string]int // URLs let through, by numbered shape
}

func newTrapGuard(c *Crawler, host string) *trapGuard {
	return &trapGuard{c: c, host: host, variants: map[string]int{}, shapes: map[string]int{}}
}

// admit returns the URL to follow for the link uri (its session
// identifiers removed) and "", or the reason the link is cut. rewrote
// reports a session identifier removed. Nothing is counted for a cut
// link.
func (g *trapGuard) admit(uri string) (clean, reason string, rewrote bool) {
	clean, err := sessionCanon.Canonicalize(uri)
	if err != nil {
		return "", CutNotPage, false
	}
	plain, err := canon.Canonicalize(uri)
	rewrote = err == nil && plain != clean
	u, err := url.Parse(clean)
	if err != nil || !isHTTP(u) {
		return "", CutNotPage, rewrote
	}
	if !strings.EqualFold(u.Host, g.host) {
		return "", CutOffHost, rewrote
	}
	if notPage[strings.ToLower(path.Ext(u.Path))] {
		return "", CutNotPage, rewrote
	}
	segs := strings.FieldsFunc(u.Path, func(r rune) bool { return r == '/' })
	if len(segs) > g.c.maxDepth() {
		return "", CutDeepPath, rewrote
	}
	count := map[string]int{}
	for _, s := range segs {
		if count[s]++; count[s] >= 3 {
			return "", CutRepeatingPath, rewrote
		}
	}
	if u.RawQuery != "" {
		if len(u.RawQuery) > maxQueryBytes || strings.Count(u.RawQuery, "&")+1 > g.c.maxQueryParams() {
			return "", CutLongQuery, rewrote
		}
		if g.variants[u.Path] >= g.c.maxQueryVariants() {
			return "", CutQueryVariants, rewrote
		}
	}
	shape, numbered := urlShape(u)
	if numbered && g.shapes[shape] >= g.c.maxPerPattern() {
		if dateLike.MatchString(u.Path + "?" + u.RawQuery) {
			return "", CutCalendar, rewrote
		}
		return "", CutPattern, rewrote
	}
	if u.RawQuery != "" {
		g.variants[u.Path]++
	}
	if numbered {
		g.shapes[shape]++
	}
	return clean, "", rewrote
}

// urlShape returns u's path and query keys with every run of digits, in
// the path and in the query's values, written "0", and whether there was
// any: "/cal/2024/05?page=3&sort=name" shapes as "/cal/0/0?page=0&sort&".
func urlShape(u *url.URL) (shape string, numbered bool) {
	shape = digits.ReplaceAllString(u.Path, "0")
	numbered = shape != u.Path
	q := u.Query()
	var b strings.Builder
	b.WriteString(shape + "?")
	for _, k := range slices.Sorted(maps.Keys(q)) {
		b.WriteString(k)
		if digits.MatchString(strings.Join(q[k], "")) {
			b.WriteString("=0")
			numbered = true
		}
		b.WriteString("&")
	}
	return b.String(), numbered
}
