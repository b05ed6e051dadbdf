package localweb

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ccFields are the fields of Common Crawl's index rows, in its order.
var ccFields = []string{"urlkey", "timestamp", "url", "mime", "mime-detected", "status", "digest", "length", "offset", "filename", "encoding", "redirect"}

// ccPageSize is the pages of an index query in blocks of 3,000 lines, as
// Common Crawl's index server (pywb) is configured (max_blocks: 5).
const (
	ccBlockLines = 3000
	ccPageBlocks = 5
)

// ccNotFound answers pywb's 404 for a query without captures.
func ccMessage(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"message": msg})
}

// ccIndex answers the Common Crawl index server: /collinfo.json and the
// archive's collection at /<collection>-index.
func (s *Server) ccIndex(w http.ResponseWriter, r *http.Request) {
	if !getOnly(w, r) {
		return
	}
	if st := s.limits.ccIndex.take(clientKey(r)); !st.ok {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, "503 Service Unavailable: please slow down\n")
		return
	}
	a := s.arch
	if r.URL.Path == "/collinfo.json" {
		base := baseURL(r)
		writeJSON(w, http.StatusOK, []map[string]string{{
			"id":       a.collection,
			"name":     a.at.Format("January 2006") + " Index",
			"timegate": base + "/" + a.collection + "/",
			"cdx-api":  base + "/" + a.collection + "-index",
			"from":     a.at.Format("2006-01-02T15:04:05"),
			"to":       a.at.Add(time.Hour).Format("2006-01-02T15:04:05"),
		}})
		return
	}
	v := r.URL.Query()
	q, err := parseCDXQuery(v, false)
	if err != nil {
		ccMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	fields, err := q.selectFields(ccFields)
	if err != nil {
		ccMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	rows, err := s.archiveRows(r.Context(), q, true)
	if err != nil {
		s.errorLog().Printf("localweb: cc index: %v", err)
		ccMessage(w, http.StatusInternalServerError, "Internal Server Error")
		return
	}
	rows = q.filter(rows, ccFields)
	blocks := (len(rows) + ccBlockLines - 1) / ccBlockLines
	pages := max(1, (blocks+ccPageBlocks-1)/ccPageBlocks)
	if v.Get("showNumPages") == "true" {
		writeJSON(w, http.StatusOK, map[string]int{"pages": pages, "pageSize": ccPageBlocks, "blocks": blocks})
		return
	}
	if p := v.Get("page"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n >= pages {
			ccMessage(w, http.StatusBadRequest, fmt.Sprintf("Page %s invalid: First Page is 0, Last Page is %d", p, pages-1))
			return
		}
		per := ccBlockLines * ccPageBlocks
		rows = rows[min(n*per, len(rows)):min((n+1)*per, len(rows))]
	}
	if len(rows) == 0 {
		ccMessage(w, http.StatusNotFound, "No Captures found for: "+v.Get("url"))
		return
	}
	jsonOut := v.Get("output") == "json"
	if jsonOut {
		w.Header().Set("Content-Type", "text/x-ndjson")
	} else {
		w.Header().Set("Content-Type", "text/x-cdxj")
	}
	for _, row := range rows {
		obj := make(map[string]string, len(fields))
		for _, f := range fields {
			if val, ok := row[f]; ok {
				obj[f] = val
			}
		}
		if !jsonOut {
			delete(obj, "urlkey")
			delete(obj, "timestamp")
		}
		b := orderedJSON(obj, fields)
		if jsonOut {
			fmt.Fprintf(w, "%s\n", b)
		} else {
			fmt.Fprintf(w, "%s %s %s\n", row["urlkey"], row["timestamp"], b)
		}
	}
}

// orderedJSON writes obj as a JSON object with its keys in the order of
// fields, as pywb writes index lines.
func orderedJSON(obj map[string]string, fields []string) []byte {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	for _, f := range fields {
		v, ok := obj[f]
		if !ok {
			continue
		}
		if !first {
			b.WriteString(", ")
		}
		first = false
		k, _ := json.Marshal(f)
		val, _ := json.Marshal(v)
		b.Write(k)
		b.WriteString(": ")
		b.Write(val)
	}
	b.WriteByte('}')
	return []byte(b.String())
}

// s3Error answers an S3 error document, as data.commoncrawl.org does.
func s3Error(w http.ResponseWriter, status int, code, msg, key string) {
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>%s</Code><Message>%s</Message>", code, htmlEscape(msg))
	if key != "" {
		fmt.Fprintf(w, "<Key>%s</Key>", htmlEscape(key))
	}
	fmt.Fprint(w, "<RequestId>LOCALWEB</RequestId></Error>\n")
}

// ccData answers data.commoncrawl.org's WARC files, whole or by byte
// ranges (Range: bytes=a-b answers 206 with those bytes: for an index
// row's offset and length, one gzip member holding one WARC response
// record).
func (s *Server) ccData(w http.ResponseWriter, r *http.Request) {
	if !getOnly(w, r) {
		return
	}
	if st := s.limits.ccData.take(clientKey(r)); !st.ok {
		s3Error(w, http.StatusServiceUnavailable, "SlowDown", "Please reduce your request rate.", "")
		return
	}
	key := strings.TrimPrefix(r.URL.Path, "/")
	n := s.arch.fileNumber(key)
	if n < 0 {
		s3Error(w, http.StatusNotFound, "NoSuchKey", "The specified key does not exist.", key)
		return
	}
	f, err := s.arch.file(r.Context(), n)
	if err != nil || f == nil {
		s.errorLog().Printf("localweb: warc file %d: %v", n, err)
		s3Error(w, http.StatusInternalServerError, "InternalError", "We encountered an internal error. Please try again.", key)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("ETag", fmt.Sprintf("%q", digest([]byte(key))))
	http.ServeContent(w, r, "", s.arch.at, io.NewSectionReader(&warcReader{ctx: r.Context(), a: s.arch, n: n}, 0, f.size))
}

// warcReader reads WARC file n of the archive.
type warcReader struct {
	ctx context.Context
	a   *archive
	n   int
}

// ReadAt reads the file's bytes at off.
func (wr *warcReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := wr.a.readAt(wr.ctx, wr.n, p, off)
	if err == nil && n < len(p) {
		err = io.EOF
	}
	return n, err
}
