package localweb_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/lab/localweb"
)

// wikiAnswer is list=exturlusage's answer, as MediaWiki documents it.
type wikiAnswer struct {
	BatchComplete any `json:"batchcomplete"`
	Continue      *struct {
		EUContinue string `json:"eucontinue"`
		Continue   string `json:"continue"`
	} `json:"continue"`
	Query struct {
		ExtURLUsage []struct {
			PageID int    `json:"pageid"`
			NS     int    `json:"ns"`
			Title  string `json:"title"`
			URL    string `json:"url"`
		} `json:"exturlusage"`
	} `json:"query"`
	Warnings map[string]map[string]string `json:"warnings"`
	Error    map[string]any               `json:"error"`
}

// askWiki asks the API with params.
func askWiki(t *testing.T, srv *localweb.Server, params url.Values) (wikiAnswer, http.Header) {
	t.Helper()
	resp, b := get(t, srv.URL("mediawiki")+"?"+params.Encode(), nil)
	var a wikiAnswer
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatalf("%s: %v: %s", params.Encode(), err, b)
	}
	return a, resp.Header
}

// exturl returns the parameters of an exturlusage query.
func exturl(kv ...string) url.Values {
	v := url.Values{"action": {"query"}, "list": {"exturlusage"}, "format": {"json"}}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

// titles returns the titles of an answer.
func titles(a wikiAnswer) []string {
	out := []string{}
	for _, e := range a.Query.ExtURLUsage {
		out = append(out, e.Title)
	}
	return out
}

func TestMediaWikiExtURLUsage(t *testing.T) {
	srv := start(t, localweb.Options{Relaxed: true})
	tests := []struct {
		name   string
		params url.Values
		want   []string
	}{
		{"one URL, no protocol", exturl("euquery", "docs.python.org/3.11/library/json.html"),
			[]string{"JSON - Wikipedia", "Python (programming language) - Wikipedia"}},
		{"a path prefix", exturl("euquery", "docs.python.org/3.11/library/"),
			[]string{"JSON - Wikipedia", "Python (programming language) - Wikipedia", "Python (programming language) - Wikipedia"}},
		{"the host", exturl("euquery", "docs.python.org"),
			[]string{"JSON - Wikipedia", "Python (programming language) - Wikipedia", "Python (programming language) - Wikipedia"}},
		{"a wildcard domain", exturl("euquery", "*.python.org/3.11/library/os"),
			[]string{"Python (programming language) - Wikipedia"}},
		{"http only", exturl("euquery", "docs.python.org", "euprotocol", "http"), []string{}},
		{"another host", exturl("euquery", "python.org"), []string{}},
		{"another namespace", exturl("euquery", "docs.python.org", "eunamespace", "2"), []string{}},
	}
	for _, tt := range tests {
		a, _ := askWiki(t, srv, tt.params)
		if diff := cmp.Diff(tt.want, titles(a)); diff != "" || a.Error != nil {
			t.Errorf("%s: (-want +got)\n%s%v", tt.name, diff, a.Error)
		}
	}

	// Continuation: one at a time, as eulimit=1 asks.
	var got []string
	params := exturl("euquery", "docs.python.org", "eulimit", "1")
	for i := 0; i < 10; i++ {
		a, _ := askWiki(t, srv, params)
		if a.BatchComplete != "" {
			t.Errorf("batchcomplete = %#v, want \"\" (formatversion 1)", a.BatchComplete)
		}
		got = append(got, titles(a)...)
		if a.Continue == nil {
			break
		}
		if a.Continue.Continue != "-||" {
			t.Errorf("continue.continue = %q, want -||", a.Continue.Continue)
		}
		params.Set("eucontinue", a.Continue.EUContinue)
	}
	if len(got) != 3 {
		t.Errorf("continued answers = %q, want 3 titles", got)
	}

	a, _ := askWiki(t, srv, exturl("euquery", "docs.python.org", "formatversion", "2", "eulimit", "999"))
	if a.BatchComplete != true || len(a.Warnings["exturlusage"]) == 0 {
		t.Errorf("formatversion=2, eulimit=999: batchcomplete %#v, warnings %v", a.BatchComplete, a.Warnings)
	}

	for _, bad := range []url.Values{
		exturl("action", "parse"),
		exturl("list", "search"),
		exturl("format", "xml"),
		exturl("eulimit", "ten"),
		exturl("eucontinue", "x"),
	} {
		a, h := askWiki(t, srv, bad)
		if a.Error == nil || h.Get("MediaWiki-API-Error") == "" {
			t.Errorf("%s: no error", bad.Encode())
		}
	}
}

func TestMediaWikiMaxlag(t *testing.T) {
	srv := start(t, localweb.Options{Relaxed: true, WikiLag: 7})
	a, h := askWiki(t, srv, exturl("euquery", "docs.python.org", "maxlag", "5"))
	if a.Error["code"] != "maxlag" || h.Get("Retry-After") == "" || h.Get("X-Database-Lag") != "7" {
		t.Errorf("maxlag=5 with a lag of 7: %v %v", a.Error, h)
	}
	if a, _ := askWiki(t, srv, exturl("euquery", "docs.python.org", "maxlag", "10")); a.Error != nil {
		t.Errorf("maxlag=10 with a lag of 7: %v", a.Error)
	}
	quiet := start(t, localweb.Options{Relaxed: true})
	if a, _ := askWiki(t, quiet, exturl("euquery", "docs.python.org", "maxlag", "-1")); a.Error["code"] != "maxlag" || a.Error["lag"] != 0.0 {
		t.Errorf("maxlag=-1: %v, want the maxlag error with lag 0", a.Error)
	}
}
