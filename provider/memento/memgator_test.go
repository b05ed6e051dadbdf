package memento_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/provider/memento"
)

// TestMemGator reads the answers of MemGator (github.com/oduwsdl/MemGator,
// main.go: serializeLinks), the self-hosted aggregator that replaces the
// Memento Time Travel service: the description of the mementos around a
// datetime (/api/json/, an alias of /memento/json/), one URI-M a string
// per relation and the relations in the order of the TimeMap, and the JSON
// TimeMap (/timemap/json/), every memento in mementos.list.
func TestMemGator(t *testing.T) {
	f := &fakeService{answers: map[string]string{page: "memgator.json"}, timemaps: map[string]string{page: "memgator-timemap.json"}}
	c := newClient(t, f)
	a, o := f.url, f.url+"/other"

	got, err := c.Lookup(context.Background(), page, date(2010, 2, 1, 0, 0, 0))
	if err != nil {
		t.Fatalf("Lookup: %v", err)
	}
	last := &memento.Memento{Time: date(2011, 6, 30, 12, 0, 0), URIs: []string{o + "/wayback/20110630120000/" + page}}
	want := &memento.Mementos{
		Original:    page,
		First:       &memento.Memento{Time: date(2005, 3, 12, 8, 15, 22), URIs: []string{a + "/web/20050312081522/" + page}},
		Prev:        &memento.Memento{Time: date(2009, 6, 1, 0, 0, 0), URIs: []string{a + "/web/20090601000000/" + page}},
		Closest:     &memento.Memento{Time: date(2010, 2, 20, 10, 10, 10), URIs: []string{a + "/web/20100220101010/" + page}},
		Next:        last,
		Last:        last,
		TimeGate:    f.url + "/timegate/" + page,
		TimeMapJSON: f.url + "/timemap/json/" + page,
		TimeMapLink: f.url + "/timemap/link/" + page,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Lookup (-want +got):\n%s", diff)
	}

	tm, err := c.TimeMap(context.Background(), page)
	if err != nil {
		t.Fatalf("TimeMap: %v", err)
	}
	wantTM := []memento.Memento{*want.First, *want.Prev, *want.Closest, *last}
	if diff := cmp.Diff(wantTM, tm); diff != "" {
		t.Errorf("TimeMap (-want +got):\n%s", diff)
	}

	// MemGator answers 404 "404 page not found" when no archive has one.
	if _, err := c.TimeMap(context.Background(), "http://example.com/never"); !errors.Is(err, memento.ErrNoMemento) {
		t.Errorf("TimeMap(never) = %v, want ErrNoMemento", err)
	}
}

// TestNoBaseURL checks that a Client without BaseURL fails at once with
// ErrNoBaseURL, saying what to run: the Time Travel service it used to
// default to is gone.
func TestNoBaseURL(t *testing.T) {
	c := &memento.Client{}
	ctx := context.Background()
	if _, err := c.Lookup(ctx, page, time.Time{}); !errors.Is(err, memento.ErrNoBaseURL) {
		t.Errorf("Lookup = %v, want ErrNoBaseURL", err)
	}
	if _, err := c.TimeMap(ctx, page); !errors.Is(err, memento.ErrNoBaseURL) {
		t.Errorf("TimeMap = %v, want ErrNoBaseURL", err)
	}
	if _, err := c.Fetch(ctx, page); !errors.Is(err, memento.ErrNoBaseURL) {
		t.Errorf("Fetch = %v, want ErrNoBaseURL", err)
	}
}

// TestParseTimeMap checks TimeMaps that are not as MemGator writes them:
// a bad entry is skipped, not the end of the TimeMap.
func TestParseTimeMap(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		want    int
		wantErr error
	}{
		{"one bad datetime", `{"mementos":{"list":[{"datetime":"yesterday","uri":"http://a/1"},{"datetime":"2010-01-01T00:00:00Z","uri":"http://a/2"}]}}`, 1, nil},
		{"out of order", `{"mementos":{"list":[{"datetime":"2011-01-01T00:00:00Z","uri":"http://a/2"},{"datetime":"2010-01-01T00:00:00Z","uri":"http://a/1"}]}}`, 2, nil},
		{"nothing usable", `{"mementos":{"list":[{"datetime":"2010-01-01T00:00:00Z","uri":"ftp://a/"}]}}`, 0, memento.ErrMalformed},
		{"empty list", `{"mementos":{"list":[]}}`, 0, memento.ErrNoMemento},
		{"description, no list", `{"mementos":{"first":{"datetime":"2010-01-01T00:00:00Z","uri":"http://a/"}}}`, 0, memento.ErrNoMemento},
		{"unescaped quote in a URI-M", "{\"mementos\":{\"list\":[{\"datetime\":\"2010-01-01T00:00:00Z\",\"uri\":\"http://a/\"q\"}]}}", 0, memento.ErrMalformed},
		{"not JSON", "404 page not found", 0, memento.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := memento.ParseTimeMap([]byte(tt.body))
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) || len(got) != tt.want {
				t.Fatalf("ParseTimeMap(%q) = %v, %v, want %d mementos and %v", tt.body, got, err, tt.want, tt.wantErr)
			}
			for i := 1; i < len(got); i++ {
				if got[i].Time.Before(got[i-1].Time) {
					t.Errorf("ParseTimeMap(%q) not oldest first: %v", tt.body, got)
				}
			}
		})
	}
}

// deadReplies are the archives' answers for the mementos of
// memgator-timemap-dead.json, a page that died after 2011: the newest
// memento is dated in the future (an archive's error), the next is the
// archived 404 (replayed with its status and Memento-Datetime, as the
// Wayback software replays every capture), the next a PDF, the next the
// page as it was.
func deadReplies() map[string]reply {
	archived := func(status int, ctype, body string) reply {
		return reply{status: status, header: http.Header{"Content-Type": {ctype}, "Memento-Datetime": {"Sun, 01 Jan 2012 00:00:00 GMT"}}, body: body}
	}
	return map[string]reply{
		"/other/wayback/20910101000000id_/" + page: archived(200, "text/html", "<title>from the future</title>"),
		"/web/20160303030303id_/" + page:           archived(404, "text/html", "<title>404 Not Found</title>"),
		"/web/20140105090000id_/" + page:           archived(200, "application/pdf", "%PDF-1.4"),
		"/other/wayback/20110630120000id_/" + page: archived(200, "text/html; charset=utf-8", "<title>Lexical Signatures</title>"),
		"/web/20100220101010id_/" + page:           archived(200, "text/html", "<title>older</title>"),
	}
}

// fetched returns the mementos f was asked for, in order: every request
// but the service's own.
func fetched(f *fakeService) []string {
	var out []string
	for _, r := range f.seen() {
		if !strings.HasPrefix(r, "/timemap/") && !strings.HasPrefix(r, "/api/") {
			out = append(out, r)
		}
	}
	return out
}

// TestFetchLatestGood checks that Fetch reads the latest memento that is
// a 2xx HTML page, from MemGator's TimeMap (one request of the service),
// newest first: not the memento MemGator names last, which for a dead
// page is usually the archived 404, nor one dated in the future.
func TestFetchLatestGood(t *testing.T) {
	f := &fakeService{answers: map[string]string{page: "memgator-dead.json"}, timemaps: map[string]string{page: "memgator-timemap-dead.json"}, replies: deadReplies()}
	c := newClient(t, f)
	p, err := c.Fetch(context.Background(), page)
	require.NoError(t, err)
	if p.URI != page || p.Status != 200 || string(p.Body) != "<title>Lexical Signatures</title>" {
		t.Errorf("Fetch = %s %d %q, want the 2011 memento", p.URI, p.Status, p.Body)
	}
	if got := p.Header.Get(memento.MementoDatetimeHeader); got != "Thu, 30 Jun 2011 12:00:00 GMT" {
		t.Errorf("Memento-Datetime = %q, want the 2011 memento's", got)
	}
	want := []string{"/web/20160303030303id_/" + page, "/web/20140105090000id_/" + page, "/other/wayback/20110630120000id_/" + page}
	if diff := cmp.Diff(want, fetched(f)); diff != "" {
		t.Errorf("mementos fetched (-want +got):\n%s", diff)
	}
	if got := len(f.seen()) - len(want); got != 1 {
		t.Errorf("%d requests of the service, want 1 (the TimeMap)", got)
	}
}

// TestFetchNoGood checks that Fetch reads at most MaxTries mementos, and
// that when none of them is a 2xx HTML page the newest answer is the Page
// (the archived 404), and that a TimeMap whose every memento is dated in
// the future is no memento at all.
func TestFetchNoGood(t *testing.T) {
	f := &fakeService{answers: map[string]string{page: "memgator-dead.json"}, timemaps: map[string]string{page: "memgator-timemap-dead.json"}, replies: deadReplies()}
	c := newClient(t, f)
	c.MaxTries = 2
	p, err := c.Fetch(context.Background(), page)
	require.NoError(t, err)
	if p.Status != 404 || p.Header.Get(memento.MementoDatetimeHeader) != "Thu, 03 Mar 2016 03:03:03 GMT" {
		t.Errorf("Fetch = %d, %s, want the archived 404 of 2016", p.Status, p.Header.Get(memento.MementoDatetimeHeader))
	}
	want := []string{"/web/20160303030303id_/" + page, "/web/20140105090000id_/" + page}
	if diff := cmp.Diff(want, fetched(f)); diff != "" {
		t.Errorf("mementos fetched (-want +got):\n%s", diff)
	}

	future := &fakeService{before: func(w http.ResponseWriter, r *http.Request) bool {
		if !strings.HasPrefix(r.URL.Path, "/timemap/json/") {
			return false
		}
		fmt.Fprintf(w, `{"mementos":{"list":[{"datetime":"2091-01-01T00:00:00Z","uri":"%s/web/20910101000000/%s"}]}}`, "http://127.0.0.1:1", page)
		return true
	}}
	c = newClient(t, future)
	p, err = c.Fetch(context.Background(), page)
	if err != nil || p.Status != http.StatusNotFound || len(fetched(future)) != 0 {
		t.Errorf("Fetch of a page archived only in the future = %+v, %v after %q; want a 404 Page and no memento fetched", p, err, fetched(future))
	}
}

// deadlines is an http.RoundTripper that records how long each request
// had left before its deadline, and answers 404.
type deadlines struct {
	mu   sync.Mutex
	left []time.Duration
}

func (d *deadlines) RoundTrip(r *http.Request) (*http.Response, error) {
	dl, ok := r.Context().Deadline()
	d.mu.Lock()
	if ok {
		d.left = append(d.left, time.Until(dl))
	} else {
		d.left = append(d.left, -1)
	}
	d.mu.Unlock()
	return &http.Response{StatusCode: 404, Header: http.Header{}, Body: http.NoBody, Request: r}, nil
}

// TestServiceTimeout checks that a request of the service is given more
// time than MemGator takes at most to answer: it asks every archive at
// once and waits up to 60 s for each (its --restimeout, with 30 s for the
// headers, --hdrtimeout) before it answers. A Client that gave up at 30 s
// sent the whole fan-out again, five times.
func TestServiceTimeout(t *testing.T) {
	const memGatorMost = 60 * time.Second
	d := &deadlines{}
	c := &memento.Client{BaseURL: "http://memgator.test", HTTP: &http.Client{Transport: d}}
	_, err := c.TimeMap(context.Background(), page)
	require.ErrorIs(t, err, memento.ErrNoMemento)
	require.Len(t, d.left, 1)
	if d.left[0] <= memGatorMost || d.left[0] > memento.DefaultTimeout {
		t.Errorf("the TimeMap's request had %v left, want more than MemGator's %v and at most DefaultTimeout (%v)", d.left[0], memGatorMost, memento.DefaultTimeout)
	}
}
