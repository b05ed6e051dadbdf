package commoncrawl

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/provider/warc"
)

// anchorPath is the path Common Crawl's extractor gives the href of an <a>
// element.
const anchorPath = "A@/href"

// envelope is the part of a WAT record's JSON that Parse reads; the
// decoder passes over every other field.
type envelope struct {
	Envelope *struct {
		Header *struct {
			Type      string `json:"WARC-Type"`
			TargetURI string `json:"WARC-Target-URI"`
			Date      string `json:"WARC-Date"`
		} `json:"WARC-Header-Metadata"`
		Payload struct {
			Response *struct {
				Message struct {
					Status status `json:"Status"`
				} `json:"Response-Message"`
				HTML *struct {
					Head struct {
						Base  string `json:"Base"`
						Title string `json:"Title"`
					} `json:"Head"`
					Links []rawLink `json:"Links"`
				} `json:"HTML-Metadata"`
			} `json:"HTTP-Response-Metadata"`
		} `json:"Payload-Metadata"`
	} `json:"Envelope"`
}

// rawLink is one entry of HTML-Metadata.Links as written.
type rawLink struct {
	Path string `json:"path"`
	URL  string `json:"url"`
	Text string `json:"text,omitempty"`
}

// status is an HTTP status that Common Crawl writes as a string ("200");
// a number is accepted too.
type status int

// UnmarshalJSON reads "200", 200 or null.
func (s *status) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	text := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &text); err != nil {
			return err
		}
	}
	n, err := strconv.Atoi(strings.TrimSpace(text))
	if err != nil || n < 100 || n > 999 {
		return fmt.Errorf("HTTP status %s is not a number in 100..999", b)
	}
	*s = status(n)
	return nil
}

// Parse reads the JSON block of one WAT metadata record and returns the
// page it describes. targetURI is the WARC-Target-URI of the WAT record,
// used when the envelope does not name the page (Common Crawl's envelopes
// always do). A record that gives no page returns a *SkipError saying why
// (see the Reason constants); Parse never panics, whatever block holds.
// It is safe for concurrent use.
func Parse(block []byte, targetURI string) (*Page, error) {
	var p parser
	return p.parse(block, targetURI)
}

// parser parses records, reusing its href memo from page to page.
type parser struct {
	memo map[string]resolved // href without fragment -> its resolution
}

// resolved is the outcome of resolving one href: a canonical URI, or the
// reason it was dropped.
type resolved struct {
	uri, drop string
}

// parse is Parse.
func (ps *parser) parse(block []byte, targetURI string) (*Page, error) {
	skip := func(uri, reason string, err error) (*Page, error) {
		return nil, &SkipError{URI: uri, Reason: reason, Err: err}
	}
	if !utf8.Valid(block) {
		return skip(targetURI, ReasonInvalidUTF8, nil)
	}
	var env envelope
	if err := json.Unmarshal(block, &env); err != nil {
		return skip(targetURI, ReasonBadJSON, err)
	}
	e := env.Envelope
	if e == nil || e.Header == nil || e.Header.Type == "" {
		return skip(targetURI, ReasonBadEnvelope, errors.New("no Envelope.WARC-Header-Metadata.WARC-Type"))
	}
	address := e.Header.TargetURI
	if address == "" {
		address = targetURI
	}
	if !strings.EqualFold(e.Header.Type, warc.TypeResponse) {
		return skip(address, ReasonNotResponse, fmt.Errorf("envelope of a %s record", e.Header.Type))
	}
	resp := e.Payload.Response
	if resp == nil || resp.HTML == nil {
		return skip(address, ReasonNotHTML, nil)
	}
	if st := int(resp.Message.Status); st != 0 && (st < 200 || st > 299) {
		return skip(address, ReasonStatus, fmt.Errorf("status %d", st))
	}
	if address == "" {
		return skip("", ReasonBadURI, errors.New("no WARC-Target-URI"))
	}
	uri, err := canon.Canonicalize(address)
	if err != nil {
		return skip(address, ReasonBadURI, err)
	}
	if !isHTTP(uri) {
		return skip(address, ReasonBadURI, errors.New("not an http or https URI"))
	}
	page, err := url.Parse(cleanHref(address))
	if err != nil {
		return skip(address, ReasonBadURI, err)
	}
	p := &Page{
		URI:     uri,
		Address: address,
		Status:  int(resp.Message.Status),
		Title:   normalizeSpace(resp.HTML.Head.Title),
	}
	if t, err := (warc.Header{{Name: "WARC-Date", Value: e.Header.Date}}).Date(); err == nil {
		p.Fetched = t
	}
	base := baseURL(page, resp.HTML.Head.Base)
	if len(ps.memo) > 4096 || ps.memo == nil {
		ps.memo = make(map[string]resolved)
	} else {
		clear(ps.memo)
	}
	p.Links = make([]Link, 0, len(resp.HTML.Links))
	for _, l := range resp.HTML.Links {
		drop := ""
		switch {
		case !strings.EqualFold(l.Path, anchorPath):
			drop = DropNotAnchor
		case len(l.URL) > MaxURLBytes || len(l.Text) > MaxAnchorBytes:
			drop = DropTooLong
		}
		var target string
		if drop == "" {
			r := ps.resolve(base, l.URL)
			target, drop = r.uri, r.drop
		}
		if drop != "" {
			if p.Dropped == nil {
				p.Dropped = map[string]int{}
			}
			p.Dropped[drop]++
			continue
		}
		p.Links = append(p.Links, Link{Target: target, Anchor: normalizeSpace(l.Text)})
	}
	return p, nil
}

// resolve resolves href against base and canonicalizes it, remembering the
// answer: pages repeat hrefs (the same menu in header and footer, links
// that differ only in their fragment, which canonicalization drops).
func (ps *parser) resolve(base *url.URL, href string) resolved {
	href = cleanHref(href)
	if i := strings.IndexByte(href, '#'); i >= 0 {
		href = href[:i]
	}
	if r, ok := ps.memo[href]; ok {
		return r
	}
	var r resolved
	u, err := base.Parse(href)
	switch {
	case err != nil:
		r.drop = DropBadURL
	case u.Scheme != "http" && u.Scheme != "https":
		r.drop = DropNotHTTP
	default:
		if r.uri, err = canon.Canonicalize(u.String()); err != nil {
			r.uri, r.drop = "", DropBadURL
		}
	}
	ps.memo[href] = r
	return r
}

// baseURL returns what the page's hrefs resolve against: its <base href>
// resolved against the page URI, unless that is empty or unusable
// (unparsable, or a data: or javascript: URL, which the HTML standard
// ignores), and the page URI otherwise. backlink does the same for a page
// in hand.
func baseURL(page *url.URL, base string) *url.URL {
	if base = cleanHref(base); base == "" {
		return page
	}
	b, err := page.Parse(base)
	if err != nil || b.Scheme == "data" || b.Scheme == "javascript" {
		return page
	}
	return b
}

// isHTTP reports whether the canonical URI u is an http or https URI.
func isHTTP(u string) bool {
	return strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")
}

// cleanHref prepares an href for URL parsing as the WHATWG URL parser
// does: it strips leading and trailing C0 controls and spaces and removes
// ASCII tabs and newlines.
func cleanHref(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	}
	return s
}

// normalizeSpace turns every run of white space and control characters in
// s into one space and trims both ends.
func normalizeSpace(s string) string {
	if isNormal(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// isNormal reports whether normalizeSpace would return s unchanged, looking
// at ASCII alone: text with other characters takes the slow path.
func isNormal(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || c < ' ' || c == 0x7f || (c == ' ' && s[i+1] == ' ') {
			return false
		}
	}
	return true
}

// isJSON reports whether a WARC Content-Type names JSON, or is absent.
func isJSON(ctype string) bool {
	mt, _, _ := strings.Cut(ctype, ";")
	mt = strings.TrimSpace(mt)
	return mt == "" || strings.EqualFold(mt, "application/json")
}
