package backlink_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/linkrot/relink/backlink"
)

// links answers from a table of URI → backlink URIs, and counts questions.
type links struct {
	m     map[string][]string
	asked []string
}

func (l *links) Backlinks(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
	l.asked = append(l.asked, uri)
	var out []backlink.Backlink
	for i, u := range l.m[uri] {
		if i < limit {
			out = append(out, backlink.Backlink{URI: u, Rank: i + 1, Level: 1})
		}
	}
	return out, nil
}

func TestBothSchemes(t *testing.T) {
	p := &links{m: map[string][]string{
		"https://example.org/a": {"https://x.example/1", "https://y.example/2"},
		"http://example.org/a":  {"https://y.example/2", "http://z.example/3"},
	}}
	tests := []struct {
		name, uri string
		limit     int
		want      []string
		asked     []string
	}{
		{"both, without repeats", "https://example.org/a", 10, []string{"https://x.example/1", "https://y.example/2", "http://z.example/3"}, []string{"https://example.org/a", "http://example.org/a"}},
		{"the first fills the limit", "https://example.org/a", 2, []string{"https://x.example/1", "https://y.example/2"}, []string{"https://example.org/a"}},
		{"cut to the limit", "http://example.org/a", 3, []string{"https://y.example/2", "http://z.example/3", "https://x.example/1"}, []string{"http://example.org/a", "https://example.org/a"}},
		{"not http", "ftp://example.org/a", 10, nil, []string{"ftp://example.org/a"}},
	}
	for _, tt := range tests {
		p.asked = nil
		got, err := backlink.BothSchemes(p).Backlinks(context.Background(), tt.uri, tt.limit)
		if err != nil {
			t.Fatal(err)
		}
		var uris []string
		for i, b := range got {
			uris = append(uris, b.URI)
			if b.Rank != i+1 {
				t.Errorf("%s: rank %d at position %d", tt.name, b.Rank, i+1)
			}
		}
		if diff := cmp.Diff(tt.want, uris); diff != "" {
			t.Errorf("%s: backlinks (-want +got):\n%s", tt.name, diff)
		}
		if diff := cmp.Diff(tt.asked, p.asked); diff != "" {
			t.Errorf("%s: asked (-want +got):\n%s", tt.name, diff)
		}
	}
	if !backlink.FoldsSchemes(backlink.BothSchemes(p)) || backlink.FoldsSchemes(p) {
		t.Error("FoldsSchemes: want true for BothSchemes' provider, false for the plain one")
	}
}

func ExampleBothSchemes() {
	p := &links{m: map[string][]string{
		"https://example.org/guide": {"https://blog.example/new-post"},
		"http://example.org/guide":  {"http://forum.example/2009/thread"},
	}}
	got, _ := backlink.BothSchemes(p).Backlinks(context.Background(), "https://example.org/guide", 10)
	for _, b := range got {
		fmt.Println(b.Rank, b.URI)
	}
	// Output:
	// 1 https://blog.example/new-post
	// 2 http://forum.example/2009/thread
}
