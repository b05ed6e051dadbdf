package commoncrawl_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/linkrot/relink/provider/warc"
)

// q quotes s as a JSON string.
func q(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// link returns one entry of HTML-Metadata.Links; an empty text is left
// out, as Common Crawl's extractor leaves it out.
func link(path, url, text string) string {
	s := `{"path":` + q(path) + `,"url":` + q(url)
	if text != "" {
		s += `,"text":` + q(text)
	}
	return s + "}"
}

// links joins link entries into a JSON array.
func links(ls ...string) string { return "[" + strings.Join(ls, ",") + "]" }

// response returns the envelope of an HTML response in the layout of
// Common Crawl's WAT files (a Container, the WARC header of the response,
// its HTTP header and message, and the HTML metadata). status is the raw
// JSON of the Status field ("" leaves Response-Message out); head is the
// raw JSON of the Head object; ls the raw JSON of the Links array ("" leaves
// it out).
func response(uri, date, status, head, ls string) string {
	msg := ""
	if status != "" {
		msg = `"Response-Message":{"Version":"HTTP/1.1","Status":` + status + `,"Reason":"Whatever"},`
	}
	html := `"Head":` + head
	if ls != "" {
		html += `,"Links":` + ls
	}
	return `{"Container":{"Filename":"TEST-00000.warc.gz","Compressed":true,"Offset":"4096",` +
		`"Gzip-Metadata":{"Deflate-Length":"1500","Header-Length":"10","Footer-Length":"8","Inflated-Length":"4000"}},` +
		`"Envelope":{"Format":"WARC","WARC-Header-Length":"420","Actual-Content-Length":"3500","Block-Digest":"sha1:TESTTESTTEST",` +
		`"WARC-Header-Metadata":{"WARC-Type":"response","WARC-Date":` + q(date) + `,"WARC-Record-ID":"<urn:uuid:00000000-0000-4000-8000-000000000001>",` +
		`"Content-Length":"3500","Content-Type":"application/http; msgtype=response","WARC-IP-Address":"192.0.2.7","WARC-Target-URI":` + q(uri) + `},` +
		`"Payload-Metadata":{"Actual-Content-Type":"application/http; msgtype=response","HTTP-Response-Metadata":{` +
		`"Headers-Length":"210","Entity-Length":"3290","Headers":{"Content-Type":"text/html; charset=utf-8","Server":"fixture/1.0"},` +
		msg + `"HTML-Metadata":{` + html + `}}}}}`
}

// head returns a Head object with a title, an optional <base href>, and
// the metas, head links and scripts a real page has.
func head(title, base string) string {
	s := `{"Metas":[{"name":"viewport","content":"width=device-width"}],` +
		`"Link":[{"path":"LINK@/href","rel":"stylesheet","url":"/site.css"}],` +
		`"Scripts":[{"path":"SCRIPT@/src","url":"/app.js"}],"Title":` + q(title)
	if base != "" {
		s += `,"Base":` + q(base)
	}
	return s + "}"
}

// request returns the envelope of a request record.
func request(uri string) string {
	return `{"Envelope":{"Format":"WARC","WARC-Header-Metadata":{"WARC-Type":"request","WARC-Target-URI":` + q(uri) + `,` +
		`"WARC-Date":"2024-05-18T01:58:10Z"},"Payload-Metadata":{"Actual-Content-Type":"application/http; msgtype=request",` +
		`"HTTP-Request-Metadata":{"Request-Message":{"Method":"GET","Path":"/","Version":"HTTP/1.1"},"Headers":{"Host":"example.com"}}}}}`
}

// metadataEnvelope returns the envelope of a crawler's metadata record.
func metadataEnvelope(uri string) string {
	return `{"Envelope":{"Format":"WARC","WARC-Header-Metadata":{"WARC-Type":"metadata","WARC-Target-URI":` + q(uri) + `},` +
		`"Payload-Metadata":{"Actual-Content-Type":"application/warc-fields","WARC-Metadata-Metadata":{"Metadata-Records":[{"Name":"fetchTimeMs","Value":"87"}]}}}}`
}

// image returns the envelope of a response that is not HTML.
func image(uri string) string {
	return `{"Envelope":{"Format":"WARC","WARC-Header-Metadata":{"WARC-Type":"response","WARC-Target-URI":` + q(uri) + `},` +
		`"Payload-Metadata":{"Actual-Content-Type":"application/http; msgtype=response","HTTP-Response-Metadata":{` +
		`"Headers":{"Content-Type":"image/png"},"Response-Message":{"Version":"HTTP/1.1","Status":"200","Reason":"OK"}}}}}`
}

// watFile builds a WAT file in memory with warc.Writer.
type watFile struct {
	t   testing.TB
	buf bytes.Buffer
	w   *warc.Writer
}

// newWAT starts a WAT file with its warcinfo record.
func newWAT(t testing.TB) *watFile {
	f := &watFile{t: t}
	f.w = warc.NewWriter(&f.buf, true)
	f.record(warc.TypeWarcinfo, "", "application/warc-fields", "software: fixture\r\n")
	return f
}

// record writes one record and returns its offset.
func (f *watFile) record(typ, uri, ctype, block string) int64 {
	f.t.Helper()
	off := f.w.Offset()
	h := warc.Header{{Name: "WARC-Type", Value: typ}}
	if uri != "" {
		h.Add("WARC-Target-URI", uri)
	}
	h.Add("Content-Type", ctype)
	if err := f.w.WriteRecord(h, []byte(block)); err != nil {
		f.t.Fatal(err)
	}
	return off
}

// meta writes a metadata record holding block and returns its offset.
func (f *watFile) meta(uri, block string) int64 {
	return f.record(warc.TypeMetadata, uri, "application/json", block)
}

// bytes returns the file.
func (f *watFile) bytes() []byte { return f.buf.Bytes() }

// longText returns a text of n bytes.
func longText(n int) string { return strings.Repeat("x", n) }
