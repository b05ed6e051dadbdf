package ccindex_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/provider/ccindex"
	"github.com/linkrot/relink/provider/warc"
)

// commonCrawl stands in for index.commoncrawl.org and data.commoncrawl.org
// in the examples: one crawl, one capture, its WARC record in a .warc.gz
// file served with range requests.
func commonCrawl() *httptest.Server {
	var file bytes.Buffer
	w := warc.NewWriter(&file, true)
	at := time.Date(2025, 10, 14, 22, 2, 59, 0, time.UTC)
	w.WriteResponse("https://example.com/tutorial.html", at, 200, http.Header{"Content-Type": {"text/html"}},
		[]byte("<html><head><title>Go Tutorial</title></head><body>...</body></html>"))
	const name = "crawl-data/CC-MAIN-2025-43/segments/1759648359293.23/warc/CC-MAIN-20251014214924-20251015004924-00758.warc.gz"
	return httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/collinfo.json":
			fmt.Fprint(rw, `[{"id": "CC-MAIN-2025-43", "name": "October 2025 Index", "cdx-api": "https://index.commoncrawl.org/CC-MAIN-2025-43-index"}]`)
		case r.URL.Path == "/CC-MAIN-2025-43-index" && r.URL.Query().Get("url") == "https://example.com/tutorial.html":
			fmt.Fprintf(rw, `{"urlkey": "com,example)/tutorial.html", "timestamp": "20251014220259", "url": "https://example.com/tutorial.html", "mime": "text/html", "mime-detected": "text/html", "status": "200", "digest": "D4IRZZ6NS7QW37BB2ODQPCUGG7ISRFGV", "length": "%d", "offset": "0", "filename": %q, "languages": "eng", "encoding": "UTF-8"}`+"\n", file.Len(), name)
		case strings.HasSuffix(r.URL.Path, "-index"):
			rw.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(rw, `{"message": "No Captures found for: %s"}`, r.URL.Query().Get("url"))
		case r.URL.Path == "/"+name:
			http.ServeContent(rw, r, "", time.Time{}, bytes.NewReader(file.Bytes()))
		default:
			http.NotFound(rw, r)
		}
	}))
}

func ExampleClient_LastGood() {
	srv := commonCrawl()
	defer srv.Close()
	// A program leaves IndexURL and DataURL empty for Common Crawl's own.
	c := &ccindex.Client{IndexURL: srv.URL, DataURL: srv.URL, Rate: rate.Inf, DataRate: rate.Inf}
	page, err := c.LastGood(context.Background(), "https://example.com/tutorial.html")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(page.Status, page.Header.Get(ccindex.MementoDatetimeHeader))
	fmt.Println(string(page.Body))
	// Output:
	// 200 Tue, 14 Oct 2025 22:02:59 GMT
	// <html><head><title>Go Tutorial</title></head><body>...</body></html>
}

func ExampleClient_Captures() {
	srv := commonCrawl()
	defer srv.Close()
	c := &ccindex.Client{IndexURL: srv.URL, DataURL: srv.URL, Rate: rate.Inf}
	caps, err := c.Captures(context.Background(), "CC-MAIN-2025-43", "https://example.com/tutorial.html")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, cp := range caps {
		fmt.Println(cp.Time.Format(time.DateOnly), cp.Status, cp.MIME, cp.Offset)
	}
	none, err := c.Captures(context.Background(), "CC-MAIN-2025-43", "https://example.com/never")
	fmt.Println(len(none), err)
	// Output:
	// 2025-10-14 200 text/html 0
	// 0 <nil>
}

func ExampleClient_Fetch() {
	srv := commonCrawl()
	defer srv.Close()
	c := &ccindex.Client{IndexURL: srv.URL, DataURL: srv.URL, Rate: rate.Inf}
	// A URI no crawl holds is a 404 page, as a web server would answer.
	page, err := c.Fetch(context.Background(), "https://example.com/never")
	fmt.Println(page.Status, err)
	// Output:
	// 404 <nil>
}
