package canon

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ErrNotAbsolute is returned, wrapped in an *Error, for a URI that lacks a
// scheme or a host.
var ErrNotAbsolute = errors.New("canon: URI has no scheme or host")

// Error records a URI that could not be canonicalized and why.
type Error struct {
	// URI is the input as given.
	URI string
	// Err is the cause: ErrNotAbsolute, a *url.Error from parsing, or, with
	// Options.IDNA, an error matching ErrInvalidHost that wraps the IDNA
	// conversion's error, if any.
	Err error
}

// Error returns "canonicalize <uri>: <cause>".
func (e *Error) Error() string { return fmt.Sprintf("canonicalize %q: %v", e.URI, e.Err) }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Canonicalize applies the paper's four rules (§3.1 "URI canonicalization")
// to raw: it lowercases the scheme and host, removes the default port (:80
// from http, :443 from https, and an empty port), removes the fragment, and
// removes the trailing slash when it is the last character of the URI.
//
// The slash rule applies to the path: a query is data, so "/a?next=/b/"
// keeps its final slash, and so does "/a/?q=1", whose slash is not the last
// character. To keep the function idempotent, a path that ends in several
// slashes loses all of them; an encoded slash (%2F) is not a slash and stays.
//
// Nothing else changes: the path, its percent-encoding and the query are
// kept byte for byte, with two exceptions forced by net/url and by
// idempotence: a character that may not appear raw in a path (a space, a
// non-ASCII byte) is percent-encoded there, and a raw space in the query,
// which RFC 3986 does not allow either, is written %20, so that no result
// ends in white space. An authority that net/url reads as a list of
// host:port pairs, which it allows for schemes other than http and https
// ("mongodb://a:1,b:2"), is only lowercased.
//
// Leading and trailing ASCII white space is ignored, as browsers ignore it in
// an href. A URI without a scheme or a host name (including "http://:80/")
// returns an *Error wrapping ErrNotAbsolute; an unparsable one an *Error
// wrapping the parser's *url.Error.
//
// Canonicalize is the zero Options' Canonicalize; it is safe for concurrent
// use.
func Canonicalize(raw string) (string, error) {
	return Options{}.Canonicalize(raw)
}

// parse parses raw as an absolute URI with a host.
func parse(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.Trim(raw, " \t\n\r\f"))
	if err != nil {
		return nil, &Error{URI: raw, Err: err}
	}
	if u.Scheme == "" || u.Host == "" {
		return nil, &Error{URI: raw, Err: ErrNotAbsolute}
	}
	return u, nil
}

// isDefaultPort reports whether port may be dropped for scheme under the
// paper's rules: it is empty, or :80 for http, or :443 for https.
func isDefaultPort(scheme, port string) bool {
	return port == "" || (scheme == "http" && port == "80") || (scheme == "https" && port == "443")
}

// splitPort splits host into its name and port; port is "" when there is no
// port or the port is empty ("example.com:").
func splitPort(hostport string) (host, port string) {
	i := strings.LastIndexByte(hostport, ':')
	if i < 0 || strings.IndexByte(hostport[i:], ']') >= 0 {
		return hostport, ""
	}
	return hostport[:i], hostport[i+1:]
}
