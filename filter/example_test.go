package filter_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/linkrot/relink/filter"
)

func ExampleJaccard() {
	a := strings.Fields("the page you requested was not found")
	b := strings.Fields("the page you requested could not be found")
	fmt.Printf("%.2f\n", filter.Jaccard(a, b))
	fmt.Println(filter.Jaccard(nil, nil))
	// Output:
	// 0.67
	// 1
}

func ExampleProbeURIs() {
	first, last, err := filter.ProbeURIs("http://example.com/path/to/file.html#top", "XXXX")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(first)
	fmt.Println(last)

	_, _, err = filter.ProbeURIs("/path/to/file.html", "XXXX")
	fmt.Println(err)
	// Output:
	// http://example.com/XXXXpath/to/file.html
	// http://example.com/path/to/XXXXfile.html
	// filter: probe URIs for "/path/to/file.html": filter: URI is not absolute
}

func ExampleRandomString() {
	s := filter.RandomString(filter.ProbeLength)
	fmt.Println(len(s), strings.Trim(s, "abcdefghijklmnopqrstuvwxyz0123456789") == "")
	// Output:
	// 20 true
}

func ExampleIsSoft404() {
	page := func(status int, body string) *filter.Page {
		return &filter.Page{
			Status: status,
			Header: http.Header{"Content-Type": {"text/html"}},
			Body:   []byte(body),
		}
	}
	oops := page(http.StatusOK, "<h1>Oops</h1><p>We could not find that page. Try the search box.</p>")
	article := page(http.StatusOK, "<h1>Tide tables</h1><p>High water at the harbour is at 06:12 today.</p>")

	// A server that answers every path with the same page.
	fmt.Println(filter.IsSoft404(oops, oops, oops))
	// A real page on that server.
	fmt.Println(filter.IsSoft404(article, oops, oops))
	// A server that answers unknown paths with a real 404.
	fmt.Println(filter.IsSoft404(oops, page(http.StatusNotFound, "Not Found"), oops))
	// Output:
	// true
	// false
	// false
}

func ExampleSniff() {
	html := []byte("<!DOCTYPE html><title>x</title><p>Hello")
	pdf := []byte("%PDF-1.7\n")
	fmt.Println(filter.Sniff(http.Header{"Content-Type": {"text/html; charset=utf-8"}}, html))
	fmt.Println(filter.Sniff(nil, html))
	fmt.Println(filter.Sniff(http.Header{"Content-Type": {"application/octet-stream"}}, pdf))
	// A header is trusted, except when it calls obvious binary HTML.
	fmt.Println(filter.Sniff(http.Header{"Content-Type": {"text/plain"}}, html))
	fmt.Println(filter.Sniff(http.Header{"Content-Type": {"text/html"}}, pdf))
	fmt.Println(filter.Sniff(http.Header{"Content-Type": {"application/vnd.ms-powerpoint"}}, nil).Category())
	// Output:
	// html
	// html
	// pdf
	// text
	// pdf
	// MS PowerPoint
}

func ExampleDetectLanguage() {
	en := strings.Repeat("The harbour library was built after the great flood, and for a century "+
		"its reading room was the warmest place in town on a winter afternoon. ", 3)
	de := strings.Repeat("Die Bibliothek am Hafen wurde nach der großen Flut gebaut, und ein "+
		"Jahrhundert lang war ihr Lesesaal der wärmste Ort der Stadt. ", 3)
	for _, text := range []string{en, de, "Hallo Welt"} {
		g := filter.DetectLanguage(text)
		fmt.Printf("%s, kept %v\n", g, g.Kept())
	}
	// Output:
	// eng (English) in 1 of 1 windows, kept true
	// deu (German) in 1 of 1 windows, eng in 0, kept false
	// undetermined, kept true
}

func ExampleFilters_Check() {
	// A site that answers every URI with the same "not found" page, with a
	// 200 status: a soft 404.
	const notFound = `<html><body><h1>Page not found</h1><p>Sorry, we could not find
	the page you asked for. It may have moved, or the address may be mistyped. Check the
	address, go back to the previous page, or search the site from the box above. You can
	also start again from our home page, where the newest articles and all the sections of
	the site are listed for you.</p></body></html>`
	site := filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
		return &filter.Page{
			URI:    uri,
			Status: http.StatusOK,
			Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}},
			Body:   []byte(notFound),
		}, nil
	})
	f := filter.Filters{Fetcher: site}

	pages := []*filter.Page{
		{URI: "http://example.com/gone.html", Status: http.StatusNotFound},
		{URI: "http://example.com/paper.pdf", Status: http.StatusOK,
			Header: http.Header{"Content-Type": {"application/pdf"}}, Body: []byte("%PDF-1.4")},
		{URI: "http://example.com/short.html", Status: http.StatusOK,
			Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<p>Just a few words.</p>")},
	}
	for _, p := range pages {
		r, err := f.Check(context.Background(), p)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(r)
	}

	page, err := site.Fetch(context.Background(), "http://example.com/news/story.html")
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := f.Check(context.Background(), page)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Filter)
	// Output:
	// status: HTTP 404 Not Found
	// filetype: pdf, from Content-Type "application/pdf"
	// size: 4 words, fewer than 50
	// soft404
}
