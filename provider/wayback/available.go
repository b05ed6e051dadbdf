package wayback

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Snapshot is the capture the availability API reports as closest to a
// time.
type Snapshot struct {
	// URL is the capture's address in the archive (its replay with the
	// archive's banner).
	URL string
	// Time is the capture time, in UTC.
	Time time.Time
	// Status is the capture's HTTP status code, 0 when the API gives none.
	Status int
}

// availability is the answer of the availability API.
type availability struct {
	ArchivedSnapshots struct {
		Closest *struct {
			Available bool   `json:"available"`
			URL       string `json:"url"`
			Timestamp string `json:"timestamp"`
			Status    string `json:"status"`
		} `json:"closest"`
	} `json:"archived_snapshots"`
}

// Available asks the availability API for the capture of uri closest to at
// (a zero at asks for the latest). A URI the API reports no capture of
// gives an *Error wrapping ErrNoCapture; the API answers so both for URIs
// never captured and for captures it cannot show (an excluded site), and
// may pick a capture of any status. For a list of captures, or the last
// good one, use Captures or LastGood.
func (c *Client) Available(ctx context.Context, uri string, at time.Time) (*Snapshot, error) {
	s, err := c.available(ctx, uri, at)
	if err != nil {
		return nil, opError("available", uri, err)
	}
	return s, nil
}

// available is Available without the *Error.
func (c *Client) available(ctx context.Context, uri string, at time.Time) (*Snapshot, error) {
	uri, err := checkURI(uri)
	if err != nil {
		return nil, err
	}
	v := url.Values{}
	v.Set("url", uri)
	if !at.IsZero() {
		v.Set("timestamp", Timestamp(at))
	}
	api, err := c.check()
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(http.MethodGet, c.availabilityURL()+"?"+v.Encode(), nil)
	if err != nil {
		return nil, err
	}
	var a availability
	if err := api.GetJSON(ctx, req, &a); err != nil {
		return nil, err
	}
	return a.snapshot()
}

// snapshot checks the answer a of the availability API and returns the
// capture it reports; ErrNoCapture when it reports none.
func (a *availability) snapshot() (*Snapshot, error) {
	cl := a.ArchivedSnapshots.Closest
	if cl == nil || !cl.Available {
		return nil, ErrNoCapture
	}
	if cl.URL == "" {
		return nil, fmt.Errorf("%w: available snapshot without a url", ErrMalformed)
	}
	t, err := ParseTimestamp(cl.Timestamp)
	if err != nil {
		return nil, err
	}
	s := &Snapshot{URL: cl.URL, Time: t}
	if cl.Status != "" && cl.Status != "-" {
		n, err := strconv.Atoi(cl.Status)
		if err != nil || n < 100 || n > 999 {
			return nil, fmt.Errorf("%w: snapshot status %q", ErrMalformed, cl.Status)
		}
		s.Status = n
	}
	return s, nil
}
