package web

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzRobotsGroup checks the decision a robots.txt body gives for any user
// agent and path: parsing and matching never panic, parsing is
// deterministic (two parses give the same verdict), and the Crawl-delay of
// the group that applies is never negative, which would turn a site's
// request to slow down into none (RFC 9309 §2.2 asks a crawler to use what it
// can parse of any body).
func FuzzRobotsGroup(f *testing.F) {
	seeds := []struct{ body, agent, path string }{
		{"User-agent: *\nDisallow: /private/\nAllow: /private/public.html\n", DefaultUserAgent, "/private/x.html"},
		{"User-agent: relink\nDisallow: /*.pdf$\nCrawl-delay: 2.5\n\nUser-agent: *\nDisallow: /\n", "relink/0.1", "/a.pdf"},
		{"user-agent: RELINK\ndisallow: /\n", "Relink (+https://example.com)", "/robots.txt"},
		{"User-agent: *\nCrawl-delay: 1e308\nCrawl-delay: -3\nCrawl-delay: NaN\n", "relink", "/"},
		{"Disallow: /\n# a rule before any group\nUser-agent: *\nAllow: /$\n", "bot", "/?q=%2F"},
		{"\xef\xbb\xbfUser-agent: *\r\nDisallow: /%E2%82%AC/\r\n", "x", "/€/"},
		{"<html><body>Not found</body></html>", "relink", "/index.html"},
	}
	for _, s := range seeds {
		f.Add([]byte(s.body), s.agent, s.path)
	}
	f.Fuzz(func(t *testing.T, body []byte, agent, path string) {
		data := parseRobots(body)
		if data == nil {
			return
		}
		g := data.FindGroup(productToken(agent))
		if g == nil {
			return
		}
		e := &robotsEntry{group: g}
		if d, err := e.check(&url.URL{Scheme: "http", Host: "example.com", Path: "/"}); err == nil && d < 0 {
			t.Fatalf("Crawl-delay %v for %q", d, agent)
		}
		allowed := g.Test(path)
		if again := parseRobots(body).FindGroup(productToken(agent)).Test(path); again != allowed {
			t.Fatalf("a second parse says %v for %q, the first %v", again, path, allowed)
		}
	})
}

// FuzzRobotsOrigin checks that the origin whose robots.txt applies to a URI
// is lowercase, has no path, default port or user information, and is the
// same for the origin itself (RFC 9309 §2.3).
func FuzzRobotsOrigin(f *testing.F) {
	for _, s := range []string{
		"http://Example.COM:80/a/b?c", "https://example.com:443/", "https://example.com:8443/x",
		"http://user:pass@example.com/", "http://[::1]:80/", "HTTP://xn--bcher-kva.example/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := parseURI(raw)
		if err != nil {
			return
		}
		origin := robotsOrigin(u)
		if origin != strings.ToLower(origin) {
			t.Fatalf("robotsOrigin(%q) = %q is not lowercase", raw, origin)
		}
		o, err := url.Parse(origin)
		if err != nil {
			t.Fatalf("robotsOrigin(%q) = %q does not parse: %v", raw, origin, err)
		}
		if o.User != nil || o.Path != "" || o.RawQuery != "" {
			t.Fatalf("robotsOrigin(%q) = %q has user information, a path or a query", raw, origin)
		}
		if again := robotsOrigin(o); again != origin {
			t.Fatalf("robotsOrigin of %q = %q, want it unchanged", origin, again)
		}
	})
}
