package repair_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/linkrot/relink/repair"
)

// secretResult holds a URL password in every field a result has.
func secretResult() repair.Result {
	const u = "https://bob:SECRET@old.example/a"
	return repair.Result{
		Dead: u, Sources: []string{"https://carol:SECRET@site.example/"},
		Verdict: repair.Moved, URI: "https://bob:SECRET@new.example/a", Confidence: 0.9,
		Candidates: []repair.Candidate{{URI: "http://bob:SECRET@new.example/a", Title: "t", Snippet: "see ftp://x:SECRET@h/f"}},
		Queries:    []string{"a b"},
		Backlinks:  []repair.Backlink{{URI: "https://carol:SECRET@site.example/", Reason: "fetch https://carol:SECRET@site.example/: 404"}},
		Archive:    &repair.Archive{URI: "https://web.archive.org/web/2020/https://bob:SECRET@old.example/a", Title: "t"},
		Evidence:   []repair.Evidence{{Kind: "web", Detail: "web: fetch http://bob:SECRET@old.example/a: 404"}},
		Error:      "no query could be formed for http://bob:SECRET@old.example/a",
	}
}

// TestResultRedacted writes a result whose fields hold URL passwords in
// every output format: only dead and sources, which echo the input, keep
// them (issue 23, item 14: error and evidence carried them).
func TestResultRedacted(t *testing.T) {
	r := secretResult()
	for _, format := range []repair.Output{repair.OutputJSONL, repair.OutputCSV, repair.OutputMarkdown} {
		var buf bytes.Buffer
		if err := repair.Write(&buf, []repair.Result{r}, format, ""); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		out = strings.ReplaceAll(out, r.Dead, "")
		out = strings.ReplaceAll(out, r.Sources[0], "")
		if strings.Contains(out, "SECRET") {
			t.Errorf("%s output shows a password outside dead and sources:\n%s", format, out)
		}
		if !strings.Contains(buf.String(), r.Dead) {
			t.Errorf("%s output lost the dead URL as given:\n%s", format, buf.String())
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back repair.Result
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Dead != r.Dead || back.Sources[0] != r.Sources[0] || back.URI != "https://bob:xxxxx@new.example/a" {
		t.Errorf("read back dead %q, sources %q, uri %q", back.Dead, back.Sources, back.URI)
	}
	if r.URI != "https://bob:SECRET@new.example/a" {
		t.Errorf("writing changed the caller's result: uri %q", r.URI)
	}
}

// TestRedactPasswords checks the text form of the redaction.
func TestRedactPasswords(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"fetch http://bob:SECRET@h.example/p: 404", "fetch http://bob:xxxxx@h.example/p: 404"},
		{"http://bob@h.example/ no password", "http://bob@h.example/ no password"},
		{"http://bob:p@ss@h.example/x?y=a@b", "http://bob:xxxxx@h.example/x?y=a@b"},
		{"a HTTPS://u:pw@h and ftp://v:w@k/", "a HTTPS://u:xxxxx@h and ftp://v:xxxxx@k/"},
		{"http://h.example/a@b:c", "http://h.example/a@b:c"},
		{`"http://u:pw@h"`, `"http://u:xxxxx@h"`},
		{"no URL: a:b@c", "no URL: a:b@c"},
	} {
		if got := repair.RedactPasswords(tt.in); got != tt.want {
			t.Errorf("RedactPasswords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
