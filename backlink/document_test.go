package backlink

import (
	"errors"
	"os"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/canon"
)

// TestDocument checks that a Document, read once, locates the links to
// every target exactly as Locate does page by page (§3.1 "Backlink
// validation"), and gives the same words and outlinks.
func TestDocument(t *testing.T) {
	type page struct {
		name, uri string
		body      []byte
		targets   []string
	}
	sphinx, err := os.ReadFile("testdata/sphinx.html")
	if err != nil {
		t.Fatal(err)
	}
	pages := []page{
		{"sphinx fixture", "http://www.example.edu/quill/guide/linkrot.html", sphinx, []string{
			"http://www.example.edu/quill/guide/archives.html", "http://www.example.edu/quill/guide/linkrot.html",
			"http://www.example.edu/quill/index.html", "https://www.sphinx-doc.org/", "http://nowhere.example/",
		}},
		{"prefilter page", testPage, prefilterPage("/a/", prefilterHrefs), prefilterTargets},
	}
	for _, p := range benchPages {
		pages = append(pages, page{p.name, p.uri, p.body, []string{p.target, p.uri}})
	}
	for _, p := range pages {
		d, err := Parse(p.body, p.uri)
		if err != nil {
			t.Fatalf("%s: Parse error: %v", p.name, err)
		}
		for _, target := range p.targets {
			want, wantErr := Locate(p.body, p.uri, target)
			got, err := d.Locate(target)
			if !errors.Is(err, wantErr) {
				t.Fatalf("%s: Document.Locate(%q) error = %v, want %v", p.name, target, err, wantErr)
			}
			if err != nil {
				continue
			}
			if diff := cmp.Diff(want.Links(), got.Links()); diff != "" {
				t.Errorf("%s: Document.Locate(%q).Links() (-Locate +Document):\n%s", p.name, target, diff)
			}
			for _, r := range []Radius{Anchor, 5, Page} {
				if diff := cmp.Diff(want.Words(r, false), got.Words(r, false)); diff != "" {
					t.Errorf("%s: Document.Locate(%q).Words(%d) (-Locate +Document):\n%s", p.name, target, r, diff)
				}
			}
		}
		words, err := Words(p.body, "")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(words, d.Words()); diff != "" {
			t.Errorf("%s: Document.Words (-Words +Document):\n%s", p.name, diff)
		}
	}
}

// TestDocumentErrors covers bad URIs.
func TestDocumentErrors(t *testing.T) {
	if _, err := Parse([]byte("<a href=x>x</a>"), "x.html"); !errors.Is(err, ErrBadURI) {
		t.Errorf("Parse with a relative page URI: error = %v, want %v", err, ErrBadURI)
	}
	d, err := Parse([]byte("<a href=x>x</a>"), testPage)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Locate("x"); !errors.Is(err, ErrBadURI) || !errors.Is(err, canon.ErrNotAbsolute) {
		t.Errorf("Document.Locate(%q) error = %v, want %v and %v", "x", err, ErrBadURI, canon.ErrNotAbsolute)
	}
}

// TestDocumentConcurrent locates targets from many goroutines at once; run
// with -race.
func TestDocumentConcurrent(t *testing.T) {
	p := benchPages[1]
	d, err := Parse(p.body, p.uri)
	if err != nil {
		t.Fatal(err)
	}
	want, err := d.Locate(p.target)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			got, err := d.Locate(p.target)
			if err != nil {
				t.Error(err)
				return
			}
			if diff := cmp.Diff(want.Words(10, false), got.Words(10, false)); diff != "" {
				t.Errorf("concurrent Document.Locate (-want +got):\n%s", diff)
			}
		})
	}
	wg.Wait()
}
