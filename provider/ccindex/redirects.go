package ccindex

import (
	"context"
	"net/url"
	"sort"
)

// Redirects returns the redirect captures of uri, those with a 3xx status
// and a Redirect target (made absolute against the capture's URL), in the
// newest crawl asked (Crawls, or the newest MaxCollections of
// collinfo.json) that holds any capture of uri, oldest first. A crawl
// captures a URI as it was then: the newest crawl that saw it says
// whether it still redirected, and older crawls are not asked. One index
// request per crawl asked, none to the data server: the index keeps the
// Location. A URI no crawl asked holds gives an empty slice and a nil
// error. Errors are *Error values, Op "redirects".
func (c *Client) Redirects(ctx context.Context, uri string) ([]Capture, error) {
	rs, err := c.redirects(ctx, uri)
	if err != nil {
		return nil, opError("redirects", uri, err)
	}
	return rs, nil
}

// redirects is Redirects without the *Error.
func (c *Client) redirects(ctx context.Context, uri string) ([]Capture, error) {
	out := []Capture{}
	err := c.eachCrawl(ctx, uri, func(caps []Capture) bool {
		for _, cp := range caps {
			if to, ok := redirectTarget(cp); ok {
				cp.Redirect = to
				out = append(out, cp)
			}
		}
		return len(caps) > 0
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out, nil
}

// redirectTarget returns where a redirect capture led: its Redirect made
// absolute against its URL, without fragment, when it is an http(s) URI.
func redirectTarget(cp Capture) (string, bool) {
	if cp.Status < 300 || cp.Status > 399 || cp.Redirect == "" {
		return "", false
	}
	base, err := url.Parse(cp.URL)
	if err != nil {
		return "", false
	}
	to, err := base.Parse(cp.Redirect)
	if err != nil || (to.Scheme != "http" && to.Scheme != "https") || to.Host == "" {
		return "", false
	}
	to.Fragment, to.RawFragment = "", ""
	return to.String(), true
}
