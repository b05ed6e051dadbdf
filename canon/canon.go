package canon

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Rules is the version of the rules Canonicalize applies (the zero
// Options). It changes whenever Canonicalize's output changes for some
// input, so that a store keyed by canonical URIs can record it and tell that
// its keys are stale: 1 for the paper's four rules alone; 2 since ports are
// read as numbers (":0080" is ":80", and a port above 65535 is an error) and
// host names are written in ASCII, Unicode labels as punycode (IDNA). SURT
// keys follow the web archives' rules and are not versioned by Rules.
const Rules = 2

// ErrNotAbsolute is returned, wrapped in an *Error, for a URI that lacks a
// scheme or a host.
var ErrNotAbsolute = errors.New("canon: URI has no scheme or host")

// ErrInvalidPort is returned, wrapped in an *Error, for a port above 65535.
var ErrInvalidPort = errors.New("canon: port out of range")

// Error records a URI that could not be canonicalized and why.
type Error struct {
	// URI is the input as given.
	URI string
	// Err is the cause: ErrNotAbsolute, ErrInvalidPort, an error matching
	// ErrInvalidHost that may wrap the IDNA conversion's error, or a
	// *url.Error from parsing.
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
// Two rules make one spelling of the host and port (since Rules 2). A port
// is a number: ":0080" is port 80, which the :80 rule removes from http,
// and ":08080" is written ":8080"; a port above 65535 is an error matching
// ErrInvalidPort. A host name is written in its ASCII form (RFC 5890 §2.3.2.1,
// RFC 5891 §5), so that a Unicode host and its punycode spelling are one key:
// "Bücher.example" becomes "xn--bcher-kva.example". The conversion is UTS #46
// nontransitional processing as a browser's (golang.org/x/net/idna, without
// the STD3 and hyphen checks, so "foo_bar.example" and "r3---sn-abc.example"
// pass); it keeps a trailing dot. A host it rejects (an "xn--" label that is
// no valid A-label, such as "xn--" alone or one over 63 bytes, a bidi
// violation, invalid UTF-8, a character outside RFC 3986's reg-name such as
// "<") is an error matching ErrInvalidHost. IP literals are only
// lowercased; the zone of an IPv6 literal (RFC 6874) must be printable
// ASCII or spaces.
//
// Nothing else changes: the path, its percent-encoding and the query are
// kept byte for byte, with two exceptions forced by net/url and by
// idempotence: a character that may not appear raw in a path (a space, a
// non-ASCII byte) is percent-encoded there, and a raw space in the query,
// which RFC 3986 does not allow either, is written %20, so that no result
// ends in white space. The fragment is dropped unread, so a malformed escape
// in it ("#50%") is no error. An authority that net/url reads as a list of
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

// space is the ASCII white space that Canonicalize ignores around a URI.
const space = " \t\n\r\f"

// parse parses raw as an absolute URI with a host. The fragment is cut off
// before parsing, as every rule drops it: net/url would otherwise reject a
// malformed escape in it.
func parse(raw string) (*url.URL, error) {
	s, _, _ := strings.Cut(strings.Trim(raw, space), "#")
	u, err := url.Parse(s)
	if err != nil {
		return nil, &Error{URI: raw, Err: err}
	}
	if u.Scheme == "" || u.Host == "" {
		return nil, &Error{URI: raw, Err: ErrNotAbsolute}
	}
	return u, nil
}

// isDefaultPort reports whether the port number port (without leading
// zeros) may be dropped for scheme under the paper's rules: it is empty, or
// 80 for http, or 443 for https.
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

// portNumber writes the decimal port p (digits only, as net/url checks)
// without leading zeros, as RFC 3986 §3.2.3 reads it; an empty port stays
// empty. A port above 65535 is an error matching ErrInvalidPort.
func portNumber(p string) (string, error) {
	if p == "" {
		return "", nil
	}
	n := strings.TrimLeft(p, "0")
	if n == "" {
		return "0", nil
	}
	if len(n) > 5 || (len(n) == 5 && n > "65535") {
		return "", fmt.Errorf("%w: %s", ErrInvalidPort, p)
	}
	return n, nil
}
