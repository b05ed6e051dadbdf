package memento

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/linkrot/relink/provider/internal/apiclient"
)

// timeMapJSON is MemGator's JSON TimeMap (main.go, serializeLinks, format
// "json"): {"original_uri", "self", "mementos": {"list": [{"datetime",
// "uri"}, ...], "first": {...}, "last": {...}}, "timemap_uri": {...},
// "timegate_uri"}, datetimes in RFC 3339 and one URI-M (a string) per
// entry, oldest first.
type timeMapJSON struct {
	OriginalURI string `json:"original_uri"`
	Mementos    *struct {
		List []jsonMemento `json:"list"`
	} `json:"mementos"`
}

// TimeMap returns every memento of uri the aggregator knows, oldest first,
// one Memento per URI-M, from MemGator's JSON TimeMap at BaseURL/timemap/
// json/<uri>. A URI no archive holds (MemGator answers 404) gives an
// *Error wrapping ErrNoMemento; other errors are as for Lookup, with Op
// "timemap". The TimeMap can be long (thousands of mementos for a popular
// page) and takes the aggregator as long as a Lookup.
func (c *Client) TimeMap(ctx context.Context, uri string) ([]Memento, error) {
	ms, err := c.timeMap(ctx, uri)
	if err != nil {
		return nil, opError("timemap", uri, err)
	}
	return ms, nil
}

// timeMap is TimeMap without the *Error.
func (c *Client) timeMap(ctx context.Context, uri string) ([]Memento, error) {
	uri, err := checkURI(uri)
	if err != nil {
		return nil, err
	}
	var tm json.RawMessage
	if err := c.getJSON(ctx, "/timemap/json/"+uri, &tm); err != nil {
		return nil, err
	}
	return ParseTimeMap(tm)
}

// ParseTimeMap parses a JSON TimeMap as MemGator writes it and returns its
// mementos, oldest first (entries of the same time in the order given).
// An entry whose datetime cannot be read, or whose URI-M is not an
// absolute http(s) URI, is skipped, so that one bad entry does not cost
// the rest; a TimeMap with entries but none usable is an error wrapping
// ErrMalformed, and one without entries (or without mementos) wraps
// ErrNoMemento. Anything that is not one JSON object of that shape wraps
// ErrMalformed (MemGator writes its JSON by hand and does not escape the
// URIs in it: a URI-M with a double quote makes the answer unreadable).
func ParseTimeMap(body []byte) ([]Memento, error) {
	var tm timeMapJSON
	if err := apiclient.DecodeJSON(body, &tm); err != nil {
		return nil, err
	}
	if tm.Mementos == nil || len(tm.Mementos.List) == 0 {
		return nil, ErrNoMemento
	}
	out := make([]Memento, 0, len(tm.Mementos.List))
	var first error
	for i, j := range tm.Mementos.List {
		m, err := j.parse()
		if err != nil {
			if first == nil {
				first = fmt.Errorf("mementos.list[%d]: %w", i, err)
			}
			continue
		}
		out = append(out, *m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no usable memento: %w", ErrMalformed, first)
	}
	slices.SortStableFunc(out, func(a, b Memento) int { return a.Time.Compare(b.Time) })
	return out, nil
}
