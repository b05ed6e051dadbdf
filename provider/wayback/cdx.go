package wayback

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
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
	// OnSkip, when not nil, is called for every row of the answer that
	// Captures skips because it cannot be a capture (see RowError), on the
	// goroutine that called Captures, so that the caller can count them.
	// LastGood and Redirects skip such rows too.
	OnSkip func(*RowError)
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
// A row that cannot be a capture (a timestamp such as "20000012170449", a
// status that is not a number) is skipped and given to q.OnSkip; only an
// answer whose every row is so is an error.
//
// Errors are *Error values: uri that is not absolute http(s) (ErrBadURI),
// an answer that is not a CDX JSON array, or whose header lacks the
// timestamp or original field, or whose every row is skipped
// (ErrMalformed, with a *RowError for the first bad row), or the error of
// the request (ErrRateLimited, ErrTimeout, a *StatusError, ...).
func (c *Client) Captures(ctx context.Context, uri string, q *Query) ([]Capture, error) {
	caps, err := c.captures(ctx, uri, q)
	if err != nil {
		return nil, opError("captures", uri, err)
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
	v.Set("fl", strings.Join(cdxFields, ","))
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
	return parseCDX(rows, q.OnSkip)
}

// RowError is a row of a CDX answer that Captures skipped because it
// cannot be a capture: a timestamp that is not a date (the Internet
// Archive's index holds rows such as "20000012170449", month zero), a
// status or length that is not a number, no original URI, or a row of
// another width than the header. One such row does not fail the answer.
type RowError struct {
	// Row is the row's index in the answer, 1 for the first row after the
	// header.
	Row int
	// Fields is the row as the index gave it.
	Fields []string
	// Err says what is wrong; it wraps ErrMalformed.
	Err error
}

// Error returns "wayback: CDX row N: ERR".
func (e *RowError) Error() string {
	return fmt.Sprintf("wayback: CDX row %d: %v", e.Row, e.Err)
}

// Unwrap returns e.Err.
func (e *RowError) Unwrap() error { return e.Err }

// parseCDX turns the rows of a CDX JSON answer into captures. The first row
// names the fields; an empty answer ([]) has none. An empty row ends the
// captures: what follows it is a resumption key. A row that cannot be a
// capture is skipped and given to onSkip (when not nil); an answer whose
// every row is skipped is an error wrapping ErrMalformed (the first row's),
// and so is a header without a timestamp or original field.
func parseCDX(rows [][]string, onSkip func(*RowError)) ([]Capture, error) {
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
	var first *RowError
	for i, row := range rows[1:] {
		if len(row) == 0 {
			break
		}
		cp, err := parseRow(col, len(rows[0]), row)
		if err != nil {
			re := &RowError{Row: i + 1, Fields: row, Err: err}
			if first == nil {
				first = re
			}
			if onSkip != nil {
				onSkip(re)
			}
			continue
		}
		caps = append(caps, cp)
	}
	if len(caps) == 0 && first != nil {
		return nil, first
	}
	return caps, nil
}

// parseRow turns one row of a CDX answer, whose header has width fields
// at the columns col, into a capture. Errors wrap ErrMalformed.
func parseRow(col map[string]int, width int, row []string) (Capture, error) {
	if len(row) != width {
		return Capture{}, fmt.Errorf("%w: %d fields, the header %d", ErrMalformed, len(row), width)
	}
	field := func(name string) string {
		if j, ok := col[name]; ok {
			return row[j]
		}
		return ""
	}
	t, err := ParseTimestamp(field("timestamp"))
	if err != nil {
		return Capture{}, err
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
		return Capture{}, fmt.Errorf("%w: no original URI", ErrMalformed)
	}
	if s := field("statuscode"); s != "" && s != "-" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 100 || n > 999 {
			return Capture{}, fmt.Errorf("%w: status %q", ErrMalformed, s)
		}
		cp.Status = n
	}
	if s := field("length"); s != "" && s != "-" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return Capture{}, fmt.Errorf("%w: length %q", ErrMalformed, s)
		}
		cp.Length = n
	}
	return cp, nil
}
