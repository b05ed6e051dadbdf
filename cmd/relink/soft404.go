package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/web"
)

const soft404Help = `
usage: relink soft404 [-json] [-timeout 30s] [-attempts 5] [-rate 1] [-user-agent UA] [-allow-private] [-ignore-robots] [-random S] URL

Soft404 runs the paper's soft 404 check on a live URL (§3.1 "Soft 404s"):
it fetches the page and two probe URIs with a random string inserted after
the first and after the last slash of the path, compares the words of each
probe's page with the page's (Jaccard similarity), and says whether the
page is a soft 404, a "not found" page served with status 200.

It fetches politely: robots.txt is obeyed unless -ignore-robots, one
request per second per host unless -rate says otherwise, and private and
loopback addresses are refused unless -allow-private (needed to try it on
a server on this machine). The exit code is 0 when a verdict was reached,
whatever it is, and 1 when the page itself could not be fetched; a host
that cannot be reached is reported as unreachable.
`

// soft404Config is soft404's command line.
type soft404Config struct {
	asJSON, allowPrivate, ignoreRobots bool
	timeout                            time.Duration
	attempts                           int
	perSecond                          float64
	userAgent, random                  string
}

func soft404Flags() (*flag.FlagSet, *soft404Config) {
	var c soft404Config
	fs := newFlagSet("soft404")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON instead of text")
	fs.DurationVar(&c.timeout, "timeout", web.DefaultTimeout, "most time for one request, body included")
	fs.IntVar(&c.attempts, "attempts", web.DefaultAttempts, "attempts per URI (the paper made five)")
	fs.Float64Var(&c.perSecond, "rate", float64(web.DefaultRate), "requests per second to the host; 0 for no limit")
	fs.StringVar(&c.userAgent, "user-agent", web.DefaultUserAgent, "User-Agent to send and to match in robots.txt")
	fs.BoolVar(&c.allowPrivate, "allow-private", false, "allow private and loopback addresses (e.g. localhost)")
	fs.BoolVar(&c.ignoreRobots, "ignore-robots", false, "do not obey robots.txt")
	fs.StringVar(&c.random, "random", "", "the string inserted into the probe URIs (default: 20 random letters and digits, as in the paper)")
	return fs, &c
}

// report is the outcome of the check; -json prints it.
type report struct {
	Page        fetched   `json:"page"`
	Probes      []fetched `json:"probes"`
	Soft404     bool      `json:"soft404"`
	Explanation string    `json:"explanation"`
}

// fetched is one URI fetched: the page or a probe.
type fetched struct {
	URI      string `json:"uri"`
	FinalURI string `json:"final_uri,omitempty"`
	Status   int    `json:"status,omitempty"`
	Words    int    `json:"words"`
	// Jaccard is a probe's similarity with the page; absent for the page
	// and for a probe that got no answer or shows no words.
	Jaccard *float64 `json:"jaccard,omitempty"`
	Error   string   `json:"error,omitempty"`

	page  *filter.Page
	words []string
}

func runSoft404(ctx context.Context, e *env, args []string) error {
	fs, c := soft404Flags()
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("need exactly one URL, got %d arguments", fs.NArg())
	}
	switch {
	case c.perSecond < 0 || c.perSecond != c.perSecond:
		return usagef("bad -rate %v: want 0 (no limit) or more", c.perSecond)
	case c.timeout <= 0:
		return usagef("bad -timeout %v: want a positive duration", c.timeout)
	}
	if err := checkBounds(bound{flag: "attempts", value: c.attempts, min: 1, meaning: "attempts per URI"}); err != nil {
		return err
	}
	// The URL is fetched as given: its canonical form may differ (a
	// trailing slash) and name another resource.
	uri := fs.Arg(0)
	if _, err := webTarget("URL", uri); err != nil {
		return err
	}
	limit := rate.Limit(c.perSecond)
	if c.perSecond == 0 {
		limit = rate.Inf
	}
	if c.random == "" {
		c.random = filter.RandomString(filter.ProbeLength)
	}
	client := &web.Client{
		UserAgent:    c.userAgent,
		Attempts:     c.attempts,
		Timeout:      c.timeout,
		Rate:         limit,
		AllowPrivate: c.allowPrivate,
		IgnoreRobots: c.ignoreRobots,
	}
	defer client.CloseIdleConnections()

	r, err := check(ctx, unreachableFirst(client), uri, c.random)
	if err != nil {
		return err
	}
	if c.asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	printReport(e.stdout, r)
	return nil
}

// check fetches uri and its two probe URIs and reaches the verdict. Only a
// page that cannot be fetched at all is an error; a probe without an
// answer is part of the report.
func check(ctx context.Context, f filter.Fetcher, uri, random string) (*report, error) {
	firstURI, lastURI, err := filter.ProbeURIs(uri, random)
	if err != nil {
		return nil, err
	}
	r := &report{Page: fetch(ctx, f, uri)}
	if r.Page.page == nil {
		return nil, errors.New(r.Page.Error)
	}
	first := fetch(ctx, f, firstURI)
	last := first
	if lastURI != firstURI {
		last = fetch(ctx, f, lastURI)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, p := range []*fetched{&first, &last} {
		// A probe whose body cannot be rendered is not similar
		// (filter.IsSoft404), so it gets no similarity.
		if p.page != nil && p.Error == "" {
			j := filter.Jaccard(r.Page.words, p.words)
			p.Jaccard = &j
		}
	}
	r.Probes = []fetched{first, last}
	r.Soft404 = filter.IsSoft404(r.Page.page, first.page, last.page)
	r.Explanation = explain(r)
	return r, nil
}

// fetch fetches uri and counts its words, lowercased as the soft 404
// filter compares them.
func fetch(ctx context.Context, f filter.Fetcher, uri string) fetched {
	out := fetched{URI: uri}
	page, err := f.Fetch(ctx, uri)
	if err != nil {
		out.Error = err.Error()
		return out
	}
	out.page, out.Status = page, page.Status
	if page.URI != uri {
		out.FinalURI = page.URI
	}
	words, err := backlink.Words(page.Body, page.Header.Get("Content-Type"))
	if err != nil {
		out.Error = "no words: " + err.Error()
	}
	for i, w := range words {
		words[i] = strings.ToLower(w)
	}
	out.words, out.Words = words, len(words)
	return out
}

// explain says in words why r's verdict is what it is, in the order of
// the paper's rules (§3.1 "Soft 404s").
func explain(r *report) string {
	page, first, last := r.Page, r.Probes[0], r.Probes[1]
	switch {
	case !filter.IsSuccess(page.Status):
		return fmt.Sprintf("not a soft 404: the page itself answered %s, an honest error", statusText(page.Status))
	case first.page == nil:
		return fmt.Sprintf("not a soft 404: the first probe got no answer (%s), so there is nothing to compare", first.Error)
	case !filter.IsSuccess(first.Status):
		return fmt.Sprintf("not a soft 404: the first probe answered %s, so malformed URIs on this site get real 404s", statusText(first.Status))
	case page.Error != "":
		return fmt.Sprintf("not a soft 404: the page shows no words to compare (%s)", page.Error)
	}
	if why := dissimilar("first", first); why != "" {
		return why
	}
	if why := dissimilar("second", last); why != "" {
		return why
	}
	return fmt.Sprintf("soft 404: URIs that cannot exist get the same page (Jaccard %.2f and %.2f, both above %.1f), so this page is what the server shows for any URI in its path",
		*first.Jaccard, *last.Jaccard, filter.Soft404Threshold)
}

// dissimilar explains why the probe called which does not make the page a
// soft 404, or returns "" when it is similar enough.
func dissimilar(which string, p fetched) string {
	switch {
	case p.page == nil:
		return fmt.Sprintf("not a soft 404: the %s probe got no answer (%s), so its similarity cannot be measured", which, p.Error)
	case p.Jaccard == nil:
		return fmt.Sprintf("not a soft 404: the %s probe shows no words to compare (%s)", which, p.Error)
	case *p.Jaccard <= filter.Soft404Threshold:
		return fmt.Sprintf("not a soft 404: the %s probe shows a different page (Jaccard %.2f, not above %.1f), so the server tells URIs apart", which, *p.Jaccard, filter.Soft404Threshold)
	}
	return ""
}

// statusText names a status as a status line does: "404 Not Found".
func statusText(status int) string {
	if text := http.StatusText(status); text != "" {
		return fmt.Sprintf("%d %s", status, text)
	}
	return fmt.Sprint(status)
}

// printReport prints r as text.
func printReport(w io.Writer, r *report) {
	line := func(label string, f fetched) {
		fmt.Fprintf(w, "%-8s %s\n", label, f.URI)
		if f.FinalURI != "" {
			fmt.Fprintf(w, "%-8s -> %s\n", "", f.FinalURI)
		}
		if f.page == nil {
			fmt.Fprintf(w, "%-8s no answer: %s\n", "", f.Error)
			return
		}
		s := fmt.Sprintf("%s, %d words", statusText(f.Status), f.Words)
		if f.Jaccard != nil {
			s += fmt.Sprintf(", Jaccard %.2f with the page", *f.Jaccard)
		}
		if f.Error != "" {
			s += " (" + f.Error + ")"
		}
		fmt.Fprintf(w, "%-8s %s\n", "", s)
	}
	line("page", r.Page)
	line("probe 1", r.Probes[0])
	line("probe 2", r.Probes[1])
	verdict := "not a soft 404"
	if r.Soft404 {
		verdict = "soft 404"
	}
	fmt.Fprintf(w, "verdict  %s\n         %s\n", verdict, r.Explanation)
}
