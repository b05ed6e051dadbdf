// Command soft404 runs the paper's soft 404 check on a live URL: it fetches
// the page and two probe URIs with a random string inserted after the first
// and after the last slash of the path, compares the words of each probe's
// page with the page's (Jaccard similarity), and says whether the page is a
// soft 404, a "not found" page served with status 200 (§3.1 "Soft 404s").
//
// Usage:
//
//	soft404 [-json] [-timeout 30s] [-attempts 5] [-rate 1] [-user-agent UA] [-allow-private] [-ignore-robots] [-random S] URL
//
// It fetches politely with provider/web: robots.txt is obeyed unless
// -ignore-robots, one request per second per host unless -rate says
// otherwise, and private and loopback addresses are refused unless
// -allow-private (needed to try it on a server on this machine). The exit
// code is 0 when a verdict was reached, whatever it is, and 1 when the page
// itself could not be fetched or the arguments are wrong.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/web"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case err != nil:
		fmt.Fprintln(os.Stderr, "soft404:", err)
		os.Exit(1)
	}
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

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("soft404", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	timeout := fs.Duration("timeout", web.DefaultTimeout, "most time for one request, body included")
	attempts := fs.Int("attempts", web.DefaultAttempts, "attempts per URI (the paper made five)")
	perSecond := fs.Float64("rate", float64(web.DefaultRate), "requests per second to the host; 0 for no limit")
	userAgent := fs.String("user-agent", web.DefaultUserAgent, "User-Agent to send and to match in robots.txt")
	allowPrivate := fs.Bool("allow-private", false, "allow private and loopback addresses (e.g. localhost)")
	ignoreRobots := fs.Bool("ignore-robots", false, "do not obey robots.txt")
	random := fs.String("random", "", "the string inserted into the probe URIs (default: 20 random letters and digits, as in the paper)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: soft404 [flags] URL")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errors.New("need exactly one URL")
	}
	if *perSecond < 0 || *attempts < 1 || *timeout <= 0 {
		return errors.New("-rate must be at least 0, -attempts at least 1 and -timeout positive")
	}
	limit := rate.Limit(*perSecond)
	if *perSecond == 0 {
		limit = rate.Inf
	}
	if *random == "" {
		*random = filter.RandomString(filter.ProbeLength)
	}
	c := &web.Client{
		UserAgent:    *userAgent,
		Attempts:     *attempts,
		Timeout:      *timeout,
		Rate:         limit,
		AllowPrivate: *allowPrivate,
		IgnoreRobots: *ignoreRobots,
	}
	defer c.CloseIdleConnections()

	r, err := check(ctx, c, fs.Arg(0), *random)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	printReport(stdout, r)
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
