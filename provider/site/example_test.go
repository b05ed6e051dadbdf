package site_test

import (
	"fmt"
	"strings"

	"github.com/linkrot/relink/provider/site"
)

// ExampleParseSitemap reads a sitemap: only the URLs on the sitemap's own
// host are kept, as the sitemaps.org protocol asks.
func ExampleParseSitemap() {
	body := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.org/docs/install.html</loc></url>
  <url><loc>https://example.org/docs/api.html</loc></url>
  <url><loc>https://tracker.example/page</loc></url>
</urlset>`
	sm, err := site.ParseSitemap(strings.NewReader(body), "https://example.org/sitemap.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sm.URLs)
	fmt.Println("off host:", sm.OffHost, "index:", sm.Index, "cut:", sm.Cut)
	// Output:
	// [https://example.org/docs/install.html https://example.org/docs/api.html]
	// off host: 1 index: false cut: <nil>
}
