package canon

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// ErrInvalidHost is returned, wrapped in an *Error, when a host name cannot
// be written in ASCII: the IDNA conversion fails, it gives an A-label longer
// than 63 bytes or empties a label (an A-label with nothing after "xn--", a
// label of characters IDNA ignores),
// or its result is not an RFC 3986 reg-name (§3.2.2: letters, digits and
// - . _ ~ ! $ & ' ( ) * + , ; =; IDNA maps some Unicode characters to
// other ASCII ones, such as U+3000 IDEOGRAPHIC SPACE to a space and U+FE38
// to "}"). It is also returned for the zone of an IPv6 literal that is not
// printable ASCII or spaces, and by SURT for an authority that is a list of
// hosts.
var ErrInvalidHost = errors.New("canon: invalid host name")

// isRegNameByte reports whether c may appear in an RFC 3986 reg-name without
// percent-encoding: an unreserved character or a sub-delim.
func isRegNameByte(c byte) bool {
	return isUnreserved(c) || strings.IndexByte("!$&'()*+,;=", c) >= 0
}

// lookup converts host names as a browser's URL parser does (UTS #46
// nontransitional processing with the bidi and joiner checks), but without
// the STD3 rules and the hyphen checks, which reject names in real use such
// as "foo_bar.example" and "r3---sn-abc.example".
var lookup = idna.New(
	idna.MapForLookup(),
	idna.Transitional(false),
	idna.BidiRule(),
	idna.StrictDomainName(false),
	idna.CheckHyphens(false),
)

// host applies the host and port rules to u.Host.
func (o Options) host(u *url.URL) error {
	name, port := splitPort(u.Host)
	if strings.Contains(name, ":") && !strings.HasPrefix(name, "[") {
		// net/url accepts a list of host:port pairs ("mongodb://a:1,b:2")
		// for schemes other than http and https. Such an authority is only
		// lowercased: dropping even an empty port from "a:1,b:" would leave
		// "a:1,b", which no longer parses.
		u.Host = strings.ToLower(u.Host)
		return nil
	}
	name, err := o.hostName(name)
	if err != nil {
		return err
	}
	if name == "" {
		return ErrNotAbsolute
	}
	if port, err = portNumber(port); err != nil {
		return err
	}
	u.Host = name
	if !isDefaultPort(u.Scheme, port) {
		u.Host += ":" + port
	}
	return nil
}

// hostName applies the host rules to name, the host without its port:
// lowercasing and the ASCII form, then TrailingDot and StripWWW when o
// selects them. An IP literal in brackets is only lowercased.
func (o Options) hostName(name string) (string, error) {
	if strings.HasPrefix(name, "[") {
		return ipLiteral(name)
	}
	name, err := asciiHost(name)
	if err != nil {
		return "", err
	}
	if o.TrailingDot || o.IDNA {
		name = strings.TrimRight(name, ".")
	}
	if o.StripWWW {
		name = stripWWW(name)
	}
	return name, nil
}

// ipLiteral lowercases the bracketed IP literal name, which net/url has
// checked. Its zone, if any (RFC 6874: "[fe80::1%25en0]"), must be printable
// ASCII or spaces (Windows names interfaces with them): net/url writes other
// bytes as escapes that it then refuses to read, so no canonical form could
// hold them.
func ipLiteral(name string) (string, error) {
	if _, zone, ok := strings.Cut(name, "%"); ok {
		for i := 0; i < len(zone)-1; i++ { // the last byte is "]"
			if zone[i] < ' ' || zone[i] >= 0x7f {
				return "", fmt.Errorf("%w: zone %q is not printable ASCII", ErrInvalidHost, zone[:len(zone)-1])
			}
		}
	}
	return lowerASCII(name), nil
}

// asciiHost returns the host name in lowercase ASCII, Unicode labels as
// punycode (see Canonicalize), or an error matching ErrInvalidHost.
func asciiHost(name string) (string, error) {
	if isPlainASCII(name) {
		// UTS #46 maps these bytes to themselves, upper case to lower,
		// and has nothing to check: lookup.ToASCII would return the
		// lowercased name.
		return lowerASCII(name), nil
	}
	if !utf8.ValidString(name) {
		return "", fmt.Errorf("%w: %q is not UTF-8", ErrInvalidHost, name)
	}
	a, err := lookup.ToASCII(name)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrInvalidHost, err)
	}
	for i := 0; i < len(a); i++ {
		if !isRegNameByte(a[i]) {
			return "", fmt.Errorf("%w: %q contains %q", ErrInvalidHost, a, a[i])
		}
	}
	// An A-label has at most 63 bytes (RFC 5890 §2.3.2.1), and x/net/idna
	// encodes longer labels that it cannot decode again.
	for _, label := range strings.Split(a, ".") {
		if len(label) > 63 && strings.HasPrefix(label, "xn--") {
			return "", fmt.Errorf("%w: A-label %.20q… is longer than 63 bytes", ErrInvalidHost, label)
		}
	}
	// x/net/idna drops an A-label with nothing after "xn--", which UTS #46
	// (since Unicode 15.1) and RFC 5890 §2.3.2.1 reject; a label whose
	// characters all map to nothing vanishes too. Either shows as an empty
	// label that the input did not have.
	if emptyLabels(a) > emptyLabels(name) {
		return "", fmt.Errorf("%w: %q has a label that converts to nothing", ErrInvalidHost, name)
	}
	return a, nil
}

// isPlainASCII reports whether name is made of reg-name bytes only and has
// no label that starts with "xn--" in any case, so that its ASCII form is
// its lowercase form.
func isPlainASCII(name string) bool {
	for i := 0; i < len(name); i++ {
		if !isRegNameByte(name[i]) {
			return false
		}
		if (i == 0 || name[i-1] == '.') && len(name)-i >= 4 && strings.EqualFold(name[i:i+4], "xn--") {
			return false
		}
	}
	return true
}

// emptyLabels counts the empty labels of name, split at the four dots of
// RFC 3490 §3.1 that IDNA reads as label separators: "." and its
// ideographic, fullwidth and halfwidth forms.
func emptyLabels(name string) int {
	n, empty := 0, true
	for _, r := range name {
		switch r {
		case '.', '\u3002', '\uff0e', '\uff61':
			if empty {
				n++
			}
			empty = true
		default:
			empty = false
		}
	}
	if empty {
		n++
	}
	return n
}

// stripWWW removes leading "www." labels from name as long as a dot remains,
// so that "www.www.example.com" becomes "example.com" and "www.com" stays.
func stripWWW(name string) string {
	for {
		rest, ok := strings.CutPrefix(name, "www.")
		if !ok || !strings.Contains(rest, ".") {
			return name
		}
		name = rest
	}
}

// lowerASCII lowercases the ASCII letters of s and leaves other bytes alone.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
