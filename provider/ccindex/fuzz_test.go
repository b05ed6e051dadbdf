package ccindex_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/linkrot/relink/provider/ccindex"
)

// FuzzParseCaptures checks that any bytes give captures or an error
// wrapping ErrMalformed, never a panic, and that every capture kept has a
// time, an http(s) URL and a record to read: a relative filename without
// "..", a positive length, an offset that is not negative.
func FuzzParseCaptures(f *testing.F) {
	// Lines as Common Crawl's documentation and public repositories show
	// them, a crawl-diagnostics redirect, a revisit, and broken ones.
	f.Add([]byte(`{"urlkey": "org,commoncrawl)/get-started", "timestamp": "20251014220259", "url": "https://www.commoncrawl.org/get-started", "mime": "text/html", "mime-detected": "text/html", "status": "200", "digest": "D4IRZZ6NS7QW37BB2ODQPCUGG7ISRFGV", "length": "12675", "offset": "686242195", "filename": "crawl-data/CC-MAIN-2025-43/segments/1759648359293.23/warc/CC-MAIN-20251014214924-20251015004924-00758.warc.gz", "languages": "eng", "encoding": "UTF-8"}` + "\n"))
	f.Add([]byte(`{"url": "http://165.22.100.0/", "timestamp": "20240722120756", "mime": "text/html", "status": "301", "length": "689", "offset": "3499", "filename": "crawl-data/CC-MAIN-2024-30/segments/1720763517846.73/crawldiagnostics/x.warc.gz", "redirect": "https://157.245.55.71/"}` + "\n" +
		`{"url": "http://a.example/", "timestamp": "20240722120757", "mime": "warc/revisit", "status": "-", "length": "400", "offset": "0", "filename": "a/b.warc.gz"}`))
	f.Add([]byte("{\"message\": \"No Captures found for: example.net\"}\nnot json\n\n"))
	f.Add([]byte(`{"url": "http://a/", "timestamp": "20000012170449", "length": "-1", "offset": "x", "filename": "../../etc/passwd"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		caps, err := ccindex.ParseCaptures("CC-MAIN-2025-43", data, nil)
		if err != nil {
			if !errors.Is(err, ccindex.ErrMalformed) {
				t.Fatalf("ParseCaptures error %v does not wrap ErrMalformed", err)
			}
			return
		}
		for i, cp := range caps {
			u, err := url.Parse(cp.URL)
			if cp.Time.IsZero() || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
				cp.Length <= 0 || cp.Offset < 0 || cp.Filename == "" || strings.HasPrefix(cp.Filename, "/") ||
				strings.Contains("/"+cp.Filename+"/", "/../") || strings.Contains(cp.Filename, ":") {
				t.Fatalf("capture %d = %+v", i, cp)
			}
		}
	})
}

// FuzzParseCollections checks that any bytes give crawls whose IDs make a
// path of the index server and nothing else, or an error wrapping
// ErrMalformed.
func FuzzParseCollections(f *testing.F) {
	f.Add([]byte(collinfo))
	f.Add([]byte(`[{"id": "CC-MAIN-2024-10", "cdx-api": "https://index.commoncrawl.org/CC-MAIN-2024-10-index", "from": "2024-02-20T21:10:55", "to": "2024-03-05T15:40:45"}]`))
	f.Add([]byte(`[{"id": "../../x?"}, {"id": 7}]`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		colls, err := ccindex.ParseCollections(data)
		if err != nil {
			if !errors.Is(err, ccindex.ErrMalformed) {
				t.Fatalf("ParseCollections error %v does not wrap ErrMalformed", err)
			}
			return
		}
		if len(colls) == 0 {
			t.Fatal("ParseCollections = no crawl and no error")
		}
		for _, c := range colls {
			if c.ID == "" || strings.Trim(c.ID, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-") != "" {
				t.Fatalf("crawl ID %q", c.ID)
			}
		}
	})
}
