package warc_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"strings"
	"time"

	"github.com/linkrot/relink/provider/warc"
)

// date is the capture date of the examples' records.
var date = time.Date(2009, 3, 1, 12, 0, 0, 0, time.UTC)

func ExampleReader() {
	// Write two records to memory; NewWriter(&buf, true) would gzip them.
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, false)
	err := w.WriteResponse("http://example.com/", date, 200, http.Header{"Content-Type": {"text/html"}}, []byte("<p>hello</p>"))
	if err != nil {
		log.Fatal(err)
	}
	meta := warc.Header{
		{Name: "WARC-Type", Value: warc.TypeMetadata},
		{Name: "WARC-Target-URI", Value: "http://example.com/"},
		{Name: "WARC-Date", Value: "2009-03-01T12:00:00Z"},
	}
	if err := w.WriteRecord(meta, []byte("via: example")); err != nil {
		log.Fatal(err)
	}

	// Read them back. NewReader finds out by itself whether the data is
	// gzip.
	r, err := warc.NewReader(&buf)
	if err != nil {
		log.Fatal(err)
	}
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		block, err := io.ReadAll(rec.Body)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s %s %s at offset %d, %d bytes\n", rec.Version, rec.Header.Type(), rec.Header.TargetURI(), rec.Offset, len(block))
	}
	// Output:
	// WARC/1.1 response http://example.com/ at offset 0, 56 bytes
	// WARC/1.1 metadata http://example.com/ at offset 299, 12 bytes
}

func ExampleWriter_WriteRecord() {
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, false)
	h := warc.Header{
		{Name: "WARC-Type", Value: warc.TypeResource},
		{Name: "WARC-Record-ID", Value: "<urn:uuid:0b7c2f7e-8d4a-4f4e-9b1c-6f2d3a4b5c6d>"},
		{Name: "WARC-Date", Value: "2009-03-01T12:00:00Z"},
		{Name: "WARC-Target-URI", Value: "http://example.com/notes.txt"},
		{Name: "Content-Type", Value: "text/plain"},
	}
	if err := w.WriteRecord(h, []byte("notes")); err != nil {
		log.Fatal(err)
	}
	// The record's lines end in CRLF; show them as plain lines.
	fmt.Print(strings.ReplaceAll(buf.String(), "\r\n", "\n"))
	// Output:
	// WARC/1.1
	// WARC-Type: resource
	// WARC-Record-ID: <urn:uuid:0b7c2f7e-8d4a-4f4e-9b1c-6f2d3a4b5c6d>
	// WARC-Date: 2009-03-01T12:00:00Z
	// WARC-Target-URI: http://example.com/notes.txt
	// Content-Type: text/plain
	// Content-Length: 5
	//
	// notes
}

func ExampleReadResponse() {
	var buf bytes.Buffer
	header := http.Header{"Content-Type": {"text/html"}, "Transfer-Encoding": {"chunked"}}
	chunked := []byte("6\r\n<p>hel\r\n6\r\nlo</p>\r\n0\r\n\r\n") // recorded as sent
	if err := warc.NewWriter(&buf, true).WriteResponse("http://example.com/", date, 200, header, chunked); err != nil {
		log.Fatal(err)
	}

	r, err := warc.NewReader(&buf)
	if err != nil {
		log.Fatal(err)
	}
	rec, err := r.Next()
	if err != nil {
		log.Fatal(err)
	}
	status, h, body, err := warc.ReadResponse(rec)
	if err != nil {
		log.Fatal(err)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(status, h.Get("Content-Type"))
	fmt.Println(string(b))
	// Output:
	// 200 text/html
	// <p>hello</p>
}

func ExampleDecodeBody() {
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	if _, err := zw.Write([]byte("<p>a page sent compressed</p>")); err != nil {
		log.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	header := http.Header{"Content-Encoding": {"gzip"}}

	whole, err := warc.DecodeBody(header, bytes.NewReader(zipped.Bytes()), 0)
	if err != nil {
		log.Fatal(err)
	}
	cut, err := warc.DecodeBody(header, bytes.NewReader(zipped.Bytes()), 8)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(whole))
	fmt.Println(string(cut))
	// Output:
	// <p>a page sent compressed</p>
	// <p>a pag
}

func ExampleArchive_Fetch() {
	// A crawl in which /old redirects to /new.
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, true)
	if err := w.WriteResponse("http://example.com/old", date, 301, http.Header{"Location": {"/new"}}, nil); err != nil {
		log.Fatal(err)
	}
	if err := w.WriteResponse("http://example.com/new", date, 200, http.Header{"Content-Type": {"text/html"}}, []byte("<p>moved here</p>")); err != nil {
		log.Fatal(err)
	}

	ctx := context.Background()
	a, err := warc.NewArchive(ctx, bytes.NewReader(buf.Bytes()))
	if err != nil {
		log.Fatal(err)
	}
	for _, uri := range []string{"http://example.com/old", "http://example.com/missing"} {
		p, err := a.Fetch(ctx, uri)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d %s %q (archived: %v)\n", uri, p.Status, p.URI, p.Body, a.Has(uri))
	}
	// Output:
	// http://example.com/old: 200 http://example.com/new "<p>moved here</p>" (archived: true)
	// http://example.com/missing: 404 http://example.com/missing "" (archived: false)
}

func ExampleReader_Resync() {
	// Three gzip members, one record each; the second is damaged.
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, true)
	var offsets []int64
	for _, page := range []string{"a", "b", "c"} {
		offsets = append(offsets, w.Offset())
		h := http.Header{"Content-Type": {"text/html"}}
		if err := w.WriteResponse("http://example.com/"+page, date, 200, h, []byte("<p>"+page+"</p>")); err != nil {
			log.Fatal(err)
		}
	}
	data := buf.Bytes()
	copy(data[offsets[1]+30:], "scratched")

	r, err := warc.NewReader(bytes.NewReader(data))
	if err != nil {
		log.Fatal(err)
	}
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		var fe *warc.FormatError
		if errors.As(err, &fe) {
			// Record the rejection, then go on at the next record.
			fmt.Println("rejected the record at offset", fe.Offset == offsets[1])
			if _, err := r.Resync(); err == io.EOF {
				break
			} else if err != nil {
				log.Fatal(err)
			}
			continue
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(rec.Header.TargetURI())
	}
	// Output:
	// http://example.com/a
	// rejected the record at offset true
	// http://example.com/c
}
