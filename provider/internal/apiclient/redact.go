package apiclient

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Redacted replaces a secret wherever a Client prints one.
const Redacted = "REDACTED"

// redactor scrubs the secrets of one request from text.
type redactor struct {
	names  []string // header and query parameter names, as in Client.Secrets
	values []string // secret values, longest first
}

// newRedactor returns the redactor for req: the values of the headers and
// query parameters named in names, and the literal values in extra.
func newRedactor(req *http.Request, names, extra []string) *redactor {
	r := &redactor{names: names}
	add := func(v string) {
		if v != "" && v != Redacted && !slices.Contains(r.values, v) {
			r.values = append(r.values, v)
		}
	}
	for _, v := range extra {
		add(v)
	}
	var query url.Values
	if req != nil && req.URL != nil {
		query = req.URL.Query()
	}
	for _, name := range names {
		if req != nil {
			for _, v := range req.Header.Values(name) {
				add(v)
			}
		}
		for _, v := range query[name] {
			add(v)
		}
	}
	// The password of the URL's user information travels in an
	// Authorization header as base64 of "user:password"; a server may echo
	// that header in its body.
	if req != nil && req.URL != nil && req.URL.User != nil {
		if pw, ok := req.URL.User.Password(); ok && pw != "" {
			add(pw)
			add(req.URL.User.Username() + ":" + pw)
		}
	}
	// Values that appear escaped in a URL, or encoded in base64, must be
	// found so too.
	for _, v := range slices.Clone(r.values) {
		add(url.QueryEscape(v))
		add(url.PathEscape(v))
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
			add(enc.EncodeToString([]byte(v)))
		}
	}
	sort.SliceStable(r.values, func(i, j int) bool { return len(r.values[i]) > len(r.values[j]) })
	return r
}

// text returns s with every secret value replaced by Redacted.
func (r *redactor) text(s string) string {
	for _, v := range r.values {
		s = strings.ReplaceAll(s, v, Redacted)
	}
	return s
}

// snippet returns the start of body as snippet does, with every secret
// value replaced by Redacted, including one that the cut at SnippetLen
// would have split.
func (r *redactor) snippet(body []byte) string {
	longest := 0
	for _, v := range r.values {
		longest = max(longest, utf8.RuneCountInString(v))
	}
	s, more := clean(body, SnippetLen+longest)
	return cutRunes(r.text(s), SnippetLen, more)
}

// url returns u as a string with the values of secret query parameters
// replaced by Redacted, and any other secret value too (one in the path,
// say). A nil u is the empty string.
func (r *redactor) url(u *url.URL) string {
	if u == nil {
		return ""
	}
	c := *u
	c.User = nil
	if c.RawQuery != "" {
		q := c.Query()
		changed := false
		for _, name := range r.names {
			if vs, ok := q[name]; ok {
				for i := range vs {
					vs[i] = Redacted
				}
				changed = true
			}
		}
		if changed {
			c.RawQuery = q.Encode()
		}
	}
	return r.text(c.String())
}

// err returns err with every secret scrubbed from its message. A *url.Error
// anywhere in the chain is rebuilt with its URL redacted, so that a caller
// who unwraps to it and prints it sees no secret either; the rest of the
// chain stays reachable with errors.Is and errors.As.
func (r *redactor) err(err error) error {
	if err == nil {
		return nil
	}
	if ue, ok := err.(*url.Error); ok {
		if u, perr := url.Parse(ue.URL); perr == nil {
			ue = &url.Error{Op: ue.Op, URL: r.url(u), Err: ue.Err}
		} else {
			ue = &url.Error{Op: ue.Op, URL: r.text(ue.URL), Err: ue.Err}
		}
		// The url.Error is the outermost error net/http returns; what it
		// wraps (a net.OpError, a DNS error) names hosts, not URLs.
		if inner := ue.Err; inner != nil {
			ue.Err = &scrubbed{err: inner, msg: r.text(inner.Error())}
		}
		err = ue
	}
	msg := r.text(err.Error())
	return &scrubbed{err: err, msg: msg}
}

// RedactError returns err with the secrets c knows of when it sends to
// base (the values in Redact and the password of base's user information)
// scrubbed from its message and from the message of everything it wraps,
// for an error made from an answer rather than by a request, such as one a
// search engine reports in its JSON. errors.Is and errors.As still find
// every error of the chain; an error that shows no secret is returned as
// it is.
func (c *Client) RedactError(err error, base *url.URL) error {
	return newRedactor(&http.Request{URL: base}, nil, c.Redact).deep(err)
}

// scrubbed is an error whose message has been redacted; it unwraps to the
// original error so that errors.Is and errors.As still see the cause.
type scrubbed struct {
	err error
	msg string
}

func (s *scrubbed) Error() string { return s.msg }
func (s *scrubbed) Unwrap() error { return s.err }

// deep returns err with every secret scrubbed from its message and from the
// message of every error it wraps, so that a caller who walks the chain
// sees no secret either. errors.Is and errors.As still find every error of
// the chain: a scrubbed link matches what it replaces. An error whose
// chain holds no secret is returned as it is.
func (r *redactor) deep(err error) error {
	if err == nil || !r.holds(err) {
		return err
	}
	n := &scrubbedLink{orig: err, msg: r.text(err.Error())}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		if inner := u.Unwrap(); inner != nil {
			n.inner = []error{r.deep(inner)}
		}
	case interface{ Unwrap() []error }:
		for _, inner := range u.Unwrap() {
			n.inner = append(n.inner, r.deep(inner))
		}
	}
	return n
}

// holds reports whether the message of err or of anything it wraps shows
// a secret.
func (r *redactor) holds(err error) bool {
	if err == nil {
		return false
	}
	if r.text(err.Error()) != err.Error() {
		return true
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return r.holds(u.Unwrap())
	case interface{ Unwrap() []error }:
		for _, inner := range u.Unwrap() {
			if r.holds(inner) {
				return true
			}
		}
	}
	return false
}

// scrubbedLink stands for orig in a scrubbed chain: it prints orig's
// message redacted, unwraps to the scrubbed links of what orig wraps, and
// matches errors.Is and errors.As as orig itself does.
type scrubbedLink struct {
	orig  error
	msg   string
	inner []error
}

func (s *scrubbedLink) Error() string   { return s.msg }
func (s *scrubbedLink) Unwrap() []error { return s.inner }

// Is reports whether orig is target or says it is.
func (s *scrubbedLink) Is(target error) bool {
	if s.orig == target {
		return true
	}
	is, ok := s.orig.(interface{ Is(error) bool })
	return ok && is.Is(target)
}

// As sets target to orig when orig is of target's type, or asks orig's own
// As method.
func (s *scrubbedLink) As(target any) bool {
	v := reflect.ValueOf(target)
	if v.Kind() == reflect.Pointer && !v.IsNil() && reflect.TypeOf(s.orig).AssignableTo(v.Type().Elem()) {
		v.Elem().Set(reflect.ValueOf(s.orig))
		return true
	}
	as, ok := s.orig.(interface{ As(any) bool })
	return ok && as.As(target)
}
