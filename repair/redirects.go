package repair

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/linkrot/relink/canon"
)

// ErrSite is returned by Redirects.Write for a missing or unusable Site.
var ErrSite = errors.New("repair: redirect maps need the site (a host name or URL)")

// Redirects writes a redirect map for a site's own dead URLs: one entry
// for every Moved result with a URI whose dead URL is on Site. The new
// URI is written as a path ("/docs/a/") when it has the dead URL's
// scheme, host and port, and whole otherwise. Entries keep the results'
// order; what a map cannot hold is left out, listed in Write's answer and
// written as a # comment in its place.
//
// OutputNginx writes the body of an nginx map on $uri (ngx_http_map_module):
//
//	map $uri $new_uri { include relink.map; }
//	server { ... if ($new_uri) { return 301 $new_uri; } }
//
// Each line is `"key" "value";`, both quoted as nginx's configuration
// parser reads quotes (\" and \\ are the escapes). The key is the
// dead URL's path as nginx's $uri holds it: percent-decoded, with "." and
// ".." resolved and runs of slashes merged (merge_slashes, the default).
// nginx compares the keys ignoring case, so a second key that differs
// from an earlier one only in case is skipped. In the value, which nginx
// reads for variables, $ is written %24; a key with a control character
// is skipped.
//
// OutputApache writes a mod_rewrite RewriteMap of type txt: "key value"
// lines, for example
//
//	RewriteMap relink "txt:/etc/apache2/relink.txt"
//	RewriteCond "${relink:%{REQUEST_URI}|NONE}" "!=NONE"
//	RewriteRule "^" "${relink:%{REQUEST_URI}}" [R=301,L,NE]
//
// The key is the decoded path, as %{REQUEST_URI} holds it. mod_rewrite
// reads a key and a value up to white space, and lines up to 1,023 bytes
// (REWRITE_MAX_TXT_MAP_LINE), so keys with white space and longer lines
// are skipped.
//
// OutputNetlify writes a _redirects file, which Netlify and Cloudflare
// Pages both read: "/old /new 301" lines, the status written because
// Cloudflare's default is 302. The key is the path as the URL writes it
// (percent-encoded, as Netlify requires), with "." and ".." resolved as a
// browser does before it asks. A path with * or :name (Cloudflare reads a
// placeholder wherever a colon starts a name) would be read as a splat or
// a placeholder, and a line over 1,000 characters is over Cloudflare's
// limit: both are skipped.
//
// Every map skips a dead URL with a query (none of the keys above sees
// the query; Netlify's query matching is not used), one whose new URI
// differs from it only in scheme or not at all (a redirect to itself), and
// a key already written.
type Redirects struct {
	// Site is the site whose dead URLs get redirects: a host name with an
	// optional port ("old.example", "old.example:8080"), or a URL
	// ("https://old.example/docs/"), whose path, when not "/", limits the
	// map to the dead URLs under it. The scheme is not compared: one
	// server usually answers both http and https.
	Site string
	// Format is OutputNginx, OutputApache or OutputNetlify.
	Format Output
}

// Skipped is a result a redirect map left out, and why.
type Skipped struct {
	Dead, URI, Reason string
}

// Write writes the map of results to w and returns what it skipped (dead
// URLs that are not on the site, and results that are not Moved, are not
// listed). The error is ErrSite for an unusable Site, ErrOutput for a
// format that is not a redirect map, or w's.
func (rd Redirects) Write(w io.Writer, results []Result) ([]Skipped, error) {
	site, err := parseSite(rd.Site)
	if err != nil {
		return nil, err
	}
	var entry func(u, n *url.URL) (key, line, why string)
	switch rd.Format {
	case OutputNginx:
		entry = nginxEntry
	case OutputApache:
		entry = apacheEntry
	case OutputNetlify:
		entry = netlifyEntry
	default:
		return nil, fmt.Errorf("%w %q: not a redirect map", ErrOutput, rd.Format)
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# relink fix: %s redirects for the dead URLs of %s\n# %s\n", rd.Format, commentSafe(rd.Site), usage[rd.Format])
	var skipped []Skipped
	skip := func(r Result, why string) {
		skipped = append(skipped, Skipped{Dead: r.Dead, URI: r.URI, Reason: why})
		fmt.Fprintf(bw, "# skipped %s -> %s: %s\n", commentSafe(r.Dead), commentSafe(r.URI), why)
	}
	seen := map[string]string{}
	for _, r := range results {
		if r.Verdict != Moved || r.URI == "" {
			continue
		}
		u, ok := site.holds(r.Dead)
		if !ok {
			continue
		}
		n, err := url.Parse(r.URI)
		if err != nil || n.Scheme == "" || n.Host == "" {
			skip(r, "the new URI is not an absolute URL")
			continue
		}
		if why := unwritable(n); why != "" {
			r.URI = n.Redacted()
			skip(r, why)
			continue
		}
		if u.RawQuery != "" || u.ForceQuery {
			skip(r, "the dead URL has a query, which the map's key does not hold")
			continue
		}
		if sameExceptScheme(u, n) {
			skip(r, "the new URI differs from the dead URL only in scheme (or not at all)")
			continue
		}
		k, line, why := entry(u, n)
		if why != "" {
			skip(r, why)
			continue
		}
		dup := k
		if rd.Format == OutputNginx {
			dup = strings.ToLower(k)
		}
		if first, ok := seen[dup]; ok {
			skip(r, "its key is already mapped for "+commentSafe(first))
			continue
		}
		seen[dup] = r.Dead
		fmt.Fprintln(bw, line)
	}
	return skipped, bw.Flush()
}

// usage says how each map is used, in its header comment.
var usage = map[Output]string{
	OutputNginx:   "the body of: map $uri $new_uri { include THIS_FILE; } and in the server: if ($new_uri) { return 301 $new_uri; }",
	OutputApache:  "RewriteMap relink txt:THIS_FILE; RewriteCond ${relink:%{REQUEST_URI}|NONE} !=NONE; RewriteRule ^ ${relink:%{REQUEST_URI}} [R=301,L,NE]",
	OutputNetlify: "a _redirects file for Netlify or Cloudflare Pages",
}

// site is a parsed Redirects.Site.
type site struct {
	host, port string // canonical; port "" for none given
	anyPort    bool   // a bare host name: any default port
	prefix     string // path prefix, "" for the whole site
}

func parseSite(s string) (*site, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, ErrSite
	}
	raw := s
	bare := !strings.Contains(s, "://")
	if bare {
		raw = "http://" + s
	}
	c, err := canon.Canonicalize(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSite, err)
	}
	u, err := url.Parse(c)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSite, err)
	}
	st := &site{host: u.Hostname(), port: u.Port(), anyPort: bare && u.Port() == ""}
	if !bare {
		st.port = effectivePort(u)
		if p := strings.TrimSuffix(u.EscapedPath(), "/"); p != "" {
			st.prefix = p + "/"
		}
	}
	return st, nil
}

// effectivePort is u's port, or its scheme's default.
func effectivePort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch u.Scheme {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}

// holds parses dead and reports whether it is on the site.
func (s *site) holds(dead string) (*url.URL, bool) {
	c, err := canon.Canonicalize(dead)
	if err != nil {
		return nil, false
	}
	cu, err := url.Parse(c)
	if err != nil || (cu.Scheme != "http" && cu.Scheme != "https") || cu.Hostname() != s.host {
		return nil, false
	}
	switch {
	case s.anyPort:
		if cu.Port() != "" {
			return nil, false
		}
	case s.port != "" && effectivePort(cu) != s.port:
		return nil, false
	}
	u, err := url.Parse(strings.TrimSpace(dead))
	if err != nil {
		return nil, false
	}
	u.Fragment, u.RawFragment = "", ""
	if s.prefix != "" && !strings.HasPrefix(u.EscapedPath()+"/", s.prefix) {
		return nil, false
	}
	return u, true
}

// sameExceptScheme reports whether u and n name one resource but perhaps
// for the scheme: a redirect from one to the other would loop on a
// server that answers both schemes.
func sameExceptScheme(u, n *url.URL) bool {
	a, err1 := canon.Canonicalize("http://" + u.Hostname() + explicitPort(u) + u.EscapedPath() + query(u))
	b, err2 := canon.Canonicalize("http://" + n.Hostname() + explicitPort(n) + n.EscapedPath() + query(n))
	return err1 == nil && err2 == nil && a == b
}

// explicitPort is ":port" when u names a port that is not its scheme's
// default, and "" otherwise.
func explicitPort(u *url.URL) string {
	p := u.Port()
	if p == "" || (u.Scheme == "http" && p == "80") || (u.Scheme == "https" && p == "443") {
		return ""
	}
	return ":" + p
}

func query(u *url.URL) string {
	if u.RawQuery != "" || u.ForceQuery {
		return "?" + u.RawQuery
	}
	return ""
}

// target is the value of a redirect from u to n: n's path, query and
// fragment when n has u's scheme, host and port, n whole otherwise; with
// the bytes a URI may not hold percent-encoded.
func target(u, n *url.URL) string {
	if strings.EqualFold(u.Scheme, n.Scheme) && strings.EqualFold(u.Hostname(), n.Hostname()) && effectivePort(u) == effectivePort(n) {
		rel := *n
		rel.Scheme, rel.Host, rel.User, rel.Opaque = "", "", nil, ""
		s := rel.String()
		if !strings.HasPrefix(s, "/") {
			s = "/" + s
		}
		return safeURI(s, false)
	}
	return safeURI(n.String(), false)
}

// decodedPath is the path as nginx's $uri and mod_rewrite's REQUEST_URI
// hold it: decoded, dot segments resolved, slashes merged.
func decodedPath(u *url.URL) string {
	return removeDots(u.Path, true)
}

// removeDots resolves the "." and ".." segments of the absolute path p
// (RFC 3986 §5.2.4, as browsers do before they send a request), and
// merges runs of slashes when merge is set.
func removeDots(p string, merge bool) string {
	if p == "" {
		return "/"
	}
	var out []string
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, s := range segs {
		last := i == len(segs)-1
		switch {
		case s == "." || s == "..":
			if s == ".." && len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		case s == "" && merge && !last:
		default:
			out = append(out, s)
		}
	}
	return "/" + strings.Join(out, "/")
}

func nginxEntry(u, n *url.URL) (key, line, why string) {
	k := decodedPath(u)
	if strings.ContainsFunc(k, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return "", "", "the decoded path holds a control character"
	}
	v := strings.ReplaceAll(target(u, n), "$", "%24")
	return k, nginxQuote(k) + " " + nginxQuote(v) + ";", ""
}

// nginxQuote writes s in double quotes, as nginx's configuration parser
// reads them: \" and \\ are the only escapes needed.
func nginxQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

func apacheEntry(u, n *url.URL) (key, line, why string) {
	k := decodedPath(u)
	if strings.ContainsFunc(k, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return "", "", "the decoded path holds white space or a control character, which a txt map cannot"
	}
	line = k + " " + target(u, n)
	if len(line)+1 > 1023 {
		return "", "", "the line is over mod_rewrite's 1,023 bytes"
	}
	return k, line, ""
}

func netlifyEntry(u, n *url.URL) (key, line, why string) {
	k := removeDots(u.EscapedPath(), false)
	if strings.Contains(k, "*") {
		return "", "", "the path holds *, which _redirects reads as a splat"
	}
	for i := 0; i+1 < len(k); i++ {
		if k[i] == ':' && isAlpha(k[i+1]) {
			return "", "", "the path holds :name, which _redirects reads as a placeholder"
		}
	}
	line = k + " " + target(u, n) + " 301"
	if len(line) > 1000 {
		return "", "", "the line is over Cloudflare's 1,000 characters"
	}
	return k, line, ""
}

// commentSafe replaces with ? what would end or break a # comment line.
func commentSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || r == 0x2028 || r == 0x2029 {
			return '?'
		}
		return r
	}, s)
}
