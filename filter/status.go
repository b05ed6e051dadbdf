package filter

import (
	"net/http"
	"strconv"
)

// IsSuccess reports whether status is a 2xx HTTP status code, the only
// answers the paper kept (§3.1 "HTTP Status Codes").
func IsSuccess(status int) bool {
	return status >= 200 && status <= 299
}

// IsRedirect reports whether status is a redirect a browser follows to its
// Location: 301, 302, 303, 307 or 308. Fetchers use it to decide when a
// Page's URI is not yet the final one.
func IsRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// checkStatus is the HTTP status filter: a page is kept only when its final
// status, after redirects, is 2xx. A 3xx status means the fetcher did not
// follow a redirect, so there is no representation to judge.
func checkStatus(p *Page) *Rejection {
	if IsSuccess(p.Status) {
		return nil
	}
	return &Rejection{Filter: FilterStatus, Reason: statusReason(p.Status)}
}

// statusReason names a status the way a status line does, for example
// "HTTP 404 Not Found"; a code without a standard text is just "HTTP 599".
func statusReason(status int) string {
	s := "HTTP " + strconv.Itoa(status)
	if text := http.StatusText(status); text != "" {
		s += " " + text
	}
	return s
}
