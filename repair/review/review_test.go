package review_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/repair"
	"github.com/linkrot/relink/repair/review"
)

const token = "0123456789abcdef0123456789abcdef"

// results are four dead links: two moved, one gone with candidates, one
// alive; the gone one's candidates include hostile text and a
// javascript: URI.
func results() []repair.Result {
	return []repair.Result{
		{Dead: "https://old.example/a.html", Verdict: repair.Moved, URI: "https://new.example/a/", Confidence: 0.95,
			Candidates: []repair.Candidate{
				{URI: "https://new.example/a/", Title: "A guide", Snippet: "the a guide, all of it", Score: 12},
				{URI: "https://new.example/a-old/", Title: "A guide (old)", Score: 9},
			},
			Queries:   []string{`"a guide"`},
			Backlinks: []repair.Backlink{{URI: "https://blog.example/post", Kept: true, Anchor: "the a guide", Context: "read the a guide before you start"}},
			Archive:   &repair.Archive{URI: "https://web.archive.org/web/2019/https://old.example/a.html", Title: "A guide", Text: "Everything about a."},
			Evidence:  []repair.Evidence{{Kind: "title", Detail: "candidate title equals the archived title"}}},
		{Dead: "https://old.example/b.html", Verdict: repair.Moved, URI: "https://new.example/b/", Confidence: 0.85,
			Candidates: []repair.Candidate{{URI: "https://new.example/b/", Title: "B", Score: 3}}},
		{Dead: "https://old.example/c.html", Verdict: repair.Gone, Confidence: 0.3,
			Candidates: []repair.Candidate{
				{URI: "javascript:alert(1)", Title: `<script>alert("title")</script>`, Snippet: `<img src=x onerror=alert(2)>`},
				{URI: "https://new.example/c/", Title: "C <b>bold</b>", Score: 1},
			},
			Backlinks: []repair.Backlink{
				{URI: "javascript:alert(3)", Kept: true, Anchor: "<i>c</i>", Context: `x <i>c</i> <svg onload=alert(4)>`},
				{URI: "https://spam.example/", Reason: "language: not English"},
			}},
		{Dead: "https://old.example/d.html", Verdict: repair.Alive, URI: "https://old.example/d.html", Confidence: 1},
	}
}

// newServer returns a Server of results with a state file in a new
// directory, and the file's path.
func newServer(t *testing.T) (*review.Server, string) {
	t.Helper()
	state := filepath.Join(t.TempDir(), "decisions.json")
	s, err := review.New(results(), review.Options{Token: token, State: state, Threshold: 0.8})
	require.NoError(t, err)
	return s, state
}

// get requests path with the token in the query.
func get(t *testing.T, h http.Handler, path string) *httptest.ResponseRecorder {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	req := httptest.NewRequest("GET", "http://127.0.0.1:8080"+path+sep+"token="+token, nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

// decide posts one decision as the page's script does.
func decide(t *testing.T, h http.Handler, form url.Values) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest("POST", "http://127.0.0.1:8080/decide", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Origin", "http://127.0.0.1:8080")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

func form(id, decision, uri string) url.Values {
	v := url.Values{"token": {token}, "id": {id}, "decision": {decision}}
	if uri != "" {
		v.Set("uri", uri)
	}
	return v
}

// readState reads the state file as fix -decisions does.
func readState(t *testing.T, path string) *repair.Decisions {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	d, err := repair.ReadDecisions(f)
	require.NoError(t, err)
	return d
}

// rowOrder returns the dead URLs of the table's rows, in order.
func rowOrder(body string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`<td class="uri"><a href="[^"]*">([^<]*)</a>`).FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}

func TestListing(t *testing.T) {
	s, _ := newServer(t)
	w := get(t, s, "/")
	require.Equal(t, http.StatusOK, w.Code)
	body := w.Body.String()
	for _, want := range []string{
		"https://old.example/a.html", "https://new.example/a/", // a row and its proposal
		`<b id="n-accepted">0</b>`, `<b id="n-rejected">0</b>`, `<b id="n-open">4</b>`,
		`read <mark>the a guide</mark> before you start`, // the anchor in its words
		"Everything about a.",                            // the archived first paragraph
		"the a guide, all of it",                         // a candidate's snippet
		"&#34;a guide&#34;",                              // a query
		"candidate title equals the archived title",      // evidence
		`<rect class="v-moved"`,                          // the chart
		`src="/static/review.js"`,
	} {
		require.Contains(t, body, want)
	}
	require.Equal(t, []string{"https://old.example/a.html", "https://old.example/b.html", "https://old.example/c.html", "https://old.example/d.html"}, rowOrder(body))
	csp := w.Header().Get("Content-Security-Policy")
	require.Contains(t, csp, "script-src 'self'")
	require.NotContains(t, csp, "unsafe-inline")
	require.Contains(t, w.Header().Values("Set-Cookie")[0], "HttpOnly")

	for _, f := range []string{"review.js", "review.css"} {
		w := get(t, s, "/static/"+f)
		require.Equal(t, http.StatusOK, w.Code, f)
		require.NotEmpty(t, w.Body.String())
	}
	require.Equal(t, http.StatusNotFound, get(t, s, "/static/page.html").Code)
}

func TestSorting(t *testing.T) {
	s, _ := newServer(t)
	for _, tc := range []struct {
		sort string
		want []string // the letters of the dead URLs, in order
	}{
		{"", []string{"a", "b", "c", "d"}},
		{"verdict", []string{"a", "b", "c", "d"}}, // moved (by confidence), gone, alive
		{"confidence", []string{"d", "a", "b", "c"}},
		{"confidence-asc", []string{"c", "b", "a", "d"}},
		{"nonsense", []string{"a", "b", "c", "d"}},
	} {
		t.Run(tc.sort, func(t *testing.T) {
			var got []string
			for _, d := range rowOrder(get(t, s, "/?sort="+tc.sort).Body.String()) {
				got = append(got, strings.TrimSuffix(strings.TrimPrefix(d, "https://old.example/"), ".html"))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("sort=%s (-want +got):\n%s", tc.sort, diff)
			}
		})
	}
}

func TestDecideAndReload(t *testing.T) {
	s, state := newServer(t)
	for _, f := range []url.Values{
		form("0", "accept", ""),                       // the proposed URI
		form("1", "reject", ""),                       //
		form("2", "accept", "https://new.example/c/"), // another candidate
		form("1", "accept", ""),                       // changed mind
		form("1", "reject", ""),                       // and back
	} {
		w := decide(t, s, f)
		require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	}
	w := decide(t, s, form("3", "reject", ""))
	var got struct {
		ID       int
		Decision string
		Counts   struct{ Accepted, Rejected, Open int }
	}
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &got))
	require.Equal(t, 3, got.ID)
	require.Equal(t, "reject", got.Decision)
	require.Equal(t, 2, got.Counts.Accepted)
	require.Equal(t, 2, got.Counts.Rejected)
	require.Equal(t, 0, got.Counts.Open)
	require.Equal(t, http.StatusOK, decide(t, s, form("3", "clear", "")).Code)

	want := &repair.Decisions{Decisions: []repair.Decision{
		{Dead: "https://old.example/a.html", URI: "https://new.example/a/", Decision: repair.Accept},
		{Dead: "https://old.example/b.html", URI: "https://new.example/b/", Decision: repair.Reject},
		{Dead: "https://old.example/c.html", URI: "https://new.example/c/", Decision: repair.Accept},
	}}
	if diff := cmp.Diff(want, readState(t, state)); diff != "" {
		t.Errorf("state file (-want +got):\n%s", diff)
	}
	require.Equal(t, map[string]string{
		"https://old.example/a.html": "https://new.example/a/",
		"https://old.example/c.html": "https://new.example/c/",
	}, readState(t, state).Accepted())

	// A new server on the same state file: the same decisions.
	s2, err := review.New(results(), review.Options{Token: token, State: state})
	require.NoError(t, err)
	if diff := cmp.Diff(want, s2.Decisions()); diff != "" {
		t.Errorf("after reload (-want +got):\n%s", diff)
	}
	body := get(t, s2, "/").Body.String()
	require.Contains(t, body, `<b id="n-accepted">2</b>`)
	require.Contains(t, body, `<b id="n-rejected">1</b>`)
	require.Contains(t, body, `<b id="n-open">1</b>`)
	require.Regexp(t, `id="r-2"[^>]*>(?s:.*?)<td class="uri new">https://new.example/c/</td>\s*<td class="dec dec-accept">accepted`, body)
	require.Contains(t, body, `class="cand chosen" data-uri="https://new.example/c/"`)
	require.Regexp(t, `id="r-3"[^>]*>(?s:.*?)<td class="dec dec-open">open`, body, "the first open row is selected")
}

func TestDecideForm(t *testing.T) {
	// Without the script: a form's POST is answered with a redirect to
	// the next row.
	s, state := newServer(t)
	f := form("0", "accept", "")
	f.Set("sort", "confidence")
	req := httptest.NewRequest("POST", "http://127.0.0.1:8080/decide", strings.NewReader(f.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	require.Equal(t, http.StatusSeeOther, w.Code)
	require.Equal(t, "/?sel=1&sort=confidence", w.Header().Get("Location"))
	require.Len(t, readState(t, state).Decisions, 1)
}

func TestDecideRefused(t *testing.T) {
	s, state := newServer(t)
	for _, tc := range []struct {
		name string
		form url.Values
		code int
	}{
		{"javascript candidate", form("2", "accept", "javascript:alert(1)"), http.StatusBadRequest},
		{"a URI the result does not offer", form("0", "accept", "https://evil.example/"), http.StatusBadRequest},
		{"accept without a URI to accept", form("2", "accept", ""), http.StatusBadRequest},
		{"bad id", form("9", "accept", ""), http.StatusBadRequest},
		{"negative id", form("-1", "accept", ""), http.StatusBadRequest},
		{"no id", url.Values{"token": {token}, "decision": {"accept"}}, http.StatusBadRequest},
		{"bad decision", form("0", "maybe", ""), http.StatusBadRequest},
		{"no token", url.Values{"id": {"0"}, "decision": {"accept"}}, http.StatusForbidden},
		{"wrong token", url.Values{"token": {strings.Repeat("x", len(token))}, "id": {"0"}, "decision": {"accept"}}, http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := decide(t, s, tc.form)
			require.Equal(t, tc.code, w.Code, w.Body.String())
		})
	}
	_, err := os.Stat(state)
	require.True(t, os.IsNotExist(err), "no decision, no state file")
}

func TestTokenRefusal(t *testing.T) {
	s, _ := newServer(t)
	do := func(req *http.Request) int {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		return w.Code
	}
	cookie := get(t, s, "/").Result().Cookies()[0]
	for _, tc := range []struct {
		name string
		req  func() *http.Request
		code int
	}{
		{"no token", func() *http.Request { return httptest.NewRequest("GET", "http://127.0.0.1:8080/", nil) }, http.StatusForbidden},
		{"no token, static", func() *http.Request { return httptest.NewRequest("GET", "http://127.0.0.1:8080/static/review.js", nil) }, http.StatusForbidden},
		{"wrong token", func() *http.Request { return httptest.NewRequest("GET", "http://127.0.0.1:8080/?token=nope", nil) }, http.StatusForbidden},
		{"the cookie", func() *http.Request {
			r := httptest.NewRequest("GET", "http://127.0.0.1:8080/", nil)
			r.AddCookie(cookie)
			return r
		}, http.StatusOK},
		{"POST with the cookie alone", func() *http.Request {
			r := httptest.NewRequest("POST", "http://127.0.0.1:8080/decide", strings.NewReader("id=0&decision=accept"))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.AddCookie(cookie)
			return r
		}, http.StatusForbidden},
		{"POST with the token in the header", func() *http.Request {
			r := httptest.NewRequest("POST", "http://127.0.0.1:8080/decide", strings.NewReader("id=0&decision=reject"))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.Header.Set("X-Relink-Token", token)
			r.Header.Set("Accept", "application/json")
			return r
		}, http.StatusOK},
		{"a rebound host name", func() *http.Request {
			return httptest.NewRequest("GET", "http://evil.example:8080/?token="+token, nil)
		}, http.StatusForbidden},
		{"localhost", func() *http.Request { return httptest.NewRequest("GET", "http://localhost:8080/?token="+token, nil) }, http.StatusOK},
		{"[::1]", func() *http.Request { return httptest.NewRequest("GET", "http://[::1]:8080/?token="+token, nil) }, http.StatusOK},
		{"another origin", func() *http.Request {
			r := httptest.NewRequest("POST", "http://127.0.0.1:8080/decide", strings.NewReader(form("0", "reject", "").Encode()))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.Header.Set("Origin", "http://evil.example")
			return r
		}, http.StatusForbidden},
		{"GET of /decide", func() *http.Request {
			return httptest.NewRequest("GET", "http://127.0.0.1:8080/decide?token="+token+"&id=0&decision=accept", nil)
		}, http.StatusMethodNotAllowed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.code, do(tc.req()))
		})
	}
}

func TestHostileContent(t *testing.T) {
	s, _ := newServer(t)
	body := get(t, s, "/?sel=2").Body.String()
	for _, bad := range []string{
		"<script>alert", "<img src=x", "<svg onload", "<i>c</i>", "<b>bold</b>",
		`href="javascript:`, `href="#ZgotmplZ"`,
	} {
		require.NotContains(t, body, bad)
	}
	for _, shown := range []string{
		"&lt;script&gt;alert(&#34;title&#34;)&lt;/script&gt;",
		"&lt;img src=x onerror=alert(2)&gt;",
		"C &lt;b&gt;bold&lt;/b&gt;",
		`<span class="unsafe" title="not a web URL: shown as text">javascript:alert(1)</span>`,
		`<span class="unsafe" title="not a web URL: shown as text">javascript:alert(3)</span>`,
	} {
		require.Contains(t, body, shown)
	}
	// The one script is the page's own file.
	require.Equal(t, 1, strings.Count(body, "<script"))
	// A javascript: candidate cannot be picked: its button is disabled.
	require.Regexp(t, `value="javascript:alert\(1\)">\s*<button [^>]*data-key="1" disabled>`, body)
}

func TestBadState(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "decisions.json")
	require.NoError(t, os.WriteFile(state, []byte(`{"decisions": [{"dead": "x", "decision": "maybe"}]}`), 0o644))
	_, err := review.New(results(), review.Options{Token: token, State: state})
	require.ErrorIs(t, err, repair.ErrDecisions)
	_, err = review.New(results(), review.Options{Token: "short"})
	require.ErrorIs(t, err, review.ErrToken)
}

func TestStateKeepsOthers(t *testing.T) {
	// Decisions about dead links the results do not hold stay in the file.
	state := filepath.Join(t.TempDir(), "decisions.json")
	other := repair.Decision{Dead: "https://elsewhere.example/x", URI: "https://elsewhere.example/y", Decision: repair.Accept}
	require.NoError(t, os.WriteFile(state, []byte(`{"decisions": [{"dead": "https://elsewhere.example/x", "uri": "https://elsewhere.example/y", "decision": "accept"}]}`), 0o644))
	s, err := review.New(results(), review.Options{Token: token, State: state})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, decide(t, s, form("1", "accept", "")).Code)
	require.Equal(t, []repair.Decision{
		{Dead: "https://old.example/b.html", URI: "https://new.example/b/", Decision: repair.Accept},
		other,
	}, readState(t, state).Decisions)
}

func TestStateWriteFailure(t *testing.T) {
	// A decision that cannot be saved is not shown as made.
	dir := t.TempDir()
	state := filepath.Join(dir, "gone", "decisions.json")
	s, err := review.New(results(), review.Options{Token: token, State: state})
	require.NoError(t, err)
	w := decide(t, s, form("0", "accept", ""))
	require.Equal(t, http.StatusInternalServerError, w.Code)
	require.Empty(t, s.Decisions().Decisions)
}

func TestChartEmpty(t *testing.T) {
	s, err := review.New(nil, review.Options{Token: token})
	require.NoError(t, err)
	w := get(t, s, "/")
	require.Equal(t, http.StatusOK, w.Code)
	require.Contains(t, w.Body.String(), "No results to review.")
}

// manyResults returns n results, dead URLs https://old.example/N.
func manyResults(n int) []repair.Result {
	out := make([]repair.Result, n)
	for i := range out {
		out[i] = repair.Result{Dead: fmt.Sprintf("https://old.example/%d", i), Verdict: repair.Gone}
	}
	return out
}

// TestPages shows 250 results in pages of Options.PageSize: the page of
// the row selected, links to the pages before and after, the counts of
// them all; a decision's redirect goes to the page of the next row
// (issue 23: 5,000 results made one 165 MB page).
func TestPages(t *testing.T) {
	state := filepath.Join(t.TempDir(), "decisions.json")
	s, err := review.New(manyResults(250), review.Options{Token: token, State: state, PageSize: 100})
	require.NoError(t, err)
	body := get(t, s, "/").Body.String()
	rows := rowOrder(body)
	require.Len(t, rows, 100)
	require.Equal(t, "https://old.example/0", rows[0])
	require.Contains(t, body, `<b id="n-open">250</b>`)
	require.Contains(t, body, `rel="next" href="?sort=&amp;page=2"`)
	require.NotContains(t, body, `rel="prev"`)

	body = get(t, s, "/?page=3").Body.String()
	rows = rowOrder(body)
	require.Len(t, rows, 50)
	require.Equal(t, "https://old.example/200", rows[0])
	require.Contains(t, body, `rel="prev" href="?sort=&amp;page=2"`)
	require.NotContains(t, body, `rel="next"`)
	require.Contains(t, body, `id="r-200" data-id="200"`)
	require.Contains(t, body, `class="row sel" id="r-200"`)

	// The row selected brings its page.
	body = get(t, s, "/?sel=142").Body.String()
	require.Equal(t, "https://old.example/100", rowOrder(body)[0])
	require.Contains(t, body, `class="row sel" id="r-142"`)

	// Deciding the last row of a page leads to the next page.
	req := httptest.NewRequest("POST", "http://127.0.0.1:8080/decide",
		strings.NewReader(url.Values{"token": {token}, "id": {"99"}, "decision": {"reject"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	require.Equal(t, http.StatusSeeOther, w.Code)
	loc := w.Header().Get("Location")
	body = get(t, s, loc).Body.String()
	require.Equal(t, "https://old.example/100", rowOrder(body)[0])

	for _, bad := range []string{"/?page=0", "/?page=99", "/?page=x", "/?page=-1"} {
		w := get(t, s, bad)
		require.Equal(t, http.StatusOK, w.Code, bad)
		require.NotEmpty(t, rowOrder(w.Body.String()), bad)
	}
}

// TestStateThroughSymlink gives a state file that is a symbolic link to a
// 0600 file in another directory: a decision is written to the target,
// which keeps its mode, and the link stays a link (issue 23, item 1).
func TestStateThroughSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	other := t.TempDir()
	target := filepath.Join(other, "decisions.json")
	require.NoError(t, os.WriteFile(target, []byte(`{"decisions": []}`), 0o600))
	link := filepath.Join(t.TempDir(), "decisions.json")
	require.NoError(t, os.Symlink(target, link))
	s, err := review.New(results(), review.Options{Token: token, State: link})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, decide(t, s, form("0", "accept", "")).Code)
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	require.Equal(t, os.ModeSymlink, fi.Mode().Type(), "still a link")
	fi, err = os.Stat(target)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode())
	require.Len(t, readState(t, target).Decisions, 1)
}
