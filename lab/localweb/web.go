package localweb

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/provider/store"
)

// hopHeaders are the header fields a stored answer may carry that
// describe its old connection or coding, not the body served now.
var hopHeaders = []string{
	"Connection", "Keep-Alive", "Proxy-Connection", "Transfer-Encoding", "Upgrade",
	"Te", "Trailer", "Content-Encoding", "Content-Length", "Content-Range", "Accept-Ranges",
}

// serveWeb answers a request for uri from the web store, as the site's
// server would: the page with its stored status and header; 404 for a URI
// the store lacks or counts as missing; a 301 to where the store's
// redirects lead (the end of the chain), and to the page's published
// address when that adds a final slash the request lacks, as a static
// server redirects a directory.
func (s *Server) serveWeb(w http.ResponseWriter, r *http.Request, uri string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	asked, err := canon.Canonicalize(uri)
	if err != nil {
		http.Error(w, "400 bad request: "+err.Error(), http.StatusBadRequest)
		return
	}
	page, err := s.web.Fetch(r.Context(), uri)
	switch {
	case errors.Is(err, store.ErrTooManyRedirects):
		http.Error(w, "508 loop detected", http.StatusLoopDetected)
		return
	case err != nil:
		s.errorLog().Printf("localweb: fetch %s: %v", uri, err)
		http.Error(w, "500 internal server error", http.StatusInternalServerError)
		return
	}
	got, err := canon.Canonicalize(page.URI)
	if err == nil && got != asked {
		redirect(w, page.URI)
		return
	}
	if page.Status/100 == 2 && addsSlash(uri, page.URI) {
		redirect(w, page.URI)
		return
	}
	h := w.Header()
	for k, vs := range page.Header {
		h[k] = append([]string(nil), vs...)
	}
	for _, k := range hopHeaders {
		h.Del(k)
	}
	h.Set("Content-Length", strconv.Itoa(len(page.Body)))
	w.WriteHeader(page.Status)
	w.Write(page.Body)
}

// redirect answers 301 to location.
func redirect(w http.ResponseWriter, location string) {
	w.Header().Set("Location", location)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusMovedPermanently)
	fmt.Fprintf(w, "<html><head><title>301 Moved Permanently</title></head><body><h1>Moved Permanently</h1><p>The document has moved <a href=\"%s\">here</a>.</p></body></html>\n", htmlEscape(location))
}

// addsSlash reports whether published is asked with a final slash on its
// path that asked lacks.
func addsSlash(asked, published string) bool {
	a, err1 := url.Parse(asked)
	p, err2 := url.Parse(published)
	if err1 != nil || err2 != nil {
		return false
	}
	return strings.HasSuffix(p.Path, "/") && !strings.HasSuffix(a.Path, "/") && a.Path != ""
}

// htmlEscape escapes s for HTML text and attributes.
func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}
