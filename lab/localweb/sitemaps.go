package localweb

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultSitemapPart is how many URLs one sitemap file of a host lists,
// the sitemaps.org protocol's limit: a host with more is given a sitemap
// index of gzipped parts.
const DefaultSitemapPart = 50_000

// Sitemaps chooses the hosts that publish a sitemap (Options.Sitemaps).
type Sitemaps func(host string) bool

// AllSitemaps publishes a sitemap for every host.
func AllSitemaps(string) bool { return true }

// ParseSitemaps reads the forms of localweb's -sitemaps flag: "all",
// "none" (or empty), or a comma-separated list of hosts. It returns nil
// for none.
func ParseSitemaps(spec string) (Sitemaps, error) {
	switch spec {
	case "", "none":
		return nil, nil
	case "all":
		return AllSitemaps, nil
	}
	hosts := map[string]bool{}
	for h := range strings.SplitSeq(spec, ",") {
		h = strings.ToLower(strings.TrimSpace(h))
		if h == "" || strings.ContainsAny(h, "/ :") {
			return nil, fmt.Errorf("localweb: bad host %q in sitemaps %q: want all, none or a list of hosts", h, spec)
		}
		hosts[h] = true
	}
	return func(host string) bool { return hosts[host] }, nil
}

// sitemapSet holds the current pages' URIs of every host that publishes a
// sitemap, read from the web store once, at the first request for one.
type sitemapSet struct {
	once  sync.Once
	err   error
	hosts map[string][]sitemapEntry // host to its pages, in URI order
}

// sitemapEntry is one page of a sitemap, with its <lastmod> ("" for none).
type sitemapEntry struct{ uri, lastmod string }

// SitemapAge is how long before the archive's captures a page the archive
// holds was last changed, and how long after them a page it does not hold
// was published, in the <lastmod> of a sitemap (Options.Sitemaps): a site
// whose sitemap dates its pages truthfully, the pages published since the
// capture (the moved mode's new addresses) dated after it.
const SitemapAge = 30 * 24 * time.Hour

// load reads the pages of the chosen hosts, leaving out those missing in
// the served view.
func (s *Server) loadSitemaps(ctx context.Context) error {
	s.sitemaps.once.Do(func() {
		s.sitemaps.hosts = map[string][]sitemapEntry{}
		for p, err := range s.web.Pages(ctx) {
			if err != nil {
				s.sitemaps.err = err
				return
			}
			u, err := url.Parse(p.URI)
			if err != nil || s.web.IsMissing(p.URI) {
				continue
			}
			host := strings.ToLower(u.Hostname())
			if s.opts.Sitemaps(host) {
				s.sitemaps.hosts[host] = append(s.sitemaps.hosts[host], sitemapEntry{p.URI, s.lastmod(p.URI)})
			}
		}
	})
	return s.sitemaps.err
}

// lastmod returns the <lastmod> of the current page uri: with an archive,
// SitemapAge before its captures when it holds uri, SitemapAge after them
// when it does not (a page published since); "" without an archive.
func (s *Server) lastmod(uri string) string {
	if s.arch == nil {
		return ""
	}
	if _, ok := s.arch.ordinal[uri]; ok && !s.arch.st.IsMissing(uri) {
		return s.arch.at.Add(-SitemapAge).Format(time.DateOnly)
	}
	return s.arch.at.Add(SitemapAge).Format(time.DateOnly)
}

// serveSitemap answers /robots.txt, /sitemap.xml and /sitemap-N.xml.gz for
// a host that publishes a sitemap, and reports false for any other
// request, which the store answers (a 404 for those paths).
func (s *Server) serveSitemap(w http.ResponseWriter, r *http.Request, scheme, host, port string) bool {
	path := r.URL.Path
	isPart := strings.HasPrefix(path, "/sitemap-") && strings.HasSuffix(path, ".xml.gz")
	if s.opts.Sitemaps == nil || !(path == "/robots.txt" || path == "/sitemap.xml" || isPart) || !s.opts.Sitemaps(host) {
		return false
	}
	if err := s.loadSitemaps(r.Context()); err != nil {
		s.errorLog().Printf("localweb: sitemaps: %v", err)
		http.Error(w, "500 internal server error", http.StatusInternalServerError)
		return true
	}
	base := scheme + "://" + host // as canon writes it: no default port
	if port != "" && !(scheme == "http" && port == "80" || scheme == "https" && port == "443") {
		base += ":" + port
	}
	uris := onSite(s.sitemaps.hosts[host], base)
	part := s.opts.SitemapPart
	if part <= 0 {
		part = DefaultSitemapPart
	}
	parts := (len(uris) + part - 1) / part
	switch {
	case path == "/robots.txt":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintf(w, "User-agent: *\nAllow: /\n\nSitemap: %s/sitemap.xml\n", base)
	case path == "/sitemap.xml" && parts <= 1:
		w.Header().Set("Content-Type", "application/xml; charset=utf-8")
		w.Write(urlset(uris))
	case path == "/sitemap.xml":
		var b bytes.Buffer
		b.WriteString(xmlHead + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for i := range parts {
			fmt.Fprintf(&b, "  <sitemap><loc>%s/sitemap-%d.xml.gz</loc></sitemap>\n", base, i+1)
		}
		b.WriteString("</sitemapindex>\n")
		w.Header().Set("Content-Type", "application/xml; charset=utf-8")
		w.Write(b.Bytes())
	default:
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(path, "/sitemap-"), ".xml.gz"))
		if err != nil || n < 1 || n > parts || parts <= 1 {
			return false
		}
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write(urlset(uris[(n-1)*part : min(n*part, len(uris))]))
		zw.Close()
		w.Header().Set("Content-Type", "application/gzip")
		w.Write(b.Bytes())
	}
	return true
}

// onSite returns the pages of pages on the site base (scheme, host and
// port): a sitemap lists its own site's URLs alone.
func onSite(pages []sitemapEntry, base string) []sitemapEntry {
	var out []sitemapEntry
	for _, p := range pages {
		if u := p.uri; u == base || strings.HasPrefix(u, base+"/") || strings.HasPrefix(u, base+"?") {
			out = append(out, p)
		}
	}
	return out
}

const xmlHead = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"

// urlset returns the <urlset> of pages.
func urlset(pages []sitemapEntry) []byte {
	var b bytes.Buffer
	b.WriteString(xmlHead + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, p := range pages {
		b.WriteString("  <url><loc>" + htmlEscape(p.uri) + "</loc>")
		if p.lastmod != "" {
			b.WriteString("<lastmod>" + p.lastmod + "</lastmod>")
		}
		b.WriteString("</url>\n")
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}
