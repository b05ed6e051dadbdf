package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/provider/web"
)

// TestRun serves a page, and for any other path either a "not found" page
// with status 200 (a soft 404 site) or a real 404, and checks the
// verdict for a page that is there and one that is not (§3.1 "Soft
// 404s").
func TestRun(t *testing.T) {
	page, err := os.ReadFile("testdata/page.html")
	if err != nil {
		t.Fatal(err)
	}
	notFound, err := os.ReadFile("testdata/notfound.html")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		status int // of any path but the page's
		path   string
		want   string
	}{
		{"soft 404 site, missing page", http.StatusOK, "/guides/bike/tubeless.html", "verdict  soft 404\n"},
		{"soft 404 site, real page", http.StatusOK, "/guides/bike/puncture.html", "verdict  not a soft 404\n"},
		{"hard 404 site", http.StatusNotFound, "/guides/bike/tubeless.html", "verdict  not a soft 404\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				if r.URL.Path == "/guides/bike/puncture.html" {
					w.Write(page)
					return
				}
				w.WriteHeader(tt.status)
				w.Write(notFound)
			}))
			defer srv.Close()
			c := &web.Client{AllowPrivate: true, Rate: rate.Inf, Attempts: 1}
			defer c.CloseIdleConnections()
			var out bytes.Buffer
			if err := run(context.Background(), &out, c, srv.URL+tt.path, "xxxx"); err != nil {
				t.Fatal(err)
			}
			if got := out.String(); !strings.HasSuffix(got, tt.want) || !strings.Contains(got, "probe 2  ") {
				t.Errorf("output:\n%s\nwant two probes and %q", got, tt.want)
			}
		})
	}
}
