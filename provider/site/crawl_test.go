package site

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/time/rate"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/web"
)

// testSite is an httptest server of fixed pages that records the paths
// asked for, in order.
type testSite struct {
	srv   *httptest.Server
	mu    sync.Mutex
	asked []string
	times []time.Time
	pages map[string]string // path (and query) to body; robots.txt included
	types map[string]string // path to Content-Type, when not text/html
	// handle, when not nil, answers first; it returns false to let the
	// pages answer.
	handle func(w http.ResponseWriter, r *http.Request) bool
}

func newSite(t *testing.T, pages map[string]string) *testSite {
	t.Helper()
	s := &testSite{pages: pages, types: map[string]string{}}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.asked = append(s.asked, r.URL.RequestURI())
		s.times = append(s.times, time.Now())
		s.mu.Unlock()
		if s.handle != nil && s.handle(w, r) {
			return
		}
		body, ok := s.pages[r.URL.RequestURI()]
		if !ok {
			http.NotFound(w, r)
			return
		}
		ct := s.types[r.URL.Path]
		if ct == "" {
			ct = "text/html; charset=utf-8"
		}
		w.Header().Set("Content-Type", ct)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// host returns the server's host:port.
func (s *testSite) host() string { u, _ := url.Parse(s.srv.URL); return u.Host }

// paths returns the paths asked for, robots.txt left out.
func (s *testSite) paths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, p := range s.asked {
		if p != "/robots.txt" {
			out = append(out, p)
		}
	}
	return out
}

// page returns an HTML page titled title with links (href, anchor pairs).
func page(title string, links ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html><html><head><title>%s</title></head><body><h1>%s</h1><p>Some text about %s.</p>", title, title, title)
	for i := 0; i+1 < len(links); i += 2 {
		fmt.Fprintf(&b, `<p><a href="%s">%s</a></p>`, links[i], links[i+1])
	}
	b.WriteString("</body></html>")
	return b.String()
}

// testClient is a web.Client for loopback test servers, without waits.
func testClient(t *testing.T) *web.Client {
	t.Helper()
	c := &web.Client{AllowPrivate: true, Rate: rate.Inf, Attempts: 1}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// collect returns a Visit that records the pages given and stops at stopAt.
func collect(got *[]string, stopAt string) func(context.Context, *filter.Page) (bool, error) {
	return func(_ context.Context, p *filter.Page) (bool, error) {
		u, _ := url.Parse(p.URI)
		*got = append(*got, u.RequestURI())
		return u.Path == stopAt, nil
	}
}

// TestCrawlBestFirst checks the order of a focused crawl: the home page,
// then the links whose anchor and URL words match the clues best, and the
// stop when Visit says an answer is confident.
func TestCrawlBestFirst(t *testing.T) {
	s := newSite(t, map[string]string{
		"/":                               page("Home", "/news/", "News", "/docs/", "Frobnicator documentation", "/about/", "About us"),
		"/news/":                          page("News", "/news/2024/", "Old news"),
		"/docs/":                          page("Docs", "/docs/install/", "Installing the frobnicator", "/docs/api/", "API reference"),
		"/about/":                         page("About"),
		"/docs/install/":                  page("Installing", "/docs/install/frobnicator-setup", "Frobnicator setup guide"),
		"/docs/install/frobnicator-setup": page("Frobnicator setup guide"),
	})
	var got []string
	rep, err := (&Crawler{Fetcher: testClient(t)}).Crawl(context.Background(), Job{
		Missing: s.srv.URL + "/guide/frobnicator-setup.html",
		Clues:   Clues{Anchors: []string{"Frobnicator setup guide"}, Title: "Setting up the frobnicator"},
		Visit:   collect(&got, "/docs/install/frobnicator-setup"),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/", "/docs/", "/docs/install/", "/docs/install/frobnicator-setup"} // the canonical /docs redirected
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pages visited (-want +got):\n%s", diff)
	}
	if rep.Stopped != StopConfident {
		t.Errorf("Stopped = %q, want %q", rep.Stopped, StopConfident)
	}
	if slices.Contains(s.paths(), "/about/") || slices.Contains(s.paths(), "/news/") {
		t.Errorf("fetched %v: pages with no clue word before the answer", s.paths())
	}
}

// TestCrawlSitemaps checks sitemap discovery: the robots.txt Sitemap
// line, a sitemap index with a gzipped part, URLs kept to the host, and
// the sitemap's URL found first by its words though no page links to it.
func TestCrawlSitemaps(t *testing.T) {
	s := newSite(t, map[string]string{
		"/":                  page("Home"),
		"/hidden/frobnicate": page("Frobnicate"),
		"/other":             page("Other"),
	})
	part := `<urlset><url><loc>` + s.srv.URL + `/other</loc></url><url><loc>` + s.srv.URL + `/hidden/frobnicate</loc></url><url><loc>https://elsewhere.example/x</loc></url></urlset>`
	s.pages["/robots.txt"] = "User-agent: *\nAllow: /\nSitemap: /maps/index.xml\nSitemap: https://elsewhere.example/sitemap.xml\n"
	s.pages["/maps/index.xml"] = `<sitemapindex><sitemap><loc>` + s.srv.URL + `/maps/part1.xml.gz</loc></sitemap><sitemap><loc>` + s.srv.URL + `/maps/nested.xml</loc></sitemap></sitemapindex>`
	s.pages["/maps/part1.xml.gz"] = string(gz(t, []byte(part)))
	s.types["/maps/part1.xml.gz"] = "application/gzip"
	s.pages["/maps/nested.xml"] = `<sitemapindex><sitemap><loc>` + s.srv.URL + `/maps/deeper.xml</loc></sitemap></sitemapindex>`
	var got []string
	rep, err := (&Crawler{Fetcher: testClient(t)}).Crawl(context.Background(), Job{
		Missing: s.srv.URL + "/old/frobnicate.html",
		Visit:   collect(&got, "/hidden/frobnicate"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"/", "/hidden/frobnicate"}, got); diff != "" {
		t.Errorf("pages visited (-want +got):\n%s\n%v", diff, s.paths())
	}
	wantFiles := []SitemapFile{
		{URI: s.srv.URL + "/maps/index.xml", Index: true, URLs: 2},
		{URI: s.srv.URL + "/maps/part1.xml.gz", URLs: 2, OffHost: 1},
		{URI: s.srv.URL + "/maps/nested.xml", Index: true, URLs: 1},
	}
	if diff := cmp.Diff(wantFiles, rep.Sitemaps); diff != "" {
		t.Errorf("Sitemaps (-want +got):\n%s", diff)
	}
	if rep.Cut[CutSitemapOffHost] != 1 || rep.Cut[CutNestedIndex] != 1 {
		t.Errorf("Cut = %v, want one %s and one %s", rep.Cut, CutSitemapOffHost, CutNestedIndex)
	}
	if rep.SitemapURLs != 2 {
		t.Errorf("SitemapURLs = %d, want 2", rep.SitemapURLs)
	}
}

// TestCrawlRecentSitemapURLs checks the sitemap's own queue: URLs
// modified after the missing page was last seen, which no page links to
// and whose paths share no word with the clues, are read before the
// pages the links' words lead to, and, the date known, the crawl ends
// once they are read, not before, though an older page looked confident;
// without the date the newer half of the sitemap's dates are read early
// and the crawl goes on.
func TestCrawlRecentSitemapURLs(t *testing.T) {
	newHost := func() *testSite {
		s := newSite(t, map[string]string{
			"/":                      page("Home", "/docs/frobnicate-guide", "Frobnicate guide", "/docs/frobnicate-api", "Frobnicate API", "/about", "About"),
			"/docs/frobnicate-guide": page("Frobnicate guide", "/docs/frobnicate-more", "More on frobnicate"),
			"/docs/frobnicate-api":   page("Frobnicate API"),
			"/docs/frobnicate-more":  page("More"),
			"/about":                 page("About"),
			"/r/1f3a.html":           page("Something else"),
			"/r/9c2e.html":           page("Frobnicator setup"),
		})
		entry := func(path, date string) string {
			return "<url><loc>" + s.srv.URL + path + "</loc><lastmod>" + date + "</lastmod></url>"
		}
		s.pages["/sitemap.xml"] = "<urlset>" + entry("/", "2019-05-01") + entry("/docs/frobnicate-guide", "2019-05-01") +
			entry("/docs/frobnicate-api", "2019-05-01") + entry("/about", "2019-05-01") +
			entry("/r/1f3a.html", "2021-02-01") + entry("/r/9c2e.html", "2021-03-01") + "</urlset>"
		return s
	}
	clues := Clues{Anchors: []string{"Frobnicate setup"}, URI: "/old/frobnicate-setup.html"}

	s := newHost()
	clues.Since = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	var got []string
	// A page older than the date is confident: the recent ones are read
	// all the same.
	rep, err := (&Crawler{Fetcher: testClient(t)}).Crawl(context.Background(), Job{Missing: s.srv.URL + "/old/frobnicate-setup.html", Clues: clues, Visit: collect(&got, "/docs/frobnicate-guide")})
	if err != nil {
		t.Fatal(err)
	}
	// Every other page from the sitemap's queue, the newest recent one
	// first; the others by their words.
	want := []string{"/", "/r/9c2e.html", "/docs/frobnicate-guide", "/r/1f3a.html"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pages visited (-want +got):\n%s", diff)
	}
	if rep.Stopped != StopSitemapDone || rep.Recent != 2 {
		t.Errorf("Stopped %q, Recent %d; want %q, 2", rep.Stopped, rep.Recent, StopSitemapDone)
	}

	s = newHost()
	clues.Since = time.Time{}
	got = nil
	rep, err = (&Crawler{Fetcher: testClient(t)}).Crawl(context.Background(), Job{Missing: s.srv.URL + "/old/frobnicate-setup.html", Clues: clues, Visit: collect(&got, "")})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < 4 || !slices.Contains(got[:4], "/r/9c2e.html") || !slices.Contains(got[:4], "/r/1f3a.html") {
		t.Errorf("pages visited %v: want the two newest sitemap URLs among the first four", got)
	}
	if rep.Stopped != StopExhausted || rep.Recent != 2 {
		t.Errorf("Stopped %q, Recent %d; want %q, 2", rep.Stopped, rep.Recent, StopExhausted)
	}
}

// TestCrawlDefaultSitemap checks that without Sitemap lines the crawl
// reads /sitemap.xml, and that a host without one costs one request.
func TestCrawlDefaultSitemap(t *testing.T) {
	s := newSite(t, map[string]string{"/": page("Home", "/a", "A")})
	s.pages["/a"] = page("A")
	rep, err := (&Crawler{Fetcher: testClient(t)}).Crawl(context.Background(), Job{Missing: s.srv.URL + "/x"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"/", "/sitemap.xml", "/a"}, s.paths()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	if rep.Stopped != StopExhausted || len(rep.Sitemaps) != 1 || rep.Sitemaps[0].Error != "status 404" {
		t.Errorf("report = %+v", rep)
	}
}

// TestCrawlSitemapBomb checks that a gzipped sitemap that expands like a
// bomb is cut with its reason and what it held before the cut is kept.
func TestCrawlSitemapBomb(t *testing.T) {
	s := newSite(t, map[string]string{"/": page("Home"), "/first": page("First")})
	s.pages["/sitemap.xml"] = string(gz(t, []byte("<urlset><url><loc>"+s.srv.URL+"/first</loc></url>"+strings.Repeat(" ", 4<<20)+"<url><loc>"+s.srv.URL+"/second</loc></url></urlset>")))
	s.types["/sitemap.xml"] = "application/x-gzip"
	rep, err := (&Crawler{Fetcher: testClient(t)}).Crawl(context.Background(), Job{Missing: s.srv.URL + "/x"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Sitemaps) != 1 || !strings.Contains(rep.Sitemaps[0].Error, ErrBomb.Error()) || rep.Sitemaps[0].URLs != 1 {
		t.Errorf("Sitemaps = %+v, want one cut as a bomb with 1 URL", rep.Sitemaps)
	}
	if !slices.Contains(s.paths(), "/first") || slices.Contains(s.paths(), "/second") {
		t.Errorf("fetched %v, want /first and not /second", s.paths())
	}
}

// TestCrawlTraps checks that calendars, endless query strings, session
// identifiers and ever-deeper paths are cut with their reasons, within a
// few requests.
func TestCrawlTraps(t *testing.T) {
	s := newSite(t, map[string]string{"/": page("Home", "/calendar/2024/1", "Next month", "/a/", "Deeper", "/r/", "Again", "/list?sort=a", "Sorted", "/item;jsessionid=ABC123", "Item", "/big?a=1&b=2&c=3&d=4&e=5", "Filtered")})
	s.handle = func(w http.ResponseWriter, r *http.Request) bool {
		var body string
		switch {
		case strings.HasPrefix(r.URL.Path, "/calendar"):
			var y, m int
			fmt.Sscanf(r.URL.Path, "/calendar/%d/%d", &y, &m)
			body = page("Calendar", fmt.Sprintf("/calendar/%d/%d", y+(m+1)/13, (m%12)+1), "Next month")
		case strings.HasPrefix(r.URL.Path, "/a"):
			body = page("Deeper", fmt.Sprintf("%s/s%d/", r.URL.Path, strings.Count(r.URL.Path, "/")), "Deeper")
		case strings.HasPrefix(r.URL.Path, "/r"):
			body = page("Again", "r/x/", "Again")
		case r.URL.Path == "/list":
			body = page("List", "/list?sort="+r.URL.Query().Get("sort")+"x", "Sort again")
		case r.URL.Path == "/item":
			body = page("Item")
		default:
			return false
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, body)
		return true
	}
	rep, err := (&Crawler{Fetcher: testClient(t)}).Crawl(context.Background(), Job{Missing: s.srv.URL + "/x"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stopped != StopExhausted {
		t.Errorf("Stopped = %q, want %q", rep.Stopped, StopExhausted)
	}
	for _, reason := range []string{CutCalendar, CutDeepPath, CutRepeatingPath, CutQueryVariants, CutSessionID, CutLongQuery} {
		if rep.Cut[reason] == 0 {
			t.Errorf("no %s cut: %v", reason, rep.Cut)
		}
	}
	// /, /sitemap.xml, 12 deep paths (DefaultMaxDepth), 10 calendar pages
	// (DefaultMaxPerPattern), 3 list variants, /r, /r/x and /r/r/x, /item.
	if n := len(s.paths()); n > 2+DefaultMaxDepth+DefaultMaxPerPattern+DefaultMaxQueryVariants+3+1 {
		t.Errorf("%d requests: %v", n, s.paths())
	}
	if !slices.Contains(s.paths(), "/item") {
		t.Errorf("fetched %v, want /item without its session id", s.paths())
	}
}

// TestCrawlRobots checks that a path robots.txt disallows is never asked
// for, and is counted.
func TestCrawlRobots(t *testing.T) {
	s := newSite(t, map[string]string{
		"/":           page("Home", "/private/a", "Frobnicate", "/public", "Public"),
		"/private/a":  page("Private"),
		"/public":     page("Public"),
		"/robots.txt": "User-agent: *\nDisallow: /private\n",
	})
	rep, err := (&Crawler{Fetcher: testClient(t)}).Crawl(context.Background(), Job{Missing: s.srv.URL + "/frobnicate"})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(s.paths(), "/private/a") {
		t.Errorf("fetched a disallowed path: %v", s.paths())
	}
	if rep.Cut[CutRobots] != 1 || !slices.Contains(s.paths(), "/public") {
		t.Errorf("Cut = %v, paths %v", rep.Cut, s.paths())
	}
}

// TestCrawlDelay checks that the crawl keeps to a robots.txt Crawl-delay:
// every request goes through the Fetcher, whose politeness holds. As in
// package web, the bound is on the client's own waiting, not on arrival
// times at the server, which bunch up when the machine is busy: the n
// requests after robots.txt take at least n-1 delays.
func TestCrawlDelay(t *testing.T) {
	s := newSite(t, map[string]string{
		"/":           page("Home", "/a", "A", "/b", "B"),
		"/a":          page("A"),
		"/b":          page("B"),
		"/robots.txt": "User-agent: *\nCrawl-delay: 0.1\n",
	})
	start := time.Now()
	if _, err := (&Crawler{Fetcher: testClient(t)}).Crawl(context.Background(), Job{Missing: s.srv.URL + "/x"}); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if diff := cmp.Diff([]string{"/", "/sitemap.xml", "/a", "/b"}, s.paths()); diff != "" {
		t.Fatalf("requests (-want +got):\n%s", diff)
	}
	if took < 3*100*time.Millisecond {
		t.Errorf("four requests took %v, want at least three Crawl-delays of 100ms", took)
	}
}

// TestCrawlDomainChange checks that a root redirecting to another host
// makes that host the one crawled, the seeds' old-host links moved onto it.
func TestCrawlDomainChange(t *testing.T) {
	newSite := newSite(t, map[string]string{
		"/":                page("New home"),
		"/guide/frob.html": page("Frobnicator guide"),
	})
	old := newSiteRedirect(t, newSite.srv.URL)
	var got []string
	rep, err := (&Crawler{Fetcher: testClient(t)}).Crawl(context.Background(), Job{
		Missing: old.srv.URL + "/old/frob.html",
		Seeds:   []Link{{URI: old.srv.URL + "/guide/frob.html", Anchor: "Frobnicator guide"}},
		Visit:   collect(&got, "/guide/frob.html"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.MovedTo != newSite.host() || rep.Host != newSite.host() {
		t.Errorf("MovedTo %q, Host %q; want %q", rep.MovedTo, rep.Host, newSite.host())
	}
	if diff := cmp.Diff([]string{"/", "/guide/frob.html"}, got); diff != "" {
		t.Errorf("pages visited (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"/"}, old.paths()); diff != "" {
		t.Errorf("old host asked (-want +got):\n%s", diff)
	}
}

// newSiteRedirect returns a site whose every path redirects to the same
// path on target.
func newSiteRedirect(t *testing.T, target string) *testSite {
	s := newSite(t, nil)
	s.handle = func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path == "/robots.txt" {
			return false
		}
		http.Redirect(w, r, target+r.URL.RequestURI(), http.StatusMovedPermanently)
		return true
	}
	return s
}

// TestCrawlSlowHost checks that a host that never answers in time is cut
// after MaxFailures fetches, with the failure recorded.
func TestCrawlSlowHost(t *testing.T) {
	s := newSite(t, map[string]string{"/robots.txt": ""})
	s.handle = func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path == "/robots.txt" {
			return false
		}
		<-r.Context().Done() // never answers
		return true
	}
	c := testClient(t)
	c.Timeout = 50 * time.Millisecond
	seeds := []Link{{URI: s.srv.URL + "/a"}, {URI: s.srv.URL + "/b"}, {URI: s.srv.URL + "/c"}, {URI: s.srv.URL + "/d"}}
	rep, err := (&Crawler{Fetcher: c}).Crawl(context.Background(), Job{Missing: s.srv.URL + "/x", Seeds: seeds})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stopped != StopFailing || !strings.Contains(rep.Failure, web.ErrTimeout.Error()) {
		t.Errorf("Stopped %q, Failure %q; want %q with a timeout", rep.Stopped, rep.Failure, StopFailing)
	}
	if n := len(s.paths()); n != 4 { // /, /sitemap.xml, and two seeds
		t.Errorf("%d requests, want 4: %v", n, s.paths())
	}
}

// TestCrawlBudget checks that a crawl fetches at most Budget pages and
// that Known pages cost no request.
func TestCrawlBudget(t *testing.T) {
	pages := map[string]string{"/": page("Home", "/p0", "P")}
	for i := range 20 {
		pages[fmt.Sprintf("/p%d", i)] = page("P", fmt.Sprintf("/p%d", i+1), "P")
	}
	s := newSite(t, pages)
	known := func(_ context.Context, uri string) (*filter.Page, bool) {
		if uri != s.srv.URL+"/" {
			return nil, false
		}
		return &filter.Page{URI: uri, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte(pages["/"])}, true
	}
	rep, err := (&Crawler{Fetcher: testClient(t), Budget: 5}).Crawl(context.Background(), Job{Missing: s.srv.URL + "/x", Known: known})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/sitemap.xml", "/p0", "/p1", "/p2", "/p3", "/p4"}
	if diff := cmp.Diff(want, s.paths()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	if rep.Stopped != StopBudget || rep.Known != 1 {
		t.Errorf("Stopped %q, Known %d; want %q, 1", rep.Stopped, rep.Known, StopBudget)
	}
}
