package commoncrawl

import (
	"fmt"
	"time"
)

// Bounds on what one link may hold. Common Crawl's extractor cuts anchor
// texts at 128 UTF-16 code units (at most 384 bytes of UTF-8), and search
// engines and browsers handle URLs of a few thousand bytes; longer values
// come from another producer or from a broken file.
const (
	// MaxURLBytes is the longest href, in bytes, a link may have.
	MaxURLBytes = 4096
	// MaxAnchorBytes is the longest anchor text, in bytes before white
	// space is normalised, a link may have.
	MaxAnchorBytes = 2048
)

// Reasons a record gives no Page, the keys of Stats.Skipped and the values
// of SkipError.Reason. The first four mean the record holds no page; the
// others that it is malformed.
const (
	// ReasonNotMetadata: a WARC record that is not a metadata record with a
	// JSON block (the warcinfo record that starts every WAT file).
	ReasonNotMetadata = "not-metadata"
	// ReasonNotResponse: the envelope of a request, a metadata record, a
	// revisit or anything else but a response.
	ReasonNotResponse = "not-response"
	// ReasonNotHTML: the envelope of a response without HTML metadata (an
	// image, a PDF, robots.txt, a DNS record).
	ReasonNotHTML = "not-html"
	// ReasonStatus: an HTML response whose HTTP status is not 2xx (an error
	// page or the body of a redirect): not a page a search engine indexes.
	ReasonStatus = "http-status"

	// ReasonBadJSON: a block that is not JSON, or JSON whose fields have
	// the wrong types.
	ReasonBadJSON = "bad-json"
	// ReasonBadEnvelope: JSON that is not a WAT envelope: no Envelope
	// object, or no WARC-Header-Metadata with a WARC-Type.
	ReasonBadEnvelope = "bad-envelope"
	// ReasonInvalidUTF8: a block that is not valid UTF-8, which JSON must
	// be.
	ReasonInvalidUTF8 = "invalid-utf8"
	// ReasonTooLarge: a block larger than Options.MaxRecordBytes.
	ReasonTooLarge = "too-large"
	// ReasonBadURI: the page's URI is missing, or is not an absolute http
	// or https URI that canon.Canonicalize accepts.
	ReasonBadURI = "bad-uri"
	// ReasonBadRecord: the WARC record itself cannot be read (a truncated
	// or corrupt gzip member, a broken header). The Reader cannot go on
	// past it.
	ReasonBadRecord = "bad-record"
)

// Reasons a link of a page is not in Page.Links, the keys of Page.Dropped
// and Stats.DroppedLinks.
const (
	// DropNotAnchor: a link whose path is not "A@/href": an image map, an
	// embedded resource, a form action, a script-driven attribute (see
	// the package documentation).
	DropNotAnchor = "not-a-href"
	// DropNotHTTP: an href that resolves to a URI of another scheme
	// (mailto:, javascript:, tel:, ftp:, data:).
	DropNotHTTP = "not-http"
	// DropBadURL: an href that does not parse, or whose resolution
	// canon.Canonicalize rejects (an invalid host, no host).
	DropBadURL = "bad-url"
	// DropTooLong: an href longer than MaxURLBytes or an anchor text longer
	// than MaxAnchorBytes.
	DropTooLong = "too-long"
)

// Page is what one WAT record says about an HTML page of the crawl: where
// it was, when it was fetched and what it links to.
type Page struct {
	// URI is the page's canonical URI (canon.Canonicalize).
	URI string
	// Address is the page's URI as captured (WARC-Target-URI).
	Address string
	// Fetched is when the crawler fetched the page (the WARC-Date of the
	// response the envelope describes, not the date the WAT record was
	// written); the zero Time when the envelope does not say or cannot be
	// parsed.
	Fetched time.Time
	// Status is the HTTP status of the response, 0 when the envelope does
	// not record it.
	Status int
	// Title is the text of the page's <title>, "" when none.
	Title string
	// Links are the page's <a href> links to http(s) URIs in page order.
	Links []Link
	// Dropped counts the links of the envelope that are not in Links, by
	// reason (the Drop constants); nil when none was dropped.
	Dropped map[string]int
	// Record is the index of the WARC record in its file, counting every
	// record from 0 (the warcinfo record included); Offset is the offset
	// of the record (of its gzip member) in the file. Both are zero for a
	// Page made by Parse.
	Record int
	Offset int64
}

// Link is one link of a page.
type Link struct {
	// Target is the canonical URI the link points to (canon.Canonicalize).
	Target string
	// Anchor is the anchor text with its runs of white space and control
	// characters turned into single spaces and trimmed; "" for a link
	// without text (an image link).
	Anchor string
}

// SkipError says why a record gives no Page. Parse returns it; a Reader
// passes it to Options.OnSkip and counts it in Stats.Skipped, and returns
// it from Next only for ReasonBadRecord, after which it cannot go on.
type SkipError struct {
	// Record and Offset locate the record as in Page; both are zero for an
	// error from Parse. For ReasonBadRecord, Record is the index the
	// unreadable record would have and Offset the offset where reading
	// failed (the start of the gzip member at fault).
	Record int
	Offset int64
	// URI is the page's URI as the record names it, or "" when unknown.
	URI string
	// Reason is one of the Reason constants.
	Reason string
	// Err is the underlying cause, or nil.
	Err error
}

// Error returns "commoncrawl: record <n> at offset <o>: <reason>[: <cause>]".
func (e *SkipError) Error() string {
	s := fmt.Sprintf("commoncrawl: record %d at offset %d: %s", e.Record, e.Offset, e.Reason)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *SkipError) Unwrap() error { return e.Err }

// Malformed reports whether the record is broken, rather than a record
// that holds no page: any reason but ReasonNotMetadata, ReasonNotResponse,
// ReasonNotHTML and ReasonStatus.
func (e *SkipError) Malformed() bool {
	switch e.Reason {
	case ReasonNotMetadata, ReasonNotResponse, ReasonNotHTML, ReasonStatus:
		return false
	}
	return true
}
