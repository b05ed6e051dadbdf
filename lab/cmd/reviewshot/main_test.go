package main

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/repair"
	"github.com/linkrot/relink/repair/review"
)

// browser returns the path of Chromium, or skips the test without one.
// With RELINK_REQUIRE_BROWSER set (scripts/test.sh sets it where it could
// install Chromium) a missing browser fails the test instead.
func browser(t *testing.T) string {
	t.Helper()
	path, err := findChromium()
	if err != nil {
		if os.Getenv("RELINK_REQUIRE_BROWSER") != "" {
			t.Fatalf("RELINK_REQUIRE_BROWSER is set: %v", err)
		}
		t.Skipf("skipped: %v", err)
	}
	return path
}

// e2eResults are five dead links: two moved, one moved to be rejected, a
// gone one whose second candidate is the right one, and one whose
// candidates are hostile.
func e2eResults() []repair.Result {
	moved := func(dead, uri string, conf float64) repair.Result {
		return repair.Result{Dead: dead, Verdict: repair.Moved, URI: uri, Confidence: conf,
			Candidates: []repair.Candidate{{URI: uri, Title: "Page " + dead[len(dead)-6:]}}}
	}
	return []repair.Result{
		moved("https://old.example/a.html", "https://new.example/a/", 0.97),
		moved("https://old.example/b.html", "https://new.example/b/", 0.91),
		moved("https://old.example/c.html", "https://wrong.example/c/", 0.82),
		{Dead: "https://old.example/d.html", Verdict: repair.Gone, Confidence: 0.5, Candidates: []repair.Candidate{
			{URI: "https://new.example/not-d/", Title: "Not D"},
			{URI: "https://new.example/d/", Title: "D"},
		}},
		{Dead: "https://old.example/e.html", Verdict: repair.Gone, Confidence: 0.1, Candidates: []repair.Candidate{
			{URI: "javascript:alert(1)", Title: `<script>alert("t")</script>`, Snippet: `<img src=x onerror=alert(2)>`},
		}, Backlinks: []repair.Backlink{{URI: "https://blog.example/", Kept: true, Anchor: "<b>e</b>", Context: `<svg onload=alert(3)> <b>e</b>`}}},
	}
}

// TestBrowserReview opens the review page in headless Chromium, accepts
// two repairs (by key and by mouse), rejects one, picks another
// candidate for a fourth, reloads and finds the same decisions, in the
// page and in the state file.
func TestBrowserReview(t *testing.T) {
	path := browser(t)
	state := filepath.Join(t.TempDir(), "decisions.json")
	token := review.NewToken()
	srv, err := review.New(e2eResults(), review.Options{Token: token, State: state, Threshold: 0.8})
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	defer hs.Close()

	// The context bounds a hung browser; no assertion depends on time.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bctx, stop := newBrowser(ctx, path, 1280, 800)
	defer stop()
	var dialogs atomic.Int32
	require.NoError(t, chromedp.Do(bctx, chromedp.Navigate(hs.URL+"/?token="+token), chromedp.WaitVisible(chromedp.CSS(`#r-0.sel`))))
	require.NoError(t, chromedp.Listen(bctx, func(ev any) {
		if _, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			dialogs.Add(1)
		}
	}))

	for _, step := range []struct {
		what string
		do   chromedp.Action[chromedp.Void]
		then []string // what the page holds once it is done
	}{
		{"a: accept the first", chromedp.KeyEvent("a"), []string{`#r-0 td.dec-accept`, `#r-1.sel`}},
		{"click: accept the second", chromedp.Click(chromedp.CSS(`#d-1 button.accept`)), []string{`#r-1 td.dec-accept`, `#r-2.sel`}},
		{"r: reject the third", chromedp.KeyEvent("r"), []string{`#r-2 td.dec-reject`, `#r-3.sel`}},
		{"2: the fourth's second candidate", chromedp.KeyEvent("2"),
			[]string{`#r-3 td.dec-accept`, `#d-3 li.cand.chosen[data-uri="https://new.example/d/"]`}},
	} {
		steps := []chromedp.Action[chromedp.Void]{step.do}
		for _, sel := range step.then {
			steps = append(steps, chromedp.WaitReady(chromedp.CSS(sel)))
		}
		require.NoError(t, chromedp.Do(bctx, steps...), step.what)
	}
	check := func(when string) {
		t.Helper()
		for sel, want := range map[string]string{
			`#n-accepted`: "3", `#n-rejected`: "1", `#n-open`: "1",
			`#r-0 td.dec`: "accepted", `#r-1 td.dec`: "accepted", `#r-2 td.dec`: "rejected", `#r-3 td.dec`: "accepted", `#r-4 td.dec`: "open",
			`#r-3 td.new`:             "https://new.example/d/",
			`#d-3 .pane.best .ptitle`: "D", `#d-3 .pane.best h3`: "Chosen new page",
		} {
			got, err := chromedp.Run(bctx, chromedp.TextContent(chromedp.CSS(sel)))
			require.NoError(t, err)
			if strings.TrimSpace(got) != want {
				t.Errorf("%s: %s = %q, want %q", when, sel, got, want)
			}
		}
	}
	check("after deciding")

	require.NoError(t, chromedp.Do(bctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`tr.row.sel`))))
	check("after reload")

	// The hostile row: its text is shown as text, nothing of it runs.
	require.NoError(t, chromedp.Do(bctx, chromedp.Click(chromedp.CSS(`#r-4 td.uri`)), chromedp.WaitVisible(chromedp.CSS(`#d-4`))))
	text, err := chromedp.Run(bctx, chromedp.TextContent(chromedp.CSS(`#d-4`)))
	require.NoError(t, err)
	for _, s := range []string{`<script>alert("t")</script>`, `<img src=x onerror=alert(2)>`, `<svg onload=alert(3)>`, "javascript:alert(1)"} {
		require.Contains(t, text, s)
	}
	n, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.querySelectorAll('script').length + document.querySelectorAll('#d-4 img, #d-4 svg, #d-4 .words b, #d-4 .ctitle script, a[href^="javascript:"]').length`))
	require.NoError(t, err)
	require.Equal(t, 1, n, "the page's own script and no element of the hostile text")
	require.NoError(t, chromedp.Do(bctx, chromedp.KeyEvent("1"))) // a javascript: candidate cannot be picked
	require.Equal(t, int32(0), dialogs.Load(), "no alert ran")

	f, err := os.Open(state)
	require.NoError(t, err)
	defer f.Close()
	d, err := repair.ReadDecisions(f)
	require.NoError(t, err)
	want := []repair.Decision{
		{Dead: "https://old.example/a.html", URI: "https://new.example/a/", Decision: repair.Accept},
		{Dead: "https://old.example/b.html", URI: "https://new.example/b/", Decision: repair.Accept},
		{Dead: "https://old.example/c.html", URI: "https://wrong.example/c/", Decision: repair.Reject},
		{Dead: "https://old.example/d.html", URI: "https://new.example/d/", Decision: repair.Accept},
	}
	if diff := cmp.Diff(want, d.Decisions); diff != "" {
		t.Errorf("state file (-want +got):\n%s", diff)
	}
}

func TestShoot(t *testing.T) {
	browser(t)
	png, err := shoot(e2eResults(), config{sel: 3, width: 800, height: 600, decide: "aar2"})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(png), "\x89PNG\r\n\x1a\n"), "a PNG")
}
