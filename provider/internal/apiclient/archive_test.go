package apiclient_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/provider/ccindex"
	"github.com/linkrot/relink/provider/internal/apiclient"
	"github.com/linkrot/relink/provider/memento"
	"github.com/linkrot/relink/provider/wayback"
)

// archiveFake answers as the three archives do for a URI they hold no
// capture of: the Wayback Machine's availability API with no snapshot,
// MemGator with 404, and a Common Crawl index with one crawl whose index
// answers 404 ("No Captures found").
func archiveFake(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/wayback/available":
			fmt.Fprint(w, `{"url": "http://example.com/gone", "archived_snapshots": {}}`)
		case r.URL.Path == "/cc/collinfo.json":
			fmt.Fprint(w, `[{"id": "CC-MAIN-2026-43", "name": "October 2026 Index", "cdx-api": "https://index.commoncrawl.org/CC-MAIN-2026-43-index"}]`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// archiveCalls asks each archive client about uri the way a program
// looking for an old copy would, and returns the errors by archive.
func archiveCalls(srv *httptest.Server, uri string) map[string]error {
	ctx := context.Background()
	wb := &wayback.Client{AvailabilityURL: srv.URL + "/wayback/available", Rate: rate.Inf, Backoff: time.Millisecond}
	mm := &memento.Client{BaseURL: srv.URL + "/memento", Rate: rate.Inf, Backoff: time.Millisecond}
	cc := &ccindex.Client{IndexURL: srv.URL + "/cc", DataURL: srv.URL + "/cc", Rate: rate.Inf, DataRate: rate.Inf, Backoff: time.Millisecond}
	_, wErr := wb.Available(ctx, uri, time.Time{})
	_, mErr := mm.Lookup(ctx, uri, time.Time{})
	_, cErr := cc.LastGood(ctx, uri)
	return map[string]error{"wayback": wErr, "memento": mErr, "ccindex": cErr}
}

// TestArchiveErrorsAcrossClients: the three archive clients return one
// error type and the same sentinels, so that a program that tries them in
// turn checks "not archived" and "not a web URI" once, with any package's
// name, and reads which archive, operation and URI from the one type.
func TestArchiveErrorsAcrossClients(t *testing.T) {
	srv := archiveFake(t)
	cases := []struct {
		name string
		uri  string
		want []error // every package's name for the cause
	}{
		{"no capture", "http://example.com/gone", []error{wayback.ErrNoCapture, memento.ErrNoMemento, ccindex.ErrNoCapture, apiclient.ErrNoCapture}},
		{"bad URI", "ftp://example.com/file", []error{wayback.ErrBadURI, memento.ErrBadURI, ccindex.ErrBadURI, apiclient.ErrBadURI}},
	}
	for _, tc := range cases {
		for archive, err := range archiveCalls(srv, tc.uri) {
			t.Run(tc.name+"/"+archive, func(t *testing.T) {
				for _, w := range tc.want {
					if !errors.Is(err, w) {
						t.Errorf("%s: %v does not match %q", archive, err, w)
					}
				}
				// One type under three names: each errors.As target finds it.
				var we *wayback.Error
				var me *memento.Error
				var ce *ccindex.Error
				if !errors.As(err, &we) || !errors.As(err, &me) || !errors.As(err, &ce) {
					t.Fatalf("%s: %v (%T) is not an *Error of every archive package", archive, err, err)
				}
				if we.Archive != archive || we.URI != tc.uri {
					t.Errorf("%s: Error{Archive: %q, URI: %q}, want %q, %q", archive, we.Archive, we.URI, archive, tc.uri)
				}
				if want := archive + ": " + we.Op + " " + tc.uri + ": "; !strings.HasPrefix(err.Error(), want) {
					t.Errorf("%s: message %q, want it to begin %q", archive, err, want)
				}
			})
		}
	}
}

// TestArchiveErrorMessage covers the message's forms: with and without a
// URI, a cause carrying the archive's own prefix, and no archive named.
func TestArchiveErrorMessage(t *testing.T) {
	cases := []struct {
		name string
		err  *apiclient.ArchiveError
		want string
	}{
		{"uri", &apiclient.ArchiveError{Archive: "wayback", Op: "captures", URI: "http://a.example/", Err: apiclient.ErrNoCapture},
			"wayback: captures http://a.example/: no capture"},
		{"no uri", &apiclient.ArchiveError{Archive: "ccindex", Op: "collections", Err: apiclient.ErrMalformed},
			"ccindex: collections: malformed response"},
		{"prefixed cause", &apiclient.ArchiveError{Archive: "ccindex", Op: "captures", URI: "http://a.example/", Err: errors.New("ccindex: not a crawl ID")},
			"ccindex: captures http://a.example/: not a crawl ID"},
		{"no archive", &apiclient.ArchiveError{Op: "fetch", URI: "http://a.example/", Err: apiclient.ErrBadURI},
			"fetch http://a.example/: not an absolute http or https URI"},
	}
	for _, tc := range cases {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("%s: Error() = %q, want %q", tc.name, got, tc.want)
		}
	}
}
