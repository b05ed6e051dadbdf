package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/ccindex"
	"github.com/linkrot/relink/provider/memento"
	"github.com/linkrot/relink/provider/wayback"
	"github.com/linkrot/relink/provider/web"
)

// archiveNames are the values of -archive.
var archiveNames = []string{"none", "wayback", "memento", "ccindex"}

// archive is a web archive that holds past copies of the missing page.
type archive struct {
	name string
	// log is the Finder's Archive: the archive's Fetch, remembered.
	log *archiveLog
	// wayback is the Wayback Machine's client, which also knows historical
	// redirects; nil for other archives.
	wayback *wayback.Client
	// ccindex is the Common Crawl index's client, whose index keeps the
	// Location of redirect captures; nil for other archives.
	ccindex *ccindex.Client
	// close closes the client's idle connections.
	close func()
}

// archiveConfig is what the command line says about the archive.
type archiveConfig struct {
	name    string
	baseURL string // -archive-url; empty means the service's own
	dataURL string // -archive-data-url, for ccindex
	// userAgent, rate and allowPrivate are as for the other services.
	userAgent    string
	rate         rate.Limit
	allowPrivate bool
	net          netConfig // -proxy and -ca
}

// newArchive returns the archive c names, at c.baseURL when it is not
// empty; "none" gives nil. A URL that is not an absolute http(s) URL is a
// usage error here, not a failure of the archive noted later. The pages a
// MemGator answer names are fetched through the same guard as -fetch web:
// private and loopback addresses are refused unless allowPrivate (issue
// 12: an answer must not make the tool fetch an internal address).
func newArchive(c archiveConfig) (*archive, error) {
	for _, f := range []struct{ flag, value string }{{"archive-url", c.baseURL}, {"archive-data-url", c.dataURL}} {
		if u, err := url.Parse(f.value); f.value != "" && (err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "") {
			return nil, usagef("bad -%s %s: want an absolute http or https URL", f.flag, quoteArg(f.value))
		}
	}
	hc := c.net.serviceClient() // nil: each client's own
	switch c.name {
	case "none":
		return nil, nil
	case "wayback":
		w := &wayback.Client{BaseURL: c.baseURL, HTTP: hc, UserAgent: c.userAgent, Rate: c.rate}
		return &archive{name: c.name, log: &archiveLog{Fetcher: w}, wayback: w, close: w.CloseIdleConnections}, nil
	case "memento":
		if c.baseURL == "" {
			return nil, usagef("-archive memento needs -archive-url, the address of a MemGator server (such as %s): the Memento Time Travel service shut down in 2025", memento.LocalMemGator)
		}
		// An archive is a service asked, not a site crawled: its
		// robots.txt is not for its API's users.
		pages := &web.Client{UserAgent: c.userAgent, Rate: c.rate, AllowPrivate: c.allowPrivate, IgnoreRobots: true,
			Proxy: c.net.webProxy(), RootCAs: c.net.roots}
		m := &memento.Client{BaseURL: c.baseURL, HTTP: hc, UserAgent: c.userAgent, Rate: c.rate, Pages: pages}
		return &archive{name: c.name, log: &archiveLog{Fetcher: m}, close: func() {
			m.CloseIdleConnections()
			pages.CloseIdleConnections()
		}}, nil
	case "ccindex":
		cc := &ccindex.Client{IndexURL: strings.TrimSuffix(c.baseURL, "/"), DataURL: strings.TrimSuffix(c.dataURL, "/"), HTTP: hc, UserAgent: c.userAgent, Rate: c.rate, DataRate: c.rate}
		return &archive{name: c.name, log: &archiveLog{Fetcher: cc}, ccindex: cc, close: cc.CloseIdleConnections}, nil
	}
	return nil, usagef("unknown -archive %s: want one of %s", quoteArg(c.name), strings.Join(archiveNames, ", "))
}

// redirectLister returns the lister of a URI's historical redirects in a,
// or nil when a is nil or an archive that keeps none (memento: a TimeMap
// has no statuses).
func (a *archive) redirectLister() redirectLister {
	switch {
	case a == nil:
		return nil
	case a.wayback != nil:
		return waybackRedirects(a.wayback)
	case a.ccindex != nil:
		return ccindexRedirects(a.ccindex)
	}
	return nil
}

// archiveLog is a filter.Fetcher in front of an archive that remembers its
// last answer, so that the program can say which copy a method read, or
// why there was none: the Finder takes a failure to mean "no copy" and
// says nothing. It is safe for concurrent use.
type archiveLog struct {
	filter.Fetcher

	mu    sync.Mutex
	asked bool
	page  *filter.Page
	err   error
}

// Fetch asks the archive and remembers the answer.
func (a *archiveLog) Fetch(ctx context.Context, uri string) (*filter.Page, error) {
	p, err := a.Fetcher.Fetch(ctx, uri)
	a.mu.Lock()
	a.asked, a.page, a.err = true, p, err
	a.mu.Unlock()
	return p, err
}

// outcome returns the archived copy a method read, or nil and a note
// added to notes saying why there was none. It returns nil and notes as
// they are when no method asked the archive.
func (a *archive) outcome(notes []string) (*outputArchive, []string) {
	a.log.mu.Lock()
	defer a.log.mu.Unlock()
	p, err := a.log.page, a.log.err
	switch {
	case !a.log.asked:
		return nil, notes
	case err != nil:
		return nil, append(notes, fmt.Sprintf("%s gave no archived copy, going on without: %v", a.name, err))
	case !filter.IsSuccess(p.Status):
		return nil, append(notes, fmt.Sprintf("%s holds no archived copy of the page (status %d)", a.name, p.Status))
	}
	// Both archives' pages carry the headers of RFC 7089.
	out := &outputArchive{Service: a.name, Status: p.Status, Location: p.Header.Get(memento.ContentLocationHeader)}
	if t, err := http.ParseTime(p.Header.Get(memento.MementoDatetimeHeader)); err == nil {
		out.Captured = &t
	}
	return out, notes
}

// redirects asks the Wayback Machine where uri redirected in the past,
// concurrently with the rest of the run. The returned function waits for
// the answer, and may be called again; when the archive cannot tell, it
// gives a note instead.
func (a *archive) redirects(ctx context.Context, uri string) func() ([]outputRedirect, string) {
	type answer struct {
		rs  []wayback.Redirect
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		rs, err := a.wayback.Redirects(ctx, uri)
		ch <- answer{rs, err}
	}()
	return sync.OnceValues(func() ([]outputRedirect, string) {
		ans := <-ch
		if ans.err != nil {
			return nil, fmt.Sprintf("wayback could not list historical redirects: %v", ans.err)
		}
		out := []outputRedirect{}
		for _, r := range ans.rs {
			o := outputRedirect{
				Captured: r.Capture.Time, Status: r.Capture.Status, Final: r.Final,
				Loop: r.Loop, TooManyHops: r.TooManyHops,
			}
			for _, h := range r.Hops {
				o.Hops = append(o.Hops, outputHop{From: h.From, To: h.To, Status: h.Status, Time: h.Time})
			}
			out = append(out, o)
		}
		return out, ""
	})
}

// outputArchive is the archived copy a method read.
type outputArchive struct {
	Service  string     `json:"service"`
	Status   int        `json:"status"`
	Captured *time.Time `json:"captured,omitempty"`
	// Location is where in the archive the copy was read.
	Location string `json:"location,omitempty"`
}

// outputRedirect is one redirect capture of the missing URI and the chain
// of redirects it started.
type outputRedirect struct {
	Captured    time.Time   `json:"captured"`
	Status      int         `json:"status"`
	Final       string      `json:"final"`
	Hops        []outputHop `json:"hops"`
	Loop        bool        `json:"loop,omitempty"`
	TooManyHops bool        `json:"too_many_hops,omitempty"`
}

// outputHop is one redirect of a chain.
type outputHop struct {
	From   string    `json:"from"`
	To     string    `json:"to"`
	Status int       `json:"status"`
	Time   time.Time `json:"time"`
}
