package localweb

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/linkrot/relink/canon"
)

// availablePath is the path of the Wayback availability API on
// archive.org.
const availablePath = "/wayback/available"

// waybackFields are the fields of the Wayback CDX server's rows, in its
// default order.
var waybackFields = []string{"urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length"}

// wayback answers the Wayback Machine: the CDX server and raw replay.
func (s *Server) wayback(w http.ResponseWriter, r *http.Request) {
	if !getOnly(w, r) {
		return
	}
	if strings.HasPrefix(r.URL.Path, "/web/") {
		s.replay(w, r)
		return
	}
	if st := s.limits.waybackCDX.take(clientKey(r)); !st.ok {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte("<html><head><title>429 Too Many Requests</title></head><body><h1>Too Many Requests</h1><p>Please slow down: the CDX API allows a limited number of requests a minute from one address.</p></body></html>\n"))
		return
	}
	q, err := parseCDXQuery(r.URL.Query(), true)
	if err != nil {
		http.Error(w, "org.archive.util.io.RuntimeIOException: "+err.Error(), http.StatusBadRequest)
		return
	}
	fields, err := q.selectFields(waybackFields)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rows, err := s.archiveRows(r.Context(), q, false)
	if err != nil {
		s.errorLog().Printf("localweb: cdx: %v", err)
		http.Error(w, "500 internal server error", http.StatusInternalServerError)
		return
	}
	rows = q.filter(rows, waybackFields)
	if r.URL.Query().Get("output") == "json" {
		out := [][]string{}
		if len(rows) > 0 {
			out = append(out, fields)
		}
		for _, row := range rows {
			line := make([]string, len(fields))
			for i, f := range fields {
				line[i] = row[f]
			}
			out = append(out, line)
		}
		b, _ := json.Marshal(out)
		w.Header().Set("Content-Type", "application/json")
		w.Write(append(b, '\n'))
		return
	}
	w.Header().Set("Content-Type", "text/plain")
	for _, row := range rows {
		line := make([]string, len(fields))
		for i, f := range fields {
			line[i] = row[f]
		}
		w.Write([]byte(strings.Join(line, " ") + "\n"))
	}
}

// archiveRows returns the index rows of the captures q's URL and match
// type select, in key order, before q's filters. Redirect captures, which
// are in no WARC file, are listed for an exact query unless pagesOnly.
func (s *Server) archiveRows(ctx context.Context, q *cdxQuery, pagesOnly bool) ([]cdxRow, error) {
	a := s.arch
	key, err := canon.SURT(q.url)
	if err != nil {
		return nil, nil
	}
	var rows []cdxRow
	for _, i := range a.matching(key, q.matchType) {
		rec, n, err := a.pageRecord(ctx, i)
		if err != nil {
			return nil, err
		}
		if rec.missing {
			continue
		}
		rows = append(rows, a.row(rec, a.fileName(n)))
	}
	if len(rows) == 0 && q.matchType == "exact" && !pagesOnly {
		c, err := a.captureOf(ctx, q.url)
		if err != nil {
			return nil, err
		}
		if c != nil {
			b, err := a.build(c)
			if err != nil {
				return nil, err
			}
			rows = append(rows, a.row(a.recordOf(c, b), ""))
		}
	}
	return rows, nil
}

// row returns rec as an index row with the fields of both indexes.
func (a *archive) row(rec record, file string) cdxRow {
	r := cdxRow{
		"urlkey": rec.key, "timestamp": a.ts, "original": rec.original, "url": rec.original,
		"mimetype": rec.mime, "mime": rec.mime, "mime-detected": rec.mime,
		"statuscode": strconv.Itoa(rec.status), "status": strconv.Itoa(rec.status),
		"digest": rec.digest, "length": strconv.FormatInt(rec.length, 10),
	}
	if file != "" {
		r["offset"] = strconv.FormatInt(rec.offset, 10)
		r["filename"] = file
	}
	if rec.charset != "" {
		r["encoding"] = rec.charset
	}
	if rec.location != "" {
		r["redirect"] = rec.location
	}
	return r
}

// replay answers /web/<timestamp><flags>/<original>: the capture's bytes
// as captured (every flag is served as id_, the raw replay, without the
// archive's banner or rewritten links), with Memento-Datetime. A timestamp
// other than the capture's is redirected to the capture's, as the Wayback
// Machine redirects to the closest capture; a redirect capture's Location
// is rewritten into the archive, and the captured one kept in
// X-Archive-Orig-Location.
func (s *Server) replay(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.RequestURI(), "/web/")
	n := 0
	for n < len(rest) && n < 14 && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	ts := rest[:n]
	rest = rest[n:]
	slash := strings.IndexByte(rest, '/')
	if n == 0 || slash < 0 {
		http.Error(w, "400 bad request: want /web/<timestamp>id_/<url>", http.StatusBadRequest)
		return
	}
	flags := rest[:slash]
	original := fixScheme(rest[slash+1:])
	c, err := s.arch.captureOf(r.Context(), original)
	if err != nil {
		s.errorLog().Printf("localweb: replay %s: %v", original, err)
		http.Error(w, "500 internal server error", http.StatusInternalServerError)
		return
	}
	if c == nil {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte("<html><body><p>Wayback Machine doesn't have that page archived.</p></body></html>\n"))
		return
	}
	base := baseURL(r)
	if ts != s.arch.ts {
		w.Header().Set("Location", base+"/web/"+s.arch.ts+flags+"/"+original)
		w.WriteHeader(http.StatusFound)
		return
	}
	h := w.Header()
	for k, vs := range c.header {
		h[k] = append([]string(nil), vs...)
	}
	for _, k := range hopHeaders {
		h.Del(k)
	}
	if c.location != "" {
		h.Set("X-Archive-Orig-Location", c.location)
		h.Set("Location", base+"/web/"+s.arch.ts+flags+"/"+c.location)
	}
	h.Set("Memento-Datetime", s.arch.at.Format(http.TimeFormat))
	h.Set("Link", "<"+c.original+">; rel=\"original\"")
	h.Set("Content-Length", strconv.Itoa(len(c.body)))
	w.WriteHeader(c.status)
	w.Write(c.body)
}

// fixScheme restores the "//" that path cleaning collapses in a replayed
// URI ("http:/example.com/") and adds http:// to one without a scheme.
func fixScheme(s string) string {
	for _, scheme := range []string{"http:", "https:"} {
		if len(s) >= len(scheme) && strings.EqualFold(s[:len(scheme)], scheme) {
			return scheme + "//" + strings.TrimLeft(s[len(scheme):], "/")
		}
	}
	return "http://" + s
}

// available answers the Wayback availability API: the capture closest to
// the time asked for, which is the archive's one capture.
func (s *Server) available(w http.ResponseWriter, r *http.Request) {
	if !getOnly(w, r) {
		return
	}
	v := r.URL.Query()
	uri := v.Get("url")
	out := map[string]any{"url": uri, "archived_snapshots": map[string]any{}}
	if ts := v.Get("timestamp"); ts != "" {
		out["timestamp"] = ts
	}
	if uri != "" {
		c, err := s.arch.captureOf(r.Context(), fixScheme(uri))
		if err != nil {
			http.Error(w, "500 internal server error", http.StatusInternalServerError)
			return
		}
		if c != nil {
			wb := s.URL("wayback")
			if host, _ := splitHostPort(strings.TrimPrefix(strings.TrimPrefix(baseURL(r), "http://"), "https://")); host == "archive.org" {
				wb = strings.Replace(baseURL(r), "archive.org", "web.archive.org", 1)
			}
			out["archived_snapshots"] = map[string]any{"closest": map[string]any{
				"status": strconv.Itoa(c.status), "available": true,
				"url": wb + "/web/" + s.arch.ts + "/" + c.original, "timestamp": s.arch.ts,
			}}
		}
	}
	writeJSON(w, http.StatusOK, out)
}
