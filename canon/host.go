package canon

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// ErrInvalidHost is returned, wrapped in an *Error, when Options.IDNA is set
// and the host name cannot be converted to ASCII: the IDNA conversion fails,
// or its result is not an RFC 3986 reg-name (§3.2.2: letters, digits and
// - . _ ~ ! $ & ' ( ) * + , ; =). IDNA maps some Unicode characters to other
// ASCII ones, such as U+3000 IDEOGRAPHIC SPACE to a space and U+FE38 to "}".
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
	u.Host = name
	if !isDefaultPort(u.Scheme, port) {
		u.Host += ":" + port
	}
	return nil
}

// hostName applies the host rules to name, the host without its port: the
// paper's lowercasing, then IDNA and StripWWW when o selects them. An IP
// literal in brackets is only lowercased.
func (o Options) hostName(name string) (string, error) {
	name = strings.ToLower(name)
	if strings.HasPrefix(name, "[") {
		return name, nil
	}
	if o.IDNA {
		a, err := lookup.ToASCII(name)
		if err != nil {
			return "", fmt.Errorf("%w: %w", ErrInvalidHost, err)
		}
		for i := 0; i < len(a); i++ {
			if !isRegNameByte(a[i]) {
				return "", fmt.Errorf("%w: %q contains %q", ErrInvalidHost, a, a[i])
			}
		}
		name = strings.TrimRight(a, ".")
	}
	if o.StripWWW {
		name = stripWWW(name)
	}
	return name, nil
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
