package repair_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/repair"
)

// readInputTests read the samples in testdata/input, written after each
// checker's documented output: lychee's JSON stats (lychee-bin
// formatters/stats/json.rs and its tests, issues #1191 and #1355), muffet's
// JSON results (json_page_result.go and its snapshots), linkchecker's CSV
// logger (linkcheck/logger/csvlog.py, doc/src/man/linkcheckerrc.rst).
var readInputTests = []struct {
	name   string
	file   string
	format repair.Format // the format auto must detect
	want   []repair.DeadLink
}{
	{
		name:   "urls: comments, blank lines, white space, a repeat merged",
		file:   "urls.txt",
		format: repair.FormatURLs,
		want: []repair.DeadLink{
			{URL: "https://old.example/docs/guide.html"},
			{URL: "https://old.example/docs/api.html"},
			{URL: "http://gone.example/"},
		},
	},
	{
		name:   "pairs: CRLF, sources united in order, duplicates dropped",
		file:   "pairs.tsv",
		format: repair.FormatPairs,
		want: []repair.DeadLink{
			{URL: "https://old.example/docs/guide.html", Sources: []string{"https://blog.example/post-1", "https://blog.example/post-2"}},
			{URL: "https://old.example/docs/api.html", Sources: []string{"docs/index.md"}},
		},
	},
	{
		// lychee ≤ 0.15: fail_map, status a string.
		name:   "lychee 0.15",
		file:   "lychee-0.15.json",
		format: repair.FormatLychee,
		want: []repair.DeadLink{
			{URL: "https://old.example/docs/guide.html", Sources: []string{"docs/index.md", "https://blog.example/post-1"}, Reason: "Failed: Network error: 404 Not Found"},
			{URL: "https://slow.example/", Sources: []string{"docs/index.md"}, Reason: "Timeout"},
			{URL: "mailto:nobody@gone.example", Sources: []string{"https://blog.example/post-1"}, Reason: "Failed: Unreachable mail address: nobody@gone.example"},
		},
	},
	{
		// lychee 0.16–0.17: fail_map, status {text, code} or {text,
		// details}; excluded_map is not a failure.
		name:   "lychee 0.16",
		file:   "lychee-0.16.json",
		format: repair.FormatLychee,
		want: []repair.DeadLink{
			{URL: "https://old.example/docs/api.html", Sources: []string{"https://blog.example/post-1"}, Status: 404, Reason: "Failed: Network error"},
			{URL: "https://expired.example/", Sources: []string{"https://blog.example/post-1"},
				Reason: "Failed: Network error: error sending request for url (https://expired.example/): certificate has expired"},
		},
	},
	{
		// lychee ≥ 0.24: error_map and timeout_map, span and duration.
		name:   "lychee 0.24",
		file:   "lychee-0.24.json",
		format: repair.FormatLychee,
		want: []repair.DeadLink{
			{URL: "https://old.example/docs/guide.html", Sources: []string{"docs/guide/install.md", "docs/index.md"}, Status: 404, Reason: "404 Not Found"},
			{URL: "https://old.example/downloads/", Sources: []string{"docs/guide/install.md"}, Status: 410, Reason: "410 Gone"},
			{URL: "https://slow.example/", Sources: []string{"docs/index.md"}, Reason: "Timeout: Request timed out"},
		},
	},
	{
		// lychee before 0.15 printed a warning after the JSON (#1355).
		name:   "lychee with a warning after the report",
		file:   "lychee-0.14-warning.json",
		format: repair.FormatLychee,
		want: []repair.DeadLink{
			{URL: "https://github.example/nobody/nothing", Sources: []string{"README.md"}, Reason: "Failed: Network error"},
		},
	},
	{
		name:   "muffet",
		file:   "muffet.json",
		format: repair.FormatMuffet,
		want: []repair.DeadLink{
			{URL: "https://old.example/docs/guide.html", Sources: []string{"https://site.example/", "https://site.example/blog/"}, Status: 404, Reason: "404"},
			{URL: "https://gone.example/page", Sources: []string{"https://site.example/"}, Reason: "dial tcp: lookup gone.example: no such host"},
			{URL: "https://old.example/downloads/", Sources: []string{"https://site.example/blog/"}, Status: 410, Reason: "410"},
		},
	},
	{
		name:   "muffet with successes listed",
		file:   "muffet-verbose.json",
		format: repair.FormatMuffet,
		want: []repair.DeadLink{
			{URL: "https://old.example/docs/api.html", Sources: []string{"https://site.example/"}, Status: 404, Reason: "404"},
		},
	},
	{
		// Comments, a quoted field over two lines, a urlname "#top" that
		// is data, valid rows with warnings skipped, url over urlname.
		name:   "linkchecker",
		file:   "linkchecker.csv",
		format: repair.FormatLinkchecker,
		want: []repair.DeadLink{
			{URL: "https://site.example/docs/guide.html", Sources: []string{"https://site.example/blog/post.html"}, Status: 404, Reason: "404 Not Found"},
			{URL: "https://old.example/docs/api.html", Sources: []string{"https://site.example/", "https://site.example/blog/post.html"}, Status: 404, Reason: "404 Not Found"},
			{URL: "https://site.example/blog/post.html#top", Sources: []string{"https://site.example/blog/post.html"}, Reason: "syntax OK"},
			{URL: "https://slow.example/", Sources: []string{"https://site.example/"}, Reason: "ConnectionError: ('Connection aborted.', TimeoutError('timed out'))"},
		},
	},
	{
		// The 2011 header (baseref, dlsize) with a configured separator.
		name:   "linkchecker, old header, comma",
		file:   "linkchecker-comma.csv",
		format: repair.FormatLinkchecker,
		want: []repair.DeadLink{
			{URL: "http://old.example/a.html", Sources: []string{"http://site.example/"}, Status: 404, Reason: "404 Not Found"},
		},
	},
}

func TestReadInput(t *testing.T) {
	for _, tt := range readInputTests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "input", tt.file))
			require.NoError(t, err)
			for _, f := range []repair.Format{tt.format, repair.FormatAuto, ""} {
				got, err := repair.ReadInput(strings.NewReader(string(data)), f)
				require.NoError(t, err, "format %q", f)
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("ReadInput(%s, %q) (-want +got):\n%s", tt.file, f, diff)
				}
			}
		})
	}
}

func TestReadInputBOM(t *testing.T) {
	got, err := repair.ReadInput(strings.NewReader("\uFEFFhttps://old.example/a\n"), repair.FormatAuto)
	require.NoError(t, err)
	require.Equal(t, []repair.DeadLink{{URL: "https://old.example/a"}}, got)
}

// badInputTests are inputs that do not follow their format: each is an
// *InputError that says where.
var badInputTests = []struct {
	name       string
	format     repair.Format
	in         string
	cause      error
	line, col  int
	msgContain string
}{
	{"url without scheme", repair.FormatURLs, "https://a.example/\n  old.example/b\n", repair.ErrMalformed, 2, 3, "not an absolute URL"},
	{"url with space", repair.FormatURLs, "https://a.example/x y\n", repair.ErrMalformed, 1, 1, "white space"},
	{"pair without tab", repair.FormatPairs, "# c\nhttps://a https://b\n", repair.ErrMalformed, 2, 0, "no tab"},
	{"pair with three fields", repair.FormatPairs, "a\thttps://b\tc\n", repair.ErrMalformed, 1, 12, "more than two"},
	{"pair with relative dead", repair.FormatPairs, "src\t/b\n", repair.ErrMalformed, 1, 5, "dead URL"},
	{"pair with empty source", repair.FormatPairs, " \thttps://b\n", repair.ErrMalformed, 1, 1, "empty source"},
	{"lychee truncated", repair.FormatLychee, "{\n \"fail_map\": {\n  \"a\": [\n", repair.ErrMalformed, 4, 1, "unexpected end"},
	{"lychee syntax", repair.FormatLychee, "{\"error_map\": {\"a\": [}}", repair.ErrMalformed, 1, 22, "invalid character"},
	{"lychee not an object", repair.FormatLychee, "[1]", repair.ErrMalformed, 1, 1, "want \"{\""},
	{"lychee without maps", repair.FormatLychee, "{\"total\": 0}", repair.ErrMalformed, 1, 1, "not a lychee report"},
	{"lychee entry without url", repair.FormatLychee, "{\"error_map\": {\"a\": [\n{\"status\": {\"text\": \"x\"}}]}}", repair.ErrMalformed, 2, 1, "without a url"},
	{"lychee entry of wrong type", repair.FormatLychee, "{\"error_map\": {\"a\": [\n  \"https://x\"]}}", repair.ErrMalformed, 2, 3, "cannot unmarshal"},
	{"lychee status of wrong type", repair.FormatLychee, "{\"error_map\": {\"a\": [{\"url\": \"https://x\", \"status\": [1]}]}}", repair.ErrMalformed, 1, 22, "status"},
	{"lychee map of wrong type", repair.FormatLychee, "{\"fail_map\": []}", repair.ErrMalformed, 1, 14, "fail_map"},
	{"muffet not an array", repair.FormatMuffet, "{}", repair.ErrMalformed, 1, 1, "want \"[\""},
	{"muffet page without url", repair.FormatMuffet, "[\n {\"links\": []}]", repair.ErrMalformed, 2, 2, "page without a url"},
	{"muffet link without url", repair.FormatMuffet, "[{\"url\": \"https://p\", \"links\": [{\"error\": \"404\"}]}]", repair.ErrMalformed, 1, 2, "link without a url"},
	{"muffet text after", repair.FormatMuffet, "[]\n[]", repair.ErrMalformed, 2, 1, "after the closing"},
	{"linkchecker no header", repair.FormatLinkchecker, "# c\nhttps://a;b\n", repair.ErrMalformed, 2, 1, "no header"},
	{"linkchecker no valid column", repair.FormatLinkchecker, "urlname;parentname\na;b\n", repair.ErrMalformed, 1, 0, "no valid column"},
	{"linkchecker bad valid", repair.FormatLinkchecker, "urlname;valid\nhttps://a;maybe\n", repair.ErrMalformed, 2, 11, "not True or False"},
	{"linkchecker short record", repair.FormatLinkchecker, "urlname;parentname;valid\nhttps://a\n", repair.ErrMalformed, 2, 0, "no valid column"},
	{"linkchecker bare quote", repair.FormatLinkchecker, "urlname;valid\nhttps://a\"b;False\n", repair.ErrMalformed, 2, 10, "bare"},
	{"linkchecker empty", repair.FormatLinkchecker, "# only a comment\n", repair.ErrMalformed, 1, 0, "no header row"},
}

func TestReadInputErrors(t *testing.T) {
	for _, tt := range badInputTests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := repair.ReadInput(strings.NewReader(tt.in), tt.format)
			require.ErrorIs(t, err, tt.cause)
			var ie *repair.InputError
			require.ErrorAs(t, err, &ie)
			if ie.Line != tt.line || ie.Column != tt.col || ie.Format != tt.format {
				t.Errorf("ReadInput(%q) error at %s line %d column %d, want %s line %d column %d: %v",
					tt.in, ie.Format, ie.Line, ie.Column, tt.format, tt.line, tt.col, err)
			}
			if !strings.Contains(err.Error(), tt.msgContain) {
				t.Errorf("ReadInput(%q) = %q, want it to say %q", tt.in, err, tt.msgContain)
			}
		})
	}
}

func TestReadInputLimits(t *testing.T) {
	many := strings.Repeat("https://a.example/x\n", 3) + "https://b.example/\nhttps://c.example/\n"
	for _, tt := range []struct {
		name  string
		in    repair.Input
		text  string
		cause error
		line  int
	}{
		{"bytes", repair.Input{MaxBytes: 10}, many, repair.ErrTooLarge, 0},
		{"links", repair.Input{MaxLinks: 2}, many, repair.ErrTooMany, 5},
		{"line", repair.Input{MaxLine: 30}, "https://a.example/\nhttps://b.example/" + strings.Repeat("x", 40) + "\n", repair.ErrTooLarge, 2},
		{"lychee links", repair.Input{MaxLinks: 1}, `{"error_map": {"s": [{"url": "https://a"},` + "\n" + `{"url": "https://b"}]}}`, repair.ErrTooMany, 2},
		{"linkchecker record", repair.Input{MaxLine: 20}, "urlname;valid\nhttps://a.example/" + strings.Repeat("x", 30) + ";False\n", repair.ErrTooLarge, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.in.Read(strings.NewReader(tt.text))
			require.ErrorIs(t, err, tt.cause)
			var ie *repair.InputError
			require.ErrorAs(t, err, &ie)
			if ie.Line != tt.line {
				t.Errorf("Read error at line %d, want %d: %v", ie.Line, tt.line, err)
			}
		})
	}
	// Exactly at the limits is fine.
	got, err := repair.Input{MaxLinks: 3, MaxBytes: int64(len(many))}.Read(strings.NewReader(many))
	require.NoError(t, err)
	require.Len(t, got, 3)
}

func TestReadInputUnknownFormat(t *testing.T) {
	_, err := repair.ReadInput(strings.NewReader(""), "xml")
	require.ErrorIs(t, err, repair.ErrFormat)
	var ie *repair.InputError
	require.False(t, errors.As(err, &ie), "an unknown format is no error of the input")
}

func TestReadInputEmpty(t *testing.T) {
	for _, f := range []repair.Format{repair.FormatAuto, repair.FormatURLs, repair.FormatPairs} {
		got, err := repair.ReadInput(strings.NewReader("\n# nothing\n"), f)
		require.NoError(t, err)
		require.Empty(t, got)
	}
	for _, tt := range []struct {
		f  repair.Format
		in string
	}{
		{repair.FormatLychee, `{"fail_map": {}}`},
		{repair.FormatMuffet, `[]`},
		{repair.FormatLinkchecker, "urlname;valid\n"},
	} {
		got, err := repair.ReadInput(strings.NewReader(tt.in), tt.f)
		require.NoError(t, err, tt.f)
		require.Empty(t, got, tt.f)
	}
}
