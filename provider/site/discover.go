package site

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/linkrot/relink/provider/web"
)

// sitemaps reads the host's sitemaps into Report.Sitemap: the files the
// robots.txt Sitemap lines name (when the Fetcher can tell them), else
// /sitemap.xml; the files a sitemap index lists, one level deep. Only
// files and URLs on the crawled host count (sitemaps.org).
func (cr *crawl) sitemaps(ctx context.Context) error {
	root := cr.scheme + "://" + cr.rep.Host + "/"
	var files []string
	if l, ok := cr.c.Fetcher.(SitemapLister); ok {
		cr.rep.Requests++
		lines, err := l.Sitemaps(ctx, root)
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		for _, s := range lines {
			u, err := url.Parse(root)
			if err == nil {
				u, err = u.Parse(strings.TrimSpace(s))
			}
			switch {
			case err != nil || !isHTTP(u):
				cr.rep.cut(s, CutNotPage)
			case !strings.EqualFold(u.Host, cr.rep.Host):
				cr.rep.cut(s, CutSitemapOffHost)
			default:
				files = append(files, u.String())
			}
		}
	}
	if len(files) == 0 {
		files = []string{root + "sitemap.xml"}
	}
	top := len(files) // files not listed by an index
	read := map[string]bool{}
	for i := 0; i < len(files); i++ {
		f := files[i]
		if read[f] {
			continue
		}
		read[f] = true
		if len(cr.rep.Sitemaps) >= cr.c.maxSitemapFiles() {
			cr.rep.cut(f, CutSitemapFiles)
			continue
		}
		sm, rec, err := cr.readSitemap(ctx, f)
		if err != nil {
			return err
		}
		cr.rep.Sitemaps = append(cr.rep.Sitemaps, rec)
		if sm == nil {
			continue
		}
		for j, loc := range sm.URLs {
			switch {
			case sm.Index && i >= top:
				cr.rep.cut(loc, CutNestedIndex)
			case sm.Index:
				files = append(files, loc)
			case cr.rep.SitemapURLs < cr.c.maxSitemapURLs():
				cr.rep.SitemapURLs++
				u := SitemapURL{URI: loc}
				if sm.Modified != nil {
					u.Modified = sm.Modified[j]
				}
				cr.rep.Sitemap = append(cr.rep.Sitemap, u)
			}
		}
	}
	return nil
}

// readSitemap fetches and parses one sitemap file. A file that cannot be
// had or is not a sitemap gives a nil Sitemap and a record that says why;
// the error is ctx's alone.
func (cr *crawl) readSitemap(ctx context.Context, uri string) (*Sitemap, SitemapFile, error) {
	rec := SitemapFile{URI: uri}
	cr.rep.Requests++
	page, err := cr.c.Fetcher.Fetch(ctx, uri)
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, rec, ctx.Err()
	case errors.Is(err, web.ErrDisallowed):
		rec.Error = CutRobots
		return nil, rec, nil
	case err != nil:
		rec.Error = err.Error()
		return nil, rec, nil
	case page.Status != 200:
		rec.Error = fmt.Sprintf("status %d", page.Status)
		return nil, rec, nil
	}
	if final, err := url.Parse(page.URI); err != nil || !strings.EqualFold(final.Host, cr.rep.Host) {
		rec.Error = CutSitemapOffHost
		return nil, rec, nil
	}
	sm, err := ParseSitemap(bytes.NewReader(page.Body), page.URI)
	if err != nil {
		rec.Error = err.Error()
		return nil, rec, nil
	}
	if sm.Cut == nil && page.Header.Get(web.TruncatedHeader) != "" {
		sm.Cut = fmt.Errorf("%w: cut by the fetcher at %d bytes", ErrTooLarge, len(page.Body))
	}
	rec.Index, rec.URLs, rec.OffHost = sm.Index, len(sm.URLs), sm.OffHost
	if sm.Cut != nil {
		rec.Error = sm.Cut.Error()
	}
	return sm, rec, nil
}
