package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/repair"
)

// The fix fixture's dead links (testdata/fixsite, as buildFixStore
// publishes it).
const (
	fixMoved   = "https://example.org/guides/sourdough-starter.html"
	fixNewHome = "https://example.org/care/starter-feeding.html"
	fixGone    = "https://example.org/guides/rye-bread.html"
	fixAlive   = "https://example.org/recipes/focaccia.html"
	fixStub    = "https://example.org/old/flatbread.html" // a redirect stub to fixAlive
	fixNoLinks = "https://example.org/nothing-links-here.html"
)

// buildFixStore ingests testdata/fixsite into a new store at base, with
// the starter guide moved to /care/starter-feeding.html: every link still
// points at its old URI, which answers 404. The rye bread page, which two
// pages link to, was never there.
func buildFixStore(t *testing.T, base string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fix.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	opts := store.IngestOptions{Moves: map[string]string{
		base + "guides/sourdough-starter.html": base + "care/starter-feeding.html",
	}}
	if _, err := s.IngestDir(context.Background(), "testdata/fixsite", base, opts); err != nil {
		t.Fatal(err)
	}
	return path
}

// runIn runs args with stdin.
func runIn(t *testing.T, stdin string, args ...string) ran {
	t.Helper()
	ownCache(t)
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(stdin), &stdout, &stderr)
	return ran{code, stdout.String(), stderr.String()}
}

// fixResults runs fix with stdin, wants exit 0, and returns its JSON
// Lines results and stderr.
func fixResults(t *testing.T, stdin string, args ...string) ([]repair.Result, string) {
	t.Helper()
	r := runIn(t, stdin, append([]string{"fix"}, args...)...)
	if r.code != 0 {
		t.Fatalf("relink fix %q: exit %d, stderr %q", args, r.code, r.stderr)
	}
	res, err := repair.ReadResults(strings.NewReader(r.stdout))
	if err != nil {
		t.Fatalf("relink fix %q: %v\n%s", args, err, r.stdout)
	}
	return res, r.stderr
}

// verdicts returns each result's dead URL, verdict and URI.
func verdicts(rs []repair.Result) [][3]string {
	out := make([][3]string, len(rs))
	for i, r := range rs {
		out[i] = [3]string{r.Dead, string(r.Verdict), r.URI}
	}
	return out
}

// fixWant is what the fixture's dead links end as, in the order of
// fixURLs.
var fixWant = [][3]string{
	{fixMoved, "moved", fixNewHome},
	{fixGone, "gone", ""},
	{fixAlive, "alive", fixAlive},
	{fixStub, "moved", fixAlive},
	{fixNoLinks, "unknown", ""},
}

const fixURLs = fixMoved + "\n" + fixGone + "\n" + fixAlive + "\n" + fixStub + "\n" + fixNoLinks + "\n"

// TestFixStore runs fix over a list of URLs with the store as the whole
// web: a page that moved is found at its new home, a page never there is
// gone, a live page alive, a redirect stub moved to where it leads, and a
// page nothing links to unknown; in the input's order.
func TestFixStore(t *testing.T) {
	db := buildFixStore(t, "https://example.org/")
	got, stderr := fixResults(t, fixURLs, "-store", db)
	if diff := cmp.Diff(fixWant, verdicts(got)); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
	const sum = "relink fix: 5 dead links: 2 found (moved), 1 gone, 1 alive, 1 unknown; remote calls: fetch 0, search 0, archive 0, backlinks 0; "
	if !strings.HasPrefix(stderr, sum) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr %q, want one summary line starting %q", stderr, sum)
	}
	moved := got[0]
	if moved.Confidence < 0.8 || len(moved.Candidates) == 0 || moved.Candidates[0].URI != fixNewHome ||
		moved.Candidates[0].Title != "Sourdough starter feeding guide" || len(moved.Queries) == 0 {
		t.Errorf("moved: %+v, want the new home first, with its title and the queries, confidence at least 0.8", moved)
	}
	// Three pages link to the guide, each kept with its anchor text.
	if len(moved.Backlinks) != 3 {
		t.Errorf("moved: backlinks %+v, want 3", moved.Backlinks)
	}
	for _, b := range moved.Backlinks {
		if !b.Kept || !strings.EqualFold(b.Anchor, "sourdough starter feeding guide") {
			t.Errorf("moved: backlink %+v, want kept with its anchor", b)
		}
	}
	kinds := func(r repair.Result) []string {
		var ks []string
		for _, e := range r.Evidence {
			ks = append(ks, e.Kind)
		}
		return ks
	}
	for i, want := range [][]string{
		{"status", "fusion", "title", "signals", "candidate"}, {"status", "fusion", "title", "signals"}, {"alive"}, {"redirect"}, {"status"},
	} {
		if got := kinds(got[i]); !slices.Equal(got, want) {
			t.Errorf("%s: evidence %q, want kinds %q", got, got, want)
		}
	}
	if gone := got[1]; gone.Confidence >= 0.8 || len(gone.Queries) == 0 || gone.Error != "" {
		t.Errorf("gone: %+v, want queries and a confidence below 0.8", gone)
	}
	if unknown := got[4]; !strings.Contains(unknown.Error, "no query could be formed") {
		t.Errorf("unknown: error %q, want that no query could be formed", unknown.Error)
	}
}

// TestFixJSONL checks every line of -o jsonl against INTERFACES.md: the
// fields, in their order, with their JSON types, archive null without an
// archive, every list [] rather than null.
func TestFixJSONL(t *testing.T) {
	db := buildFixStore(t, "https://example.org/")
	r := runIn(t, fixURLs, "fix", "-store", db, "-o", "jsonl")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	fields := []string{"dead", "sources", "verdict", "uri", "confidence", "candidates", "queries", "backlinks", "archive", "evidence", "signals", "calls", "error"}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines, want 5:\n%s", len(lines), r.stdout)
	}
	for _, line := range lines {
		dec := json.NewDecoder(strings.NewReader(line))
		var keys []string
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		dec.Token() // {
		for dec.More() {
			k, _ := dec.Token()
			keys = append(keys, k.(string))
			var v json.RawMessage
			dec.Decode(&v)
		}
		if !slices.Equal(keys, fields) {
			t.Errorf("fields %q, want %q", keys, fields)
		}
		for _, list := range []string{"sources", "candidates", "queries", "backlinks", "evidence"} {
			if !bytes.HasPrefix(obj[list], []byte("[")) {
				t.Errorf("%s = %s, want a list", list, obj[list])
			}
		}
		if string(obj["archive"]) != "null" {
			t.Errorf("archive = %s, want null", obj["archive"])
		}
		var calls map[string]int
		if err := json.Unmarshal(obj["calls"], &calls); err != nil || len(calls) != 4 {
			t.Errorf("calls = %s, want fetch, search, archive and backlinks", obj["calls"])
		}
	}
}

// TestFixLychee reads a lychee report: its sources are the dead links'
// known backlinks, listed in the results and read as backlinks.
func TestFixLychee(t *testing.T) {
	db := buildFixStore(t, "https://example.org/")
	report := `{"total": 4, "errors": 4, "fail_map": {
  "https://example.org/blog/first-loaf.html": [
    {"url": "` + fixGone + `", "status": "Failed: Network error: 404 Not Found"},
    {"url": "` + fixMoved + `#feeding", "status": {"text": "404 Not Found", "code": 404}}
  ],
  "https://example.org/": [
    {"url": "` + fixMoved + `", "status": "Failed: Network error: 404 Not Found"},
    {"url": "` + fixAlive + `", "status": "Timeout"},
    {"url": "mailto:baker@example.org", "status": "Failed: Unreachable mail address"}
  ]}}`
	got, _ := fixResults(t, report, "-store", db, "-format", "lychee")
	want := [][3]string{{fixGone, "gone", ""}, {fixMoved + "#feeding", "moved", fixNewHome}, {fixAlive, "alive", fixAlive}, {"mailto:baker@example.org", "unknown", ""}}
	if diff := cmp.Diff(want, verdicts(got)); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
	wantSources := [][]string{
		{"https://example.org/blog/first-loaf.html"},
		{"https://example.org/blog/first-loaf.html", "https://example.org/"},
		{"https://example.org/"},
		{"https://example.org/"},
	}
	if !strings.Contains(got[3].Error, "not an http or https URL") {
		t.Errorf("mailto: error %q, want not an http or https URL", got[3].Error)
	}
	for i, r := range got {
		if !slices.Equal(r.Sources, wantSources[i]) {
			t.Errorf("%s: sources %q, want %q", r.Dead, r.Sources, wantSources[i])
		}
	}
	// The report's sources come first among the backlinks.
	if bs := got[0].Backlinks; len(bs) == 0 || bs[0].URI != "https://example.org/blog/first-loaf.html" {
		t.Errorf("gone: backlinks %+v, want the report's source first", bs)
	}
}

// TestFixKnownBacklinks gives fix a dead link the store knows no backlink
// of: the report's source alone is read, and the page is found from it.
func TestFixKnownBacklinks(t *testing.T) {
	db := buildFixStore(t, "https://example.org/")
	got, _ := fixResults(t, "https://example.org/recipes/focaccia.html\t"+fixNoLinks+"\n", "-store", db, "-format", "pairs")
	if len(got) != 1 || len(got[0].Backlinks) != 1 || got[0].Backlinks[0].Kept || !strings.Contains(got[0].Backlinks[0].Reason, "no link") {
		t.Errorf("results %+v, want the source read and rejected: it does not link there", got)
	}
}

// TestFixOutputs writes the results as CSV, Markdown and a redirect map,
// to standard output and to -out.
func TestFixOutputs(t *testing.T) {
	db := buildFixStore(t, "https://example.org/")
	csv := mustRunIn(t, fixURLs, "fix", "-store", db, "-o", "csv").stdout
	rows := strings.Split(strings.TrimSuffix(csv, "\n"), "\n")
	if rows[0] != strings.Join(repair.CSVHeader, ",") || !strings.HasPrefix(rows[1], fixMoved+",moved,"+fixNewHome+",") || len(rows) < 6 {
		t.Errorf("csv:\n%s", csv)
	}
	md := mustRunIn(t, fixURLs, "fix", "-store", db, "-o", "md").stdout
	for _, want := range []string{"# relink fix report", "| moved | 2 |", "| gone | 1 |", "| 1 | <" + fixMoved + "> | moved | <" + fixNewHome + "> |"} {
		if !strings.Contains(md, want) {
			t.Errorf("md lacks %q:\n%s", want, md)
		}
	}
	nginx := mustRunIn(t, fixURLs, "fix", "-store", db, "-o", "nginx", "-site", "example.org").stdout
	for _, want := range []string{`"/guides/sourdough-starter.html" "/care/starter-feeding.html";`, `"/old/flatbread.html" "/recipes/focaccia.html";`} {
		if !strings.Contains(nginx, want) {
			t.Errorf("nginx lacks %q:\n%s", want, nginx)
		}
	}
	out := filepath.Join(t.TempDir(), "results.jsonl")
	if r := mustRunIn(t, fixURLs, "fix", "-store", db, "-out", out); r.stdout != "" {
		t.Errorf("stdout %q, want nothing with -out", r.stdout)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := repair.ReadResults(bytes.NewReader(b))
	if err != nil || len(got) != 5 {
		t.Errorf("-out: %d results, %v", len(got), err)
	}
}

// mustRunIn runs args with stdin and wants exit 0.
func mustRunIn(t *testing.T, stdin string, args ...string) ran {
	t.Helper()
	r := runIn(t, stdin, args...)
	if r.code != 0 {
		t.Fatalf("relink %q: exit %d, stderr %q", args, r.code, r.stderr)
	}
	return r
}

// TestFixFailOn exits 3 when a dead link ends with a verdict -fail-on
// names, and 0 when none does; the results are written either way.
func TestFixFailOn(t *testing.T) {
	db := buildFixStore(t, "https://example.org/")
	r := runIn(t, fixURLs, "fix", "-store", db, "-fail-on", "gone,unknown")
	if r.code != exitFailOn || !strings.Contains(r.stderr, "relink fix: 2 dead links ended gone or unknown") || strings.Count(r.stdout, "\n") != 5 {
		t.Errorf("exit %d, stderr %q, stdout %q; want 3, a line that says why, and the results", r.code, r.stderr, r.stdout)
	}
	r = runIn(t, fixAlive+"\n"+fixMoved+"\n", "fix", "-store", db, "-fail-on", "gone", "-fail-on", "unknown")
	if r.code != 0 {
		t.Errorf("exit %d, stderr %q; want 0: nothing gone or unknown", r.code, r.stderr)
	}
}

// liveFixSite serves testdata/fixsite on loopback as the store built at
// its URL publishes it: the guide moved (its old URI 404), the stub a
// redirect. It counts the requests to each path.
func liveFixSite(t *testing.T) (*httptest.Server, func() map[string]int) {
	t.Helper()
	var mu sync.Mutex
	seen := map[string]int{}
	files := http.FileServer(http.Dir("testdata/fixsite"))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.Path]++
		mu.Unlock()
		switch r.URL.Path {
		case "/guides/sourdough-starter.html":
			http.NotFound(w, r)
		case "/care/starter-feeding.html":
			r.URL.Path = "/guides/sourdough-starter.html"
			files.ServeHTTP(w, r)
		case "/old/flatbread.html":
			http.Redirect(w, r, "/recipes/focaccia.html", http.StatusMovedPermanently)
		default:
			files.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		out := map[string]int{}
		for k, v := range seen {
			out[k] = v
		}
		return out
	}
}

// TestFixResume kills a run with -state after two dead links and runs it
// again: the two are not looked for again (no request for them), and the
// results are those of a run in one go. The pages come from a live site
// on loopback, so that calls can be checked against the requests the site
// saw.
func TestFixResume(t *testing.T) {
	srv, seen := liveFixSite(t)
	base := srv.URL + "/"
	db := buildFixStore(t, base)
	links := []string{base + "guides/sourdough-starter.html", base + "recipes/focaccia.html", base + "guides/rye-bread.html", base + "old/flatbread.html"}
	stdin := strings.Join(links, "\n")
	state := filepath.Join(t.TempDir(), "fix.state")
	args := []string{"fix", "-store", db, "-fetch", "web", "-allow-private", "-rate", "inf", "-concurrency", "1", "-state", state}

	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr, afterResult: func(n int) {
		if n == 2 {
			cancel()
		}
	}}
	if code := runEnv(ctx, e, args); code != exitFailure || !strings.Contains(stderr.String(), "interrupted") {
		t.Fatalf("killed run: exit %d, stderr %q; want 1, interrupted", code, stderr.String())
	}
	cancel()
	first := seen()
	journal, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	done, err := repair.ReadResults(bytes.NewReader(journal))
	if err != nil || len(done) != 2 || done[0].Dead != links[0] || done[1].Dead != links[1] {
		t.Fatalf("journal %q (%v), want the first two dead links", journal, err)
	}
	// The calls of the results recorded are the requests the site saw.
	sent := 0
	for _, n := range first {
		sent += n
	}
	if got := done[0].Calls.Fetch + done[1].Calls.Fetch; got != sent || got == 0 {
		t.Errorf("calls.fetch %d and %d, the site saw %d requests (%v)", done[0].Calls.Fetch, done[1].Calls.Fetch, sent, first)
	}

	ran := 0
	stdout.Reset()
	stderr.Reset()
	e = &env{stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr, afterResult: func(n int) { ran = n }}
	if code := runEnv(context.Background(), e, args); code != 0 {
		t.Fatalf("rerun: exit %d, stderr %q", code, stderr.String())
	}
	if ran != 2 {
		t.Errorf("the rerun looked for %d dead links, want the 2 left", ran)
	}
	second := seen()
	if p := "/guides/sourdough-starter.html"; second[p] != first[p] {
		t.Errorf("%s asked %d times again on the rerun", p, second[p]-first[p])
	}
	got, err := repair.ReadResults(&stdout)
	if err != nil {
		t.Fatal(err)
	}
	// The rerun's requests are the calls of the two dead links it did.
	sent = 0
	for p, n := range second {
		sent += n - first[p]
	}
	if len(got) == 4 {
		if n := got[2].Calls.Fetch + got[3].Calls.Fetch; n != sent {
			t.Errorf("the rerun's calls.fetch %d and %d, the site saw %d requests", got[2].Calls.Fetch, got[3].Calls.Fetch, sent)
		}
		if !cmp.Equal(got[:2], done) {
			t.Errorf("the rerun's first results differ from the journal's:\n%s", cmp.Diff(done, got[:2]))
		}
	}
	want := [][3]string{
		{links[0], "moved", base + "care/starter-feeding.html"},
		{links[1], "alive", links[1]},
		{links[2], "gone", ""},
		{links[3], "moved", base + "recipes/focaccia.html"},
	}
	if diff := cmp.Diff(want, verdicts(got)); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
	if !strings.Contains(stderr.String(), "(2 from -state)") {
		t.Errorf("stderr %q, want the summary to count the 2 from -state", stderr.String())
	}
	// A third run has nothing left to do.
	journal, _ = os.ReadFile(state)
	if n := bytes.Count(journal, []byte("\n")); n != 4 {
		t.Errorf("the journal has %d lines, want 4", n)
	}
}

// TestFixStateCut resumes from a journal whose last line a killed run cut
// short: the line is dropped and its dead link looked for again.
func TestFixStateCut(t *testing.T) {
	db := buildFixStore(t, "https://example.org/")
	state := filepath.Join(t.TempDir(), "fix.state")
	mustRunIn(t, fixAlive+"\n", "fix", "-store", db, "-state", state)
	b, _ := os.ReadFile(state)
	if err := os.WriteFile(state, append(b, `{"dead":"`+fixMoved+`","verd`...), 0o644); err != nil {
		t.Fatal(err)
	}
	got, stderr := fixResults(t, fixAlive+"\n"+fixMoved+"\n", "-store", db, "-state", state)
	if diff := cmp.Diff(fixWant[:1], verdicts(got[1:])); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
	if !strings.Contains(stderr, "(1 from -state)") {
		t.Errorf("stderr %q, want 1 from -state", stderr)
	}
	b, _ = os.ReadFile(state)
	if _, err := repair.ReadResults(bytes.NewReader(b)); err != nil || bytes.Count(b, []byte("\n")) != 2 {
		t.Errorf("journal %q (%v), want two whole lines", b, err)
	}
	// A file that is no journal is refused, and left alone.
	bad := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(bad, []byte("my notes\n"), 0o644)
	r := runIn(t, fixAlive+"\n", "fix", "-store", db, "-state", bad)
	if r.code != exitFailure || !strings.Contains(r.stderr, "not a relink fix journal") {
		t.Errorf("exit %d, stderr %q; want 1, not a journal", r.code, r.stderr)
	}
	checkOneLine(t, r.stderr)
}

// TestFixRewrite rewrites the dead links of a Markdown tree: a diff by
// default, the files with -write, and only accepted repairs with
// -decisions.
func TestFixRewrite(t *testing.T) {
	db := buildFixStore(t, "https://example.org/")
	dir := t.TempDir()
	const doc = "# Bread\n\nFeed it as the [guide](https://example.org/guides/sourdough-starter.html#feeding) says.\n" +
		"Flat breads: [flatbread](/old/flatbread.html), [rye](https://example.org/guides/rye-bread.html).\n"
	page := filepath.Join(dir, "bread.md")
	if err := os.WriteFile(page, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mustRunIn(t, fixURLs, "fix", "-store", db, "-rewrite", dir, "-base", "https://example.org/docs/")
	for _, want := range []string{
		"-Feed it as the [guide](https://example.org/guides/sourdough-starter.html#feeding) says.",
		"+Feed it as the [guide](https://example.org/care/starter-feeding.html#feeding) says.",
		"+Flat breads: [flatbread](/recipes/focaccia.html), [rye](https://example.org/guides/rye-bread.html).",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("diff lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, `"verdict"`) {
		t.Errorf("stdout holds results besides the diff:\n%s", r.stdout)
	}
	if b, _ := os.ReadFile(page); string(b) != doc {
		t.Errorf("the file changed without -write:\n%s", b)
	}
	if !strings.Contains(r.stderr, "would replace 2 links in 1 of 1 files") {
		t.Errorf("stderr %q", r.stderr)
	}

	// Only the accepted repair, to the URI the reviewer chose.
	decisions := filepath.Join(t.TempDir(), "decisions.json")
	os.WriteFile(decisions, []byte(`{"decisions": [
		{"dead": "`+fixMoved+`", "uri": "https://example.org/care/", "decision": "accept"},
		{"dead": "`+fixStub+`", "uri": "`+fixAlive+`", "decision": "reject"}]}`), 0o644)
	mustRunIn(t, fixURLs, "fix", "-store", db, "-rewrite", dir, "-base", "https://example.org/docs/", "-decisions", decisions, "-write")
	want := strings.Replace(doc, "guides/sourdough-starter.html#feeding", "care/#feeding", 1)
	if b, _ := os.ReadFile(page); string(b) != want {
		t.Errorf("after -write -decisions:\n%s\nwant\n%s", b, want)
	}
}

// TestFixErrors checks that command lines that cannot work are refused,
// each with one line that says why, before any work.
func TestFixErrors(t *testing.T) {
	clearEnv(t)
	db := buildFixStore(t, "https://example.org/")
	dir := t.TempDir()
	badDecisions := filepath.Join(dir, "decisions.json")
	os.WriteFile(badDecisions, []byte(`{"decisions": [{"dead": "`+fixMoved+`", "uri": "x", "decision": "maybe"}]}`), 0o644)
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"argument", "", []string{"-store", db, fixMoved}, exitUsage, "no arguments"},
		{"unknown format", "", []string{"-store", db, "-format", "html"}, exitUsage, "lychee"},
		{"unknown output", "", []string{"-store", db, "-o", "xml"}, exitUsage, "netlify"},
		{"redirects without site", "", []string{"-store", db, "-o", "nginx"}, exitUsage, "-site"},
		{"site without redirects", "", []string{"-store", db, "-site", "example.org"}, exitUsage, "-site"},
		{"bad site", "", []string{"-store", db, "-o", "netlify", "-site", "http://exa mple.org:99999/"}, exitUsage, "-site"},
		{"threshold 2", "", []string{"-store", db, "-threshold", "2"}, exitUsage, "-threshold"},
		{"concurrency 0", "", []string{"-store", db, "-concurrency", "0"}, exitUsage, "-concurrency"},
		{"fail-on bad verdict", "", []string{"-store", db, "-fail-on", "gone,lost"}, exitUsage, "lost"},
		{"write without rewrite", "", []string{"-store", db, "-write"}, exitUsage, "-rewrite"},
		{"decisions without rewrite", "", []string{"-store", db, "-decisions", badDecisions}, exitUsage, "-rewrite"},
		{"bad base", "", []string{"-store", db, "-rewrite", dir, "-base", "docs/"}, exitUsage, "-base"},
		{"engine alone, no fetch", "", []string{"-site-index=false", "-search", "brave", "-key", "k"}, exitUsage, "-fetch web"},
		{"no site index, no engine", "", []string{"-site-index=false", "-fetch", "web"}, exitUsage, "-site-index=false needs -search ENGINE"},
		{"site index with a store", "", []string{"-store", db, "-site-index=false"}, exitUsage, "-site-index is without -store"},
		{"search site, no site index", "", []string{"-search", "site", "-site-index=false"}, exitUsage, "contradict"},
		{"site and engine, fetch store", "", []string{"-search", "brave", "-key", "k", "-fetch", "store"}, exitUsage, "-fetch store needs -store"},
		{"site and engine, df cache", "", []string{"-search", "brave", "-key", "k", "-df-cache", filepath.Join(dir, "df.db")}, exitUsage, "-df-cache"},
		{"no store, no search, fetch store", "", []string{"-fetch", "store"}, exitUsage, "-fetch store needs -store"},
		{"search site with a store", "", []string{"-store", db, "-search", "site"}, exitUsage, "-search site is without -store"},
		{"unknown engine", "", []string{"-search", "bing"}, exitUsage, "want one of site, store, google"},
		{"no store, no search, df search", "", []string{"-df", "search"}, exitUsage, "-df search needs -search"},
		{"no store, no search, df cache", "", []string{"-df-cache", filepath.Join(dir, "df.db")}, exitUsage, "-df-cache"},
		{"engine alone, df store", "", []string{"-site-index=false", "-fetch", "web", "-search", "brave", "-key", "k", "-df", "store"}, exitUsage, "-df store needs -store"},
		{"unknown archive", "", []string{"-store", db, "-archive", "archive.today"}, exitUsage, "ccindex"},
		{"archive-data-url without ccindex", "", []string{"-store", db, "-archive", "wayback", "-archive-data-url", "http://127.0.0.1:1"}, exitUsage, "ccindex"},
		{"missing store", fixMoved, []string{"-store", filepath.Join(dir, "none.db")}, exitFailure, "relink corpus"},
		{"missing input", "", []string{"-store", db, "-in", filepath.Join(dir, "none.txt")}, exitFailure, "-in"},
		{"bad input", "{\"fail_map\": [", []string{"-store", db}, exitFailure, "lychee input"},
		{"not URLs", "not a url\n", []string{"-store", db, "-format", "urls"}, exitFailure, "line 1"},
		{"bad decisions", "", []string{"-store", db, "-rewrite", dir, "-decisions", badDecisions}, exitFailure, "maybe"},
		{"missing decisions", "", []string{"-store", db, "-rewrite", dir, "-decisions", filepath.Join(dir, "none.json")}, exitFailure, "-decisions"},
		{"rewrite missing dir", "", []string{"-store", db, "-rewrite", filepath.Join(dir, "none")}, exitFailure, "-rewrite"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runIn(t, tt.stdin, append([]string{"fix"}, tt.args...)...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("relink fix %q: exit %d, stderr %q; want %d and an error that says %q", tt.args, r.code, r.stderr, tt.code, tt.want)
			}
			checkOneLine(t, r.stderr)
		})
	}
}

// TestFixURLRules moves the site's guides to /howto/ by one rule: the two
// guides the backlinks name are found by search, which teaches the rule,
// and the guide nothing links to is found under it (one fetch); the page
// that was never there stays gone.
func TestFixURLRules(t *testing.T) {
	const base = "https://example.org/"
	path := filepath.Join(t.TempDir(), "migrated.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := store.Migration{}
	for _, name := range []string{"sourdough-starter.html", "kneading.html", "shaping.html"} {
		m[base+"guides/"+name] = base + "howto/" + name
	}
	if _, err := s.IngestDir(context.Background(), "testdata/fixsite", base, store.IngestOptions{Migrations: []store.Migration{m}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	in := base + "guides/sourdough-starter.html\n" + base + "guides/shaping.html\n" + base + "guides/kneading.html\n" + fixGone + "\n"
	// At -threshold 0.99 the judge's answer from the URL's words alone
	// (no page links to shaping.html) stays below it, and the rule
	// learned from the other two answers.
	got, _ := fixResults(t, in, "-store", path, "-threshold", "0.99")
	want := [][3]string{
		{base + "guides/sourdough-starter.html", "moved", base + "howto/sourdough-starter.html"},
		{base + "guides/shaping.html", "moved", base + "howto/shaping.html"},
		{base + "guides/kneading.html", "moved", base + "howto/kneading.html"},
		{fixGone, "gone", ""},
	}
	if diff := cmp.Diff(want, verdicts(got)); diff != "" {
		t.Fatalf("verdicts (-want +got):\n%s", diff)
	}
	shaping := got[1]
	last := shaping.Evidence[len(shaping.Evidence)-1]
	if last.Kind != "url-rule" || !strings.Contains(last.Detail, base+"guides/ → "+base+"howto/") ||
		shaping.Error != "" || shaping.Confidence < 0.8 {
		t.Errorf("shaping: %+v, want moved by the rule, its confidence the moves'", shaping)
	}
	if gone := got[3]; gone.Evidence[len(gone.Evidence)-1].Kind == "url-rule" {
		t.Errorf("gone: %+v, want no rule's evidence: the page is not under the new prefix either", gone)
	}
}

// TestFixArchive reads the dead page's archived copy from the Wayback
// Machine: its title and first paragraph are in the result, and the
// archive's requests are counted.
func TestFixArchive(t *testing.T) {
	db := buildFixStore(t, "https://example.org/")
	wb := fakeWayback(t, true, false)
	got, _ := fixResults(t, fixMoved+"\n"+fixGone+"\n", "-store", db, "-archive", "wayback", "-archive-url", wb.URL, "-rate", "inf", "-archive-rate", "inf")
	if diff := cmp.Diff(fixWant[:2], verdicts(got)); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
	a := got[0].Archive
	if a == nil || a.URI != wb.URL+"/web/"+goodCapture+"id_/"+fixMoved || a.Title != "Sourdough starter: feeding and care" ||
		!strings.HasPrefix(a.Text, "A sourdough starter is a culture of wild yeast") || strings.Contains(a.Text, "doubles") {
		t.Errorf("archive %+v, want the 2019 copy's title and first paragraph", a)
	}
	if got[0].Calls.Archive < 2 { // the CDX API, and the replay
		t.Errorf("calls %+v, want the archive's requests counted", got[0].Calls)
	}
	if got[1].Archive != nil {
		t.Errorf("gone: archive %+v, want none: never captured", got[1].Archive)
	}
}

// TestFixLive runs fix without a store: the report's sources are the
// backlinks, pages come from a live site on loopback, searches and
// document frequencies from a search API. The calls of the results add up
// to the requests the site and the engine saw.
func TestFixLive(t *testing.T) {
	clearEnv(t)
	srv, seen := liveFixSite(t)
	engine := newFakeSearch(t, "google")
	base := srv.URL + "/"
	in := base + "blog/first-loaf.html\t" + base + "guides/sourdough-starter.html\n" +
		base + "blog/first-loaf.html\t" + base + "guides/rye-bread.html\n" +
		base + "index.html\t" + base + "recipes/focaccia.html\n"
	got, stderr := fixResults(t, in, "-fetch", "web", "-allow-private", "-search", "google", "-key", "k", "-cx", "c",
		"-search-url", engine.URL, "-df", "search", "-rate", "inf")
	if len(got) != 3 {
		t.Fatalf("%d results, want 3", len(got))
	}
	for _, r := range got[:2] {
		if len(r.Backlinks) != 1 || r.Backlinks[0].URI != base+"blog/first-loaf.html" || !r.Backlinks[0].Kept {
			t.Errorf("%s: backlinks %+v, want the report's source alone, kept", r.Dead, r.Backlinks)
		}
		if len(r.Queries) == 0 || len(r.Candidates) == 0 || r.Verdict == repair.Unknown {
			t.Errorf("%s: %+v, want the engine's candidates and a verdict", r.Dead, r)
		}
	}
	if got[2].Verdict != repair.Alive {
		t.Errorf("%s: %s, want alive", got[2].Dead, got[2].Verdict)
	}
	var calls repair.Calls
	for _, r := range got {
		calls.Fetch += r.Calls.Fetch
		calls.Search += r.Calls.Search
		calls.Archive += r.Calls.Archive
		calls.Backlinks += r.Calls.Backlinks
	}
	sent := 0
	for _, n := range seen() {
		sent += n
	}
	want := repair.Calls{Fetch: sent, Search: int(engine.requests.Load())}
	if calls != want || want.Search == 0 {
		t.Errorf("calls %+v, the site and the engine saw %+v", calls, want)
	}
	if !strings.Contains(stderr, "remote calls: fetch "+strconv.Itoa(want.Fetch)+", search "+strconv.Itoa(want.Search)) {
		t.Errorf("stderr %q, want the calls summed", stderr)
	}
}

// TestFixProgress checks the progress line of a terminal: the count, the
// verdicts so far and the time left; off a terminal nothing is printed.
func TestFixProgress(t *testing.T) {
	var b bytes.Buffer
	p := newFixProgress(&b, 4, 1) // not a terminal
	p.add(repair.Moved)
	p.finish()
	if b.Len() != 0 {
		t.Errorf("off a terminal: %q, want nothing", b.String())
	}
	p = newFixProgress(&b, 4, 1)
	p.on = true
	p.add(repair.Moved)
	if line := b.String(); !strings.HasPrefix(line, "\rrelink fix: 2/4 dead links, 1 moved, 0 gone, 0 alive, 0 unknown, ") || !strings.HasSuffix(line, " left\x1b[K") {
		t.Errorf("progress %q", line)
	}
	p.add(repair.Gone)
	p.add(repair.Gone) // the last is always shown
	if !strings.Contains(b.String(), "4/4 dead links, 1 moved, 2 gone") {
		t.Errorf("progress %q, want the last count", b.String())
	}
	p.finish()
	if !strings.HasSuffix(b.String(), "\r\x1b[K") {
		t.Errorf("progress %q, want the line cleared at the end", b.String())
	}
}

// TestFixEngineAloneShippedTable checks that an engine searching alone,
// with no -df, takes its document frequencies from the table relink
// ships (-df table without -df-table) rather than refusing to start.
func TestFixEngineAloneShippedTable(t *testing.T) {
	c, err := parseFix([]string{"-site-index=false", "-fetch", "web", "-search", "marginalia"})
	if err != nil {
		t.Fatalf("parseFix: %v", err)
	}
	if c.dfKind != "table" || c.dfTable != "" {
		t.Errorf("-df %q -df-table %q, want the shipped table (table, none)", c.dfKind, c.dfTable)
	}
}
