package site

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// gz returns b gzipped.
func gz(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestParseSitemap reads sitemaps as the sitemaps.org protocol writes
// them: <urlset> and <sitemapindex>, text files, gzip, and only the URLs
// on the sitemap's own host ("Sitemap file location").
func TestParseSitemap(t *testing.T) {
	const loc = "https://example.org/sitemap.xml"
	jan1 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	urlset := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.org/a.html</loc><lastmod>2024-01-01</lastmod></url>
  <url><loc> https://example.org/b?x=1&amp;y=2 </loc></url>
  <url><loc>https://other.example/c.html</loc></url>
  <url><loc>/relative.html</loc></url>
</urlset>`
	tests := []struct {
		name    string
		body    []byte
		want    *Sitemap
		wantErr error
	}{
		{"urlset", []byte(urlset), &Sitemap{URLs: []string{"https://example.org/a.html", "https://example.org/b?x=1&y=2"}, Modified: []time.Time{jan1, {}}, OffHost: 1, Invalid: 1}, nil},
		{"gzipped urlset", gz(t, []byte(urlset)), &Sitemap{URLs: []string{"https://example.org/a.html", "https://example.org/b?x=1&y=2"}, Modified: []time.Time{jan1, {}}, OffHost: 1, Invalid: 1}, nil},
		{"lastmod before loc, and after an entry without one", []byte(`<urlset><url><loc>https://example.org/a</loc></url><url><lastmod>2024-03-05T10:30:00+01:00</lastmod><loc>https://example.org/b</loc></url><url><loc>https://example.org/c</loc><lastmod>soon</lastmod></url></urlset>`),
			&Sitemap{URLs: []string{"https://example.org/a", "https://example.org/b", "https://example.org/c"}, Modified: []time.Time{{}, time.Date(2024, 3, 5, 9, 30, 0, 0, time.UTC), {}}}, nil},
		{"lastmod of an off-host url not kept", []byte(`<urlset><url><loc>https://x.example/a</loc><lastmod>2024-01-01</lastmod></url><url><loc>https://example.org/b</loc></url></urlset>`),
			&Sitemap{URLs: []string{"https://example.org/b"}, OffHost: 1}, nil},
		{"index", []byte(`<sitemapindex><sitemap><loc>https://example.org/s1.xml.gz</loc></sitemap><sitemap><loc>https://evil.example/s.xml</loc></sitemap></sitemapindex>`),
			&Sitemap{Index: true, URLs: []string{"https://example.org/s1.xml.gz"}, OffHost: 1}, nil},
		{"no namespace, upper case", []byte(`<URLSET><URL><LOC>http://example.org/x</LOC></URL></URLSET>`), &Sitemap{URLs: []string{"http://example.org/x"}}, nil},
		{"loc outside url ignored", []byte(`<urlset><loc>https://example.org/x</loc></urlset>`), &Sitemap{}, nil},
		{"text", []byte("https://example.org/a\n\nhttps://example.org/b\r\nhttps://x.example/c\n"), &Sitemap{URLs: []string{"https://example.org/a", "https://example.org/b"}, OffHost: 1}, nil},
		{"port is another host", []byte(`<urlset><url><loc>https://example.org:8443/a</loc></url></urlset>`), &Sitemap{OffHost: 1}, nil},
		{"html page", []byte(`<!DOCTYPE html><html><body>Not found</body></html>`), nil, ErrNotSitemap},
		{"rss", []byte(`<rss><channel></channel></rss>`), nil, ErrNotSitemap},
		{"empty", nil, nil, ErrNotSitemap},
		{"text not urls", []byte("hello world\n"), nil, ErrNotSitemap},
		{"broken gzip", []byte{0x1f, 0x8b, 1, 2, 3}, nil, ErrNotSitemap},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSitemap(bytes.NewReader(tt.body), loc)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("ParseSitemap error = %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseSitemap (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseSitemapCut checks that a file past the protocol's limits, or a
// decompression bomb, is cut with its reason, keeping what came before.
func TestParseSitemapCut(t *testing.T) {
	const loc = "https://example.org/sitemap.xml"
	entry := func(i int) string { return fmt.Sprintf("<url><loc>https://example.org/p%d</loc></url>\n", i) }
	t.Run("too many urls", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("<urlset>")
		for i := range MaxSitemapURLs + 10 {
			b.WriteString(entry(i))
		}
		b.WriteString("</urlset>")
		sm, err := ParseSitemap(strings.NewReader(b.String()), loc)
		if err != nil {
			t.Fatal(err)
		}
		if !errors.Is(sm.Cut, ErrTooManyURLs) || len(sm.URLs) != MaxSitemapURLs {
			t.Errorf("cut %v with %d URLs, want ErrTooManyURLs with %d", sm.Cut, len(sm.URLs), MaxSitemapURLs)
		}
	})
	t.Run("too large", func(t *testing.T) {
		pad := "<lastmod>" + strings.Repeat("x", 4000) + "</lastmod>"
		r := &genReader{head: "<urlset>", next: func(i int) string { return "<url>" + pad + entry(i)[5:] }}
		const limit = 1 << 20 // MaxSitemapBytes, made small to be quick
		sm, err := parseSitemap(r, loc, limit)
		if err != nil {
			t.Fatal(err)
		}
		if !errors.Is(sm.Cut, ErrTooLarge) || len(sm.URLs) == 0 {
			t.Errorf("cut %v with %d URLs, want ErrTooLarge with some", sm.Cut, len(sm.URLs))
		}
		if r.n > limit+64<<10 {
			t.Errorf("read %d bytes, want about %d", r.n, limit)
		}
	})
	t.Run("gzip bomb", func(t *testing.T) {
		body := "<urlset>" + entry(1) + strings.Repeat(" ", 8<<20) + entry(2) + "</urlset>"
		sm, err := ParseSitemap(bytes.NewReader(gz(t, []byte(body))), loc)
		if err != nil {
			t.Fatal(err)
		}
		if !errors.Is(sm.Cut, ErrBomb) || len(sm.URLs) != 1 {
			t.Errorf("cut %v with %d URLs, want ErrBomb with 1", sm.Cut, len(sm.URLs))
		}
	})
	t.Run("malformed keeps the urls before", func(t *testing.T) {
		sm, err := ParseSitemap(strings.NewReader("<urlset>"+entry(1)+"<url><loc>x</lo"), loc)
		if err != nil {
			t.Fatal(err)
		}
		if !errors.Is(sm.Cut, ErrMalformed) || len(sm.URLs) != 1 {
			t.Errorf("cut %v with %d URLs, want ErrMalformed with 1", sm.Cut, len(sm.URLs))
		}
	})
	t.Run("truncated gzip keeps the urls before", func(t *testing.T) {
		z := gz(t, []byte("<urlset>"+entry(1)+entry(2)+strings.Repeat(entry(3), 100)))
		sm, err := ParseSitemap(bytes.NewReader(z[:len(z)-20]), loc)
		if err != nil {
			t.Fatal(err)
		}
		if sm.Cut == nil || len(sm.URLs) < 2 {
			t.Errorf("cut %v with %d URLs, want a cut with at least 2", sm.Cut, len(sm.URLs))
		}
	})
}

// genReader streams head and then next(0), next(1), ... without end,
// counting the bytes read.
type genReader struct {
	head string
	next func(int) string
	buf  []byte
	i    int
	n    int
}

func (g *genReader) Read(p []byte) (int, error) {
	if len(g.buf) == 0 {
		if g.head != "" {
			g.buf, g.head = []byte(g.head), ""
		} else {
			g.buf = []byte(g.next(g.i))
			g.i++
		}
	}
	n := copy(p, g.buf)
	g.buf = g.buf[n:]
	g.n += n
	return n, nil
}

var _ io.Reader = (*genReader)(nil)

// TestParseLastmod reads the W3C Datetime forms sitemaps.org allows.
func TestParseLastmod(t *testing.T) {
	for in, want := range map[string]time.Time{
		"2024":                   time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC),
		"2024-05":                time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC),
		" 2024-05-06 ":           time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC),
		"2024-05-06T07:08+02:00": time.Date(2024, 5, 6, 5, 8, 0, 0, time.UTC),
		"2024-05-06T07:08:09Z":   time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC),
		"2024-05-06T07:08:09.5Z": time.Date(2024, 5, 6, 7, 8, 9, 5e8, time.UTC),
		"2024-05-06T07:08:09":    time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC),
		"2024-05-06 07:08:09":    time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC),
	} {
		if got, ok := ParseLastmod(in); !ok || !got.Equal(want) {
			t.Errorf("ParseLastmod(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "yesterday", "2024-13-01", "06/05/2024"} {
		if got, ok := ParseLastmod(in); ok {
			t.Errorf("ParseLastmod(%q) = %v, want no date", in, got)
		}
	}
}
