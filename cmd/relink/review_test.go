package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/repair"
)

// reviewURL matches the one line review prints.
var reviewURL = regexp.MustCompile(`^http://127\.0\.0\.1:[0-9]+/\?token=[A-Z2-7]{52}\n$`)

// startReview runs relink review with args until the returned stop is
// called, and returns the URL it printed. stop returns its exit code and
// standard error.
func startReview(t *testing.T, args ...string) (string, func() (int, string)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr strings.Builder
	done := make(chan int, 1)
	go func() {
		code := runEnv(ctx, &env{stdin: strings.NewReader(""), stdout: pw, stderr: &stderr}, append([]string{"review"}, args...))
		pw.Close()
		done <- code
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("relink review %q printed no URL (exit %d): %q", args, <-done, stderr.String())
	}
	go io.Copy(io.Discard, pr)
	require.Regexp(t, reviewURL, line)
	return strings.TrimSpace(line), func() (int, string) {
		cancel()
		code := <-done
		return code, stderr.String()
	}
}

// TestReviewThenFix runs fix, reviews its results through the server
// relink review starts (accept one repair, pick another candidate for a
// second, reject a third), stops it, and rewrites a tree with fix
// -decisions: only the accepted repairs are made, each to the URI
// chosen.
func TestReviewThenFix(t *testing.T) {
	db := buildFixStore(t, "https://example.org/")
	work := t.TempDir()
	results := filepath.Join(work, "fix.jsonl")
	mustRunIn(t, fixURLs, "fix", "-store", db, "-out", results)
	res, err := repair.ReadResults(mustOpen(t, results))
	require.NoError(t, err)
	require.Contains(t, res[0].Backlinks[0].Context, res[0].Backlinks[0].Anchor, "the words around the anchor")

	page, stop := startReview(t, "-in", results)
	u, err := url.Parse(page)
	require.NoError(t, err)
	token := u.Query().Get("token")

	resp, err := http.Get(page)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Contains(t, string(body), fixMoved)

	resp, err = http.Get("http://" + u.Host + "/")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusForbidden, resp.StatusCode, "no token")

	for _, d := range []url.Values{
		{"id": {"0"}, "decision": {"accept"}},                                                      // the moved page, to its new home
		{"id": {"1"}, "decision": {"accept"}, "uri": {"https://example.org/guides/kneading.html"}}, // gone, but a person picks a candidate
		{"id": {"3"}, "decision": {"reject"}},                                                      // the redirect stub: left alone
	} {
		d.Set("token", token)
		req, _ := http.NewRequest("POST", "http://"+u.Host+"/decide", strings.NewReader(d.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", "application/json")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, d.Encode())
	}
	code, stderr := stop()
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stderr, "stopped; 3 decisions in "+filepath.Join(work, "fix.decisions.json"))

	dir := t.TempDir()
	const doc = "# Bread\n\nFeed it as the [guide](https://example.org/guides/sourdough-starter.html#feeding) says.\n" +
		"Flat breads: [flatbread](/old/flatbread.html), [rye](https://example.org/guides/rye-bread.html).\n"
	file := filepath.Join(dir, "bread.md")
	require.NoError(t, os.WriteFile(file, []byte(doc), 0o644))
	mustRunIn(t, fixURLs, "fix", "-store", db, "-rewrite", dir, "-base", "https://example.org/docs/",
		"-decisions", filepath.Join(work, "fix.decisions.json"), "-write")
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	require.Equal(t, "# Bread\n\nFeed it as the [guide](https://example.org/care/starter-feeding.html#feeding) says.\n"+
		"Flat breads: [flatbread](/old/flatbread.html), [rye](https://example.org/guides/kneading.html).\n", string(b))

	// A second review of the same results shows the same decisions.
	page, stop = startReview(t, "-in", results)
	resp, err = http.Get(page)
	require.NoError(t, err)
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Contains(t, string(body), `<b id="n-accepted">2</b>`)
	require.Contains(t, string(body), `<b id="n-rejected">1</b>`)
	code, stderr = stop()
	require.Equal(t, exitOK, code, stderr)
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

func TestReviewErrors(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "fix.jsonl")
	require.NoError(t, os.WriteFile(results, []byte(`{"dead":"https://a.example/","verdict":"gone"}`+"\n"), 0o644))
	notResults := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(notResults, []byte("my notes\n"), 0o644))
	badState := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(badState, []byte(`{"decisions": [{"dead": "x", "decision": "maybe"}]}`), 0o644))
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no -in", nil, exitUsage, "-in"},
		{"an argument", []string{"-in", results, "extra"}, exitUsage, "no arguments"},
		{"all interfaces", []string{"-in", results, "-addr", "0.0.0.0:0"}, exitUsage, "loopback only"},
		{"an empty host", []string{"-in", results, "-addr", ":8080"}, exitUsage, "loopback only"},
		{"a private address", []string{"-in", results, "-addr", "192.168.1.10:8080"}, exitUsage, "loopback only"},
		{"a name", []string{"-in", results, "-addr", "example.com:8080"}, exitUsage, "loopback only"},
		{"no port", []string{"-in", results, "-addr", "127.0.0.1"}, exitUsage, "host:port"},
		{"a bad port", []string{"-in", results, "-addr", "127.0.0.1:http-ish"}, exitUsage, "port"},
		{"missing input", []string{"-in", filepath.Join(dir, "none.jsonl")}, exitFailure, "-in"},
		{"not results", []string{"-in", notResults}, exitFailure, "malformed results"},
		{"bad state", []string{"-in", results, "-state", badState}, exitFailure, "malformed decisions"},
		{"state in no directory", []string{"-in", results, "-state", filepath.Join(dir, "none", "d.json")}, exitFailure, "-state"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runArgs(t, append([]string{"review"}, tc.args...)...)
			require.Equal(t, tc.code, r.code, r.stderr)
			require.Contains(t, r.stderr, tc.want)
			checkOneLine(t, r.stderr)
			require.Empty(t, r.stdout)
		})
	}
}

func TestDefaultState(t *testing.T) {
	for in, want := range map[string]string{
		"fix.jsonl":        "fix.decisions.json",
		"out/fix.json":     "out/fix.decisions.json",
		"results":          "results.decisions.json",
		"a.jsonl.bak":      "a.jsonl.bak.decisions.json",
		"dir.jsonl/x.json": "dir.jsonl/x.decisions.json",
	} {
		if got := defaultState(in); got != want {
			t.Errorf("defaultState(%q) = %q, want %q", in, got, want)
		}
	}
}
