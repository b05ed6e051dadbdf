package memento_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/time/rate"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/memento"
	"github.com/linkrot/relink/provider/web"
)

const page = "http://example.com/old/page.html"

// reply is what the fake answers at one path.
type reply struct {
	status int
	header http.Header
	body   string
}

// fakeService is a MemGator server and the archives it points to, on one
// httptest server. As MemGator's router (main.go) does, /api/json/ and
// /memento/json/<datetime>/<uri> serve the description of the mementos
// around the datetime and /timemap/json/<uri> the TimeMap: a fixture (in
// the format MemGator writes, with {{archive}}, {{other}} and {{service}}
// replaced by addresses on the server), or http.NotFound's 404 "404 page
// not found" when no archive holds the URI; a datetime that is not 4 to
// 14 digits is 400. Other paths serve replies.
type fakeService struct {
	t        *testing.T
	url      string
	answers  map[string]string // uri to fixture file of its description
	timemaps map[string]string // uri to fixture file of its TimeMap
	replies  map[string]reply  // path (and query) to reply
	before   func(w http.ResponseWriter, r *http.Request) bool
	mu       sync.Mutex
	requests []string
}

func (f *fakeService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.requests = append(f.requests, r.URL.RequestURI())
	f.mu.Unlock()
	if f.before != nil && f.before(w, r) {
		return
	}
	var name string
	var found bool
	rest, desc := strings.CutPrefix(r.URL.RequestURI(), "/api/json/")
	if !desc {
		rest, desc = strings.CutPrefix(r.URL.RequestURI(), "/memento/json/")
	}
	if desc {
		ts, uri, _ := strings.Cut(rest, "/")
		if len(ts) != 14 {
			f.t.Errorf("datetime %q is not 14 digits", ts)
		}
		if len(ts) < 4 || len(ts) > 14 || strings.Trim(ts, "0123456789") != "" {
			http.Error(w, "Malformed request: "+r.URL.RequestURI(), http.StatusBadRequest)
			return
		}
		name, found = f.answers[uri]
	} else if uri, ok := strings.CutPrefix(r.URL.RequestURI(), "/timemap/json/"); ok {
		name, found = f.timemaps[uri]
		desc = true
	}
	if desc {
		if !found {
			http.NotFound(w, r) // MemGator: no memento in any archive
			return
		}
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.t.Fatal(err)
		}
		body := strings.NewReplacer("{{archive}}", f.url, "{{other}}", f.url+"/other", "{{service}}", f.url).Replace(string(data))
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, body)
		return
	}
	rep, ok := f.replies[r.URL.RequestURI()]
	if !ok {
		http.NotFound(w, r)
		return
	}
	for k, v := range rep.header {
		w.Header()[k] = v
	}
	w.WriteHeader(rep.status)
	fmt.Fprint(w, rep.body)
}

// seen returns the requests received so far.
func (f *fakeService) seen() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.requests...)
}

// newClient starts f and returns a fast Client of it.
func newClient(t *testing.T, f *fakeService) *memento.Client {
	f.t = t
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	f.url = srv.URL
	// The fake archives are on loopback too: let the Client reach them.
	return &memento.Client{BaseURL: srv.URL, Rate: rate.Inf, Backoff: time.Millisecond, AllowPrivate: true}
}

func date(y int, m time.Month, d, h, min, s int) time.Time {
	return time.Date(y, m, d, h, min, s, 0, time.UTC)
}

// TestLookup checks the parsing of a full answer.
func TestLookup(t *testing.T) {
	f := &fakeService{answers: map[string]string{page: "timetravel.json"}}
	c := newClient(t, f)
	got, err := c.Lookup(context.Background(), page, date(2010, 2, 1, 0, 0, 0))
	if err != nil {
		t.Fatalf("Lookup: %v", err)
	}
	a, o := f.url, f.url+"/other"
	want := &memento.Mementos{
		Original: page,
		First:    &memento.Memento{Time: date(2005, 3, 12, 8, 15, 22), URIs: []string{a + "/web/20050312081522/" + page}},
		Prev:     &memento.Memento{Time: date(2009, 6, 1, 0, 0, 0), URIs: []string{a + "/web/20090601000000/" + page}},
		Closest: &memento.Memento{Time: date(2010, 2, 20, 10, 10, 10), URIs: []string{
			a + "/web/20100220101010/" + page, o + "/wayback/20100220101010/" + page}},
		Next: &memento.Memento{Time: date(2011, 6, 30, 12, 0, 0), URIs: []string{o + "/wayback/20110630120000/" + page}},
		Last: &memento.Memento{Time: date(2011, 6, 30, 12, 0, 0), URIs: []string{
			o + "/wayback/20110630120000/" + page, a + "/web/20110630120000/" + page}},
		TimeGate:    a + "/timegate/" + page,
		TimeMapJSON: a + "/timemap/json/" + page,
		TimeMapLink: a + "/timemap/link/" + page,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Lookup (-want +got):\n%s", diff)
	}
	if reqs := f.seen(); reqs[0] != "/api/json/20100201000000/"+page {
		t.Errorf("request %q, want /api/json/20100201000000/%s", reqs[0], page)
	}

	closest, err := c.Closest(context.Background(), page, date(2010, 2, 1, 0, 0, 0))
	if err != nil || !closest.Time.Equal(date(2010, 2, 20, 10, 10, 10)) {
		t.Errorf("Closest = %+v, %v, want the memento of 2010-02-20", closest, err)
	}
	last, err := c.Last(context.Background(), page)
	if err != nil || !last.Time.Equal(date(2011, 6, 30, 12, 0, 0)) {
		t.Errorf("Last = %+v, %v, want the memento of 2011-06-30", last, err)
	}
}

// TestDatetimeForms checks the datetime and uri forms the answer may take.
func TestDatetimeForms(t *testing.T) {
	const lonely = "http://example.com/lonely.html"
	f := &fakeService{answers: map[string]string{lonely: "timetravel-first-only.json"}}
	c := newClient(t, f)
	got, err := c.Lookup(context.Background(), lonely, time.Time{})
	if err != nil {
		t.Fatalf("Lookup: %v", err)
	}
	want := date(2006, 11, 4, 10, 10, 10)
	for name, m := range map[string]*memento.Memento{"first (HTTP date, one uri)": got.First, "last (14 digits)": got.Last, "closest (ISO 8601)": got.Closest} {
		if m == nil || !m.Time.Equal(want) || len(m.URIs) != 1 {
			t.Errorf("%s = %+v, want one URI at %v", name, m, want)
		}
	}
	if got.Prev != nil || got.Next != nil || got.TimeGate != "" {
		t.Errorf("Lookup = %+v, want no prev, next or timegate", got)
	}
}

// TestNoMemento checks a URI no archive holds: the service answers 404.
func TestNoMemento(t *testing.T) {
	c := newClient(t, &fakeService{})
	const never = "http://example.com/never"
	_, err := c.Lookup(context.Background(), never, time.Time{})
	var e *memento.Error
	if !errors.Is(err, memento.ErrNoMemento) || !errors.As(err, &e) || e.Op != "lookup" || e.URI != never {
		t.Errorf("Lookup = %v, want an *Error of lookup wrapping ErrNoMemento", err)
	}
	if _, err := c.Last(context.Background(), never); !errors.Is(err, memento.ErrNoMemento) {
		t.Errorf("Last = %v, want ErrNoMemento", err)
	}
	p, err := c.Fetch(context.Background(), never)
	if err != nil || p.Status != http.StatusNotFound || p.URI != never || len(p.Body) != 0 {
		t.Errorf("Fetch = %+v, %v, want a 404 Page", p, err)
	}
}

// TestMalformed checks answers that are not in the documented format.
func TestMalformed(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		wantErr error
	}{
		{"HTML page", "<!DOCTYPE html><html><body>Time Travel is down for maintenance</body></html>", memento.ErrMalformed},
		{"cut JSON", `{"original_uri": "http://example.com/", "mementos": {"closest": {"datetime": "20`, memento.ErrMalformed},
		{"binary", "\x00\x01\x02\xff\xfe", memento.ErrMalformed},
		{"bad datetime", `{"mementos": {"closest": {"datetime": "yesterday", "uri": ["http://a.example/web/1/x"]}}}`, memento.ErrMalformed},
		{"no URI", `{"mementos": {"closest": {"datetime": "2010-01-01T00:00:00Z", "uri": []}}}`, memento.ErrMalformed},
		{"no http URI", `{"mementos": {"last": {"datetime": "2010-01-01T00:00:00Z", "uri": ["ftp://a/x", "not a uri"]}}}`, memento.ErrMalformed},
		{"uri a number", `{"mementos": {"closest": {"datetime": "2010-01-01T00:00:00Z", "uri": 7}}}`, memento.ErrMalformed},
		{"array", `[1, 2, 3]`, memento.ErrMalformed},
		{"no mementos", `{"original_uri": "http://example.com/"}`, memento.ErrNoMemento},
		{"empty mementos", `{"mementos": {}}`, memento.ErrNoMemento},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeService{before: func(w http.ResponseWriter, r *http.Request) bool {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, tc.body)
				return true
			}}
			c := newClient(t, f)
			_, err := c.Lookup(context.Background(), "http://example.com/", time.Time{})
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("Lookup of %q = %v, want %v", tc.body, err, tc.wantErr)
			}
		})
	}
}

// TestRetries checks the HTTP layer under the API: a 429 is retried after
// its Retry-After, 5xx on every attempt gives a *StatusError, and a
// service that never answers times out.
func TestRetries(t *testing.T) {
	t.Run("429 then success", func(t *testing.T) {
		var n atomic.Int32
		f := &fakeService{answers: map[string]string{page: "timetravel.json"}, before: func(w http.ResponseWriter, r *http.Request) bool {
			if n.Add(1) == 1 {
				w.Header().Set("Retry-After", "0")
				http.Error(w, "too many requests", http.StatusTooManyRequests)
				return true
			}
			return false
		}}
		c := newClient(t, f)
		m, err := c.Closest(context.Background(), page, date(2010, 2, 1, 0, 0, 0))
		if err != nil || !m.Time.Equal(date(2010, 2, 20, 10, 10, 10)) {
			t.Errorf("Closest after a 429 = %+v, %v", m, err)
		}
		if got := n.Load(); got != 2 {
			t.Errorf("%d requests, want 2", got)
		}
	})
	t.Run("429 every time", func(t *testing.T) {
		f := &fakeService{before: func(w http.ResponseWriter, r *http.Request) bool {
			http.Error(w, "too many requests", http.StatusTooManyRequests)
			return true
		}}
		c := newClient(t, f)
		c.Attempts = 2
		if _, err := c.Lookup(context.Background(), page, time.Time{}); !errors.Is(err, memento.ErrRateLimited) {
			t.Errorf("Lookup = %v, want ErrRateLimited", err)
		}
	})
	t.Run("5xx", func(t *testing.T) {
		f := &fakeService{before: func(w http.ResponseWriter, r *http.Request) bool {
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return true
		}}
		c := newClient(t, f)
		c.Attempts = 3
		_, err := c.Lookup(context.Background(), page, time.Time{})
		var se *memento.StatusError
		if !errors.As(err, &se) || se.Status != http.StatusBadGateway {
			t.Errorf("Lookup = %v, want a *StatusError of 502", err)
		}
		if got := len(f.seen()); got != 3 {
			t.Errorf("%d requests, want 3 attempts", got)
		}
		if _, err := c.Fetch(context.Background(), page); !errors.As(err, &se) {
			t.Errorf("Fetch = %v, want an error, not a Page", err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		release := make(chan struct{})
		f := &fakeService{before: func(w http.ResponseWriter, r *http.Request) bool {
			select {
			case <-r.Context().Done():
			case <-release:
			}
			return true
		}}
		c := newClient(t, f)
		defer close(release)
		c.Timeout = 50 * time.Millisecond
		c.Attempts = 1
		if _, err := c.Lookup(context.Background(), page, time.Time{}); !errors.Is(err, memento.ErrTimeout) {
			t.Errorf("Lookup from a service that never answers = %v, want ErrTimeout", err)
		}
	})
	t.Run("bad BaseURL", func(t *testing.T) {
		c := &memento.Client{BaseURL: "ftp://timetravel.example"}
		if _, err := c.Lookup(context.Background(), page, time.Time{}); err == nil {
			t.Error("Lookup with an ftp BaseURL = nil error, want one")
		}
	})
	t.Run("bad URI", func(t *testing.T) {
		c := newClient(t, &fakeService{})
		for _, uri := range []string{"", "example.com/x", "mailto:a@example.com", "http://"} {
			if _, err := c.Lookup(context.Background(), uri, time.Time{}); !errors.Is(err, memento.ErrBadURI) {
				t.Errorf("Lookup(%q) = %v, want ErrBadURI", uri, err)
			}
		}
	})
}

// TestFetch checks fetching the latest memento: the mementos of its
// datetime are tried in the TimeMap's order, raw, until one answers 2xx.
func TestFetch(t *testing.T) {
	const body = "<html><title>Lexical Signatures</title><p>archived in 2011</p></html>"
	f := &fakeService{
		timemaps: map[string]string{page: "memgator-timemap-2011.json"},
		replies: map[string]reply{
			// The first archive fails, the second has the raw memento.
			"/other/wayback/20110630120000id_/" + page: {status: 503, body: "down"},
			"/web/20110630120000id_/" + page:           {status: 200, header: http.Header{"Content-Type": {"text/html"}}, body: body},
		},
	}
	c := newClient(t, f)
	c.Attempts = 2
	p, err := c.Fetch(context.Background(), page)
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if p.URI != page || p.Status != 200 || string(p.Body) != body {
		t.Errorf("Fetch = %s %d %q, want %s 200 %q", p.URI, p.Status, p.Body, page, body)
	}
	if got := p.Header.Get(memento.MementoDatetimeHeader); got != "Thu, 30 Jun 2011 12:00:00 GMT" {
		t.Errorf("Memento-Datetime = %q", got)
	}
	if got, want := p.Header.Get(memento.ContentLocationHeader), f.url+"/web/20110630120000id_/"+page; got != want {
		t.Errorf("Content-Location = %q, want %q", got, want)
	}
	want := []string{"/other/wayback/20110630120000id_/" + page, "/other/wayback/20110630120000id_/" + page, "/web/20110630120000id_/" + page}
	if diff := cmp.Diff(want, fetched(f)); diff != "" {
		t.Errorf("mementos fetched (-want +got):\n%s", diff)
	}
}

// TestFetchNoSuccess checks that when no archive answers 2xx, the newest
// answer is the Page, and a cut body is marked.
func TestFetchNoSuccess(t *testing.T) {
	f := &fakeService{
		timemaps: map[string]string{page: "memgator-timemap-2011.json"},
		replies: map[string]reply{
			"/other/wayback/20110630120000id_/" + page: {status: 451, body: strings.Repeat("unavailable ", 1000)},
			"/web/20110630120000id_/" + page:           {status: 403, body: "excluded"},
		},
	}
	c := newClient(t, f)
	c.MaxBody = 4096 // more than the API answer, less than the last reply
	p, err := c.Fetch(context.Background(), page)
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if p.Status != 451 || len(p.Body) != 4096 || p.Header.Get(web.TruncatedHeader) != "true" {
		t.Errorf("Fetch = %d, %d bytes, truncated %q; want 451, 4096 bytes, truncated", p.Status, len(p.Body), p.Header.Get(web.TruncatedHeader))
	}
}

// TestFetchPages checks that Pages, when set, fetches the mementos.
func TestFetchPages(t *testing.T) {
	f := &fakeService{timemaps: map[string]string{page: "memgator-timemap-2011.json"}}
	c := newClient(t, f)
	var asked []string
	c.Pages = filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
		asked = append(asked, uri)
		return &filter.Page{URI: uri, Status: 200, Header: http.Header{"X-From": {"pages"}}, Body: []byte("<p>via Pages</p>")}, nil
	})
	var fetcher filter.Fetcher = c
	p, err := fetcher.Fetch(context.Background(), page)
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if diff := cmp.Diff([]string{f.url + "/other/wayback/20110630120000id_/" + page}, asked); diff != "" {
		t.Errorf("Pages asked for (-want +got):\n%s", diff)
	}
	if p.URI != page || string(p.Body) != "<p>via Pages</p>" || p.Header.Get("X-From") != "pages" || p.Header.Get(memento.MementoDatetimeHeader) == "" {
		t.Errorf("Fetch = %+v", p)
	}
}

// TestRawURI checks the raw forms of URI-Ms.
func TestRawURI(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"Internet Archive", "http://web.archive.org/web/20130115101913/http://www.cnn.com/", "http://web.archive.org/web/20130115101913id_/http://www.cnn.com/"},
		{"flag replaced", "https://web.archive.org/web/20130115101913im_/https://www.cnn.com/a.png", "https://web.archive.org/web/20130115101913id_/https://www.cnn.com/a.png"},
		{"already raw", "https://web.archive.org/web/20130115101913id_/http://cnn.com/", "https://web.archive.org/web/20130115101913id_/http://cnn.com/"},
		{"collection path", "https://wayback.archive-it.org/1234/20130115101913/http://cnn.com/", "https://wayback.archive-it.org/1234/20130115101913id_/http://cnn.com/"},
		{"arquivo.pt", "https://arquivo.pt/wayback/20090101000000/http://www.example.pt/", "https://arquivo.pt/wayback/20090101000000id_/http://www.example.pt/"},
		{"query in original", "http://web.archive.org/web/20130115101913/http://example.com/a?b=20130115101913/http://x", "http://web.archive.org/web/20130115101913id_/http://example.com/a?b=20130115101913/http://x"},
		{"archive.today", "http://archive.md/20150422173637/http://www.cnn.com/", "http://archive.md/20150422173637/http://www.cnn.com/"},
		{"archive.today www", "https://www.archive.ph/20150422173637/http://www.cnn.com/", "https://www.archive.ph/20150422173637/http://www.cnn.com/"},
		{"not a timestamp", "http://archive.example/web/2013/http://cnn.com/", "http://archive.example/web/2013/http://cnn.com/"},
		{"15 digits", "http://archive.example/web/201301151019130/http://cnn.com/", "http://archive.example/web/201301151019130/http://cnn.com/"},
		{"other form", "https://webcitation.example/6ABCdef", "https://webcitation.example/6ABCdef"},
		{"timestamp in the host part", "http://20130115101913/http://cnn.com/", "http://20130115101913/http://cnn.com/"},
		{"not a URI", "%%%", "%%%"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := memento.RawURI(tc.in); got != tc.want {
				t.Errorf("RawURI(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
