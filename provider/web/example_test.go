package web_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/web"
)

// testClient returns a Client for a test server on this machine: private
// addresses allowed, and no waiting between requests.
func testClient() *web.Client {
	return &web.Client{AllowPrivate: true, Rate: rate.Inf}
}

func ExampleClient_Fetch() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/old/page.html":
			http.Redirect(w, r, "/new/page.html", http.StatusMovedPermanently)
		case "/new/page.html":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, "<title>Moved here</title>")
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c := testClient()
	defer c.CloseIdleConnections()

	page, err := c.Fetch(context.Background(), srv.URL+"/old/page.html")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(page.Status, strings.TrimPrefix(page.URI, srv.URL), page.Header.Get("Content-Type"))
	fmt.Printf("%s\n", page.Body)

	// A 404 is an answer: a Page, not an error.
	page, err = c.Fetch(context.Background(), srv.URL+"/gone.html")
	fmt.Println(page.Status, err)
	// Output:
	// 200 /new/page.html text/html; charset=utf-8
	// <title>Moved here</title>
	// 404 <nil>
}

func ExampleClient_Fetch_robots() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
			return
		}
		io.WriteString(w, "hello")
	}))
	defer srv.Close()
	c := testClient()
	defer c.CloseIdleConnections()

	for _, path := range []string{"/public/page.html", "/private/page.html"} {
		page, err := c.Fetch(context.Background(), srv.URL+path)
		switch {
		case errors.Is(err, web.ErrDisallowed):
			fmt.Println(path, "disallowed by robots.txt")
		case err != nil:
			fmt.Println(path, err)
		default:
			fmt.Println(path, page.Status)
		}
	}
	// Output:
	// /public/page.html 200
	// /private/page.html disallowed by robots.txt
}

func ExampleClient_Fetch_truncated() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<p>This page goes on for longer than the client wants to read.</p>")
	}))
	defer srv.Close()
	c := testClient()
	c.MaxBody = 16
	defer c.CloseIdleConnections()

	page, err := c.Fetch(context.Background(), srv.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%q %s=%s\n", page.Body, web.TruncatedHeader, page.Header.Get(web.TruncatedHeader))
	// Output:
	// "<p>This page goe" X-Relink-Truncated=true
}

func ExampleClient_Fetch_privateAddress() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()

	// The zero Client refuses loopback and private addresses.
	var c web.Client
	_, err := c.Fetch(context.Background(), srv.URL)
	fmt.Println(errors.Is(err, web.ErrPrivateAddress))
	// Output:
	// true
}

// Example_soft404 runs the paper's soft 404 filter (§3.1 "Soft 404s")
// through a Client against a site that answers every path with the same
// "not found" page and status 200.
func Example_soft404() {
	notFound := "<html><head><title>Not found</title></head><body><p>" +
		strings.Repeat("We are sorry, but the page you asked for could not be found on this website. ", 5) +
		"</p></body></html>"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, notFound)
	}))
	defer srv.Close()
	c := testClient()
	defer c.CloseIdleConnections()

	page, err := c.Fetch(context.Background(), srv.URL+"/articles/2009/link-rot.html")
	if err != nil {
		fmt.Println(err)
		return
	}
	filters := &filter.Filters{Fetcher: c}
	rejection, err := filters.Check(context.Background(), page)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(page.Status, rejection.Filter)
	// Output:
	// 200 soft404
}

// A Client sends its requests through the proxy Proxy names; the proxy's
// own loopback address is allowed, though the private-address guard is
// on, because the program chose it.
func ExampleClient_proxy() {
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A forward proxy receives absolute URIs.
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, "answered by the proxy for %s", r.URL)
	}))
	defer proxy.Close()
	u, _ := url.Parse(proxy.URL)

	c := &web.Client{Proxy: http.ProxyURL(u), Rate: rate.Inf}
	defer c.CloseIdleConnections()
	page, err := c.Fetch(context.Background(), "http://docs.example.com/page.html")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(page.Status, string(page.Body))

	// The hosts of the pages are still guarded.
	_, err = c.Fetch(context.Background(), "http://127.0.0.1/admin")
	fmt.Println(errors.Is(err, web.ErrPrivateAddress))
	// Output:
	// 200 answered by the proxy for http://docs.example.com/page.html
	// true
}
