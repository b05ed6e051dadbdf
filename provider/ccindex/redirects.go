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
		return nil, &Error{Op: "redirects", URI: uri, Err: err}
	}
	return rs, nil
}

// redirects is Redirects without the *Error.
func (c *Client) redirects(ctx context.Context, uri string) ([]Capture, error) {
	uri, err := checkURI(uri)
	if err != nil {
		return nil, err
	}
	ids, err := c.collectionIDs(ctx)
	if err != nil {
		return nil, err
	}
	out := []Capture{}
	for _, id := range ids {
		caps, err := c.captures(ctx, id, uri)
		if err != nil {
			return nil, err
		}
		for _, cp := range caps {
			if cp.Status < 300 || cp.Status > 399 || cp.Redirect == "" {
				continue
			}
			base, err := url.Parse(cp.URL)
			if err != nil {
				continue
			}
			to, err := base.Parse(cp.Redirect)
			if err != nil || (to.Scheme != "http" && to.Scheme != "https") || to.Host == "" {
				continue
			}
			to.Fragment, to.RawFragment = "", ""
			cp.Redirect = to.String()
			out = append(out, cp)
		}
		if len(caps) > 0 {
			break
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out, nil
}
