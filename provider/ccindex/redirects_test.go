package ccindex_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/provider/ccindex"
)

func TestRedirects(t *testing.T) {
	f := newFake(t,
		record{url: page, at: day(2026, 9, 8), status: 200, mime: "text/html", body: "<title>Old page</title>"},
		record{url: page, at: day(2026, 9, 14), status: 301, mime: "text/html", redirect: "/new/page.html"},
		record{url: page, at: day(2026, 9, 12), status: 302, mime: "text/html", redirect: "https://login.example.com/?next=x#top"},
		record{url: page, at: day(2026, 9, 13), status: 301, mime: "text/html", redirect: "javascript:alert(1)"},
	)
	c := f.client()
	rs, err := c.Redirects(context.Background(), page)
	require.NoError(t, err)
	var got []string
	for _, r := range rs {
		got = append(got, r.Time.Format("2006-01-02")+" "+itoa(int64(r.Status))+" "+r.Redirect)
	}
	assert.Equal(t, []string{
		"2026-09-12 302 https://login.example.com/?next=x",
		"2026-09-14 301 https://example.com/new/page.html",
	}, got)
	// The newest crawl holds nothing and is asked; the middle one holds
	// the captures; the oldest is not asked.
	seen := f.seen()
	assert.Equal(t, []string{"/collinfo.json", "/" + newest + "-index?output=json&url=" + queryEscape(page),
		"/" + middle + "-index?output=json&url=" + queryEscape(page)}, seen)

	none, err := c.Redirects(context.Background(), "https://example.com/never")
	require.NoError(t, err)
	assert.Empty(t, none)
	_, err = c.Redirects(context.Background(), "ftp://example.com/x")
	require.ErrorIs(t, err, ccindex.ErrBadURI)
}
