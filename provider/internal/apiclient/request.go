package apiclient

import (
	"fmt"
	"net/http"
	"net/url"
)

// ParseBaseURL parses a service's base URL, raw, or fallback when raw is
// empty, and checks that it is an absolute http or https URL with a host.
// The error names service and quotes the URL, so raw must not hold a
// secret.
func ParseBaseURL(service, raw, fallback string) (*url.URL, error) {
	if raw == "" {
		raw = fallback
	}
	u, err := url.Parse(raw)
	if err != nil {
		// The raw text may hold a password; url.Parse's error quotes it.
		return nil, fmt.Errorf("%s: base URL is not a URL", service)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s: base URL %q is not an absolute http or https URL", service, u.Redacted())
	}
	return u, nil
}

// NewGet returns a GET request for base with params added to any query
// base already has (params win), and with a copy of header whose names are
// put in canonical form ("API-Key" becomes "Api-Key"), so that the Client
// finds the secrets among them. base and header are not modified.
func NewGet(base *url.URL, params url.Values, header http.Header) *http.Request {
	u := *base
	q := u.Query()
	for k, vs := range params {
		q[k] = vs
	}
	u.RawQuery = q.Encode()
	h := make(http.Header, len(header))
	for k, vs := range header {
		for _, v := range vs {
			h.Add(k, v)
		}
	}
	return &http.Request{
		Method:     http.MethodGet,
		URL:        &u,
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     h,
		Host:       u.Host,
	}
}
