package repair_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/repair"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/output")

// golden compares got with testdata/output/name, or writes it there with
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "output", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create the golden files")
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", name, diff)
	}
}

// sampleResults are the answers of a run, one of each verdict, with text
// that the writers must escape.
func sampleResults() []repair.Result {
	return []repair.Result{
		{
			Dead:       "https://old.example/a.html",
			Sources:    []string{"https://blog.example/post"},
			Verdict:    repair.Moved,
			URI:        "https://new.example/docs/a/",
			Confidence: 0.97,
			Candidates: []repair.Candidate{{URI: "https://new.example/docs/a/", Title: "A", Snippet: "first words", Score: 12.3}},
			Queries:    []string{`"a guide"`, "guide starter feeding"},
			Backlinks:  []repair.Backlink{{URI: "https://blog.example/post", Kept: true, Anchor: "the a guide"}},
			Archive:    &repair.Archive{URI: "https://web.archive.org/web/2019/https://old.example/a.html", Title: "A", Text: "first paragraph"},
			Evidence:   []repair.Evidence{{Kind: "title", Detail: "candidate title equals the archived title"}},
			Signals:    map[string]float64{"anchor_phrase_in_title": 1, "fusion_support": 0.6},
			Calls:      repair.Calls{Fetch: 12, Search: 3, Archive: 2, Backlinks: 1},
		},
		{
			Dead:       "https://old.example/b?x=1&y=<2>",
			Sources:    []string{"=HYPERLINK(\"http://evil.example/\",\"click\")", "docs/b.md"},
			Verdict:    repair.Gone,
			Confidence: 0.31,
			Candidates: []repair.Candidate{{URI: "-1+2", Title: "@SUM(A1)"}},
			Queries:    []string{"+cmd|' /C calc'!A0", "b | pipes\nand lines"},
		},
		{
			Dead:       "https://old.example/c/",
			Verdict:    repair.Alive,
			URI:        "https://old.example/c/",
			Confidence: 1,
		},
		{
			Dead:    "javascript:alert(1)",
			Verdict: repair.Unknown,
			Error:   "search failed: 429 Too Many Requests\r\n\tretry *later* | [x](y)",
		},
	}
}

func TestResultJSONFields(t *testing.T) {
	// INTERFACES.md, "relink fix": every field, in this order, always.
	want := []string{"dead", "sources", "verdict", "uri", "confidence", "candidates", "queries",
		"backlinks", "archive", "evidence", "signals", "calls", "error"}
	for _, r := range []repair.Result{{}, sampleResults()[0]} {
		b, err := json.Marshal(r)
		require.NoError(t, err)
		dec := json.NewDecoder(bytes.NewReader(b))
		_, err = dec.Token()
		require.NoError(t, err)
		var keys []string
		for dec.More() {
			k, err := dec.Token()
			require.NoError(t, err)
			keys = append(keys, k.(string))
			var v json.RawMessage
			require.NoError(t, dec.Decode(&v))
		}
		if diff := cmp.Diff(want, keys); diff != "" {
			t.Errorf("keys of %s (-want +got):\n%s", b, diff)
		}
	}
	b, err := json.Marshal(repair.Result{Dead: "https://a.example/", Verdict: repair.Unknown})
	require.NoError(t, err)
	require.JSONEq(t, `{"dead":"https://a.example/","sources":[],"verdict":"unknown","uri":"","confidence":0,
		"candidates":[],"queries":[],"backlinks":[],"archive":null,"evidence":[],"signals":{},
		"calls":{"fetch":0,"search":0,"archive":0,"backlinks":0},"error":""}`, string(b))
	b, err = json.Marshal(sampleResults()[0])
	require.NoError(t, err)
	// The example object of INTERFACES.md, field for field.
	require.JSONEq(t, `{"dead": "https://old.example/a.html",
		"sources": ["https://blog.example/post"],
		"verdict": "moved",
		"uri": "https://new.example/docs/a/",
		"confidence": 0.97,
		"candidates": [{"uri": "https://new.example/docs/a/", "title": "A", "snippet": "first words", "score": 12.3}],
		"queries": ["\"a guide\"", "guide starter feeding"],
		"backlinks": [{"uri": "https://blog.example/post", "kept": true, "reason": "", "anchor": "the a guide"}],
		"archive": {"uri": "https://web.archive.org/web/2019/https://old.example/a.html", "title": "A", "text": "first paragraph"},
		"evidence": [{"kind": "title", "detail": "candidate title equals the archived title"}],
		"signals": {"anchor_phrase_in_title": 1, "fusion_support": 0.6},
		"calls": {"fetch": 12, "search": 3, "archive": 2, "backlinks": 1},
		"error": ""}`, string(b))
}

func TestWriteJSONLRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, repair.WriteJSONL(&buf, sampleResults()))
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	require.Len(t, lines, 4, "one line a result")
	require.Contains(t, lines[1], `"dead":"https://old.example/b?x=1&y=<2>"`, "no \\u003c escapes")
	got, err := repair.ReadResults(strings.NewReader("\n" + buf.String() + "\n"))
	require.NoError(t, err)
	want := sampleResults()
	for i := range want { // nil slices and maps come back empty
		for _, s := range []*[]string{&want[i].Sources, &want[i].Queries} {
			if *s == nil {
				*s = []string{}
			}
		}
		if want[i].Candidates == nil {
			want[i].Candidates = []repair.Candidate{}
		}
		if want[i].Backlinks == nil {
			want[i].Backlinks = []repair.Backlink{}
		}
		if want[i].Evidence == nil {
			want[i].Evidence = []repair.Evidence{}
		}
		if want[i].Signals == nil {
			want[i].Signals = map[string]float64{}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadResults(WriteJSONL(results)) (-want +got):\n%s", diff)
	}
}

func TestReadResultsErrors(t *testing.T) {
	for _, tt := range []struct{ name, in, msg string }{
		{"not JSON", "{\"dead\": \"a\"}\nnot json\n", "line 2"},
		{"wrong type", `{"dead": 1}`, "line 1"},
		{"too long", "{\"dead\": \"" + strings.Repeat("x", repair.DefaultMaxResultLine) + "\"}", "line 1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := repair.ReadResults(strings.NewReader(tt.in))
			require.ErrorIs(t, err, repair.ErrResults)
			require.Contains(t, err.Error(), tt.msg)
		})
	}
}

func TestMoves(t *testing.T) {
	rs := sampleResults()
	rs = append(rs,
		repair.Result{Dead: "https://old.example/d", Verdict: repair.Moved, URI: "https://new.example/d", Confidence: 0.5},
		repair.Result{Dead: "https://old.example/e", Verdict: repair.Moved, URI: "", Confidence: 0.99},
		repair.Result{Dead: "https://old.example/a.html", Verdict: repair.Moved, URI: "https://elsewhere.example/", Confidence: 1},
	)
	got := repair.Moves(rs, 0.9)
	want := map[string]string{"https://old.example/a.html": "https://new.example/docs/a/"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Moves(results, 0.9) (-want +got):\n%s", diff)
	}
	require.Len(t, repair.Moves(rs, 0.5), 2, "at the threshold counts")
}

func TestCSVCell(t *testing.T) {
	// OWASP "CSV Injection": a cell must not start with = + - @ tab or
	// carriage return; ASVS 5.0 1.2.10 adds NUL.
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"https://a.example/", "https://a.example/"},
		{"=1+1", "'=1+1"},
		{"+cmd", "'+cmd"},
		{"-2", "'-2"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\t=1", "'\t=1"},
		{"\r=1", "'\r=1"},
		{"\x00x", "'\x00x"},
		{"a=1", "a=1"},
		{"'quoted", "'quoted"},
		{" =1", " =1"},
	} {
		if got := repair.CSVCell(tt.in); got != tt.want {
			t.Errorf("CSVCell(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestWriteCSV(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, repair.WriteCSV(&buf, sampleResults()))
	golden(t, "results.csv", buf.Bytes())
	rows, err := csv.NewReader(bytes.NewReader(buf.Bytes())).ReadAll()
	require.NoError(t, err, "the output is valid CSV")
	require.Equal(t, repair.CSVHeader, rows[0])
	require.Len(t, rows, 5)
	for _, row := range rows {
		for _, cell := range row {
			if cell != "" && strings.IndexByte("=+-@\t\r", cell[0]) >= 0 {
				t.Errorf("cell %q starts a formula", cell)
			}
		}
	}
	require.Equal(t, "'=HYPERLINK(\"http://evil.example/\",\"click\")\ndocs/b.md", rows[2][4], "lists are joined with newlines")
}

func TestWriteMarkdown(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, repair.WriteMarkdown(&buf, append(sampleResults(), repair.Result{Dead: "https://x.example/", Verdict: "odd"})))
	golden(t, "results.md", buf.Bytes())
	for i, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		// Every table row has as many unescaped pipes as its header.
		if n := strings.Count(line, "|") - strings.Count(line, `\|`); n != 3 && n != 8 {
			t.Errorf("line %d has %d cell separators: %q", i+1, n, line)
		}
	}
}

func TestWrite(t *testing.T) {
	for _, o := range repair.Outputs() {
		var buf bytes.Buffer
		require.NoError(t, repair.Write(&buf, sampleResults(), o, "old.example"), o)
		require.NotEmpty(t, buf.String(), o)
	}
	require.ErrorIs(t, repair.Write(&bytes.Buffer{}, nil, "yaml", ""), repair.ErrOutput)
	require.ErrorIs(t, repair.Write(&bytes.Buffer{}, nil, repair.OutputNginx, ""), repair.ErrSite)
}
