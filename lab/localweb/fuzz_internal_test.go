package localweb

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/linkrot/relink/lexsig"
)

func TestParseQuery(t *testing.T) {
	tests := []struct {
		text string
		want []lexsig.Query
	}{
		{"operating system", []lexsig.Query{{Terms: []string{"operating", "system"}}}},
		{`"lightweight data" format`, []lexsig.Query{{Terms: []string{"lightweight data", "format"}}}},
		{"json OR yaml", []lexsig.Query{{Terms: []string{"json", "yaml"}, Mode: lexsig.Disjunctive}}},
		{`"a b" OR c OR d`, []lexsig.Query{{Terms: []string{"a b", "c", "d"}, Mode: lexsig.Disjunctive}}},
		{"x y OR z", []lexsig.Query{{Terms: []string{"x", "y"}}, {Terms: []string{"x", "z"}}}},
		{"OR x", []lexsig.Query{{Terms: []string{"or", "x"}}}}, // a leading OR is a word
		{"Don't stop", []lexsig.Query{{Terms: []string{"don t", "stop"}}}},
		{`"unclosed phrase`, []lexsig.Query{{Terms: []string{"unclosed phrase"}}}},
		{"  ", nil},
		{`"" !!`, nil},
	}
	for _, tt := range tests {
		q, err := parseQuery(tt.text)
		if err != nil {
			t.Fatalf("parseQuery(%q): %v", tt.text, err)
		}
		got, err := q.queries()
		if err != nil {
			t.Fatalf("queries(%q): %v", tt.text, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("parseQuery(%q) (-want +got)\n%s", tt.text, diff)
		}
	}
	if _, err := parseQuery(strings.Repeat("a ", MaxQueryBytes)); err == nil {
		t.Error("a query over MaxQueryBytes was accepted")
	}
	q, _ := parseQuery(strings.Repeat("a OR b ", 10))
	if _, err := q.queries(); err == nil {
		t.Error("a query of 1024 expansions was accepted")
	}
}

// FuzzParseQuery: any text parses or is refused, never panics, and its
// queries are bounded.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"a b", `"a b" OR c`, "x y OR z", `"`, "OR", "| OR |", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		q, err := parseQuery(text)
		if err != nil {
			return
		}
		qs, err := q.queries()
		if err == nil && len(qs) > MaxExpansions {
			t.Errorf("%q: %d queries", text, len(qs))
		}
	})
}

// FuzzCDXQuery: any query string is parsed or refused, and filtering rows
// with it never panics.
func FuzzCDXQuery(f *testing.F) {
	for _, s := range []string{"url=a.org/*&filter=!status:2..&collapse=digest:3&limit=-1", "url=*.a.org&from=2019&to=2020", "url=x&filter=~url:a&filter==mime:text/html"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, raw string, wayback bool) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, err := parseCDXQuery(v, wayback)
		if err != nil {
			return
		}
		rows := []cdxRow{{"urlkey": "org,a)/", "timestamp": "20200115120000", "statuscode": "200", "digest": "ABC"}, {"urlkey": "org,a)/b"}}
		q.filter(rows, waybackFields)
	})
}

// FuzzLinkSearch: any euquery and euprotocol give a pattern that matches
// without panicking.
func FuzzLinkSearch(f *testing.F) {
	f.Add("*.example.org/a", "")
	f.Add("example.org?x", "https")
	f.Add("", "http")
	f.Fuzz(func(t *testing.T, query, protocol string) {
		ls := parseLinkSearch(query, protocol)
		ls.matches(wikiLink{url: "https://example.org/a", scheme: "https", host: "example.org", rest: "/a"})
	})
}

func TestLimiter(t *testing.T) {
	now := time.Unix(1000, 0)
	l := newLimiter(Window{N: 2, Per: time.Minute}, false, func() time.Time { return now })
	for i, want := range []bool{true, true, false} {
		if st := l.take("k"); st.ok != want {
			t.Errorf("take %d: %v, want %v", i+1, st.ok, want)
		}
	}
	if st := l.take("other"); !st.ok {
		t.Error("another key was refused")
	}
	now = now.Add(61 * time.Second)
	if st := l.take("k"); !st.ok || st.remaining != 1 {
		t.Errorf("after the window: %+v, want admitted with 1 left", st)
	}
	if newLimiter(Window{N: 2, Per: time.Minute}, true, time.Now) != nil || newLimiter(Window{N: -1, Per: time.Minute}, false, time.Now) != nil {
		t.Error("a relaxed or unlimited window made a limiter")
	}
	var none *limiter
	if !none.take("k").ok {
		t.Error("a nil limiter refused")
	}
}
