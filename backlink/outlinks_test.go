package backlink

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/canon"
)

// TestOutlinks checks the link list a store builds its link graph from:
// every <a href> and <area href> to an http(s) URI, in page order.
func TestOutlinks(t *testing.T) {
	page := `<html><head><base href="http://example.org/docs/"><link rel="stylesheet" href="style.css"></head><body>
<nav><a href="index.html" rel="home">Home</a></nav>
<p>Read <a href="guide/Intro.html#start">the intro</a> or <a href="HTTP://Other.Example.NET:80/">another site</a>.</p>
<p><a href="mailto:me@example.org">mail</a> <a href="javascript:void(0)">js</a> <a href="http://[::1">broken</a>
<a href="ftp://example.org/file">ftp</a> <a href="data:text/plain,x">data</a> <a>no href</a></p>
<img usemap="#m" alt="map"><map name="m"><area href="/maps/north.html" alt="North"></map>
<script>document.write('<a href="hidden.html">hidden</a>')</script>
<p><a href="https://example.org/docs/index.html">Home again</a> <a href="x.html"><img src="x.png"></a> end</p>
</body></html>`
	got, err := Outlinks([]byte(page), "http://example.org/other/page.html")
	if err != nil {
		t.Fatalf("Outlinks error: %v", err)
	}
	want := []Link{
		{URI: "http://example.org/docs/index.html", Anchor: "Home", Nav: true, Rel: "home", Start: 0, End: 1},
		{URI: "http://example.org/docs/guide/Intro.html", Anchor: "the intro", Fragment: "start", Start: 2, End: 4},
		{URI: "http://other.example.net", Anchor: "another site", Start: 5, End: 7},
		{URI: "http://example.org/maps/north.html", Area: true, Start: 15, End: 15},
		{URI: "https://example.org/docs/index.html", Anchor: "Home again", Start: 15, End: 17},
		{URI: "http://example.org/docs/x.html", Start: 17, End: 17},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Outlinks (-want +got):\n%s", diff)
	}
	words, err := Words([]byte(page), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range got {
		if a := strings.Join(words[l.Start:l.End], " "); a != l.Anchor {
			t.Errorf("words[%d:%d] = %q, want anchor %q", l.Start, l.End, a, l.Anchor)
		}
	}
}

// TestOutlinksEdges covers pages without links and bad page URIs.
func TestOutlinksEdges(t *testing.T) {
	tests := []struct {
		name, html, pageURI string
		want                []Link
		wantErr             error
	}{
		{"no links", "<p>just text</p>", "http://example.org/", []Link{}, nil},
		{"empty page", "", "http://example.org/", []Link{}, nil},
		{"binary", "\xff\x00<a\x80>", "http://example.org/", []Link{}, nil},
		{"bad page URI", `<a href="x.html">x</a>`, "x.html", nil, ErrBadURI},
		{"page URI without host", `<a href="x.html">x</a>`, "http:///x", nil, canon.ErrNotAbsolute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Outlinks([]byte(tt.html), tt.pageURI)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Outlinks(%q, %q) error = %v, want %v", tt.html, tt.pageURI, err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Outlinks(%q, %q) (-want +got):\n%s", tt.html, tt.pageURI, diff)
			}
		})
	}
}
