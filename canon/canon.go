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
	// Err is the cause: ErrNotAbsolute or a *url.Error from parsing.
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
// Nothing else changes: the path, its percent-encoding and the query are kept
// byte for byte.
//
// Leading and trailing ASCII white space is ignored, as browsers ignore it in
// an href. To keep the function idempotent, a path that ends in several
// slashes loses all of them. A URI without a scheme or a host returns an
// *Error wrapping ErrNotAbsolute; an unparsable one an *Error wrapping the
// parser's error.
func Canonicalize(raw string) (string, error) {
	u, err := parse(raw)
	if err != nil {
		return "", err
	}
	paperRules(u)
	return u.String(), nil
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

// paperRules applies the paper's four rules to u in place.
func paperRules(u *url.URL) {
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	host, port := splitPort(u.Host)
	if port == "" || (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		u.Host = host
	}
	u.Fragment, u.RawFragment = "", ""
	if u.RawQuery == "" && !u.ForceQuery {
		u.Path = strings.TrimRight(u.Path, "/")
		u.RawPath = strings.TrimRight(u.RawPath, "/")
	}
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
