package wayback_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/provider/wayback"
)

// archive stands in for the Wayback Machine in the examples: a CDX answer
// in the documented JSON format for one URI, and the raw replays of its
// captures.
func archive() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/cdx/search/cdx" && r.URL.Query().Get("url") == "http://example.com/tutorial.html":
			rows := `[["urlkey","timestamp","original","mimetype","statuscode","digest","length"],
				["com,example)/tutorial.html","20061104101010","http://example.com/tutorial.html","text/html","200","SHAONE","1910"],
				["com,example)/tutorial.html","20090512080000","http://example.com/tutorial.html","text/html","301","SHATWO","420"]]`
			// A real CDX server applies the filters; keep the rows they
			// select.
			if strings.Join(r.URL.Query()["filter"], " ") == "statuscode:3.." {
				rows = `[["urlkey","timestamp","original","mimetype","statuscode","digest","length"],
					["com,example)/tutorial.html","20090512080000","http://example.com/tutorial.html","text/html","301","SHATWO","420"]]`
			}
			fmt.Fprint(w, rows)
		case r.URL.Path == "/cdx/search/cdx":
			fmt.Fprint(w, "[]")
		case r.URL.Path == "/web/20061104101010id_/http://example.com/tutorial.html":
			// Every replay of a capture carries Memento-Datetime.
			w.Header().Set("Memento-Datetime", "Sat, 04 Nov 2006 10:10:10 GMT")
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html><head><title>Go Tutorial</title></head><body>...</body></html>")
		case r.URL.Path == "/web/20090512080000id_/http://example.com/tutorial.html":
			w.Header().Set("Memento-Datetime", "Tue, 12 May 2009 08:00:00 GMT")
			w.Header().Set("Location", "/web/20090512080000/http://example.com/docs/tutorial.html")
			w.WriteHeader(http.StatusMovedPermanently)
		default:
			http.NotFound(w, r)
		}
	}))
}

func ExampleClient_Captures() {
	srv := archive()
	defer srv.Close()
	c := &wayback.Client{BaseURL: srv.URL, Rate: rate.Inf}

	caps, err := c.Captures(context.Background(), "http://example.com/tutorial.html", nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, cp := range caps {
		fmt.Println(cp.Time.Format("2006-01-02"), cp.Status, cp.MIMEType)
	}
	// Output:
	// 2006-11-04 200 text/html
	// 2009-05-12 301 text/html
}

func ExampleClient_LastGood() {
	srv := archive()
	defer srv.Close()
	c := &wayback.Client{BaseURL: srv.URL, Rate: rate.Inf}

	page, err := c.LastGood(context.Background(), "http://example.com/tutorial.html")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(page.URI, page.Status)
	fmt.Println(page.Header.Get("Memento-Datetime"))
	fmt.Println(strings.TrimPrefix(page.Header.Get("Content-Location"), srv.URL))
	fmt.Println(string(page.Body))

	_, err = c.LastGood(context.Background(), "http://example.com/never.html")
	fmt.Println(errors.Is(err, wayback.ErrNoCapture))
	// Output:
	// http://example.com/tutorial.html 200
	// Sat, 04 Nov 2006 10:10:10 GMT
	// /web/20061104101010id_/http://example.com/tutorial.html
	// <html><head><title>Go Tutorial</title></head><body>...</body></html>
	// true
}

func ExampleClient_Redirects() {
	srv := archive()
	defer srv.Close()
	c := &wayback.Client{BaseURL: srv.URL, Rate: rate.Inf}

	rs, err := c.Redirects(context.Background(), "http://example.com/tutorial.html")
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range rs {
		for _, h := range r.Hops {
			fmt.Println(h.Time.Format("2006-01-02"), h.Status, h.From, "->", h.To)
		}
		fmt.Println("final:", r.Final, "loop:", r.Loop)
	}
	// Output:
	// 2009-05-12 301 http://example.com/tutorial.html -> http://example.com/docs/tutorial.html
	// final: http://example.com/docs/tutorial.html loop: false
}

func ExampleQuery_onSkip() {
	// The index holds a row whose timestamp is not a date (month zero).
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `[["urlkey","timestamp","original","mimetype","statuscode","digest","length"],
			["com,example)/","19990125085330","http://example.com/","text/html","200","SHAONE","1910"],
			["com,example)/","20000012170449","http://example.com/","text/html","200","SHATWO","1911"],
			["com,example)/","20010203040506","http://example.com/","text/html","200","SHATWO","1911"]]`)
	}))
	defer srv.Close()
	c := &wayback.Client{BaseURL: srv.URL, Rate: rate.Inf}

	skipped := 0
	caps, err := c.Captures(context.Background(), "http://example.com/", &wayback.Query{
		OnSkip: func(re *wayback.RowError) {
			skipped++
			fmt.Println(re)
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(caps), "captures,", skipped, "row skipped")
	// Output:
	// wayback: CDX row 2: malformed response: timestamp "20000012170449": parsing time "20000012170449": month out of range
	// 2 captures, 1 row skipped
}
