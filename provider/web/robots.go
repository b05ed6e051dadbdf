package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/temoto/robotstxt"

	"github.com/linkrot/relink/filter"
)

// robotsRedirects is how many redirects a robots.txt fetch follows: "at
// least five consecutive redirects", after which the robots.txt may be
// taken as unavailable (RFC 9309 §2.3.1.2).
const robotsRedirects = 5

// robotsEntry is the robots.txt of one origin, fetched once by the first
// goroutine that needs it while the others wait for ready.
type robotsEntry struct {
	ready chan struct{} // closed when the fields below are set
	// abandoned means the fetch was given up because its ctx was done;
	// the entry is no longer in the map and a waiter fetches again.
	abandoned bool
	// deny, when not nil, refuses every URI of the origin.
	deny error
	// group holds the rules for the Client's agent; nil allows all.
	group *robotstxt.Group
	// sitemaps are the values of the file's Sitemap lines.
	sitemaps []string
	expires  time.Time
}

// done reports whether e is ready.
func (e *robotsEntry) done() bool {
	select {
	case <-e.ready:
		return true
	default:
		return false
	}
}

// check returns the crawl delay e asks for u's host, or an error when e
// refuses u.
func (e *robotsEntry) check(u *url.URL) (time.Duration, error) {
	if e.deny != nil {
		return 0, e.deny
	}
	if e.group == nil {
		return 0, nil
	}
	if !e.group.Test(u.RequestURI()) {
		return 0, fmt.Errorf("%w: %s", ErrDisallowed, u)
	}
	if e.group.CrawlDelay < 0 {
		// robotstxt refuses negative delays, so this one overflowed
		// time.Duration ("Crawl-delay: 1e308"): the longest wait was
		// asked for, which acquire caps at MaxWait.
		return time.Duration(math.MaxInt64), nil
	}
	return e.group.CrawlDelay, nil
}

// allowed checks u against its origin's robots.txt, fetching it when the
// Client has none or an expired one, and returns the Crawl-delay of the
// group that applies (0 for none).
func (c *Client) allowed(ctx context.Context, u *url.URL) (time.Duration, error) {
	e, err := c.robotsFor(ctx, robotsOrigin(u))
	if err != nil {
		return 0, err
	}
	return e.check(u)
}

// Sitemaps returns the URIs the Sitemap lines of the robots.txt of uri's
// origin name (RFC 9309 §2.2.4), in file order, as written: absolute or
// not, on the origin's host or not (the caller judges them; the
// sitemaps.org protocol asks a crawler to keep a sitemap's URLs on the
// sitemap's own host). The robots.txt is the one Fetch checks URIs
// against, fetched once and kept as for Fetch, whatever IgnoreRobots
// says. A robots.txt that answered 4xx, or has no Sitemap line, gives
// none and no error; one that could not be had (5xx, 429, no answer)
// gives an error wrapping ErrDisallowed. A uri that is not an absolute
// http(s) URI is an error wrapping ErrUnsupportedURI.
func (c *Client) Sitemaps(ctx context.Context, uri string) ([]string, error) {
	c.init()
	u, err := parseURI(uri)
	if err != nil {
		return nil, &Error{URI: uri, Err: err}
	}
	e, err := c.robotsFor(ctx, robotsOrigin(u))
	if err != nil {
		return nil, err
	}
	if e.deny != nil {
		return nil, e.deny
	}
	return slices.Clone(e.sitemaps), nil
}

// robotsFor returns the ready robots.txt entry of origin, fetching it when
// the Client has none or an expired one.
func (c *Client) robotsFor(ctx context.Context, origin string) (*robotsEntry, error) {
	for {
		c.mu.Lock()
		e := c.robots[origin]
		if e != nil && e.done() && time.Now().After(e.expires) {
			delete(c.robots, origin)
			e = nil
		}
		mine := e == nil
		if mine {
			c.sweepLocked()
			e = &robotsEntry{ready: make(chan struct{})}
			c.robots[origin] = e
		}
		c.mu.Unlock()
		if mine {
			c.loadRobots(ctx, origin, e)
		} else {
			select {
			case <-e.ready:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		if !e.abandoned {
			return e, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// The goroutine fetching it gave up; try again.
	}
}

// loadRobots fetches origin's robots.txt into e and makes e ready, reading
// the answer as RFC 9309 §2.3.1 says: a 2xx body is parsed; any other
// answer that is not a server error (4xx, or a redirect that leads
// nowhere) means there are no rules; a 5xx or 429 answer, or none at all
// after every attempt, disallows the whole site, for RobotsErrorTTL.
func (c *Client) loadRobots(ctx context.Context, origin string, e *robotsEntry) {
	uri := origin + "/robots.txt"
	u, err := url.Parse(uri)
	var page *filter.Page
	if status, body, ok := c.loadStored(origin); ok {
		page = &filter.Page{URI: uri, Status: status, Body: body}
	} else if err == nil {
		page, _, err = c.fetch(ctx, u, fetchOptions{limit: RobotsMaxBody, redirects: robotsRedirects})
		if err == nil && c.Robots != nil && page.Status != http.StatusTooManyRequests && page.Status < 500 {
			c.Robots.StoreRobots(origin, page.Status, page.Body)
		}
	}
	now := time.Now()
	e.expires = now.Add(c.robotsTTL())
	c.mu.Lock()
	defer c.mu.Unlock()
	defer close(e.ready)
	switch {
	case ctx.Err() != nil:
		e.abandoned = true
		if c.robots[origin] == e {
			delete(c.robots, origin)
		}
	case errors.Is(err, ErrTooManyRedirects):
		// No rules (RFC 9309 §2.3.1.2).
	case errors.Is(err, ErrPrivateAddress):
		e.deny = fmt.Errorf("robots.txt %s: %w", uri, err)
		e.expires = now.Add(c.robotsErrorTTL())
	case err != nil:
		e.deny = fmt.Errorf("%w: robots.txt %s unreachable: %w", ErrDisallowed, uri, err)
		e.expires = now.Add(c.robotsErrorTTL())
	case page.Status == http.StatusTooManyRequests || page.Status >= 500:
		e.deny = fmt.Errorf("%w: robots.txt %s answered %d %s", ErrDisallowed, uri, page.Status, http.StatusText(page.Status))
		e.expires = now.Add(c.robotsErrorTTL())
	case page.Status >= 200 && page.Status <= 299:
		if data := parseRobots(page.Body); data != nil {
			e.group = data.FindGroup(productToken(c.userAgent()))
			e.sitemaps = data.Sitemaps
		}
	}
}

// loadStored returns origin's robots.txt answer from c.Robots, when it
// keeps one that is not a failure.
func (c *Client) loadStored(origin string) (status int, body []byte, ok bool) {
	if c.Robots == nil {
		return 0, nil, false
	}
	status, body, ok = c.Robots.LoadRobots(origin)
	if !ok || status < 200 || status == http.StatusTooManyRequests || status >= 500 {
		return 0, nil, false
	}
	return status, body, true
}

// robotsOrigin returns the origin whose robots.txt applies to u (RFC 9309
// §2.3): scheme, host and port, lowercased, without the scheme's default
// port.
func robotsOrigin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	hostport := strings.ToLower(u.Host)
	switch {
	case scheme == "http" && u.Port() == "80", scheme == "https" && u.Port() == "443":
		hostport = strings.TrimSuffix(hostport, ":"+u.Port())
	}
	return scheme + "://" + hostport
}

// productToken returns the product token of a User-Agent, the name
// robots.txt groups are matched against (RFC 9309 §2.2.1): the text before
// the first "/", space or tab, lowercased.
func productToken(ua string) string {
	if i := strings.IndexAny(ua, "/ \t"); i >= 0 {
		ua = ua[:i]
	}
	return strings.ToLower(ua)
}

// parseRobots parses a robots.txt body, or returns nil when it has no
// usable rules. robotstxt rejects a whole file for one bad line (a rule
// before any User-agent, a Crawl-delay that is not a number), where RFC
// 9309 §2.2 asks a crawler to use the lines it can parse; so a file that
// fails is parsed again without those lines.
func parseRobots(body []byte) *robotstxt.RobotsData {
	if data, err := robotstxt.FromBytes(body); err == nil {
		return data
	}
	data, err := robotstxt.FromBytes(usableRobotsLines(body))
	if err != nil {
		return nil
	}
	return data
}

// usableRobotsLines returns the User-agent, Allow, Disallow, valid
// Crawl-delay and Sitemap lines of a robots.txt body, without comments or
// any word after a value's first, dropping the rules that come before any
// User-agent line (a Sitemap line belongs to no group, RFC 9309 §2.2.4).
func usableRobotsLines(body []byte) []byte {
	var out bytes.Buffer
	agent := false
	for line := range bytes.FieldsFuncSeq(body, func(r rune) bool { return r == '\n' || r == '\r' }) {
		line, _, _ = bytes.Cut(line, []byte("#"))
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		key := strings.ToLower(strings.TrimSpace(string(k)))
		// robotstxt splits values at white space, the rest starting a
		// new line of its own; keep the first word.
		value, _, _ := strings.Cut(strings.TrimSpace(string(v)), " ")
		value, _, _ = strings.Cut(value, "\t")
		switch key {
		case "user-agent", "useragent":
			agent = true
		case "allow", "disallow":
			if !agent {
				continue
			}
		case "sitemap":
		case "crawl-delay", "crawldelay":
			f, err := strconv.ParseFloat(value, 64)
			if !agent || err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
				continue
			}
		default:
			continue
		}
		out.WriteString(key + ": " + value + "\n")
	}
	return out.Bytes()
}
