package canon

import (
	"net/url"
	"strings"
)

// Options selects normalizations beyond the rules of Canonicalize (the
// paper's four rules, §3.1 "URI canonicalization", with ports as numbers
// and host names in ASCII), of the kind web archives apply before they
// compare or index URIs. The zero value selects none of them:
// Options{}.Canonicalize is Canonicalize. An Options is a plain value, safe
// to copy and to use from several goroutines at once.
//
// The rules run in a fixed order, chosen so that the result is idempotent:
// scheme, host and port (TrailingDot, StripWWW), then the query
// (PercentEncoding, SessionIDs, SortQuery, EmptyQuery), then the path
// (PercentEncoding, SessionIDs, DotSegments) and last the paper's
// trailing-slash rule, which therefore sees the query as the other rules
// left it. SURT does not use Options: it applies the archives' own rules,
// which differ in detail (see SURT).
type Options struct {
	// PercentEncoding writes the hexadecimal digits of every %XX escape in
	// the path and query in upper case ("%2f" → "%2F") and decodes the
	// escapes of unreserved characters A-Z a-z 0-9 - . _ ~ ("%7E" → "~"),
	// as RFC 3986 §6.2.2.1–2 recommends. It also percent-encodes the
	// query's non-ASCII bytes as UTF-8 escapes, as every rule does in the
	// path (RFC 3986 §2.1, RFC 3987 §3.1): "?x=⚑" becomes "?x=%E2%9A%91",
	// the spelling of the same link in ASCII. A "%" in the query that does
	// not start an escape (net/url lets "?a=%zz" through) is written %25,
	// its only valid spelling; without that, "%%341" would decode to "%41"
	// and then to "A", and the rule would not be idempotent.
	PercentEncoding bool

	// DotSegments removes "." and ".." path segments as RFC 3986 §5.2.4
	// does when it resolves a reference ("/a/./b/../c" → "/a/c"); a ".."
	// at the root is dropped. Segments are compared as written: "%2E" is a
	// dot segment only when PercentEncoding has decoded it first.
	DotSegments bool

	// TrailingDot removes the dots that end the host name
	// ("example.com." → "example.com"), which DNS resolves as the same
	// name (RFC 1034 §3.1) but the paper's rules keep. A host that is only
	// dots becomes empty and gives ErrNotAbsolute. IP literals and lists of
	// host:port pairs (see Canonicalize) are left alone.
	TrailingDot bool

	// IDNA selects TrailingDot.
	//
	// Deprecated: since Rules 2 every Options writes host names in ASCII,
	// Unicode labels as punycode (see Canonicalize); what IDNA added beyond
	// that, removing trailing dots, is TrailingDot.
	IDNA bool

	// EmptyQuery removes a "?" with nothing after it ("/a?" → "/a").
	EmptyQuery bool

	// StripWWW removes a leading "www." label from the host
	// ("www.example.com" → "example.com"), repeatedly, but never the label
	// before the last dot: "www.com" stays. Another host may answer at the
	// name without "www", so this changes which resource the URI names.
	StripWWW bool

	// SortQuery orders the query's "&"-separated parameters by key, then
	// by value (the text before and after the first "="), comparing their
	// encoded bytes; the sort is stable, and empty parameters ("a=1&&b=2")
	// are dropped. Servers may read parameter order, so this changes which
	// resource the URI names.
	SortQuery bool

	// SessionIDs removes parameters that carry a session identifier rather
	// than name a resource. In the query, a parameter is removed when its
	// key, percent-decoded and lowercased, is one of jsessionid, phpsessid,
	// sid, sessionid, cfid or cftoken, or starts with aspsessionid (classic
	// ASP adds a suffix, as in ASPSESSIONIDQACTDBSR). In the path, a
	// ";jsessionid=..." parameter of any segment is removed
	// ("/a;jsessionid=ABC" → "/a"). A query that loses all its parameters
	// loses its "?" as well.
	// "sid" is also used by some sites for things other than sessions.
	SessionIDs bool
}

// Strict returns the options web archives commonly apply and that keep the
// resource a URI names: PercentEncoding, DotSegments, TrailingDot and
// EmptyQuery. StripWWW, SortQuery and SessionIDs are off because each may
// turn the URI of one resource into that of another.
func Strict() Options {
	return Options{PercentEncoding: true, DotSegments: true, TrailingDot: true, EmptyQuery: true}
}

// Canonicalize applies Canonicalize's rules (see the package function)
// and then the rules o selects, and returns the resulting URI.
// The result is idempotent: canonicalizing it again with the same o returns
// it unchanged. Errors are those of Canonicalize.
func (o Options) Canonicalize(raw string) (string, error) {
	u, err := o.canonicalURL(raw)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

// canonicalURL parses raw and applies the paper's rules and those o selects.
func (o Options) canonicalURL(raw string) (*url.URL, error) {
	u, err := parse(raw)
	if err != nil {
		return nil, err
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if err := o.host(u); err != nil {
		return nil, &Error{URI: raw, Err: err}
	}

	// net/url sets ForceQuery only for a bare "?", so a query whose
	// parameters the rules all removed loses its "?" without more ado.
	u.RawQuery = o.query(u.RawQuery)
	if o.EmptyQuery {
		u.ForceQuery = false
	}

	p := o.path(u.EscapedPath())
	if u.RawQuery == "" && !u.ForceQuery {
		// The paper's last rule: the URI must not end in a slash.
		p = strings.TrimRight(p, "/")
	}
	if err := setEscapedPath(u, p); err != nil {
		return nil, &Error{URI: raw, Err: err}
	}
	return u, nil
}

// query applies the selected query rules to the raw query q.
func (o Options) query(q string) string {
	q = strings.ReplaceAll(q, " ", "%20")
	if o.PercentEncoding {
		q = escapeNonASCII(normalizePercent(q))
	}
	if o.SessionIDs {
		q = dropSessionParams(q)
	}
	if o.SortQuery {
		q = sortQuery(q)
	}
	return q
}

// path applies the selected path rules to the escaped path p.
func (o Options) path(p string) string {
	if o.PercentEncoding {
		p = normalizePercent(p)
	}
	if o.SessionIDs {
		p = dropPathSessionIDs(p)
	}
	if o.DotSegments {
		p = removeDotSegments(p)
	}
	return p
}

// setEscapedPath sets u's path to the escaped path p, keeping p's spelling.
func setEscapedPath(u *url.URL, p string) error {
	path, err := url.PathUnescape(p)
	if err != nil {
		return err
	}
	u.Path, u.RawPath = path, p
	return nil
}
