package localweb_test

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/lab/localweb"
	"github.com/linkrot/relink/provider/site"
)

// TestSitemaps checks the sitemaps a chosen host publishes, read with
// relink's own clients: the robots.txt Sitemap line (web.Client.Sitemaps)
// and a sitemap index of gzipped parts (site.ParseSitemap) that list the
// host's current pages, the missing one left out; a host not chosen
// answers 404 there.
func TestSitemaps(t *testing.T) {
	hosts, err := localweb.ParseSitemaps("docs.python.org")
	if err != nil {
		t.Fatal(err)
	}
	web := newStore(t, false).WithMissing(pyBase + "library/json.html")
	srv := start(t, localweb.Options{Web: web, Relaxed: true, Sitemaps: hosts, SitemapPart: 2})
	c := webClient(t, srv)
	ctx := context.Background()

	lines, err := c.Sitemaps(ctx, pyBase)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"https://docs.python.org/sitemap.xml"}, lines); diff != "" {
		t.Fatalf("Sitemap lines (-want +got):\n%s", diff)
	}
	p, err := c.Fetch(ctx, lines[0])
	if err != nil {
		t.Fatal(err)
	}
	index, err := site.ParseSitemap(bytes.NewReader(p.Body), p.URI)
	if err != nil {
		t.Fatal(err)
	}
	if !index.Index || len(index.URLs) != 2 {
		t.Fatalf("sitemap.xml = %+v, want an index of 2 parts", index)
	}
	var got []string
	for _, part := range index.URLs {
		p, err := c.Fetch(ctx, part)
		if err != nil {
			t.Fatal(err)
		}
		sm, err := site.ParseSitemap(bytes.NewReader(p.Body), p.URI)
		if err != nil {
			t.Fatalf("%s: %v", part, err)
		}
		if p.Header.Get("Content-Type") != "application/gzip" || sm.Index || len(sm.URLs) > 2 || sm.Cut != nil {
			t.Errorf("%s: %s, %+v", part, p.Header.Get("Content-Type"), sm)
		}
		got = append(got, sm.URLs...)
	}
	slices.Sort(got)
	want := []string{"https://docs.python.org/3.11", "https://docs.python.org/3.11/library/os.html", "https://docs.python.org/3.11/tutorial"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sitemap URLs (-want +got):\n%s", diff)
	}

	for _, path := range []string{"robots.txt", "sitemap.xml", "sitemap-1.xml.gz"} {
		p, err := c.Fetch(ctx, "https://en.wikipedia.org/"+path)
		if err != nil {
			t.Fatal(err)
		}
		if p.Status != 404 {
			t.Errorf("wikipedia /%s answered %d, want 404", path, p.Status)
		}
	}
	if p, err := c.Fetch(ctx, "https://docs.python.org/sitemap-3.xml.gz"); err != nil || p.Status != 404 {
		t.Errorf("a part past the last: %v, %v; want 404", p, err)
	}
}

// TestSitemapsOne checks that a host whose pages fit one file gets a
// <urlset>, not an index, and that ParseSitemaps reads the flag's forms.
func TestSitemapsOne(t *testing.T) {
	srv := start(t, localweb.Options{Relaxed: true, Sitemaps: localweb.AllSitemaps})
	c := webClient(t, srv)
	p, err := c.Fetch(context.Background(), "https://en.wikipedia.org/sitemap.xml")
	if err != nil {
		t.Fatal(err)
	}
	sm, err := site.ParseSitemap(bytes.NewReader(p.Body), p.URI)
	if err != nil {
		t.Fatal(err)
	}
	if sm.Index || len(sm.URLs) != 2 {
		t.Errorf("sitemap = %+v, want a urlset of the 2 wiki pages", sm)
	}
	for _, spec := range []string{"none", ""} {
		if f, err := localweb.ParseSitemaps(spec); f != nil || err != nil {
			t.Errorf("ParseSitemaps(%q) = non-nil, %v; want nil", spec, err)
		}
	}
	if _, err := localweb.ParseSitemaps("a.example,https://b.example/"); err == nil {
		t.Error("ParseSitemaps accepted a URL for a host")
	}
	if f, err := localweb.ParseSitemaps("A.example, b.example"); err != nil || !f("a.example") || !f("b.example") || f("c.example") {
		t.Errorf("ParseSitemaps(list) = %v", err)
	}
}

// TestSitemapsLastmod checks the sitemap's dates with an archive: a page
// the archive holds was last changed before its captures, a page it does
// not hold (published since) after them.
func TestSitemapsLastmod(t *testing.T) {
	archive := newStore(t, false).WithMissing(pyBase + "library/os.html")
	srv := start(t, localweb.Options{Archive: archive, Relaxed: true, Sitemaps: localweb.AllSitemaps})
	c := webClient(t, srv)
	p, err := c.Fetch(context.Background(), "https://docs.python.org/sitemap.xml")
	if err != nil {
		t.Fatal(err)
	}
	sm, err := site.ParseSitemap(bytes.NewReader(p.Body), p.URI)
	if err != nil {
		t.Fatal(err)
	}
	if len(sm.Modified) != len(sm.URLs) || !slices.Contains(sm.URLs, "https://docs.python.org/3.11/library/os.html") {
		t.Fatalf("sitemap = %+v, want dated URLs, os.html's too", sm)
	}
	at := localweb.DefaultArchiveTime
	for i, u := range sm.URLs {
		after := sm.Modified[i].After(at)
		if want := u == "https://docs.python.org/3.11/library/os.html"; after != want {
			t.Errorf("%s: lastmod %v, after the captures (%v): %v, want %v", u, sm.Modified[i], at, after, want)
		}
	}
}
