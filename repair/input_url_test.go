package repair_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/repair"
)

// urlInputs returns an input of each format that names the dead URLs
// long and short, in that order, both linked from https://site.example/.
func urlInputs(long, short string) map[repair.Format]string {
	q := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }
	return map[repair.Format]string{
		repair.FormatURLs:  long + "\n" + short + "\n",
		repair.FormatPairs: "https://site.example/\t" + long + "\nhttps://site.example/\t" + short + "\n",
		repair.FormatLychee: `{"fail_map": {"https://site.example/": [{"url": ` + q(long) + `, "status": "404"}, {"url": ` +
			q(short) + `, "status": "404"}]}}`,
		repair.FormatMuffet: `[{"url": "https://site.example/", "links": [{"url": ` + q(long) + `, "error": "404"}, {"url": ` +
			q(short) + `, "error": "404"}]}]`,
		repair.FormatLinkchecker: "urlname;parentname;result;valid\n" + long + ";https://site.example/;404;False\n" +
			short + ";https://site.example/;404;False\n",
	}
}

// TestReadInputLongURL reads a URL over repair.MaxURL in every format: it
// is no error of the input but a link whose Err says why it cannot be
// looked for, its URL shortened; one at the limit is read as it is
// (issue 23, item 12: a 50 MB URL in a lychee report took 804 MB).
func TestReadInputLongURL(t *testing.T) {
	base := "https://old.example/"
	over := base + strings.Repeat("x", repair.MaxURL+1-len(base))
	at := base + strings.Repeat("y", repair.MaxURL-len(base))
	for format, in := range urlInputs(over, at) {
		t.Run(string(format), func(t *testing.T) {
			links, err := repair.Input{Format: format, MaxLine: 4 * repair.MaxURL}.Read(strings.NewReader(in))
			require.NoError(t, err)
			require.Len(t, links, 2)
			require.ErrorIs(t, links[0].Err(), repair.ErrURLTooLong)
			if len(links[0].URL) > 2048 || !strings.HasPrefix(links[0].URL, base+"xxx") {
				t.Errorf("long URL kept as %d bytes %.40q…, want its start", len(links[0].URL), links[0].URL)
			}
			require.NoError(t, links[1].Err())
			require.Equal(t, at, links[1].URL)
		})
	}
}

// TestReadInputInvalidUTF8 reads a dead URL with bytes that are not UTF-8
// in every format: they are percent-encoded (the results and the journal
// hold the same URL, so a rerun resumes it), and UTF-8 is kept as it is
// (issue 23, item 13: U+FFFD in results, and no resume).
func TestReadInputInvalidUTF8(t *testing.T) {
	bad, want := "https://old.example/caf\xe9/\xff\xfe?q=\xc3", "https://old.example/caf%E9/%FF%FE?q=%C3"
	good := "https://old.example/café"
	for format, in := range urlInputs(bad, good) {
		t.Run(string(format), func(t *testing.T) {
			links, err := repair.ReadInput(strings.NewReader(in), format)
			require.NoError(t, err)
			require.Len(t, links, 2)
			if links[0].URL != want || links[1].URL != good {
				t.Errorf("URLs %q, %q; want %q, %q", links[0].URL, links[1].URL, want, good)
			}
			for _, l := range links {
				require.True(t, utf8.ValidString(l.URL), l.URL)
			}
		})
	}
}
