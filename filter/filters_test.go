package filter

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/internal/words"
)

// body returns p's body, or nil for a nil page.
func body(p *Page) []byte {
	if p == nil {
		return nil
	}
	return p.Body
}

// htmlDoc wraps text in an HTML page whose head holds words a person does
// not see.
func htmlDoc(text string) []byte {
	return []byte("<!DOCTYPE html><html><head><title>hidden title</title>" +
		"<script>var hidden = 'script words';</script></head><body><p>" +
		text + "</p></body></html>")
}

// htmlPage returns a 200 text/html page at uri showing text.
func htmlPage(uri, text string) *Page {
	return &Page{URI: uri, Status: http.StatusOK, Header: header("text/html; charset=utf-8"), Body: htmlDoc(text)}
}

// notFoundText is the text of a soft 404 page: long and English enough to
// pass the size and language filters on its own.
const notFoundText = `Sorry, the page you were looking for could not be found on this
server. It may have been moved, renamed or removed, or the address may have been typed
incorrectly. Please check the spelling of the address, go back to the previous page, or
use the search box above to find what you need. If you followed a link from another
site, the owner of that site may not know that the page has moved. You can also return
to our home page and browse the main sections of the site from there.`

// recorder is a Fetcher that answers from a function and records the URIs
// it was asked for.
type recorder struct {
	mu     sync.Mutex
	uris   []string
	answer func(uri string) (*Page, error)
}

func (r *recorder) Fetch(ctx context.Context, uri string) (*Page, error) {
	r.mu.Lock()
	r.uris = append(r.uris, uri)
	r.mu.Unlock()
	return r.answer(uri)
}

// fixedRandom returns a Random that always gives s.
func fixedRandom(s string) func() string { return func() string { return s } }

// TestCheck checks the status, file type, size and language filters
// together, in the order of Order (§3.1 "Pre-processing Link
// Neighborhood", Table "Pre-Processing Results"), without soft 404 probes.
func TestCheck(t *testing.T) {
	eng, deu := sample(t, "eng"), sample(t, "deu")
	short := "only ten words are shown on this small page today"
	tests := []struct {
		name    string
		filters Filters
		page    *Page
		want    *Rejection
	}{
		{"English page kept", Filters{}, htmlPage("http://a.example/p", eng), nil},
		{"nil page", Filters{}, nil, &Rejection{FilterStatus, "HTTP 0"}},
		{"not found", Filters{}, &Page{Status: 404, Header: header("text/html"), Body: htmlDoc(eng)},
			&Rejection{FilterStatus, "HTTP 404 Not Found"}},
		{"status before file type", Filters{}, &Page{Status: 500, Header: header("application/pdf")},
			&Rejection{FilterStatus, "HTTP 500 Internal Server Error"}},
		{"pdf", Filters{}, &Page{Status: 200, Header: header("application/pdf"), Body: []byte("%PDF-1.4")},
			&Rejection{FilterFileType, `pdf, from Content-Type "application/pdf"`}},
		{"file type before size", Filters{}, &Page{Status: 200, Body: []byte("short text")},
			&Rejection{FilterFileType, "text, sniffed from the body"}},
		{"binary under text/html", Filters{}, &Page{Status: 200, Header: header("text/html"), Body: []byte("\x00\x01\x02\x03\x00\x00\x00\x00")},
			&Rejection{FilterFileType, `binary, sniffed from the body, although Content-Type says "text/html"`}},
		{"short", Filters{}, htmlPage("", short), &Rejection{FilterSize, "10 words, fewer than 50"}},
		{"empty html", Filters{}, &Page{Status: 200, Header: header("text/html")}, &Rejection{FilterSize, "0 words, fewer than 50"}},
		{"hidden words do not count", Filters{}, htmlPage("", strings.Repeat("<script>a b c d e f g h i j</script>", 10)),
			&Rejection{FilterSize, "0 words, fewer than 50"}},
		{"size before language", Filters{}, htmlPage("", strings.Join(strings.Fields(deu)[:30], " ")),
			&Rejection{FilterSize, "30 words, fewer than 50"}},
		{"German", Filters{}, htmlPage("", deu), &Rejection{FilterLanguage, "deu (German) in 2 of 2 windows, eng in 0"}},
		{"MinTokens", Filters{MinTokens: 5}, htmlPage("", short), nil},
		{"MinTokens above the page", Filters{MinTokens: 1000}, htmlPage("", eng),
			&Rejection{FilterSize, fmt.Sprintf("%d words, fewer than 1000", len(words.Split(eng)))}},
		{"negative MinTokens is the default", Filters{MinTokens: -3}, htmlPage("", short), &Rejection{FilterSize, "10 words, fewer than 50"}},
		{"status disabled", Filters{Disabled: []string{FilterStatus}},
			&Page{Status: 404, Header: header("text/html"), Body: htmlDoc(eng)}, nil},
		{"file type disabled", Filters{Disabled: []string{FilterFileType}},
			&Page{Status: 200, Header: header("text/plain"), Body: []byte(eng)}, nil},
		{"size disabled", Filters{Disabled: []string{FilterSize}}, htmlPage("", short), nil},
		{"language disabled", Filters{Disabled: []string{FilterLanguage}}, htmlPage("", deu), nil},
		{"unknown name ignored", Filters{Disabled: []string{"no such filter"}}, htmlPage("", deu),
			&Rejection{FilterLanguage, "deu (German) in 2 of 2 windows, eng in 0"}},
		{"all disabled", Filters{Disabled: Order}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.filters.Check(context.Background(), tt.page)
			if err != nil {
				t.Fatalf("Check error: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Check(%.40q) mismatch (-want +got):\n%s", body(tt.page), diff)
			}
		})
	}
}

// TestCheckSoft404 checks the soft 404 filter inside Check (§3.1 "Soft
// 404s"): which probes are fetched and what their answers decide.
func TestCheckSoft404(t *testing.T) {
	const uri = "http://site.example/path/to/file.html"
	const firstURI = "http://site.example/XXXXpath/to/file.html"
	const lastURI = "http://site.example/path/to/XXXXfile.html"
	eng := sample(t, "eng")
	notFound := func(status int) func(string) (*Page, error) {
		return func(u string) (*Page, error) {
			p := htmlPage(u, notFoundText)
			p.Status = status
			return p, nil
		}
	}
	tests := []struct {
		name    string
		page    *Page
		random  func() string
		answer  func(uri string) (*Page, error)
		fetched []string
		want    *Rejection
	}{
		{
			name: "server shows the same page for any path",
			page: htmlPage(uri, notFoundText), answer: notFound(200),
			fetched: []string{firstURI, lastURI},
			want: &Rejection{FilterSoft404, firstURI + " answered HTTP 200 OK with Jaccard 1.00, " +
				lastURI + " answered HTTP 200 OK with Jaccard 1.00"},
		},
		{
			name: "hard 404 for the first probe",
			page: htmlPage(uri, notFoundText), answer: notFound(404),
			fetched: []string{firstURI},
		},
		{
			name: "real page on a soft 404 site",
			page: htmlPage(uri, eng), answer: notFound(200),
			fetched: []string{firstURI},
		},
		{
			name: "last probe hard 404 with the same page",
			page: htmlPage(uri, notFoundText),
			answer: func(u string) (*Page, error) {
				p := htmlPage(u, notFoundText)
				if u == lastURI {
					p.Status = 404
				}
				return p, nil
			},
			fetched: []string{firstURI, lastURI},
			want: &Rejection{FilterSoft404, firstURI + " answered HTTP 200 OK with Jaccard 1.00, " +
				lastURI + " answered HTTP 404 Not Found with Jaccard 1.00"},
		},
		{
			name: "last probe differs",
			page: htmlPage(uri, notFoundText),
			answer: func(u string) (*Page, error) {
				if u == lastURI {
					return htmlPage(u, eng), nil
				}
				return htmlPage(u, notFoundText), nil
			},
			fetched: []string{firstURI, lastURI},
		},
		{
			name: "last probe gives no answer",
			page: htmlPage(uri, notFoundText),
			answer: func(u string) (*Page, error) {
				if u == lastURI {
					return nil, errors.New("connection refused")
				}
				return htmlPage(u, notFoundText), nil
			},
			fetched: []string{firstURI, lastURI},
		},
		{
			name:    "first probe gives no answer",
			page:    htmlPage(uri, notFoundText),
			answer:  func(string) (*Page, error) { return nil, errors.New("timeout") },
			fetched: []string{firstURI},
		},
		{
			name:    "first probe answers nil",
			page:    htmlPage(uri, notFoundText),
			answer:  func(string) (*Page, error) { return nil, nil },
			fetched: []string{firstURI},
		},
		{
			name: "case does not matter",
			page: htmlPage(uri, notFoundText),
			answer: func(u string) (*Page, error) {
				return htmlPage(u, strings.ToUpper(notFoundText)), nil
			},
			fetched: []string{firstURI, lastURI},
			want: &Rejection{FilterSoft404, firstURI + " answered HTTP 200 OK with Jaccard 1.00, " +
				lastURI + " answered HTTP 200 OK with Jaccard 1.00"},
		},
		{
			name: "one probe when both are the same URI",
			page: htmlPage("http://site.example/file.html", notFoundText), answer: notFound(200),
			fetched: []string{"http://site.example/XXXXfile.html"},
			want: &Rejection{FilterSoft404, "http://site.example/XXXXfile.html answered HTTP 200 OK with Jaccard 1.00, " +
				"http://site.example/XXXXfile.html answered HTTP 200 OK with Jaccard 1.00"},
		},
		{
			name: "relative URI cannot be probed",
			page: htmlPage("/path/to/file.html", notFoundText), answer: notFound(200),
		},
		{
			name: "empty random string turns the filter off",
			page: htmlPage(uri, notFoundText), answer: notFound(200), random: fixedRandom(""),
		},
		{
			name: "earlier filters first",
			page: htmlPage(uri, "not found"), answer: notFound(200),
			want: &Rejection{FilterSize, "2 words, fewer than 50"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fetcher := &recorder{answer: tt.answer}
			f := Filters{Fetcher: fetcher, Random: fixedRandom("XXXX")}
			if tt.random != nil {
				f.Random = tt.random
			}
			got, err := f.Check(context.Background(), tt.page)
			if err != nil {
				t.Fatalf("Check error: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Check mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.fetched, fetcher.uris); diff != "" {
				t.Errorf("fetched URIs mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCheckSoft404Defaults checks the soft 404 filter with the default probe
// string and without a Fetcher.
func TestCheckSoft404Defaults(t *testing.T) {
	const uri = "http://site.example/a/b.html"
	soft := func(u string) (*Page, error) { return htmlPage(u, notFoundText), nil }

	var f Filters // no Fetcher: the soft 404 filter is skipped
	if r, err := f.Check(context.Background(), htmlPage(uri, notFoundText)); r != nil || err != nil {
		t.Errorf("Check without a Fetcher = %v, %v, want kept", r, err)
	}

	fetcher := &recorder{answer: soft}
	f = Filters{Fetcher: fetcher}
	r, err := f.Check(context.Background(), htmlPage(uri, notFoundText))
	if err != nil || r == nil || r.Filter != FilterSoft404 {
		t.Fatalf("Check = %v, %v, want a soft 404 rejection", r, err)
	}
	if len(fetcher.uris) != 2 {
		t.Fatalf("fetched %q, want two probes", fetcher.uris)
	}
	// The probes carry the same 20-character random string (§3.1 "Soft
	// 404s": "a random 20-character string").
	random := strings.TrimSuffix(strings.TrimPrefix(fetcher.uris[0], "http://site.example/"), "a/b.html")
	first, last, err := ProbeURIs(uri, random)
	if err != nil || len(random) != ProbeLength || strings.Trim(random, randomAlphabet) != "" ||
		fetcher.uris[0] != first || fetcher.uris[1] != last {
		t.Errorf("fetched %q, want the probes of a %d-character lowercase random string", fetcher.uris, ProbeLength)
	}

	// A soft 404 page for some other site is not one for this page.
	fetcher = &recorder{answer: soft}
	f = Filters{Fetcher: fetcher, Disabled: []string{FilterSoft404}}
	if r, err := f.Check(context.Background(), htmlPage(uri, notFoundText)); r != nil || err != nil || len(fetcher.uris) != 0 {
		t.Errorf("Check with soft404 disabled = %v, %v after fetching %q, want kept without fetching", r, err, fetcher.uris)
	}
}

// TestCheckContext checks that Check reports a done context as an error,
// and only then.
func TestCheckContext(t *testing.T) {
	page := htmlPage("http://site.example/a/b.html", notFoundText)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var f Filters
	if r, err := f.Check(ctx, page); r != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("Check(cancelled) = %v, %v, want nil, context.Canceled", r, err)
	}

	// The context ends while the first probe is being fetched.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	f = Filters{Fetcher: FetcherFunc(func(ctx context.Context, uri string) (*Page, error) {
		cancel()
		<-ctx.Done()
		return nil, ctx.Err()
	})}
	if r, err := f.Check(ctx, page); r != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("Check(cancelled during a probe) = %v, %v, want nil, context.Canceled", r, err)
	}

	// A fetcher that times out on its own is no answer, not an error.
	f = Filters{Fetcher: FetcherFunc(func(ctx context.Context, uri string) (*Page, error) {
		return nil, context.DeadlineExceeded
	})}
	if r, err := f.Check(context.Background(), page); r != nil || err != nil {
		t.Errorf("Check(probe timed out) = %v, %v, want kept", r, err)
	}
}

// TestCheckNilFilters checks that a nil *Filters works like the zero value.
func TestCheckNilFilters(t *testing.T) {
	var f *Filters
	r, err := f.Check(context.Background(), htmlPage("", sample(t, "fra")))
	if err != nil || r == nil || r.Filter != FilterLanguage {
		t.Errorf("(*Filters)(nil).Check(French page) = %v, %v, want a language rejection", r, err)
	}
}

// TestCheckHostileBodies checks that no body makes Check panic, hang or
// fail: each gets a rejection or is kept. A hang fails by go test's
// -timeout; how long the 20 MB page takes is BenchmarkCheckLarge's to say,
// not a timed assertion's, which a loaded machine fails.
func TestCheckHostileBodies(t *testing.T) {
	eng := sample(t, "eng")
	big := htmlDoc(strings.Repeat("<p>"+eng+"</p>\n", 20<<20/len(eng)))
	tests := []struct {
		name   string
		header http.Header
		body   []byte
		filter string // "" when kept
	}{
		{"nil header", nil, htmlDoc(eng), ""},
		{"invalid UTF-8", header("text/html; charset=utf-8"), htmlDoc(eng + "\xff\xfe\xc3\x28"), ""},
		{"unknown charset", header("text/html; charset=x-no-such"), htmlDoc(eng), ""},
		{"NUL bytes", header("text/html"), make([]byte, 4096), FilterFileType},
		{"unclosed tags", header("text/html"), []byte(strings.Repeat("<div><b><i>"+eng[:200], 50)), ""},
		{"deep nesting", header("text/html"), []byte(strings.Repeat("<div>", 100000) + eng), ""},
		{"only markup", header("text/html"), []byte(strings.Repeat("<br>", 100000)), FilterSize},
		{"20 MB", header("text/html"), big, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f Filters
			r, err := f.Check(context.Background(), &Page{Status: 200, Header: tt.header, Body: tt.body})
			if err != nil {
				t.Fatalf("Check error: %v", err)
			}
			if got := filterOf(r); got != tt.filter {
				t.Errorf("Check(%s) = %v, want filter %q", tt.name, r, tt.filter)
			}
		})
	}
}

// BenchmarkCheckLarge measures Check of a 20 MB English page.
func BenchmarkCheckLarge(b *testing.B) {
	eng := sample(b, "eng")
	big := htmlDoc(strings.Repeat("<p>"+eng+"</p>\n", 20<<20/len(eng)))
	var f Filters
	b.SetBytes(int64(len(big)))
	for b.Loop() {
		if _, err := f.Check(context.Background(), &Page{Status: 200, Header: header("text/html"), Body: big}); err != nil {
			b.Fatal(err)
		}
	}
}

// filterOf returns the filter of r, or "" when r is nil (the page was kept).
func filterOf(r *Rejection) string {
	if r == nil {
		return ""
	}
	return r.Filter
}
