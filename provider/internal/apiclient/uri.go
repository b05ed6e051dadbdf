package apiclient

import (
	"fmt"
	"mime"
	"net/url"
	"strings"
)

// WebURI returns uri without its fragment when it is an absolute http or
// https URI, and an error wrapping ErrBadURI otherwise: the check the
// archive clients make of every URI they are asked about.
func WebURI(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrBadURI, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", ErrBadURI
	}
	if i := strings.IndexByte(uri, '#'); i >= 0 {
		uri = uri[:i]
	}
	return uri, nil
}

// IsHTML reports whether a media type (a Content-Type, or an archive
// index's mime field) is HTML or XHTML, whatever its parameters and case:
// the pages the archive clients look for among a URI's captures.
func IsHTML(mediaType string) bool {
	mt, _, err := mime.ParseMediaType(mediaType)
	if err != nil {
		mt = strings.ToLower(strings.TrimSpace(mediaType))
	}
	return mt == "text/html" || mt == "application/xhtml+xml"
}
