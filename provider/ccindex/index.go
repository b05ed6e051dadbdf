package ccindex

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/linkrot/relink/provider/internal/apiclient"
)

// Collection is one crawl the index server serves, as collinfo.json lists
// it.
type Collection struct {
	// ID names the crawl ("CC-MAIN-2025-43": year and week).
	ID string
	// Name is its description ("October 2025 Index").
	Name string
	// CDXAPI and TimeGate are the endpoints collinfo.json names; a
	// Client does not follow them (it builds IndexURL/<ID>-index).
	CDXAPI, TimeGate string
	// From and To are when the crawl ran, zero when not listed.
	From, To time.Time
}

// collinfo is one entry of collinfo.json.
type collinfo struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	CDXAPI   string `json:"cdx-api"`
	TimeGate string `json:"timegate"`
	From     string `json:"from"`
	To       string `json:"to"`
}

// ParseCollections parses collinfo.json: a JSON list of objects with id,
// name, timegate, cdx-api and, in lists since 2023, from and to
// ("2025-10-04T12:34:56"). Entries without a usable ID are dropped; the
// order is kept (the server lists the newest first). A body that is not
// such a list, or lists no usable crawl, is an error wrapping
// ErrMalformed.
func ParseCollections(body []byte) ([]Collection, error) {
	var list []collinfo
	if err := apiclient.DecodeJSON(body, &list); err != nil {
		return nil, err
	}
	out := make([]Collection, 0, len(list))
	for _, e := range list {
		if !validID(e.ID) {
			continue
		}
		c := Collection{ID: e.ID, Name: e.Name, CDXAPI: e.CDXAPI, TimeGate: e.TimeGate}
		c.From, _ = time.Parse("2006-01-02T15:04:05", e.From)
		c.To, _ = time.Parse("2006-01-02T15:04:05", e.To)
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: collinfo.json lists no crawl", ErrMalformed)
	}
	return out, nil
}

// validID reports whether id can be a crawl ID: letters, digits and
// hyphens, so that it makes a path of IndexURL and nothing else.
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// Collections returns the crawls the index server serves, newest first, as
// its collinfo.json lists them. The list is read once per Client; a
// failure is not remembered.
func (c *Client) Collections(ctx context.Context) ([]Collection, error) {
	c.mu.Lock()
	colls := c.colls
	c.mu.Unlock()
	if colls != nil {
		return append([]Collection(nil), colls...), nil
	}
	colls, err := c.collections(ctx)
	if err != nil {
		return nil, opError("collections", "", err)
	}
	c.mu.Lock()
	c.colls = colls
	c.mu.Unlock()
	return append([]Collection(nil), colls...), nil
}

// collections reads collinfo.json.
func (c *Client) collections(ctx context.Context) ([]Collection, error) {
	b, err := base(c.IndexURL, DefaultIndexURL)
	if err != nil {
		return nil, err
	}
	index, _ := c.clients()
	req, err := http.NewRequest(http.MethodGet, b+"/collinfo.json", nil)
	if err != nil {
		return nil, err
	}
	resp, err := index.GetBytes(ctx, req)
	if err != nil {
		return nil, err
	}
	if resp.Truncated {
		return nil, fmt.Errorf("%w: collinfo.json longer than %d bytes", ErrTooLarge, c.maxBody())
	}
	return ParseCollections(resp.Body)
}

// Capture is one capture of a URI in a crawl, as the CDX API lists it.
type Capture struct {
	// Collection is the crawl's ID.
	Collection string
	// URLKey is the SURT key of the URL ("org,commoncrawl)/get-started").
	URLKey string
	// Time is the capture time, in UTC.
	Time time.Time
	// URL is the URL captured.
	URL string
	// MIME is the media type the server named; MIMEDetected the one the
	// crawler detected (empty when the index has none).
	MIME, MIMEDetected string
	// Status is the HTTP status, 0 when the index has none (a revisit).
	Status int
	// Digest is the payload's SHA-1, base 32.
	Digest string
	// Offset and Length locate the capture's WARC record, one gzip
	// member, in Filename, a path under the data server.
	Offset, Length int64
	Filename       string
	// Redirect is the Location of a redirect capture, where the index
	// has it.
	Redirect string
	// Languages and Encoding are the crawler's guesses ("eng",
	// "UTF-8"), where the index has them.
	Languages, Encoding string
}

// cdxLine is one line of the CDX API's JSON output: every value a string.
type cdxLine struct {
	URLKey       string `json:"urlkey"`
	Timestamp    string `json:"timestamp"`
	URL          string `json:"url"`
	MIME         string `json:"mime"`
	MIMEDetected string `json:"mime-detected"`
	Status       string `json:"status"`
	Digest       string `json:"digest"`
	Length       string `json:"length"`
	Offset       string `json:"offset"`
	Filename     string `json:"filename"`
	Redirect     string `json:"redirect"`
	Languages    string `json:"languages"`
	Encoding     string `json:"encoding"`
	Charset      string `json:"charset"`
}

// LineError is a line of a CDX answer that cannot be a capture: not a
// JSON object, a timestamp that is not a time, a URL that is not http(s),
// an offset or length that is not a number, a filename that is not a
// relative path. Such a line is skipped, not the end of the answer.
type LineError struct {
	// Line counts the answer's lines, 1 for the first.
	Line int
	// Err says what is wrong.
	Err error
}

// Error returns "ccindex: CDX line N: ERR".
func (e *LineError) Error() string { return fmt.Sprintf("ccindex: CDX line %d: %v", e.Line, e.Err) }

// Unwrap returns e.Err.
func (e *LineError) Unwrap() error { return e.Err }

// ParseCaptures parses the JSON lines of the CDX API's answer for the
// crawl collection. Blank lines are ignored; a line that cannot be a
// capture is skipped and given to onSkip (when not nil) as a *LineError
// wrapping ErrMalformed. An answer of no lines gives no captures and a nil
// error; one whose every line is bad is an error wrapping ErrMalformed.
func ParseCaptures(collection string, body []byte, onSkip func(*LineError)) ([]Capture, error) {
	var out []Capture
	var first *LineError
	for n, line := range bytes.Split(body, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		cp, err := parseLine(line)
		if err != nil {
			le := &LineError{Line: n + 1, Err: fmt.Errorf("%w: %w", ErrMalformed, err)}
			if first == nil {
				first = le
			}
			if onSkip != nil {
				onSkip(le)
			}
			continue
		}
		cp.Collection = collection
		out = append(out, cp)
	}
	if len(out) == 0 && first != nil {
		return nil, first
	}
	return out, nil
}

// parseLine parses one JSON line.
func parseLine(line []byte) (Capture, error) {
	var l cdxLine
	if err := json.Unmarshal(line, &l); err != nil {
		return Capture{}, err
	}
	t, err := parseTimestamp(l.Timestamp)
	if err != nil {
		return Capture{}, err
	}
	if u, err := url.Parse(l.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Capture{}, fmt.Errorf("url %q is not an absolute http(s) URL", l.URL)
	}
	cp := Capture{URLKey: l.URLKey, Time: t, URL: l.URL, MIME: l.MIME, MIMEDetected: l.MIMEDetected,
		Digest: l.Digest, Filename: l.Filename, Redirect: l.Redirect, Languages: l.Languages, Encoding: l.Encoding}
	if cp.Encoding == "" {
		cp.Encoding = l.Charset
	}
	if s, err := strconv.Atoi(l.Status); err == nil && s >= 100 && s <= 999 {
		cp.Status = s
	}
	if cp.Offset, err = number("offset", l.Offset); err != nil {
		return Capture{}, err
	}
	if cp.Length, err = number("length", l.Length); err != nil {
		return Capture{}, err
	}
	if cp.Length == 0 || !validFilename(l.Filename) {
		return Capture{}, fmt.Errorf("no WARC record: filename %q, length %d", l.Filename, cp.Length)
	}
	return cp, nil
}

// number parses a non-negative decimal field.
func number(name, v string) (int64, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s %q is not a non-negative number", name, v)
	}
	return n, nil
}

// parseTimestamp parses a 14-digit timestamp (YYYYMMDDhhmmss, UTC).
func parseTimestamp(ts string) (time.Time, error) {
	if len(ts) != 14 || strings.Trim(ts, "0123456789") != "" {
		return time.Time{}, fmt.Errorf("timestamp %q is not 14 digits", ts)
	}
	return time.Parse("20060102150405", ts)
}

// validFilename reports whether name is a relative path of the data
// server, "crawl-data/CC-MAIN-.../x.warc.gz": no scheme, host, query,
// "..", or leading slash, so that the URL built from it stays on DataURL.
func validFilename(name string) bool {
	if name == "" || len(name) > 1024 || strings.HasPrefix(name, "/") {
		return false
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	for _, r := range name {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./", r)) {
			return false
		}
	}
	return true
}

// Captures returns the captures of uri in the crawl collection (an ID of
// Collections, "CC-MAIN-2025-43"), in the index's order (by SURT key and
// time), from IndexURL/<collection>-index?url=<uri>&output=json. A crawl
// without a capture of uri (the server's 404 "No Captures found") gives
// an empty slice and a nil error. Lines that cannot be captures are
// skipped and given to OnSkip. Errors are *Error values, Op "captures".
func (c *Client) Captures(ctx context.Context, collection, uri string) ([]Capture, error) {
	caps, err := c.captures(ctx, collection, uri)
	if err != nil {
		return nil, opError("captures", uri, err)
	}
	return caps, nil
}

// captures is Captures without the *Error.
func (c *Client) captures(ctx context.Context, collection, uri string) ([]Capture, error) {
	uri, err := checkURI(uri)
	if err != nil {
		return nil, err
	}
	if !validID(collection) {
		return nil, fmt.Errorf("%w: %q", ErrBadCollection, collection)
	}
	b, err := base(c.IndexURL, DefaultIndexURL)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(b + "/" + collection + "-index")
	if err != nil {
		return nil, err
	}
	index, _ := c.clients()
	req := apiclient.NewGet(u, url.Values{"url": {uri}, "output": {"json"}}, nil)
	resp, err := index.GetBytes(ctx, req)
	if err != nil {
		var se *StatusError
		if errors.As(err, &se) && se.Status == http.StatusNotFound {
			return []Capture{}, nil // "No Captures found for: <uri>"
		}
		return nil, err
	}
	if resp.Truncated {
		return nil, fmt.Errorf("%w: CDX answer longer than %d bytes", ErrTooLarge, c.maxBody())
	}
	caps, err := ParseCaptures(collection, resp.Body, c.OnSkip)
	if caps == nil && err == nil {
		caps = []Capture{}
	}
	return caps, err
}

// checkURI returns uri without its fragment when it is an absolute http or
// https URI, and an error wrapping ErrBadURI otherwise.
func checkURI(uri string) (string, error) { return apiclient.WebURI(uri) }
