package memento_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/provider/memento"
)

// service stands in for a MemGator server and a Wayback archive in the
// examples: JSON answers in the documented formats (the mementos around a
// datetime, the TimeMap) for one URI, 404 for others, and the raw memento.
func service() *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/api/json/") && strings.HasSuffix(r.URL.Path, "/http://example.com/tutorial.html"):
			urim := srv.URL + "/web/20090512080000/http://example.com/tutorial.html"
			fmt.Fprintf(w, `{"original_uri": "http://example.com/tutorial.html",
				"mementos": {
					"first": {"datetime": "2006-11-04T10:10:10Z", "uri": %q},
					"last": {"datetime": "2009-05-12T08:00:00Z", "uri": %q},
					"closest": {"datetime": "2009-05-12T08:00:00Z", "uri": %q}},
				"timegate_uri": "https://timetravel.example/timegate/http://example.com/tutorial.html"}`,
				srv.URL+"/web/20061104101010/http://example.com/tutorial.html", urim, urim)
		case r.URL.Path == "/timemap/json/http://example.com/tutorial.html":
			fmt.Fprintf(w, `{"original_uri": "http://example.com/tutorial.html",
				"mementos": {"list": [
					{"datetime": "2006-11-04T10:10:10Z", "uri": %q},
					{"datetime": "2009-05-12T08:00:00Z", "uri": %q}]}}`,
				srv.URL+"/web/20061104101010/http://example.com/tutorial.html", srv.URL+"/web/20090512080000/http://example.com/tutorial.html")
		case strings.HasPrefix(r.URL.Path, "/api/json/"), strings.HasPrefix(r.URL.Path, "/timemap/json/"):
			http.NotFound(w, r)
		case r.URL.Path == "/web/20090512080000id_/http://example.com/tutorial.html":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<title>Go Tutorial</title>")
		default:
			http.NotFound(w, r)
		}
	}))
	return srv
}

func ExampleClient_Closest() {
	srv := service()
	defer srv.Close()
	c := &memento.Client{BaseURL: srv.URL, Rate: rate.Inf}

	m, err := c.Closest(context.Background(), "http://example.com/tutorial.html", time.Date(2009, 6, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Time.Format(time.RFC3339), strings.TrimPrefix(m.URIs[0], srv.URL))

	_, err = c.Closest(context.Background(), "http://example.com/never.html", time.Time{})
	fmt.Println(errors.Is(err, memento.ErrNoMemento))
	// Output:
	// 2009-05-12T08:00:00Z /web/20090512080000/http://example.com/tutorial.html
	// true
}

func ExampleClient_Fetch() {
	srv := service()
	defer srv.Close()
	// The example's archive is on loopback, an address the Client refuses
	// to fetch a memento from unless AllowPrivate is set.
	c := &memento.Client{BaseURL: srv.URL, Rate: rate.Inf, AllowPrivate: true}

	page, err := c.Fetch(context.Background(), "http://example.com/tutorial.html")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(page.URI, page.Status, string(page.Body))
	fmt.Println(page.Header.Get("Memento-Datetime"))
	fmt.Println(strings.TrimPrefix(page.Header.Get("Content-Location"), srv.URL))

	// A URI no archive holds is a 404 Page, as for a live server.
	page, err = c.Fetch(context.Background(), "http://example.com/never.html")
	fmt.Println(page.Status, err)
	// Output:
	// http://example.com/tutorial.html 200 <title>Go Tutorial</title>
	// Tue, 12 May 2009 08:00:00 GMT
	// /web/20090512080000id_/http://example.com/tutorial.html
	// 404 <nil>
}

func ExampleRawURI() {
	fmt.Println(memento.RawURI("http://web.archive.org/web/20130115101913/http://www.cnn.com/"))
	fmt.Println(memento.RawURI("http://archive.md/20150422173637/http://www.cnn.com/"))
	// Output:
	// http://web.archive.org/web/20130115101913id_/http://www.cnn.com/
	// http://archive.md/20150422173637/http://www.cnn.com/
}

func ExampleClient_Fetch_privateAddress() {
	// The service names a memento on loopback, as an answer naming a
	// machine of the local network would.
	srv := service()
	defer srv.Close()
	c := &memento.Client{BaseURL: srv.URL, Rate: rate.Inf}

	_, err := c.Fetch(context.Background(), "http://example.com/tutorial.html")
	fmt.Println(errors.Is(err, memento.ErrPrivateAddress))
	// Output:
	// true
}
