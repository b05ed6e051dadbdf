package commoncrawl

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/linkrot/relink/provider/warc"
)

// Writer writes WAT files that Reader reads back: gzip with one member per
// record, a warcinfo record first, then one metadata record per page whose
// JSON envelope has the layout of Common Crawl's (the fields Parse reads,
// under the same names and nesting). Tests use it to make fixture files;
// it can also turn other link data into the form provider/store's IngestWAT
// reads. A Writer is not safe for concurrent use.
type Writer struct {
	w       *warc.Writer
	started bool
}

// NewWriter returns a Writer of a gzip WAT file to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: warc.NewWriter(w, true)}
}

// The envelope as WritePage writes it.
type (
	outEnvelope struct {
		Envelope outInner `json:"Envelope"`
	}
	outInner struct {
		Format  string     `json:"Format"`
		Header  outHeader  `json:"WARC-Header-Metadata"`
		Payload outPayload `json:"Payload-Metadata"`
	}
	outHeader struct {
		Type      string `json:"WARC-Type"`
		TargetURI string `json:"WARC-Target-URI"`
		Date      string `json:"WARC-Date,omitempty"`
	}
	outPayload struct {
		ContentType string      `json:"Actual-Content-Type"`
		Response    outResponse `json:"HTTP-Response-Metadata"`
	}
	outResponse struct {
		Message *outMessage `json:"Response-Message,omitempty"`
		HTML    outHTML     `json:"HTML-Metadata"`
	}
	outMessage struct {
		Version string `json:"Version"`
		Status  string `json:"Status"`
	}
	outHTML struct {
		Head  outHead   `json:"Head"`
		Links []rawLink `json:"Links"`
	}
	outHead struct {
		Title string `json:"Title,omitempty"`
	}
)

// WritePage writes the envelope of an HTML response for p: p.Address (or
// p.URI when Address is empty) as the page's URI, p.Fetched as its
// WARC-Date (left out when zero), p.Status (left out when 0), p.Title, and
// each Link as an "A@/href" link with Target as its url and Anchor as its
// text. Record, Offset and Dropped are ignored. Reading the file back gives
// p's links, canonicalized. The first call writes the warcinfo record too.
// An error of the underlying writer is returned by this and every later
// call.
func (w *Writer) WritePage(p *Page) error {
	if !w.started {
		w.started = true
		err := w.w.WriteRecord(warc.Header{
			{Name: "WARC-Type", Value: warc.TypeWarcinfo},
			{Name: "Content-Type", Value: "application/warc-fields"},
		}, []byte("software: relink commoncrawl.Writer\r\nformat: WARC File Format 1.1\r\n"))
		if err != nil {
			return fmt.Errorf("commoncrawl: write: %w", err)
		}
	}
	address := p.Address
	if address == "" {
		address = p.URI
	}
	env := outEnvelope{Envelope: outInner{
		Format: "WARC",
		Header: outHeader{Type: warc.TypeResponse, TargetURI: address},
		Payload: outPayload{
			ContentType: "application/http; msgtype=response",
			Response: outResponse{HTML: outHTML{
				Head:  outHead{Title: p.Title},
				Links: make([]rawLink, len(p.Links)),
			}},
		},
	}}
	if !p.Fetched.IsZero() {
		env.Envelope.Header.Date = p.Fetched.UTC().Format(time.RFC3339)
	}
	if p.Status != 0 {
		env.Envelope.Payload.Response.Message = &outMessage{Version: "HTTP/1.1", Status: strconv.Itoa(p.Status)}
	}
	for i, l := range p.Links {
		env.Envelope.Payload.Response.HTML.Links[i] = rawLink{Path: anchorPath, URL: l.Target, Text: l.Anchor}
	}
	block, err := json.Marshal(env)
	if err != nil {
		return fmt.Errorf("commoncrawl: write %s: %w", address, err)
	}
	h := warc.Header{
		{Name: "WARC-Type", Value: warc.TypeMetadata},
		{Name: "WARC-Target-URI", Value: address},
		{Name: "Content-Type", Value: "application/json"},
	}
	if err := w.w.WriteRecord(h, block); err != nil {
		return fmt.Errorf("commoncrawl: write %s: %w", address, err)
	}
	return nil
}
