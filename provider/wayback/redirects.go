package wayback

import (
	"context"
	"net/url"
	"time"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/internal/apiclient"
)

// OrigLocationHeader is the header in which the Wayback Machine may replay
// a capture's own Location header (it prefixes the captured headers it
// rewrites with X-Archive-Orig-).
const OrigLocationHeader = "X-Archive-Orig-Location"

// Redirect is one redirect capture of a URI and where it led: the chain of
// redirects the archive shows from it, each hop read from the raw replay of
// a capture near the same time.
type Redirect struct {
	// Capture is the redirect capture of the URI asked about, as the CDX
	// index lists it.
	Capture Capture
	// Hops are the redirects followed: Hops[0] is Capture's own, from its
	// original URI to its Location; each later hop is the redirect the
	// archive holds for the previous target, at the capture closest to
	// Capture's time.
	Hops []Hop
	// Final is where the chain ends: the last hop's target.
	Final string
	// Loop reports that the chain came back to a URI it had passed
	// (compared but for the case of scheme and host and a default port);
	// the chain stops there.
	Loop bool
	// TooManyHops reports that the chain was still redirecting after
	// Client.MaxHops hops; Final is then not where it ends.
	TooManyHops bool
}

// Hop is one redirect.
type Hop struct {
	// From is the URI redirected.
	From string
	// Time is the time of the capture of From whose replay gave the
	// redirect.
	Time time.Time
	// Status is the replay's status: 301, 302, 303, 307 or 308.
	Status int
	// To is the target: the capture's Location, made absolute against
	// From, and taken out of the archive's replay URL when the archive
	// rewrote it into one.
	To string
}

// Redirects returns the historical redirects of uri: its captures with a 3xx
// status in the CDX index (runs of identical captures collapsed, at most
// Client.MaxRedirectCaptures of the latest, oldest first), each with the
// chain of redirects it started, at most Client.MaxHops long. A capture that
// the archive does not replay as a redirect is left out. A URI that never
// redirected gives an empty slice and a nil error.
//
// Each capture costs one request to the archive per hop, besides the CDX
// query. Errors are *Error values, as for Captures; a failed replay ends the
// call with its error.
func (c *Client) Redirects(ctx context.Context, uri string) ([]Redirect, error) {
	rs, err := c.redirects(ctx, uri)
	if err != nil {
		return nil, opError("redirects", uri, err)
	}
	return rs, nil
}

// redirects is Redirects without the *Error.
func (c *Client) redirects(ctx context.Context, uri string) ([]Redirect, error) {
	caps, err := c.captures(ctx, uri, &Query{
		Filters:  []string{"statuscode:3.."},
		Collapse: []string{"digest"},
		Limit:    -c.maxRedirectCaptures(),
	})
	if err != nil {
		return nil, err
	}
	out := []Redirect{}
	for _, cp := range caps {
		if cp.Status < 300 || cp.Status > 399 {
			continue
		}
		r, err := c.follow(ctx, cp)
		if err != nil {
			return nil, err
		}
		if len(r.Hops) > 0 {
			out = append(out, r)
		}
	}
	return out, nil
}

// follow follows the chain of redirects that starts at capture.
func (c *Client) follow(ctx context.Context, capture Capture) (Redirect, error) {
	r := Redirect{Capture: capture}
	seen := map[string]bool{key(capture.Original): true}
	from, ts := capture.Original, capture.Timestamp()
	for {
		resp, at, err := c.fetchRaw(ctx, ts, from)
		if err != nil {
			return Redirect{}, err
		}
		if !filter.IsRedirect(resp.Status) || !isMemento(resp) {
			// The chain ends at a page, an error, a URI never captured,
			// or a redirect the archive made itself (no Memento-Datetime:
			// not a capture) that fetchRaw did not follow.
			return r, nil
		}
		to, ok := c.target(resp, at, from)
		if !ok {
			return r, nil
		}
		if len(r.Hops) == c.maxHops() {
			r.TooManyHops = true
			return r, nil
		}
		hop := Hop{From: from, Time: capture.Time, Status: resp.Status, To: to}
		if t, err := ParseTimestamp(at.ts); err == nil {
			hop.Time = t
		}
		r.Hops = append(r.Hops, hop)
		r.Final = to
		if seen[key(to)] {
			r.Loop = true
			return r, nil
		}
		seen[key(to)] = true
		from = to
	}
}

// target returns where the raw replay resp of a redirect capture of from,
// read at at, points: the captured Location (OrigLocationHeader when the
// archive moved it there, otherwise Location, taken out of the archive's
// replay URL when it is one), made absolute against from.
func (c *Client) target(resp *apiclient.Response, at replayed, from string) (string, bool) {
	if loc := resp.Header.Get(OrigLocationHeader); loc != "" {
		return resolve(from, loc)
	}
	loc := resp.Header.Get("Location")
	if loc == "" {
		return "", false
	}
	if ref, ok := c.parseReplay(at.url, loc); ok {
		return ref.original, true
	}
	return resolve(from, loc)
}

// resolve makes loc absolute against base; it fails unless the result is
// an absolute http(s) URI.
func resolve(base, loc string) (string, bool) {
	b, err := url.Parse(base)
	if err != nil {
		return "", false
	}
	l, err := url.Parse(loc)
	if err != nil {
		return "", false
	}
	abs := b.ResolveReference(l)
	abs.Fragment, abs.RawFragment = "", ""
	s, err := checkURI(abs.String())
	return s, err == nil
}
