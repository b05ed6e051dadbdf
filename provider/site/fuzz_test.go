package site

import (
	"bytes"
	"net/url"
	"strings"
	"testing"
)

// FuzzParseSitemap checks that any bytes give a sitemap or an error,
// never a panic, and that every URL kept is an absolute http(s) URL on
// the sitemap's host, at most MaxSitemapURLs of them.
func FuzzParseSitemap(f *testing.F) {
	f.Add([]byte(`<urlset><url><loc>https://example.org/a</loc></url></urlset>`))
	f.Add([]byte(`<sitemapindex><sitemap><loc>https://example.org/s.xml</loc></sitemap></sitemapindex>`))
	f.Add([]byte("https://example.org/a\nhttps://example.org/b\n"))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255})
	f.Add([]byte(`<!DOCTYPE urlset [<!ENTITY a "aaaa">]><urlset><url><loc>https://example.org/&a;</loc></url></urlset>`))
	f.Fuzz(func(t *testing.T, body []byte) {
		sm, err := ParseSitemap(bytes.NewReader(body), "https://example.org/sitemap.xml")
		if err != nil {
			return
		}
		if len(sm.URLs) > MaxSitemapURLs {
			t.Fatalf("%d URLs kept", len(sm.URLs))
		}
		for _, s := range sm.URLs {
			u, err := url.Parse(s)
			if err != nil || !isHTTP(u) || !strings.EqualFold(u.Host, "example.org") {
				t.Fatalf("kept %q", s)
			}
		}
	})
}
