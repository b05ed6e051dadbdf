package corpus_test

import (
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/linkrot/relink/provider/corpus"
)

// ExampleParseManifest reads a corpus manifest in the benchmark's format.
func ExampleParseManifest() {
	m, err := corpus.ParseManifest(strings.NewReader(`{"name": "tiny", "version": 1, "sites": [
		{"name": "click", "package": "python-click-doc",
		 "roots": [{"dir": "/usr/share/doc/python-click-doc/html",
		            "base": "https://click.palletsprojects.com/en/8.1.x/", "style": "dir"}],
		 "aliases": ["https://click.palletsprojects.com/en/latest/"],
		 "exclude": "(^|/)_static/"}]}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Name, len(m.Sites), m.Sites[0].Roots[0].Style)

	_, err = corpus.ParseManifest(strings.NewReader(`{"name": "bad", "version": 1, "sites": [{"name": "x", "roots": [{"dir": "/d", "base": "docs/"}]}]}`))
	fmt.Println(err)
	// Output:
	// tiny 1 dir
	// corpus: invalid manifest: site 0 ("x") root 0 base: "docs/" is not an absolute http(s) URL
}

// ExampleStats_String prints the summary line of an ingest, as relink
// corpus does when it finishes.
func ExampleStats_String() {
	st := corpus.Stats{
		Pages: 4512, Redirects: 6, Links: 812345, NavLinks: 512345,
		Skipped:  map[string]int{corpus.ReasonBinary: 3, corpus.ReasonUnreadable: 1},
		Duration: 41200 * time.Millisecond,
	}
	fmt.Println(st)
	// Output:
	// 4512 pages, 6 redirects, 812345 links (512345 navigation, 0 image-map), skipped: 3 binary, 1 unreadable in 41.2s
}

// ExampleLinkStats_String prints the summary line of a link ingest from WAT
// files, with a WAT file read again because it changed.
func ExampleLinkStats_String() {
	st := corpus.LinkStats{
		Sources: 13402, Links: 951233, Records: 40213, Changed: 1,
		Skipped:      map[string]int{corpus.ReasonDuplicate: 3, corpus.ReasonNoLinks: 12},
		DroppedLinks: map[string]int{corpus.DropSelfLink: 88},
		Duration:     2 * time.Second,
	}
	fmt.Println(st)
	// Output:
	// 13402 link sources, 951233 link records from 40213 WAT records, skipped: 3 duplicate, 12 no-links; links dropped: 88 self-link, 1 changed file read again in 2.0s
}
