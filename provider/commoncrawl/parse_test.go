package commoncrawl_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/provider/commoncrawl"
)

const (
	home = "https://www.example.com/"
	date = "2024-05-18T01:58:10Z"
)

var fetched = time.Date(2024, 5, 18, 1, 58, 10, 0, time.UTC)

func TestParse(t *testing.T) {
	tests := []struct {
		name   string
		block  string
		record string // the WAT record's WARC-Target-URI
		want   *commoncrawl.Page
	}{
		{
			name: "links kept and dropped",
			block: response("https://WWW.Example.com:443/blog/post.html", date, `"200"`, head("A  post\n", ""), links(
				link("A@/href", "/about", " About\n\t us "),
				link("A@/href", "HTTP://Example.COM:80/x#frag", "x"),
				link("A@/href", "#top", "Top"),
				link("A@/href", "other.html", ""),
				link("A@/href", " other.html#again\n", "again"),
				link("IMG@/src", "/logo.png", ""),
				link("AREA@/href", "/map", ""),
				link("FORM@/action", "/search", ""),
				link("A@/data-href", "/js", ""),
				link("STYLE/#text", "/bg.png", ""),
				link("A@/href", "mailto:me@example.com", "mail"),
				link("A@/href", "javascript:void(0)", "menu"),
				link("A@/href", "http://[::1", "broken"),
				link("A@/href", "http://", "no host"),
				link("A@/href", "/"+longText(5000), "long url"),
				link("A@/href", "/long-text", longText(3000)),
				link("A@/href", "https://other.example/caf\u00e9", "caf\u00e9\u00a0cr\u00e8me\u0007"),
			)),
			want: &commoncrawl.Page{
				URI:     "https://www.example.com/blog/post.html",
				Address: "https://WWW.Example.com:443/blog/post.html",
				Fetched: fetched,
				Status:  200,
				Title:   "A post",
				Links: []commoncrawl.Link{
					{Target: "https://www.example.com/about", Anchor: "About us"},
					{Target: "http://example.com/x", Anchor: "x"},
					{Target: "https://www.example.com/blog/post.html", Anchor: "Top"},
					{Target: "https://www.example.com/blog/other.html"},
					{Target: "https://www.example.com/blog/other.html", Anchor: "again"},
					{Target: "https://other.example/caf%C3%A9", Anchor: "caf\u00e9 cr\u00e8me"},
				},
				Dropped: map[string]int{
					commoncrawl.DropNotAnchor: 5,
					commoncrawl.DropNotHTTP:   2,
					commoncrawl.DropBadURL:    2,
					commoncrawl.DropTooLong:   2,
				},
			},
		},
		{
			name: "base href, relative to the page",
			block: response("http://docs.example.org/a/b/page", date, `"200"`, head("", "../v2/"), links(
				link("A@/href", "intro.html", "Intro"),
				link("A@/href", "/root", "Root"),
			)),
			want: &commoncrawl.Page{
				URI: "http://docs.example.org/a/b/page", Address: "http://docs.example.org/a/b/page", Fetched: fetched, Status: 200,
				Links: []commoncrawl.Link{
					{Target: "http://docs.example.org/a/v2/intro.html", Anchor: "Intro"},
					{Target: "http://docs.example.org/root", Anchor: "Root"},
				},
			},
		},
		{
			name: "absolute base on another host",
			block: response("http://a.example/x/", date, `"200"`, head("", "https://cdn.example/base/"), links(
				link("A@/href", "p", "P"),
			)),
			want: &commoncrawl.Page{
				URI: "http://a.example/x", Address: "http://a.example/x/", Fetched: fetched, Status: 200,
				Links: []commoncrawl.Link{{Target: "https://cdn.example/base/p", Anchor: "P"}},
			},
		},
		{
			name: "javascript base ignored",
			block: response("http://a.example/x/", date, `"200"`, head("", "javascript:alert(1)"), links(
				link("A@/href", "p", "P"),
			)),
			want: &commoncrawl.Page{
				URI: "http://a.example/x", Address: "http://a.example/x/", Fetched: fetched, Status: 200,
				Links: []commoncrawl.Link{{Target: "http://a.example/x/p", Anchor: "P"}},
			},
		},
		{
			name:  "status as a number, no links",
			block: response(home, date, `204`, head("Empty", ""), ""),
			want: &commoncrawl.Page{URI: "https://www.example.com", Address: home, Fetched: fetched, Status: 204,
				Title: "Empty", Links: []commoncrawl.Link{}},
		},
		{
			name:  "no status, no date",
			block: response(home, "", "", head("", ""), links(link("A@/href", "a", "A"))),
			want: &commoncrawl.Page{URI: "https://www.example.com", Address: home,
				Links: []commoncrawl.Link{{Target: "https://www.example.com/a", Anchor: "A"}}},
		},
		{
			name:  "fractional date",
			block: response(home, "2024-05-18T01:58:10.250Z", `"200"`, head("", ""), links()),
			want: &commoncrawl.Page{URI: "https://www.example.com", Address: home, Status: 200,
				Fetched: fetched.Add(250 * time.Millisecond), Links: []commoncrawl.Link{}},
		},
		{
			name:   "page URI from the WAT record",
			block:  response("", date, `"200"`, head("", ""), links(link("A@/href", "a", "A"))),
			record: "http://record.example/p",
			want: &commoncrawl.Page{URI: "http://record.example/p", Address: "http://record.example/p", Fetched: fetched, Status: 200,
				Links: []commoncrawl.Link{{Target: "http://record.example/a", Anchor: "A"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := commoncrawl.Parse([]byte(tt.block), tt.record)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseSkips(t *testing.T) {
	tests := []struct {
		name      string
		block     string
		record    string
		reason    string
		malformed bool
	}{
		{name: "request", block: request(home), reason: commoncrawl.ReasonNotResponse},
		{name: "crawler metadata", block: metadataEnvelope(home), reason: commoncrawl.ReasonNotResponse},
		{name: "image", block: image(home + "logo.png"), reason: commoncrawl.ReasonNotHTML},
		{name: "not found", block: response(home, date, `"404"`, head("", ""), links()), reason: commoncrawl.ReasonStatus},
		{name: "redirect", block: response(home, date, `"301"`, head("", ""), links()), reason: commoncrawl.ReasonStatus},
		{name: "not JSON", block: "<html>oops</html>", reason: commoncrawl.ReasonBadJSON, malformed: true},
		{name: "cut short", block: response(home, date, `"200"`, head("", ""), links())[:300], reason: commoncrawl.ReasonBadJSON, malformed: true},
		{name: "empty", block: "", reason: commoncrawl.ReasonBadJSON, malformed: true},
		{name: "links not an array", block: response(home, date, `"200"`, head("", ""), `"nope"`), reason: commoncrawl.ReasonBadJSON, malformed: true},
		{name: "url not a string", block: response(home, date, `"200"`, head("", ""), `[{"path":"A@/href","url":7}]`), reason: commoncrawl.ReasonBadJSON, malformed: true},
		{name: "status not a number", block: response(home, date, `"OK"`, head("", ""), links()), reason: commoncrawl.ReasonBadJSON, malformed: true},
		{name: "JSON array", block: "[1,2]", reason: commoncrawl.ReasonBadJSON, malformed: true},
		{name: "no envelope", block: `{"Container":{}}`, reason: commoncrawl.ReasonBadEnvelope, malformed: true},
		{name: "no WARC type", block: `{"Envelope":{"WARC-Header-Metadata":{}}}`, reason: commoncrawl.ReasonBadEnvelope, malformed: true},
		{name: "invalid UTF-8", block: strings.Replace(response(home, date, `"200"`, head("Cafe", ""), links()), "Cafe", "Caf\xe9", 1), reason: commoncrawl.ReasonInvalidUTF8, malformed: true},
		{name: "no page URI", block: response("", date, `"200"`, head("", ""), links()), reason: commoncrawl.ReasonBadURI, malformed: true},
		{name: "relative page URI", block: response("/p", date, `"200"`, head("", ""), links()), reason: commoncrawl.ReasonBadURI, malformed: true},
		{name: "ftp page", block: response("ftp://files.example/", date, `"200"`, head("", ""), links()), reason: commoncrawl.ReasonBadURI, malformed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := commoncrawl.Parse([]byte(tt.block), tt.record)
			var se *commoncrawl.SkipError
			if !errors.As(err, &se) {
				t.Fatalf("Parse = %+v, %v; want a *SkipError", p, err)
			}
			if se.Reason != tt.reason || se.Malformed() != tt.malformed {
				t.Errorf("Parse: reason %q (malformed %v), want %q (malformed %v); error %v",
					se.Reason, se.Malformed(), tt.reason, tt.malformed, err)
			}
		})
	}
}
