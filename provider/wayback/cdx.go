package wayback

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// cdxFields are the fields Captures asks the CDX API for (fl=), the seven it
// makes public, in its default order.
var cdxFields = []string{"urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length"}

// Query narrows a CDX query. The zero value asks for the first DefaultLimit
// captures of the URI, oldest first.
type Query struct {
	// From and To bound the capture times, both inclusive, to the second;
	// a zero time leaves that end open.
	From, To time.Time
	// Filters are CDX filters, each "field:regex" or "!field:regex" (a
	// Java regular expression the whole field must match), such as
	// "statuscode:3.." or "!mimetype:warc/revisit". A capture must pass
	// all of them.
	Filters []string
	// Collapse drops captures whose field (or its first N characters,
	// "field:N") equals that of the capture before: "digest" keeps one of
	// each run of identical captures, "timestamp:8" one per day.
	Collapse []string
	// Limit is how many captures to ask for: the first Limit when
	// positive, the last -Limit when negative (the latest captures). Zero
	// means DefaultLimit.
	Limit int
}

// Capture is one capture of a URI, a row of the CDX index.
type Capture struct {
	// URLKey is the capture's SURT key, as the index sorts it.
	URLKey string
	// Time is the capture time, in UTC, to the second.
	Time time.Time
	// Original is the URI as it was captured ("http://www.example.com:80/"
	// keeps its port).
	Original string
	// MIMEType is the media type the server gave ("warc/revisit" for a
	// capture that repeats an earlier one).
	MIMEType string
	// Status is the HTTP status code of the capture, 0 when the index has
	// none ("-", as for revisits).
	Status int
	// Digest is the base-32 SHA-1 of the captured body.
	Digest string
	// Length is the compressed size of the capture's WARC record, -1 when
	// the index has none.
	Length int64
}

// Timestamp returns the capture time as the archive writes it.
func (c Capture) Timestamp() string { return Timestamp(c.Time) }

// ReplayURL returns the address at which the Client's archive replays the
// capture raw: BaseURL/web/<timestamp>id_/<original>. The id_ form gives the
// captured body as it was, without the archive's banner or rewritten links.
func (c *Client) ReplayURL(capture Capture) string {
	return c.replayURL(capture.Timestamp(), capture.Original)
}

// replayURL returns the raw replay address of original at timestamp ts.
func (c *Client) replayURL(ts, original string) string {
	return c.base() + "/web/" + ts + "id_/" + original
}

// Captures returns the captures of uri that the CDX API lists for q (nil
// means the zero Query), in the index's order: oldest first. A URI the
// archive has never captured gives an empty slice and a nil error.
//
// Errors are *Error values: uri that is not absolute http(s) (ErrBadURI),
// an answer that is not a CDX JSON array (ErrMalformed), or the error of
// the request (ErrRateLimited, ErrTimeout, a *StatusError, ...).
func (c *Client) Captures(ctx context.Context, uri string, q *Query) ([]Capture, error) {
	caps, err := c.captures(ctx, uri, q)
	if err != nil {
		return nil, &Error{Op: "captures", URI: uri, Err: err}
	}
	return caps, nil
}

// captures is Captures without the *Error.
func (c *Client) captures(ctx context.Context, uri string, q *Query) ([]Capture, error) {
	uri, err := checkURI(uri)
	if err != nil {
		return nil, err
	}
	if q == nil {
		q = &Query{}
	}
	v := url.Values{}
	v.Set("url", uri)
	v.Set("output", "json")
	v.Set("fl", "urlkey,timestamp,original,mimetype,statuscode,digest,length")
	if !q.From.IsZero() {
		v.Set("from", Timestamp(q.From))
	}
	if !q.To.IsZero() {
		v.Set("to", Timestamp(q.To))
	}
	for _, f := range q.Filters {
		v.Add("filter", f)
	}
	for _, f := range q.Collapse {
		v.Add("collapse", f)
	}
	limit := q.Limit
	if limit == 0 {
		limit = DefaultLimit
	}
	v.Set("limit", strconv.Itoa(limit))
	api, err := c.check()
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(http.MethodGet, c.base()+"/cdx/search/cdx?"+v.Encode(), nil)
	if err != nil {
		return nil, err
	}
	var rows [][]string
	if err := api.GetJSON(ctx, req, &rows); err != nil {
		return nil, err
	}
	return parseCDX(rows)
}

// parseCDX turns the rows of a CDX JSON answer into captures. The first row
// names the fields; an empty answer ([]) has none. An empty row ends the
// captures: what follows it is a resumption key.
func parseCDX(rows [][]string) ([]Capture, error) {
	if len(rows) == 0 {
		return []Capture{}, nil
	}
	col := make(map[string]int, len(rows[0]))
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, name := range []string{"timestamp", "original"} {
		if _, ok := col[name]; !ok {
			return nil, fmt.Errorf("%w: CDX header %q has no %q field", ErrMalformed, rows[0], name)
		}
	}
	caps := make([]Capture, 0, len(rows)-1)
	for i, row := range rows[1:] {
		if len(row) == 0 {
			break
		}
		if len(row) != len(rows[0]) {
			return nil, fmt.Errorf("%w: CDX row %d has %d fields, the header %d", ErrMalformed, i+1, len(row), len(rows[0]))
		}
		field := func(name string) string {
			if j, ok := col[name]; ok {
				return row[j]
			}
			return ""
		}
		t, err := ParseTimestamp(field("timestamp"))
		if err != nil {
			return nil, fmt.Errorf("CDX row %d: %w", i+1, err)
		}
		cp := Capture{
			URLKey:   field("urlkey"),
			Time:     t,
			Original: field("original"),
			MIMEType: field("mimetype"),
			Digest:   field("digest"),
			Length:   -1,
		}
		if cp.Original == "" {
			return nil, fmt.Errorf("%w: CDX row %d has no original URI", ErrMalformed, i+1)
		}
		if s := field("statuscode"); s != "" && s != "-" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 100 || n > 999 {
				return nil, fmt.Errorf("%w: CDX row %d: status %q", ErrMalformed, i+1, s)
			}
			cp.Status = n
		}
		if s := field("length"); s != "" && s != "-" {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("%w: CDX row %d: length %q", ErrMalformed, i+1, s)
			}
			cp.Length = n
		}
		caps = append(caps, cp)
	}
	return caps, nil
}
