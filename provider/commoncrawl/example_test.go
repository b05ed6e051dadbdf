package commoncrawl_test

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"time"

	"github.com/linkrot/relink/provider/commoncrawl"
)

// ExampleReader writes a small WAT file with Writer and reads its link
// records back, as one would read a file downloaded from Common Crawl.
func ExampleReader() {
	var wat bytes.Buffer
	w := commoncrawl.NewWriter(&wat)
	for _, p := range []*commoncrawl.Page{
		{URI: "https://blog.example/post", Fetched: time.Date(2024, 5, 18, 1, 58, 10, 0, time.UTC), Status: 200,
			Links: []commoncrawl.Link{{Target: "https://Docs.Example/Guide/#intro", Anchor: "the  guide"}}},
		{URI: "https://news.example/", Status: 200,
			Links: []commoncrawl.Link{{Target: "mailto:editor@news.example", Anchor: "write to us"}}},
	} {
		if err := w.WritePage(p); err != nil {
			log.Fatal(err)
		}
	}

	r, err := commoncrawl.NewReader(&wat, nil)
	if err != nil {
		log.Fatal(err)
	}
	for {
		p, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		for _, l := range p.Links {
			fmt.Printf("%s -> %s %q (fetched %s)\n", p.URI, l.Target, l.Anchor, p.Fetched.Format(time.DateOnly))
		}
	}
	fmt.Println(r.Stats())
	// Output:
	// https://blog.example/post -> https://docs.example/Guide "the guide" (fetched 2024-05-18)
	// 3 records: 2 pages, 1 links; skipped 1 not-metadata; links dropped 1 not-http
}

// ExampleParse parses the JSON envelope of one WAT record.
func ExampleParse() {
	block := `{"Envelope":{"WARC-Header-Metadata":{"WARC-Type":"response","WARC-Target-URI":"http://example.com/a/",` +
		`"WARC-Date":"2024-05-18T01:58:10Z"},"Payload-Metadata":{"HTTP-Response-Metadata":{"Response-Message":{"Status":"200"},` +
		`"HTML-Metadata":{"Head":{"Title":"A","Base":"/b/"},"Links":[{"path":"A@/href","url":"c.html","text":"see C"},` +
		`{"path":"IMG@/src","url":"/logo.png"}]}}}}}`
	p, err := commoncrawl.Parse([]byte(block), "")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.URI, p.Links, p.Dropped)
	// Output:
	// http://example.com/a [{http://example.com/b/c.html see C}] map[not-a-href:1]
}
