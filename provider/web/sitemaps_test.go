package web

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSitemaps checks that Client.Sitemaps gives the Sitemap lines of the
// robots.txt Fetch obeys (RFC 9309 §2.2.4: they belong to no group), one
// fetch of the file serving both, also when a bad line makes the file be
// parsed again line by line.
func TestSitemaps(t *testing.T) {
	tests := []struct {
		name   string
		status int
		robots string
		want   []string
		err    error
	}{
		{"two lines", 200, "Sitemap: https://example.org/a.xml\nUser-agent: *\nDisallow: /private\nsitemap: /b.xml.gz\n", []string{"https://example.org/a.xml", "/b.xml.gz"}, nil},
		{"none", 200, "User-agent: *\nDisallow: /private\n", nil, nil},
		{"kept after a bad line", 200, "Disallow: /\nUser-agent: *\nCrawl-delay: soon\nSitemap: https://example.org/s.xml\n", []string{"https://example.org/s.xml"}, nil},
		{"404", 404, "Sitemap: https://example.org/a.xml\n", nil, nil},
		{"503", 503, "", nil, ErrDisallowed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n counter
			base := robotsServer(t, &n, tt.status, tt.robots)
			c := testClient(t)
			c.Attempts = 1
			got, err := c.Sitemaps(context.Background(), base+"/any/page")
			if !errors.Is(err, tt.err) {
				t.Fatalf("Sitemaps = %v, %v; want error %v", got, err, tt.err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Sitemaps (-want +got):\n%s", diff)
			}
			if tt.err == nil {
				if _, err := c.Fetch(context.Background(), base+"/public"); err != nil {
					t.Fatal(err)
				}
			}
			if got := n.get("/robots.txt"); got != 1 {
				t.Errorf("robots.txt fetched %d times, want 1", got)
			}
		})
	}
	if _, err := (&Client{}).Sitemaps(context.Background(), "ftp://example.org/"); !errors.Is(err, ErrUnsupportedURI) {
		t.Errorf("Sitemaps(ftp) error = %v, want ErrUnsupportedURI", err)
	}
}
