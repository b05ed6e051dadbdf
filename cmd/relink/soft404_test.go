package main

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
)

// flags for a test server on this machine: loopback allowed, no rate
// limit, one attempt, and a fixed probe string.
var testFlags = []string{"-allow-private", "-rate", "0", "-attempts", "1", "-timeout", "5s", "-random", "xxxx"}

// site serves the page at /guides/bike/puncture.html and answers any other
// path with serve.
func site(t *testing.T, serve func(w http.ResponseWriter, r *http.Request, notFound []byte)) *httptest.Server {
	t.Helper()
	page, err := os.ReadFile("../../examples/soft404/testdata/page.html")
	if err != nil {
		t.Fatal(err)
	}
	notFound, err := os.ReadFile("../../examples/soft404/testdata/notfound.html")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/robots.txt":
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte("User-agent: *\nDisallow: /private/\n"))
		case "/guides/bike/puncture.html":
			w.Write(page)
		default:
			serve(w, r, notFound)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestRunText checks the whole text output for a site that answers every
// path it does not have with a "not found" page and status 200, and asks
// for a missing page: the paper's soft 404 (§3.1 "Soft 404s").
func TestSoft404Text(t *testing.T) {
	srv := site(t, func(w http.ResponseWriter, r *http.Request, notFound []byte) { w.Write(notFound) })
	r := mustRun(t, slices.Concat([]string{"soft404"}, testFlags, []string{srv.URL + "/guides/bike/tubeless.html"})...)
	want := `page     ` + srv.URL + `/guides/bike/tubeless.html
         200 OK, 84 words
probe 1  ` + srv.URL + `/xxxxguides/bike/tubeless.html
         200 OK, 84 words, Jaccard 1.00 with the page
probe 2  ` + srv.URL + `/guides/bike/xxxxtubeless.html
         200 OK, 84 words, Jaccard 1.00 with the page
verdict  soft 404
         soft 404: URIs that cannot exist get the same page (Jaccard 1.00 and 1.00, both above 0.9), so this page is what the server shows for any URI in its path
`
	if got := r.stdout; got != want {
		t.Errorf("run output:\n%s\nwant:\n%s", got, want)
	}
}

// TestRunJSON checks the verdict and its explanation for each of the
// paper's rules (§3.1 "Soft 404s").
func TestSoft404JSON(t *testing.T) {
	other := []byte("<html><body><p>" + strings.Repeat("A completely different page about gardening and vegetables. ", 10) + "</p></body></html>")
	tests := []struct {
		name        string
		path        string
		serve       func(w http.ResponseWriter, r *http.Request, notFound []byte)
		soft404     bool
		explanation string
		statuses    [3]int
	}{
		{
			name:        "soft 404 site, missing page",
			path:        "/guides/bike/tubeless.html",
			serve:       func(w http.ResponseWriter, r *http.Request, nf []byte) { w.Write(nf) },
			soft404:     true,
			explanation: "soft 404: URIs that cannot exist get the same page",
			statuses:    [3]int{200, 200, 200},
		},
		{
			name:        "soft 404 site, real page",
			path:        "/guides/bike/puncture.html",
			serve:       func(w http.ResponseWriter, r *http.Request, nf []byte) { w.Write(nf) },
			explanation: "not a soft 404: the first probe shows a different page (Jaccard 0.",
			statuses:    [3]int{200, 200, 200},
		},
		{
			name: "hard 404 site",
			path: "/guides/bike/puncture.html",
			serve: func(w http.ResponseWriter, r *http.Request, nf []byte) {
				w.WriteHeader(http.StatusNotFound)
				w.Write(nf)
			},
			explanation: "not a soft 404: the first probe answered 404 Not Found, so malformed URIs on this site get real 404s",
			statuses:    [3]int{200, 404, 404},
		},
		{
			name: "page itself 404",
			path: "/guides/bike/tubeless.html",
			serve: func(w http.ResponseWriter, r *http.Request, nf []byte) {
				w.WriteHeader(http.StatusNotFound)
				w.Write(nf)
			},
			explanation: "not a soft 404: the page itself answered 404 Not Found, an honest error",
			statuses:    [3]int{404, 404, 404},
		},
		{
			name: "second probe differs",
			path: "/guides/bike/tubeless.html",
			serve: func(w http.ResponseWriter, r *http.Request, nf []byte) {
				if strings.Contains(r.URL.Path, "/xxxx") && !strings.HasPrefix(r.URL.Path, "/xxxx") {
					w.Write(other)
					return
				}
				w.Write(nf)
			},
			explanation: "not a soft 404: the second probe shows a different page (Jaccard 0.",
			statuses:    [3]int{200, 200, 200},
		},
		{
			name: "first probe gets no answer",
			path: "/guides/bike/tubeless.html",
			serve: func(w http.ResponseWriter, r *http.Request, nf []byte) {
				if strings.HasPrefix(r.URL.Path, "/xxxx") {
					panic(http.ErrAbortHandler)
				}
				w.Write(nf)
			},
			explanation: "not a soft 404: the first probe got no answer (",
			statuses:    [3]int{200, 0, 200},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := site(t, tt.serve)
			r := mustRun(t, slices.Concat([]string{"soft404", "-json"}, testFlags, []string{srv.URL + tt.path})...)
			var got report
			if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, r.stdout)
			}
			if got.Soft404 != tt.soft404 {
				t.Errorf("soft404 = %v, want %v", got.Soft404, tt.soft404)
			}
			if !strings.HasPrefix(got.Explanation, tt.explanation) {
				t.Errorf("explanation = %q, want it to start with %q", got.Explanation, tt.explanation)
			}
			if strings.HasPrefix(got.Explanation, "soft 404") != got.Soft404 {
				t.Errorf("explanation %q disagrees with soft404 = %v", got.Explanation, got.Soft404)
			}
			if len(got.Probes) != 2 {
				t.Fatalf("probes = %d, want 2", len(got.Probes))
			}
			statuses := [3]int{got.Page.Status, got.Probes[0].Status, got.Probes[1].Status}
			if statuses != tt.statuses {
				t.Errorf("statuses = %v, want %v", statuses, tt.statuses)
			}
			wantURIs := []string{srv.URL + "/xxxx" + tt.path[1:], srv.URL + "/guides/bike/xxxx" + tt.path[len("/guides/bike/"):]}
			if got.Probes[0].URI != wantURIs[0] || got.Probes[1].URI != wantURIs[1] {
				t.Errorf("probe URIs = %q, %q, want %q", got.Probes[0].URI, got.Probes[1].URI, wantURIs)
			}
		})
	}
}

func TestSoft404Errors(t *testing.T) {
	srv := site(t, func(w http.ResponseWriter, r *http.Request, nf []byte) { w.Write(nf) })
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/page.html"
	l.Close()
	tests := []struct {
		name string
		args []string
		want string // the start of the message after "relink soft404: ", or a part of it after "..."
		code int
	}{
		{"no URL", testFlags, "need exactly one URL", exitUsage},
		{"two URLs", slices.Concat(testFlags, []string{srv.URL + "/a", srv.URL + "/b"}), "need exactly one URL", exitUsage},
		{"relative URL", slices.Concat(testFlags, []string{"/guides/page.html"}), "URL: ", exitUsage},
		{"ftp URL", slices.Concat(testFlags, []string{"ftp://example.org/a"}), "URL: relink: not an http or https URI", exitUsage},
		{"unknown flag", []string{"-frobnicate", srv.URL}, "flag provided but not defined", exitUsage},
		{"bad rate", []string{"-rate", "-1", srv.URL}, "bad -rate", exitUsage},
		{"zero attempts", []string{"-attempts", "0", srv.URL}, "bad -attempts 0", exitUsage},
		{"zero timeout", []string{"-timeout", "0s", srv.URL}, "bad -timeout", exitUsage},
		// A closed port reads as unreachable first, though robots.txt
		// not being had means disallowed (RFC 9309).
		{"nothing listening", slices.Concat(testFlags, []string{closed}), "unreachable: ...refused", exitFailure},
		{"robots.txt disallows", slices.Concat(testFlags, []string{srv.URL + "/private/page.html"}), "web: fetch ...disallowed by robots.txt", exitFailure},
		{"private address", []string{"-rate", "0", srv.URL + "/guides/bike/puncture.html"}, "web: fetch ...private address refused", exitFailure},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runArgs(t, append([]string{"soft404"}, tt.args...)...)
			if r.code != tt.code {
				t.Errorf("relink soft404 %q: exit %d, want %d (stderr %q)", tt.args, r.code, tt.code, r.stderr)
			}
			start, part, _ := strings.Cut(tt.want, "...")
			if !strings.HasPrefix(r.stderr, "relink soft404: "+start) || !strings.Contains(r.stderr, part) {
				t.Errorf("relink soft404 %q: stderr %q, want %q", tt.args, r.stderr, tt.want)
			}
			checkOneLine(t, r.stderr)
		})
	}
}
