package repair_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/repair"
)

// redirectResults exercise what each map can and cannot hold.
func redirectResults() []repair.Result {
	moved := func(dead, uri string) repair.Result {
		return repair.Result{Dead: dead, Verdict: repair.Moved, URI: uri, Confidence: 0.95}
	}
	return []repair.Result{
		moved("https://old.example/docs/a.html", "https://old.example/docs/a/"),              // same site: a path
		moved("http://old.example/b", "https://new.example/b?lang=en#top"),                   // another site: whole
		moved("https://old.example/c%20d/e.html", "https://old.example/c%20d/"),              // a space once decoded
		moved("https://old.example/q?id=5", "https://old.example/q/5"),                       // a query
		moved("https://old.example/Docs/A.html", "https://old.example/docs/a/"),              // nginx ignores case
		moved("https://other.example/x", "https://old.example/x"),                            // not on the site
		{Dead: "https://old.example/g", Verdict: repair.Gone},                                // not moved
		moved("https://old.example/x", "http://old.example/x"),                               // only the scheme
		moved("https://old.example/price/$5", "https://old.example/prices?max=$5"),           // nginx variables
		moved("https://old.example/news/:slug", "https://old.example/blog/slug"),             // a _redirects placeholder
		moved("https://old.example/a/./b/../c//d", "https://new.example/"),                   // $uri's normalization
		moved("https://old.example/say%22hi%5C", "https://old.example/said"),                 // quote and backslash
		moved("https://old.example/ctl%0Aline", "https://old.example/line"),                  // a control character
		moved("https://old.example:8080/p", "https://old.example/p"),                         // another port
		moved("https://old.example/rel", "/relative"),                                        // not absolute
		moved("https://old.example/sp", "https://new.example/a b"),                           // a space to encode
		moved("https://old.example/docs/a.html#frag", "https://old.example/elsewhere"),       // the same key again
		moved("HTTPS://OLD.EXAMPLE:443/star*", "https://old.example/star"),                   // a _redirects splat
		moved("https://old.example/long/"+strings.Repeat("x", 1100), "https://old.example/"), // over the line limits
	}
}

func TestRedirects(t *testing.T) {
	for _, tt := range []struct {
		format repair.Output
		file   string
	}{
		{repair.OutputNginx, "redirects.nginx"},
		{repair.OutputApache, "redirects.apache"},
		{repair.OutputNetlify, "redirects.netlify"},
	} {
		t.Run(string(tt.format), func(t *testing.T) {
			var buf bytes.Buffer
			skipped, err := repair.Redirects{Site: "old.example", Format: tt.format}.Write(&buf, redirectResults())
			require.NoError(t, err)
			golden(t, tt.file, buf.Bytes())
			// Every skip is in the output as a comment.
			require.Equal(t, len(skipped), strings.Count(buf.String(), "\n# skipped "))
		})
	}
}

func TestRedirectsSkipped(t *testing.T) {
	skipped, err := repair.Redirects{Site: "old.example", Format: repair.OutputNginx}.Write(&bytes.Buffer{}, redirectResults())
	require.NoError(t, err)
	var got []string
	for _, s := range skipped {
		got = append(got, s.Dead)
	}
	want := []string{
		"https://old.example/q?id=5",
		"https://old.example/Docs/A.html",
		"https://old.example/x",
		"https://old.example/ctl%0Aline",
		"https://old.example/rel",
		"https://old.example/docs/a.html#frag",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("nginx skipped (-want +got):\n%s", diff)
	}
}

func TestRedirectsSite(t *testing.T) {
	results := redirectResults()
	for _, tt := range []struct {
		site string
		want []string // the keys written
	}{
		{"https://old.example/docs/", []string{`"/docs/a.html" "/docs/a/";`}},
		{"https://old.example/docs", []string{`"/docs/a.html" "/docs/a/";`}},
		{"old.example:8080", []string{`"/p" "https://old.example/p";`}},
		{"https://old.example:8080", []string{`"/p" "https://old.example/p";`}},
		{"OTHER.example", []string{`"/x" "https://old.example/x";`}},
	} {
		t.Run(tt.site, func(t *testing.T) {
			var buf bytes.Buffer
			_, err := repair.Redirects{Site: tt.site, Format: repair.OutputNginx}.Write(&buf, results)
			require.NoError(t, err)
			var got []string
			for _, l := range strings.Split(buf.String(), "\n") {
				if l != "" && l[0] != '#' {
					got = append(got, l)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("site %q (-want +got):\n%s", tt.site, diff)
			}
		})
	}
	for _, site := range []string{"", "  ", "http://", "https://[::1/"} {
		_, err := repair.Redirects{Site: site, Format: repair.OutputNginx}.Write(&bytes.Buffer{}, results)
		require.ErrorIs(t, err, repair.ErrSite, "site %q", site)
	}
	_, err := repair.Redirects{Site: "old.example", Format: repair.OutputCSV}.Write(&bytes.Buffer{}, results)
	require.ErrorIs(t, err, repair.ErrOutput)
}

// TestRedirectsOnlyWebURIs: a new URI that is not http(s), or that holds
// a password, is skipped, and the comment that says so never holds the
// password (issue 23, items 3 and 14).
func TestRedirectsOnlyWebURIs(t *testing.T) {
	for _, uri := range []string{"https://bob:secret@new.example/a/", "javascript://new.example/%0aalert(1)", "ftp://new.example/a"} {
		for _, format := range []repair.Output{repair.OutputNginx, repair.OutputApache, repair.OutputNetlify} {
			var buf bytes.Buffer
			skipped, err := repair.Redirects{Site: "old.example", Format: format}.Write(&buf, []repair.Result{
				{Dead: "https://old.example/a.html", Verdict: repair.Moved, URI: uri, Confidence: 1},
			})
			require.NoError(t, err)
			require.Len(t, skipped, 1, "%s %s", format, uri)
			require.Contains(t, skipped[0].Reason, "; not written")
			require.NotContains(t, buf.String(), "secret", "%s", format)
			for _, line := range strings.Split(buf.String(), "\n") {
				if !strings.HasPrefix(line, "#") {
					require.NotContains(t, line, "new.example", "%s: a map line", format)
				}
			}
		}
	}
}
